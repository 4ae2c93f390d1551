"""Parse the usual ``schedlab`` command lines from the recorded spec, without argparse.

:func:`parse` returns the namespace argparse would return for the command lines it takes,
and ``None`` for every other one: help (``-h``, ``--help``); whatever argparse rejects (an
unknown or abbreviated option, a missing or extra value or positional, a value of the
wrong type or not among the choices, a missing required argument, two options of one
mutually exclusive group); and forms outside its subset (``--``, a value or positional
starting with ``-``, ``-xVALUE``, ``-x=VALUE``, combined short flags, actions other than
store, store_true, store_false and append, options taking other than one value). The
caller then has the real argparse parser, built from the same spec, parse the line, so
that help, messages and exit code 2 are argparse's. tests/test_cli_fastparse.py checks on
random command lines that the two agree.

The rules are argparse's (``ArgumentParser._parse_known_args``): options and runs of
positionals alternate; each run is taken by as many of the remaining positionals as fit
their counts, each as many strings as it can; a subcommand takes the rest of the line,
which its own parser reads into a fresh namespace whose values then override the
parent's; defaults are set first (an argument's own before ``set_defaults``), and a
string default of an argument not given goes through its type.

>>> from schedlab._argspec import ParserSpec
>>> spec = ParserSpec(prog="demo")
>>> spec.add_argument("--hz", type=int, default=250)
>>> parse(spec, ["--hz=1000"])
namespace(hz=1000)
>>> parse(spec, ["--h", "1000"]) is None  # an abbreviation: argparse decides
True
"""

from __future__ import annotations

from types import SimpleNamespace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (fast CLI start)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from typing import Any

    from ._argspec import ParserSpec

_SUPPRESS = "==SUPPRESS=="  # argparse.SUPPRESS
_MANY = 1 << 62
_COUNTS = {None: (1, 1), "?": (0, 1), "*": (0, _MANY), "+": (1, _MANY)}
"""The fewest and most strings a positional takes, by nargs."""
_OWN_DEFAULTS = {"store": None, "append": None, "store_true": False, "store_false": True}
"""The default of an argument by action when neither it nor ``set_defaults`` gives one."""
_PARSER_KWARGS = {"prog", "usage", "description", "epilog", "formatter_class", "add_help",
                  "allow_abbrev", "help", "aliases"}
"""The ArgumentParser/add_parser keywords whose effect on parsing this module follows."""
_SUBPARSERS_KWARGS = {"dest", "metavar", "title", "description", "help", "prog", "required"}
"""The add_subparsers keywords whose effect on parsing this module follows."""


class _Decline(Exception):
    """The command line is not one this module is sure to read as argparse does."""


def parse(spec: ParserSpec, argv: Sequence[str]) -> SimpleNamespace | None:
    """The namespace argparse would return for ``argv``, or None where this module declines
    (see the module's documentation)."""
    try:
        return SimpleNamespace(**_parse(spec, list(argv), ()))
    except _Decline:
        return None


class _Arg:
    """One argument of a parser as argparse derives it (dest, default, required)."""

    __slots__ = ("option_strings", "dest", "action", "nargs", "type", "choices", "default", "required")

    def __init__(self, option_strings: tuple[str, ...], dest: str, action: str, nargs: Any = None,
                 type: Any = None, choices: Any = None, default: Any = None, required: bool = False) -> None:
        self.option_strings, self.dest, self.action, self.nargs = option_strings, dest, action, nargs
        self.type, self.choices, self.default, self.required = type, choices, default, required


