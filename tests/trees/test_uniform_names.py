"""A uniform tree names a search's nodes a level at a time
(``Uniform.name_lists``): the same names as ``name_of`` gives one by one,
for every mirror's record, and for any other list (shuffled, repeated,
out of order, deeper than the tree) the slower path, never a wrong name."""

from __future__ import annotations

import math
import random

import pytest

from pyab.search import ALGORITHMS, python_search
from pyab.search.common import Recorder
from pyab.trees import Uniform
from pyab.trees.uniform import _TEMPLATES_UP_TO


def one_by_one(tree, nodes):
    return [tree.name_of(n) for n in nodes]


def record(tree, algorithm, alpha=-math.inf, beta=math.inf, depth=None):
    """The (visited, leaves) handles a mirror's search recorded."""
    kept = {}
    result = Recorder.result

    def keep(self, *args, **kwargs):
        kept["calls"], kept["leaves"] = list(self.calls), list(self.leaves)
        return result(self, *args, **kwargs)
    Recorder.result = keep
    try:
        python_search(algorithm)(tree, alpha, beta, depth=depth)
    finally:
        Recorder.result = result
    return kept["calls"], kept["leaves"]


TREES = [Uniform(1, 4), Uniform(2, 1, "worst"), Uniform(3, 4, "random(5)"), Uniform(4, 3, "perfect"),
         Uniform(5, 3, "worst"), Uniform(10, 3, "random(1)"), Uniform(2, 7, "random(3)")]


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_every_mirrors_record_is_named_as_one_by_one(tree, algorithm):
    windows = [(-math.inf, math.inf), (0, 1 << 23), (-3, 3), (5, 5)]
    for alpha, beta in windows:
        for depth in (None, 1, 2) if ALGORITHMS[algorithm].depth_limit else (None,):
            try:
                calls, leaves = record(tree, algorithm, alpha, beta, depth)
            except ValueError:  # a depth limit on a tree without inner values
                continue
            visited = list(dict.fromkeys(calls))
            names, leaf_names = tree.name_lists(visited, leaves)
            assert list(names) == one_by_one(tree, visited)
            assert list(leaf_names) == one_by_one(tree, leaves)
            if depth is None and visited:
                assert tree._by_levels(visited) is not None  # the fast path was taken


def test_a_full_tree_in_depth_first_order():
    tree = Uniform(3, 3)
    order, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(tree.kids_of(node)))
    assert tree._by_levels(order) is not None
    names, leaf_names = tree.name_lists(order, [n for n in order if n & 63 == 3])
    assert list(names) == one_by_one(tree, order)
    assert len(leaf_names) == 27 and leaf_names[0] == "r_1_1_1" and leaf_names[-1] == "r_3_3_3"


@pytest.mark.parametrize("b", [_TEMPLATES_UP_TO, _TEMPLATES_UP_TO + 1, 700])
def test_many_children_each(b):
    tree = Uniform(b, 2, "worst")  # nothing cut: b children under each parent
    calls, leaves = record(tree, "bratko")
    names, leaf_names = tree.name_lists(calls, leaves)
    assert list(names) == one_by_one(tree, calls) and list(leaf_names) == one_by_one(tree, leaves)
    assert tree._by_levels(calls) is not None


def lists_of_other_shapes(tree, rng):
    calls, _ = record(tree, "bratko")
    n = len(calls)
    swapped = list(calls)
    i = next(i for i in range(1, n - 1) if calls[i] & 63 == calls[i + 1] & 63)
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]  # two siblings out of order
    yield "siblings swapped", swapped
    yield "shuffled", rng.sample(calls, n)
    yield "a leaf twice", calls[:5] + [calls[4]] + calls[5:]
    yield "a child left out", calls[:3] + calls[4:]
    yield "a later sibling instead", calls[:4] + [calls[4] + 64] + calls[5:]
    yield "no root", calls[1:]
    yield "the root twice", calls + [0]
    yield "reversed", calls[::-1]
    yield "deeper than the tree", calls + [((calls[-1] >> 6) * tree.branching + 1) << 6 | (tree.depth + 1)]
    yield "negative", calls[:3] + [-64 + (calls[3] & 63)] + calls[4:]
    yield "huge", calls + [(1 << 70) | tree.depth]
    yield "not ints", calls[:3] + [float(calls[3])] + calls[4:]
    deep = tree.kids_of(tree.root_node)[0]
    top = deep
    while tree.kids_of(deep):
        deep = tree.kids_of(deep)[0]
    yield "a leaf after a grandparent", [0, top, deep]
    parent = next(h for h in calls if h & 63 == tree.depth - 1)
    first = ((parent >> 6) * tree.branching + 1) << 6 | tree.depth
    yield "more children than the branching", [0, *calls[1:calls.index(parent) + 1],
                                               *range(first, first + 64 * (tree.branching + 1), 64)]


@pytest.mark.parametrize("tree", [Uniform(3, 4, "random(5)"), Uniform(4, 3, "random(2)")], ids=repr)
def test_lists_of_other_shapes_are_named_one_by_one(tree):
    rng = random.Random(4)
    for what, nodes in lists_of_other_shapes(tree, rng):
        if what == "not ints":
            assert tree._by_levels(nodes) is None, what
            continue
        if what not in ("a child left out",):  # leaving out a last child keeps the shape
            assert tree._by_levels(nodes) is None, what
        if what in ("huge", "negative", "deeper than the tree"):
            continue  # not handles of this tree: name_of has no name to compare with
        names, _ = tree.name_lists(nodes, [])
        assert list(names) == one_by_one(tree, nodes), what


def test_leaves_that_are_not_the_visited_ones():
    tree = Uniform(3, 3, "random(7)")
    calls, leaves = record(tree, "bratko")
    for other in (leaves[::-1], leaves[:-1], [calls[1]] + leaves, []):
        names, leaf_names = tree.name_lists(calls, other)
        assert list(names) == one_by_one(tree, calls)
        assert list(leaf_names) == one_by_one(tree, other)


def test_the_root_alone_and_a_tree_of_depth_zero():
    assert Uniform(3, 0).name_lists([0], [0]) == (["r"], ["r"])
    assert list(Uniform(3, 2).name_lists([0], [])[0]) == ["r"]
    assert Uniform(3, 2).name_lists([], []) == ([], [])
