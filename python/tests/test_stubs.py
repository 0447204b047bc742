"""The type stubs (senet/_senet.pyi) name every function, class and method of the compiled
module, and the compiled module has everything the stubs promise."""

import ast
import pathlib

import senet
from senet import _senet

STUB = pathlib.Path(senet.__file__).with_name("_senet.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, methods = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            methods[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
            }
    return top, methods


def test_stubs_match_the_module():
    top, methods = stub_names()
    public = {n for n in dir(_senet) if not n.startswith("_")}
    assert public <= top, f"missing from the stubs: {public - top}"
    for cls, names in methods.items():
        real = {n for n in dir(getattr(_senet, cls)) if not n.startswith("_")}
        stubbed = {n for n in names if not n.startswith("_")}
        assert real == stubbed, f"{cls}: stubs differ by {real ^ stubbed}"


def test_every_public_callable_has_a_docstring():
    for name in dir(_senet):
        obj = getattr(_senet, name)
        if name.startswith("_") or not callable(obj):
            continue
        assert obj.__doc__, name
        if isinstance(obj, type):
            for m in dir(obj):
                if not m.startswith("_"):
                    assert getattr(obj, m).__doc__, f"{name}.{m}"
