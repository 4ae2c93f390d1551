"""The native module's bindings, listed with their argument kinds (DEVELOPING.md, "Data
flow and decisions"): no binding takes more than five positional parameters (the rest
are keyword-only, so two adjacent flags cannot be swapped unseen), and no value the
core made comes back to it as JSON text or as a dict copy of itself.

``python -m pytest tests/test_bindings.py -s`` prints the table.
"""

from __future__ import annotations

import ast
import inspect
from importlib import resources
from typing import Any

import schedlab._core as core

#: At most this many positional parameters per binding.
MAX_POSITIONAL = 5

#: Parameters that take a mapping on purpose: a user's own values (a document that was
#: written to a file, a table typed by hand, overrides), never a core value sent back.
USER_MAPPINGS = {
    ("BatchResult", "__new__", "data"),  # a batch result document read from a JSON file
    ("Comparison", "from_dict", "d"),  # a comparison document (JSON's shape)
    ("Comparison", "__new__", "meta"),  # a user's table metadata
    ("LiveCheck", "__new__", "source"),  # a check's document, or a check to copy
    ("LiveCheck", "__new__", "sections"),  # the sections a copy replaces
    ("live_default_cpu", None, "probe"),  # per-CPU probe counts, which a user may also type
    ("report_html", None, "page"),  # the page's blocks gathered by Python
    ("report_text", None, "page"),
    ("PeltInit", "__new__", "state"),  # a task's initial PELT state typed by hand (docs/pelt.md)
    ("PeltOptions", "__new__", "init"),  # the same, given with the options
    # a user's idle-state table: a DataFrame they edited or columns typed by hand (a
    # path or a preset name otherwise); the core's own tables are passed as the object
    ("IdleStateTable", "__new__", "source"),
}

#: Parameters that take JSON text on purpose: the file formats.
JSON_TEXT = {
    ("Comparison", "from_json", "text"),
    ("Scan", "_from_state", "json"),  # unpickling: a scan's pickle is its JSON document (what a Dask worker sends)
}


def _bindings() -> list[tuple[str, str | None, Any]]:
    """(owner, method or None, callable) of every native function and class method."""
    out: list[tuple[str, str | None, Any]] = []
    for name, v in sorted(vars(core).items()):
        if name.startswith("__"):
            continue
        if inspect.isclass(v) and v.__module__ == "schedlab._core":
            for m, f in sorted(vars(v).items()):
                if (m == "__new__" or not m.startswith("__")) and callable(f):
                    out.append((name, m, getattr(v, m)))
        elif callable(v) and not inspect.isclass(v):
            out.append((name, None, v))
    return out


def _kinds(f: Any) -> tuple[int, int] | None:
    """(positional, keyword-only) parameter counts from the native text signature."""
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return None
    params = [p for p in sig.parameters.values() if p.name not in ("self", "cls", "$self", "$cls", "$type")]
    pos = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    kw = sum(p.kind == p.KEYWORD_ONLY for p in params)
    return pos, kw


def _stub_params() -> dict[tuple[str, str | None], list[tuple[str, str]]]:
    """(owner, method) → [(parameter, annotation text)] from _core.pyi."""
    tree = ast.parse((resources.files("schedlab") / "_core.pyi").read_text())
    out: dict[tuple[str, str | None], list[tuple[str, str]]] = {}

    def params(fn: ast.FunctionDef) -> list[tuple[str, str]]:
        args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
        extra = [a for a in (fn.args.vararg, fn.args.kwarg) if a is not None]
        return [(a.arg, ast.unparse(a.annotation) if a.annotation else "") for a in args + extra
                if a.arg not in ("self", "cls")]

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[(node.name, None)] = params(node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    out[(node.name, item.name)] = params(item)
    return out


def _kind(annotation: str) -> str:
    """The kind of an argument, from its stub annotation."""
    a = annotation.replace(" ", "")
    if "NDArray" in a or a.startswith("_F64") or a.startswith("_U64") or a.startswith("_I64"):
        return "array"
    if "PathLike" in a:
        return "path"
    if "Mapping[" in a or a.startswith("dict["):
        return "mapping"
    if a in ("str",):
        return "text"
    if a[:1].isupper() and not a.startswith("Sequence") and not a.startswith("Mapping"):
        return "core object"
    return "value"


def test_no_binding_takes_more_than_five_positional_parameters(capsys: Any) -> None:
    rows = []
    over = []
    for owner, method, f in _bindings():
        k = _kinds(f)
        if k is None:
            continue
        name = owner if method is None else f"{owner}.{method}"
        rows.append(f"{name:40} positional {k[0]}  keyword-only {k[1]}")
        if k[0] > MAX_POSITIONAL:
            over.append(f"{name}: {k[0]} positional parameters")
    with capsys.disabled():
        print("\n" + "\n".join(rows))
    assert len(rows) > 100, "the bindings were not listed"
    assert over == [], "\n".join(over)


def test_no_core_value_comes_back_as_json_text_or_a_dict() -> None:
    bad = []
    table = []
    for (owner, method), params in sorted(_stub_params().items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        for p, ann in params:
            kind = _kind(ann)
            table.append(f"{owner}{'.' + method if method else ''}({p}): {kind}")
            key = (owner, method, p)
            if kind == "mapping" and key not in USER_MAPPINGS:
                bad.append(f"{owner}.{method or ''}({p}: {ann}): a mapping crosses back into the core")
            if "json" in p.lower() and key not in JSON_TEXT:
                bad.append(f"{owner}.{method or ''}({p}): JSON text crosses back into the core")
    assert len(table) > 300
    assert bad == [], "\n".join(bad)
