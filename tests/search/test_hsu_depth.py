"""Depth limits (Hsu's F0', F1'(p, alpha, beta, depth), ...): a node at the
limit is scored by its own static value, in both engines."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, pyab_cli
from hsu_common import ENGINES, FORMS, HSU, both, oracle, trees, windows

import pyab

MINE = (*HSU, *FORMS.values(), "minimax")


@pytest.mark.parametrize("algorithm", MINE)
@given(tree=trees(inner_values=True), depth=st.integers(0, 4))
@settings(max_examples=50, deadline=None)
def test_depth_limited_value_is_depth_limited_minimax(algorithm, tree, depth):
    prolog, _ = both(tree, algorithm, depth=depth)
    assert prolog.value == oracle(tree, depth)
    deepest = max(tree.depth_of(tree.index[n]) for n in prolog.visited)
    assert deepest <= depth


@given(tree=trees(inner_values=True), depth=st.integers(1, 3), data=st.data())
@settings(max_examples=80, deadline=None)
def test_f1_clips_the_depth_limited_value(tree, depth, data):
    """Hsu's F1 properties, with F the depth-limited minimax value.  Like
    Hsu we assume p is not terminal: depth >= 1 (at depth 0 the root is
    worth its static value, whatever the window)."""
    alpha, beta = data.draw(windows(tree))
    f = oracle(tree, depth)
    for r in both(tree, "hsu-f1", alpha, beta, depth):
        assert r.value == (alpha if f <= alpha else f if f < beta else beta)


def test_example_answers_as_its_comment_says():
    tree = pyab.load(EXAMPLES / "depth-limited.tree")
    expected = {None: ("b", 3), 2: ("b", 3), 1: ("d", 6), 0: (None, 4)}
    for name in MINE:
        for depth, answer in expected.items():
            for r in both(tree, name, depth=depth):
                assert (r.best, r.value) == answer, (name, depth)
    r, _ = both(tree, "hsu-f1", depth=1)
    assert r.leaves == ("b", "c", "d") and r.visited == ("a", "b", "c", "d")


@pytest.mark.parametrize("engine", ENGINES)
def test_cli_depth(engine):
    out = pyab_cli("solve", str(EXAMPLES / "depth-limited.tree"), "--algorithm", "hsu-f1",
                   "--depth", "1", "--engine", engine, "--json")
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert (r["best"], r["value"], r["leaves"]) == ("d", 6, ["b", "c", "d"])


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_inner_value_at_the_limit_is_an_error_naming_the_node(engine):
    out = pyab_cli("solve", "-", "--algorithm", "hsu-f3", "--depth", "1", "--engine", engine,
                   stdin="a(b(e=3, f=1), c=2)\n")
    assert out.returncode == 2
    assert "b" in out.stderr and "static" in out.stderr and "Traceback" not in out.stderr