class _Parser:
    """The parsing view of one ParserSpec: its arguments in argparse's order, options by
    string, positionals, the exclusive groups' conflicts and the parser-level defaults."""

    def __init__(self, spec: ParserSpec) -> None:
        if not _PARSER_KWARGS.issuperset(spec.kwargs):
            raise _Decline
        self.spec = spec
        self.args: list[_Arg] = []
        self.options: dict[str, _Arg] = {}
        self.positionals: list[_Arg] = []
        self.defaults: dict[str, Any] = {}
        self.subcommand: _Arg | None = None
        self.conflicts: dict[_Arg, list[_Arg]] = {}
        self.required_groups: list[list[_Arg]] = []
        if spec.kwargs.get("add_help", True):
            self._add(_Arg(("-h", "--help"), _SUPPRESS, "help", default=_SUPPRESS))
        groups: dict[object, list[_Arg]] = {}
        for call in spec.calls:
            if call.method == "add_argument":
                arg = self._argument(call.args, call.kwargs)
                if call.target is not spec and call.target.exclusive:
                    if not arg.option_strings:
                        raise _Decline
                    groups[call.target].append(arg)
            elif call.method == "add_mutually_exclusive_group":
                groups[call.made] = members = []
                if call.made.kwargs.get("required"):
                    self.required_groups.append(members)
            elif call.method == "add_subparsers":
                if not _SUBPARSERS_KWARGS.issuperset(call.kwargs):
                    raise _Decline
                self.subcommand = _Arg((), call.kwargs.get("dest", _SUPPRESS), "parsers",
                                       required=call.kwargs.get("required", False))
                self._add(self.subcommand)
            elif call.method == "set_defaults":
                self.defaults.update(call.kwargs)
                for arg in self.args:
                    if arg.dest in call.kwargs:
                        arg.default = call.kwargs[arg.dest]
            elif call.method != "add_argument_group":
                raise _Decline
        if self.subcommand is not None and len(self.positionals) > 1:
            raise _Decline
        for members in groups.values():
            for arg in members:
                self.conflicts[arg] = [other for other in members if other is not arg]

    def _argument(self, flags: tuple[str, ...], kwargs: dict[str, Any]) -> _Arg:
        action = kwargs.get("action") or "store"
        if action not in _OWN_DEFAULTS:
            raise _Decline
        nargs = kwargs.get("nargs")
        if not flags or (len(flags) == 1 and not flags[0].startswith("-")):
            dest = flags[0] if flags else kwargs["dest"]
            if action != "store" or nargs not in _COUNTS:
                raise _Decline
            required = nargs not in ("?", "*") or (nargs == "*" and "default" not in kwargs)
            flags = ()
        else:
            dest = kwargs.get("dest")
            if dest is None:
                long = [f for f in flags if len(f) > 1 and f[1] == "-"]
                dest = (long or flags)[0].lstrip("-").replace("-", "_")
            required = bool(kwargs.get("required", False))
        if "default" in kwargs:
            default = kwargs["default"]
        elif dest in self.defaults:
            default = self.defaults[dest]
        else:
            default = _OWN_DEFAULTS[action]
        if dest == _SUPPRESS or default == _SUPPRESS:
            raise _Decline
        arg = _Arg(flags, dest, action, nargs, kwargs.get("type"), kwargs.get("choices"), default, required)
        self._add(arg)
        return arg

    def _add(self, arg: _Arg) -> None:
        self.args.append(arg)
        if arg.option_strings:
            for s in arg.option_strings:
                self.options[s] = arg
        else:
            self.positionals.append(arg)

    def option(self, token: str, outer: tuple[str, ...]) -> tuple[_Arg, str | None]:
        """The option ``token`` names exactly (``--name=value``: with its value), or decline.
        ``outer`` are the option strings of the parsers above: argparse's parsers there read
        every token too, and stop with an error on one abbreviating two of their options."""
        arg = self.options.get(token)
        value = None
        if arg is None and token.startswith("--"):
            name, eq, value = token.partition("=")
            if eq:
                arg = self.options.get(name)
        if arg is None or arg.action == "help":
            raise _Decline
        key = token.partition("=")[0] if token.startswith("--") else token
        if any(s != token and (s.startswith(key) or s == token[:2]) for s in outer):
            raise _Decline
        return arg, value


