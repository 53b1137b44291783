"""Shared by the tests of Hsu's versions: a tree strategy (values on inner
nodes too, for depth limits), a depth-limited minimax oracle, and running
one algorithm in both engines."""

from __future__ import annotations

import math

from hypothesis import strategies as st

import pyab
from pyab.engines import differences
from pyab.tree import build

HSU = ("hsu-f1", "hsu-f2", "hsu-f3")
FORMS = {name: f"{name}-negamax" for name in HSU} | {"minimax": "minimax-negamax"}
ENGINES = ("prolog", "python")


# Small integers make ties; halves (0.0 among them, whose negation is
# -0.0 in the nega-max forms) mix floats with integers.
VALUES = st.one_of(st.integers(-4, 4), st.integers(-8, 8).map(lambda x: x / 2))


@st.composite
def trees(draw, inner_values: bool = False, max_depth: int = 4, max_branching: int = 4,
          values=VALUES):
    """A tree of depth 1..max_depth with Dewey names (r, r_1, r_1_2, ...),
    ragged, small values (many ties); with ``inner_values`` every inner
    node carries a static value too."""
    depth = draw(st.integers(1, max_depth))
    edges, vals = [], []
    stack = [("r", 0)]
    while stack:
        name, d = stack.pop()
        leaf = d == depth or (d > 0 and draw(st.integers(0, 4)) == 0)
        if leaf or inner_values:
            vals.append((name, draw(values), (0, 0)))
        if leaf:
            continue
        kids = [f"{name}_{i}" for i in range(1, draw(st.integers(1, max_branching)) + 1)]
        edges.append((name, (0, 0), [(k, (0, 0)) for k in kids]))
        stack.extend((k, d + 1) for k in reversed(kids))
    return build(edges, vals, draw(st.sampled_from(["max", "min"])))


@st.composite
def windows(draw, tree):
    """alpha <= beta, each end -inf/inf or near the tree's values."""
    present = [v for v in tree.values if v is not None]
    near = st.integers(math.floor(min(present)) - 2, math.ceil(max(present)) + 2)
    a = draw(st.one_of(st.just(-math.inf), near))
    b = draw(st.one_of(st.just(math.inf), near))
    return (a, b) if a <= b else (b, a)


def oracle(tree, depth: int | None = None):
    """Plain depth-limited minimax (recursive; the trees here are small)."""
    def value(node, left):
        kids = tree.kids_of(node)
        if not kids or left == 0:
            return tree.value_of(node)
        vals = [value(k, left - 1) for k in kids]
        return max(vals) if tree.is_max(node) else min(vals)
    return value(tree.root_node, math.inf if depth is None else depth)


def both(tree, algorithm, alpha=-math.inf, beta=math.inf, depth=None):
    """The Prolog and Python results; fails the test when they differ."""
    prolog = pyab.solve(tree, "prolog", algorithm, alpha, beta, depth=depth)
    python = pyab.solve(tree, "python", algorithm, alpha, beta, depth=depth)
    diff = differences(prolog, python)
    assert not diff, f"{algorithm} in {alpha}..{beta}: " + "\n".join(diff)
    return prolog, python


def value_range(tree):
    present = [v for v in tree.values if v is not None]
    return min(present), max(present)
