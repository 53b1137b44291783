"""Uniform trees given as rules (prolog/trees/uniform.pl) and their Python
twin (pyab.trees.uniform): the two engines node by node, the Knuth-Moore
counts, Hsu's critical positions, and the counts-only observation."""

from __future__ import annotations

import math
import random
import statistics

import pytest

import pyab
from pyab.prolog import bridge as prolog
from pyab.engines import differences
from pyab.search import ALGORITHMS, python_search
from pyab.trees import Uniform, parse_ordering
from pyab.trees.experiments import knuth_moore
from pyab.trees.uniform import hash_value

ORDERINGS = ["perfect", "worst", "random(0)", "random(11)"]
RULE_ALGORITHMS = sorted(ALGORITHMS)


@pytest.mark.parametrize("ordering", ORDERINGS)
@pytest.mark.parametrize("b,d", [(1, 3), (2, 0), (2, 5), (3, 4), (4, 3), (5, 2)])
def test_engines_agree_node_by_node(b, d, ordering):
    tree = Uniform(b, d, ordering)
    pro, pyt = pyab.solve(tree, "prolog"), pyab.solve(tree, "python")
    assert differences(pro, pyt) == []
    assert pro.visited[0] == "r"


@pytest.mark.parametrize("b,d", [(b, d) for b in range(1, 5) for d in range(0, 7)])
def test_perfect_and_worst_counts(b, d):
    best = prolog.solve(Uniform(b, d, "perfect"), names=False)
    worst = prolog.solve(Uniform(b, d, "worst"), names=False)
    assert best.extra["leaves_count"] == knuth_moore(b, d)
    assert worst.extra["leaves_count"] == b ** d
    # perfect: the first move is the best; worst: the last one (ties would
    # keep the later sibling, so these also show the values are distinct).
    assert best.best == (None if d == 0 else "r_1")
    assert worst.best == (None if d == 0 else f"r_{b}")


def critical(name: str) -> bool:
    """Hsu: a_i = 1 for all even i, or for all odd i (the root is critical)."""
    path = [int(x) for x in name.split("_")[1:]]
    return all(a == 1 for a in path[1::2]) or all(a == 1 for a in path[0::2])


@pytest.mark.parametrize("b,d", [(2, 4), (3, 4), (3, 5), (4, 3)])
def test_perfect_ordering_visits_exactly_the_critical_positions(b, d):
    tree = Uniform(b, d, "perfect")
    result = pyab.solve(tree, "prolog")
    every = [tree.name_of(n) for n in _all_nodes(tree)]
    assert set(result.visited) == {n for n in every if critical(n)}
    for level in range(d + 1):  # Hsu, Corollary 1, level by level
        on_level = [n for n in result.visited if n.count("_") == level]
        assert len(on_level) == knuth_moore(b, level)


def _all_nodes(tree):
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(tree.kids_of(n))


def test_worst_cuts_nothing():
    result = pyab.solve(Uniform(3, 4, "worst"), "prolog")
    assert result.pruned == ()
    assert len(result.visited) == sum(3 ** k for k in range(5))


def test_leaf_values_distinct_on_ordered_trees():
    for ordering in ("perfect", "worst"):
        tree = Uniform(3, 4, ordering)
        leaves = [n for n in _all_nodes(tree) if not tree.kids_of(n)]
        values = [tree.value_of(n) for n in leaves]
        assert len(set(values)) == len(values) == 81


@pytest.mark.parametrize("name", RULE_ALGORITHMS)
def test_counts_mode_matches_names_mode(name):
    for ordering in ("perfect", "worst", "random(3)"):
        tree = Uniform(3, 4, ordering)
        full = prolog.solve(tree, name)
        counts = prolog.solve(tree, name, names=False)
        assert (counts.best, counts.value) == (full.best, full.value)
        assert counts.extra == {"leaves_count": len(full.leaves), "visited_count": len(full.visited)}
        assert counts.leaves == counts.visited == counts.pruned == ()


