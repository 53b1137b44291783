"""Every exception class pyab defines derives from :class:`pyab.Error`
(one ``except pyab.Error`` catches whatever pyab raises on purpose), with
its builtin base kept where callers catch that (``DSLError`` is a
``ValueError``)."""

from __future__ import annotations

import ast
import importlib

import pyab
from conftest import ROOT

# Classes that cannot derive from pyab.Error, and why.
OUTSIDE = {
    # runs as a script shipped into the sandbox, where pyab cannot be imported
    "pyab.referee.pychild.Invalid",
}
BUILTIN = {"Exception", "BaseException", "ValueError", "TypeError", "RuntimeError", "LookupError",
           "KeyError", "OSError", "ArithmeticError"}


def _exception_classes() -> list[tuple[str, str]]:
    """(module, class) for every class in pyab/ whose bases name an error."""
    found = []
    for path in sorted((ROOT / "pyab").rglob("*.py")):
        if "cs188_framework" in path.parts:  # the course's own code, shipped as it is
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                if names & BUILTIN or any(n.endswith(("Error", "Exception", "Unavailable", "Timeout"))
                                          for n in names):
                    found.append((module, node.name))
    return found


def test_every_exception_is_a_pyab_error():
    classes = _exception_classes()
    assert ("pyab.referee.protocol", "SearchBug") in classes and ("pyab.cli", "UsageError") in classes
    outside = []
    for module, name in classes:
        cls = getattr(importlib.import_module(module), name)
        if not issubclass(cls, pyab.Error):
            outside.append(f"{module}.{name}")
    assert sorted(outside) == sorted(OUTSIDE)


def test_builtin_bases_kept():
    from pyab.grade.suite import SuiteError
    for cls in (pyab.DSLError, pyab.TreeError, pyab.SearchArgumentError, SuiteError):
        assert issubclass(cls, ValueError) and issubclass(cls, pyab.Error), cls
    assert issubclass(pyab.ArgumentError, TypeError)
