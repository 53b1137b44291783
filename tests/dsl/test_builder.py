"""Every Tree pyab makes comes out of pyab/tree/builder.py: the readers
call build(), build_plain() or build_preorder(), never Tree(...) itself,
and build_preorder() refuses what build() refuses."""

from __future__ import annotations

import ast
import math

import pytest

import pyab
from conftest import ROOT
from pyab.tree import build, build_preorder


def test_no_tree_is_made_outside_the_builder():
    makers = []
    for path in sorted((ROOT / "pyab").rglob("*.py")):
        if path.name == "builder.py" and path.parent.name == "tree":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Tree":
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert makers == []


GOOD = (("a", "b", "c"), ((1, 2), (), ()), (None, 1, 2))


@pytest.mark.parametrize("names, kids, values, side", [
    (("a", "b", "b"), GOOD[1], GOOD[2], "max"),              # a name twice
    (GOOD[0], GOOD[1], (None, 1, None), "max"),              # a leaf without a value
    (GOOD[0], GOOD[1], (None, 1, math.nan), "max"),          # not a number SWI-Prolog compares
    (GOOD[0], GOOD[1], (None, 1, True), "max"),              # a bool is no value
    (GOOD[0], GOOD[1], (None, 2**53 + 1, 0.5), "max"),       # an int a float cannot hold, beside a float
    (("a", "b\0", "c"), GOOD[1], GOOD[2], "max"),            # NUL
    (("a", "b\ud800", "c"), GOOD[1], GOOD[2], "max"),        # a lone surrogate
    (GOOD[0], GOOD[1], GOOD[2], "maximum"),                  # no such side
    (GOOD[0], GOOD[1], GOOD[2][:2], "max"),                  # arrays of different lengths
])
def test_preorder_mode_refuses_what_build_refuses(names, kids, values, side):
    assert build_preorder(names, kids, values, side) is None
    edges = [(names[i], (1, 1), [(names[k], (1, 1)) for k in ks]) for i, ks in enumerate(kids) if ks]
    vals = [(names[i], v, (1, 1)) for i, v in enumerate(values) if v is not None]
    with pytest.raises((pyab.TreeError, IndexError)):
        build(edges, vals, side, [(n, (1, 1)) for n in names])


def test_preorder_mode_builds_what_build_builds():
    names, kids, values = GOOD
    t = build_preorder(names, kids, values, "min", marks=[(1, "min")])
    want = build([("a", (1, 1), [("b", (1, 1)), ("c", (1, 1))])], [("b", 1, (1, 1)), ("c", 2, (1, 1))],
                 "min", marks=[("b", "min", (1, 1))])
    assert t == want and t.sides == want.sides and t.depth == (0, 1, 1)