def _parse(spec: ParserSpec, args: list[str], outer: tuple[str, ...]) -> dict[str, Any]:
    """argparse's ``parse_known_args`` of ``spec`` over ``args`` into a fresh namespace
    (declining wherever argparse would report extras or an error)."""
    p = _Parser(spec)
    ns: dict[str, Any] = {}
    for arg in p.args:
        if arg.dest != _SUPPRESS and arg.dest not in ns:
            ns[arg.dest] = arg.default
    for dest, value in p.defaults.items():
        ns.setdefault(dest, value)
    seen: set[_Arg] = set()
    given: set[_Arg] = set()  # argparse's seen_non_default_actions: what exclusive groups count
    positionals = list(p.positionals)
    i = 0
    while i < len(args):
        token = args[i]
        if token.startswith("-"):
            arg, value = p.option(token, outer)
            i += 1
            if arg.action in ("store", "append"):
                if arg.nargs is not None:
                    raise _Decline
                if value is None:
                    if i == len(args):
                        raise _Decline
                    value = args[i]
                    i += 1
                if value.startswith("-"):  # another option, or a value argparse treats specially ('--')
                    raise _Decline
                converted = _convert(arg, value)
            elif value is not None:  # store_true/store_false=VALUE: argparse's error
                raise _Decline
            else:
                converted = []  # argparse's values of a flag: a new list, so never the default
            _take(p, arg, converted, ns, seen, given)
        elif positionals and positionals[0] is p.subcommand:
            sub = spec.subparsers.parsers.get(token) if spec.subparsers is not None else None
            if sub is None:
                raise _Decline
            seen.add(p.subcommand)
            if p.subcommand.dest != _SUPPRESS:
                ns[p.subcommand.dest] = token
            ns.update(_parse(sub, args[i + 1:], outer + tuple(p.options)))
            positionals = []
            i = len(args)
        else:
            end = i
            while end < len(args) and not args[end].startswith("-"):
                end += 1
            counts = _match(positionals, end - i)
            if sum(counts) != end - i:  # strings left over: argparse's "unrecognized arguments"
                raise _Decline
            for arg, count in zip(positionals, counts):
                _take_positional(arg, args[i:i + count], ns, seen)
                i += count
            positionals = positionals[len(counts):]
    for arg, count in zip(positionals, _match(positionals, 0)):
        _take_positional(arg, [], ns, seen)
    for arg in p.args:
        if arg not in seen:
            if arg.required:
                raise _Decline
            if isinstance(arg.default, str) and arg.dest in ns and ns[arg.dest] is arg.default:
                ns[arg.dest] = _typed(arg, arg.default)
    for members in p.required_groups:
        if not any(arg in given for arg in members):
            raise _Decline
    return ns


def _take(p: _Parser, arg: _Arg, converted: Any, ns: dict[str, Any], seen: set[_Arg], given: set[_Arg]) -> None:
    """An option given on the command line, ``converted`` as argparse's ``_get_values`` does."""
    seen.add(arg)
    if converted is not arg.default:
        given.add(arg)
        if any(other in given for other in p.conflicts.get(arg, ())):
            raise _Decline
    if arg.action == "store":
        ns[arg.dest] = converted
    elif arg.action == "append":
        items = ns.get(arg.dest)
        if items is not None and type(items) is not list:
            raise _Decline
        ns[arg.dest] = [*(items or ()), converted]
    else:
        ns[arg.dest] = arg.action == "store_true"


def _take_positional(arg: _Arg, strings: list[str], ns: dict[str, Any], seen: set[_Arg]) -> None:
    """A positional given ``strings`` (its share of a run, possibly none)."""
    seen.add(arg)
    if arg.nargs is None or (arg.nargs == "?" and strings):
        value = _convert(arg, strings[0])
    elif strings:
        value = [_convert(arg, s) for s in strings]
    elif arg.nargs == "?":
        value = arg.default
        if isinstance(value, str):
            value = _convert(arg, value)
    else:  # nargs '*' with no strings
        if arg.choices is not None:
            raise _Decline
        value = arg.default if arg.default is not None else []
    ns[arg.dest] = value


def _match(positionals: list[_Arg], available: int) -> list[int]:
    """argparse's ``_match_arguments_partial`` on a run of ``available`` positional strings:
    the longest leading run of ``positionals`` whose fewest counts fit, each taking as many
    strings as it can while leaving the fewest the later ones need (a greedy regex match)."""
    bounds = [_COUNTS.get(arg.nargs, (1, _MANY)) for arg in positionals]
    n = len(bounds)
    while n and sum(low for low, _ in bounds[:n]) > available:
        n -= 1
    counts = []
    for k in range(n):
        count = min(bounds[k][1], available - sum(low for low, _ in bounds[k + 1:n]))
        counts.append(count)
        available -= count
    return counts


def _typed(arg: _Arg, string: str) -> Any:
    """``string`` through the argument's type, as argparse's ``_get_value``."""
    if arg.type is None:
        return string
    try:
        return arg.type(string)
    except Exception:
        raise _Decline from None


def _convert(arg: _Arg, string: str) -> Any:
    """``string`` through the argument's type and checked against its choices."""
    value = _typed(arg, string)
    try:
        allowed = arg.choices is None or value in arg.choices
    except Exception:
        raise _Decline from None
    if not allowed:
        raise _Decline
    return value
