"""Hypothesis strategies over the DSL's shapes, shared by property tests."""

from __future__ import annotations

import math

from hypothesis import strategies as st

import pyab
from pyab.prolog.facts import number

# Small integer ranges make ties; halves and negatives exercise decimals.
values = st.one_of(
    st.integers(-3, 3),
    st.integers(-50, 50),
    st.integers(-6, 6).map(lambda x: x / 2),
)

shapes = st.recursive(values, lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=40)


def list_text(shape) -> str:
    if isinstance(shape, list):
        return "[" + ", ".join(list_text(s) for s in shape) + "]"
    return number(shape)


@st.composite
def trees(draw, forms=("list", "nested", "flat")):
    """A tree drawn over the DSL: list-form text, optionally re-written in
    the nested or flat form, parsed back."""
    side = draw(st.sampled_from(["max", "min"]))
    tree = pyab.parse(f"{side} {list_text(draw(st.lists(shapes, min_size=1, max_size=4)))}")
    form = draw(st.sampled_from(forms))
    if form != "list":
        tree = pyab.parse(pyab.dump(tree, form))
    return tree


@st.composite
def windows(draw, tree):
    """alpha <= beta: full, from the tree's values (closed window edges hit
    leaf values exactly), or arbitrary."""
    vals = sorted({v for v in tree.values if v is not None})
    pick = st.sampled_from(vals + [v + 0.25 for v in vals] + [v - 0.25 for v in vals])
    a = draw(st.one_of(st.just(-math.inf), pick))
    b = draw(st.one_of(st.just(math.inf), pick))
    return (a, b) if a <= b else (b, a)


def minimax(tree, depth: int | None = None, node=None) -> float:
    """Plain minimax over the node protocol (iterative), the value oracle:
    from ``node`` (default the root), scoring nodes ``depth`` levels below
    it statically (default: search to the leaves)."""
    node = tree.root_node if node is None else node
    value = {}
    stack = [(node, False)]
    while stack:
        n, done = stack.pop()
        kids = tree.kids_of(n)
        if not kids or tree.depth_of(n) - tree.depth_of(node) == depth:
            value[n] = tree.value_of(n)
        elif done:
            pick = max if tree.is_max(n) else min
            value[n] = pick(value[k] for k in kids)
        else:
            stack.append((n, True))
            stack.extend((k, False) for k in kids)
    return value[node]
