"""The hand-written stubs of the native module match what it exports."""

from __future__ import annotations

import ast
import inspect
from importlib import resources

import schedlab._core as core


def stub_names() -> set[str]:
    text = (resources.files("schedlab") / "_core.pyi").read_text()
    tree = ast.parse(text)
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def test_every_native_function_has_a_stub_and_vice_versa():
    exported = {n for n, v in vars(core).items() if not n.startswith("__") and (callable(v) or inspect.isclass(v))}
    stubs = stub_names()
    assert exported - stubs == set(), "native functions without a stub in _core.pyi"
    assert stubs - exported == set(), "stubs for functions the native module does not export"


def test_stub_parameter_names_match():
    tree = ast.parse((resources.files("schedlab") / "_core.pyi").read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            sig = getattr(core, node.name).__text_signature__
            if sig is None:
                continue
            native = [p.split("=")[0].strip() for p in sig.strip("()").split(",") if p.strip() and p.strip() not in ("/", "*")]
            native = [p.lstrip("*") for p in native if p not in ("$module",)]
            stub = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
            assert native == stub, f"{node.name}: native {native} vs stub {stub}"