@pytest.mark.parametrize("name", RULE_ALGORITHMS)
def test_every_algorithm_agrees_on_implicit_trees(name):
    for ordering in ("perfect", "worst", "random(5)"):
        tree = Uniform(3, 3, ordering)
        pro = pyab.solve(tree, "prolog", name)
        pyt = pyab.solve(tree, "python", name)
        assert differences(pro, pyt) == [], (name, ordering)


def test_hash_vectors_shared_with_prolog():
    # The same numbers are asserted in prolog/tests/trees.plt.
    assert [hash_value(s, i) for s, i in [(0, 0), (7, 12345), (1, 2 ** 33 + 5),
                                          (123456789, 40 ** 6)]] == \
        [7163450, 16353642, 3239807, 10840013]


def test_random_values_behave_like_a_random_generator():
    """The mean leaves read over 150 hashed trees is within four standard
    errors of the mean over 150 trees drawn with Python's random module."""
    search = python_search("bratko")
    rng = random.Random(2)
    b, d = 6, 3
    hashed = [len(search(Uniform(b, d, f"random({s})")).leaves) for s in range(150)]
    drawn = []
    for _ in range(150):
        leaves = [rng.randrange(1 << 24) for _ in range(b ** d)]
        drawn.append(len(search(_ListTree(b, d, leaves)).leaves))
    se = math.hypot(statistics.stdev(hashed), statistics.stdev(drawn)) / math.sqrt(150)
    assert abs(statistics.mean(hashed) - statistics.mean(drawn)) < 4 * se


class _ListTree(Uniform):
    """A uniform tree whose leaf values come from a list (test helper)."""

    def __init__(self, b, d, leaves):
        super().__init__(b, d, "perfect")
        self.leaf_values = leaves
        self.first_leaf = sum(b ** k for k in range(d))

    def value_of(self, node):
        if node & 63 != self.depth:
            return None
        return self.leaf_values[(node >> 6) - self.first_leaf]


def test_names_and_sizes():
    t = Uniform(3, 2, "perfect")
    kids = t.kids_of(t.root_node)
    assert [t.name_of(k) for k in kids] == ["r_1", "r_2", "r_3"]
    assert [t.name_of(k) for k in t.kids_of(kids[2])] == ["r_3_1", "r_3_2", "r_3_3"]
    assert [t.depth_of(k) for k in kids] == [1, 1, 1]
    assert t.is_max(t.root_node) and not t.is_max(kids[0])
    assert t.value_of(t.root_node) is None
    assert (t.leaf_count(), t.node_count()) == (9, 13)


@pytest.mark.parametrize("args", [(0, 2), (2, -1), (2, 64), (2.0, 2), (True, 2)])
def test_bad_shapes_are_refused(args):
    with pytest.raises(ValueError):
        Uniform(*args)


@pytest.mark.parametrize("text", ["best", "random", "random(-1)", "random(x)", "random(1) "])
def test_orderings(text):
    if text == "random(1) ":
        assert parse_ordering(text) == ("random", 1)
    else:
        with pytest.raises(ValueError, match="unknown ordering"):
            parse_ordering(text)


def test_bridge_refuses_code_in_parameters():
    from pyab.errors import PrologError
    from pyab.trees.uniform import RULES

    class Hostile(Uniform):
        def prolog_source(self):
            return str(RULES), "depth(2).\n:- halt.\n"

    with pytest.raises(PrologError, match="pyab_parameter"):
        prolog.solve(Hostile(2, 2))
    assert pyab.solve(Uniform(2, 2), "prolog").value == 0  # the engine lives on


def test_names_false_is_for_implicit_trees_only(slides):
    with pytest.raises(ValueError, match="implicit"):
        prolog.solve(slides, names=False)


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=30, deadline=None)
@given(b=st.integers(1, 5), d=st.integers(0, 4), seed=st.integers(0, 2 ** 40),
       window=st.sampled_from([(-math.inf, math.inf), (0, 1 << 23), (1 << 22, 1 << 22 | 5)]))
def test_random_trees_agree_in_any_window(b, d, seed, window):
    tree = Uniform(b, d, f"random({seed})")
    pro = pyab.solve(tree, "prolog", alpha=window[0], beta=window[1])
    pyt = pyab.solve(tree, "python", alpha=window[0], beta=window[1])
    assert differences(pro, pyt) == []
