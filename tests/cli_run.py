"""The command line run in process, for tests: its exit code, standard output and
standard error, as `python -m schedlab` would give them."""

from __future__ import annotations

import contextlib
import io

from schedlab import cli


def run_cli(*argv: str) -> tuple[int, str, str]:
    """``schedlab ARGV...`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(argv))
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()
