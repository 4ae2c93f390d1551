"""Subcommands of the ``schedlab`` command, one module each.

A command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable taking the parsed arguments and returning an exit
code. Keep module-level imports light: heavy imports go inside ``func``.
"""

COMMANDS = ("stats", "benchstat", "lkp", "mmtests", "report", "pelt", "idle", "live", "batch", "series", "trace", "bisect")
