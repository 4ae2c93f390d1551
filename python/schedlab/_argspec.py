"""A recorded command-line spec: the argparse calls of the command modules, kept as data.

``schedlab`` reads its usual command lines without importing argparse (argparse with
gettext and locale is about 6 ms of every run): each command module's ``register``
records its flags on a :class:`ParserSpec`, :mod:`schedlab._fastparse` parses the common
forms from the record, and :meth:`ParserSpec.build` replays the record on a real
``argparse.ArgumentParser`` for help, usage errors and anything unusual, so that those
stay argparse's own. The record is the one description of the command line.

The recorders take the part of the argparse API the commands use: ``add_argument``,
``add_mutually_exclusive_group``, ``add_argument_group``, ``add_subparsers`` and
``add_parser``, ``set_defaults`` and ``print_help``. ``formatter_class`` is given by name
(``"RawDescriptionHelpFormatter"``) and looked up in argparse when the parser is built.

>>> spec = ParserSpec(prog="demo")
>>> spec.add_argument("--hz", type=int, default=250)
>>> spec.build().parse_args(["--hz", "1000"])
Namespace(hz=1000)
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (fast CLI start)
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Callable
    from types import SimpleNamespace
    from typing import IO, Any, TypeAlias

    Namespace: TypeAlias = argparse.Namespace | SimpleNamespace
    """What a command's ``func`` is given: argparse's namespace, or the fast parser's."""


class Call:
    """One recorded call ``target.method(*args, **kwargs)``; ``made`` is the recorder that
    stands for what the call returns (a group or the subparsers), if it is used."""

    __slots__ = ("target", "method", "args", "kwargs", "made")

    def __init__(self, target: ParserSpec | GroupSpec, method: str, args: tuple, kwargs: dict,
                 made: GroupSpec | SubparsersSpec | None = None) -> None:
        self.target, self.method, self.args, self.kwargs, self.made = target, method, args, kwargs, made


class ParserSpec:
    """A recorded ``argparse.ArgumentParser``: its keyword arguments and the calls made on it
    and on its groups, in order (``calls``).

    ``build_class`` (root only) returns the ArgumentParser class :meth:`build` instantiates;
    it is called only then, so that argparse is imported only then.
    """

    def __init__(self, *, build_class: Callable[[], type[argparse.ArgumentParser]] | None = None,
                 **kwargs: Any) -> None:
        self.kwargs = kwargs
        self.calls: list[Call] = []
        self.parent: SubparsersSpec | None = None
        self.subparsers: SubparsersSpec | None = None
        self._build_class = build_class
        self._real: argparse.ArgumentParser | None = None

    def add_argument(self, *flags: str, **kwargs: Any) -> None:
        """Record ``ArgumentParser.add_argument`` (which returns the Action; no command uses it)."""
        self.calls.append(Call(self, "add_argument", flags, kwargs))

    def add_mutually_exclusive_group(self, **kwargs: Any) -> GroupSpec:
        """Record ``ArgumentParser.add_mutually_exclusive_group``."""
        group = GroupSpec(self, exclusive=True, kwargs=kwargs)
        self.calls.append(Call(self, "add_mutually_exclusive_group", (), kwargs, group))
        return group

    def add_argument_group(self, *args: Any, **kwargs: Any) -> GroupSpec:
        """Record ``ArgumentParser.add_argument_group`` (a heading in the help, no parsing rule)."""
        group = GroupSpec(self, exclusive=False, kwargs=kwargs)
        self.calls.append(Call(self, "add_argument_group", args, kwargs, group))
        return group

    def add_subparsers(self, **kwargs: Any) -> SubparsersSpec:
        """Record ``ArgumentParser.add_subparsers`` (one per parser, as in argparse)."""
        if self.subparsers is not None:
            raise ValueError("cannot have multiple subparser arguments")
        self.subparsers = SubparsersSpec(self, kwargs)
        self.calls.append(Call(self, "add_subparsers", (), kwargs, self.subparsers))
        return self.subparsers

    def set_defaults(self, **kwargs: Any) -> None:
        """Record ``ArgumentParser.set_defaults``."""
        self.calls.append(Call(self, "set_defaults", (), kwargs))

    def root(self) -> ParserSpec:
        """The top-level spec this one is a (sub)command of."""
        spec = self
        while spec.parent is not None:
            spec = spec.parent.parent
        return spec

    def build(self) -> argparse.ArgumentParser:
        """The real argparse parser of this spec. The whole tree is built from the root, once,
        so that a subcommand's ``prog``, usage and help are what argparse makes of them."""
        if self._real is None:
            root = self.root()
            if root._build_class is not None:
                cls = root._build_class()
            else:
                import argparse

                cls = argparse.ArgumentParser
            root._replay(cls(**_real_kwargs(root.kwargs)))
        assert self._real is not None
        return self._real

    def print_help(self, file: IO[str] | None = None) -> None:
        """Print argparse's help of this (sub)command."""
        self.build().print_help(file)

    def _replay(self, real: argparse.ArgumentParser) -> None:
        self._real = real
        made: dict[object, object] = {self: real}
        for call in self.calls:
            result = getattr(made[call.target], call.method)(*call.args, **_real_kwargs(call.kwargs))
            if call.made is not None:
                made[call.made] = result
            if isinstance(call.made, SubparsersSpec):
                call.made._replay(result)


class GroupSpec:
    """A recorded argument group (``exclusive``: a mutually exclusive group) of a ParserSpec;
    its arguments are recorded in the parser's ``calls``, in order with the others."""

    def __init__(self, parser: ParserSpec, exclusive: bool, kwargs: dict) -> None:
        self.parser = parser
        self.exclusive = exclusive
        self.kwargs = kwargs

    def add_argument(self, *flags: str, **kwargs: Any) -> None:
        """Record the group's ``add_argument``."""
        self.parser.calls.append(Call(self, "add_argument", flags, kwargs))


class SubparsersSpec:
    """A recorded ``add_subparsers`` action: the subcommands, each a ParserSpec (``parsers``
    maps every name and alias to it)."""

    def __init__(self, parent: ParserSpec, kwargs: dict) -> None:
        self.parent = parent
        self.kwargs = kwargs
        self.parsers: dict[str, ParserSpec] = {}
        self._added: list[tuple[str, dict, ParserSpec]] = []

    def add_parser(self, name: str, **kwargs: Any) -> ParserSpec:
        """Record ``add_parser``; ``kwargs`` are argparse's (help, description, formatter_class, ...)."""
        spec = ParserSpec(**kwargs)
        spec.parent = self
        self._added.append((name, kwargs, spec))
        for key in (name, *kwargs.get("aliases", ())):
            self.parsers[key] = spec
        return spec

    def _replay(self, real: argparse._SubParsersAction) -> None:
        for name, kwargs, spec in self._added:
            spec._replay(real.add_parser(name, **_real_kwargs(kwargs)))


def _real_kwargs(kwargs: dict) -> dict:
    """``kwargs`` for argparse: a formatter class given by name becomes argparse's class."""
    name = kwargs.get("formatter_class")
    if not isinstance(name, str):
        return kwargs
    import argparse

    return {**kwargs, "formatter_class": getattr(argparse, name)}
