"""Random trees are made straight into a Tree's arrays (no declarations
read back): the same trees as before for every seed, and the same as
build() makes of their own declarations."""

from __future__ import annotations

import hashlib
import random

import pytest

from pyab.tree import TreeError, build
from pyab.trees.randomtrees import Shape, random_tree, random_window

SHAPES = (dict(), dict(decimals=True, values=(-3, 3)), dict(values="wide", agents=3),
          dict(inner_values=True))


def test_seed_zero_gives_the_trees_it_always_gave():
    """The sequence of `pyab check --random N --seed 0` (and a saved
    mismatch's seed) is unchanged: a digest taken before this maker."""
    h = hashlib.sha256()
    for kw in SHAPES:
        rng = random.Random(0)
        for _ in range(200):
            t = random_tree(rng, Shape(**kw))
            h.update(repr((t, t.depth, *random_window(rng, t, "random"))).encode())
    assert h.hexdigest() == "1da84724d2bb0944a764a9b0b519d419195798f9836df92ca89553a4258c6b50"


@pytest.mark.parametrize("kw", [*SHAPES, dict(root_side="min"), dict(depth=(0, 6), branching=(1, 5))])
def test_the_same_tree_as_build_makes_of_its_declarations(kw):
    rng = random.Random(5)
    for _ in range(100):
        t = random_tree(rng, Shape(**kw))
        edges = [(t.names[i], (0, 0), [(t.names[k], (0, 0)) for k in ks]) for i, ks in enumerate(t.kids) if ks]
        values = [(n, v, (0, 0)) for n, v in zip(t.names, t.values) if v is not None]
        marks = [] if t.sides is None else [(n, "max" if s else "min", (0, 0)) for n, s in zip(t.names, t.sides)]
        b = build(edges, values, t.root_side, marks=marks)
        assert (b, b.index, b.depth) == (t, t.index, t.depth)


def test_what_build_refuses_is_still_refused():
    with pytest.raises(TreeError, match="no children"):
        rng = random.Random(1)
        for _ in range(100):
            random_tree(rng, Shape(branching=(0, 2)))
    with pytest.raises(TreeError):
        random_tree(random.Random(0), Shape(values=(2**60, 2**60 + 9), decimals=True, depth=(3, 3)))


def test_an_empty_range_is_refused_as_before():
    with pytest.raises(ValueError, match="empty range"):
        random_tree(random.Random(0), Shape(values=(3, 1)))
    with pytest.raises(ValueError, match="empty range"):
        random_tree(random.Random(0), Shape(branching=(3, 1)))
