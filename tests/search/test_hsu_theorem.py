"""Hsu's Theorem 1 and Corollary 1 on perfect-ordering uniform trees.

Theorem 1: F1 examines precisely the critical positions of a
perfect-ordering tree.  Corollary 1: with b successors everywhere, level i
holds b^ceil(i/2) + b^floor(i/2) - 1 of them.  "Examines" is what each
engine reports as visited (the positions whose successors F1 asked for);
the critical positions come from pyab/search/critical.py and, in a
separate swipl process, from prolog/critical.pl.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from conftest import PROLOG, swipl
from hsu_common import both

import pyab
from pyab.prolog.facts import facts, quote
from pyab.search.critical import corollary_count, critical_positions, dewey, is_critical, perfect_tree

SIZES = [(b, d) for b, d in product(range(1, 5), range(0, 6)) if b ** d <= 1024]


def test_hsu_examples_of_critical_positions():
    for path in [(2, 1, 4, 1, 2), (1, 3, 1, 5, 1, 2), (1, 1, 1, 2, 1, 1, 1, 3), (1, 1), ()]:
        assert is_critical(path)
    assert not is_critical((1, 2, 1, 1, 2))


@pytest.mark.parametrize("b,d", SIZES)
@pytest.mark.parametrize("side", ["max", "min"])
def test_theorem1_f1_examines_exactly_the_critical_positions(b, d, side):
    tree = perfect_tree(b, d, side)
    critical = critical_positions(tree)
    for form in ("hsu-f1", "hsu-f1-negamax"):
        for r in both(tree, form):
            assert list(r.visited) == critical
            assert r.value == 0 and (r.best == "r_1" if d else r.best is None)


@pytest.mark.parametrize("b,d", SIZES)
def test_corollary1_counts_per_level(b, d):
    tree = perfect_tree(b, d)
    r, _ = both(tree, "hsu-f1")
    levels = Counter(tree.depth_of(tree.index[n]) for n in r.visited)
    assert [levels[i] for i in range(d + 1)] == [corollary_count(b, i) for i in range(d + 1)]
    total = sum(corollary_count(b, i) for i in range(d + 1))
    assert len(r.visited) == total


def test_the_tree_is_perfectly_ordered():
    """Hsu's perfect ordering: F(p) = -F(p.1) at every inner position, i.e.
    (from MAX's side) every inner node is worth its first child."""
    tree = perfect_tree(3, 4)
    for node in range(len(tree)):
        kids = tree.kids_of(node)
        if kids:
            sub = pyab.solve(_subtree(tree, node), "python", "minimax")
            first = pyab.solve(_subtree(tree, kids[0]), "python", "minimax")
            assert sub.value == first.value


def _subtree(tree, node):
    """The subtree below ``node`` as a tree of its own (same names, leaf
    values only)."""
    from pyab.tree import build
    edges, values, stack = [], [], [node]
    while stack:
        n = stack.pop()
        kids = tree.kids_of(n)
        if kids:
            edges.append((tree.name_of(n), (0, 0), [(tree.name_of(k), (0, 0)) for k in kids]))
            stack.extend(kids)
        else:
            values.append((tree.name_of(n), tree.value_of(n), (0, 0)))
    return build(edges, values, "max" if tree.is_max(node) else "min")


def test_other_algorithms_are_not_held_to_theorem1():
    """F2 (no deep cut-offs) examines more than the critical positions of
    the same tree: the theorem singles out F1, and the test above could
    fail."""
    tree = perfect_tree(3, 4)
    critical = critical_positions(tree)
    f2, _ = both(tree, "hsu-f2")
    assert set(critical) < set(f2.visited)


@pytest.mark.parametrize("b,d", [(2, 3), (3, 4), (4, 3)])
def test_prolog_critical_positions_agree(tmp_path, b, d):
    """prolog/critical.pl, in plain swipl, finds the same positions."""
    tree = perfect_tree(b, d)
    fact_file = tmp_path / "tree.pl"
    fact_file.write_text(facts(tree), encoding="utf-8")
    goal = (f"consult({quote(str(PROLOG / 'critical.pl'))}), consult({quote(str(fact_file))}), "
            "critical_positions(r, Ps), atomic_list_concat(Ps, ' ', A), write(A), nl, "
            f"forall(between(0, {d}, I), (corollary_count({b}, I, N), write(N), nl))")
    out = swipl("-q", "-g", goal, "-t", "halt")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert lines[0].split() == critical_positions(tree)
    assert [int(x) for x in lines[1:d + 2]] == [corollary_count(b, i) for i in range(d + 1)]
    paths = dewey(tree)
    assert all(is_critical(paths[tree.index[n]]) for n in lines[0].split())


@pytest.mark.parametrize("b,d", [(2, 4), (3, 4), (4, 5), (5, 3)])
def test_theorem1_on_trees_given_by_rules(b, d):
    """The same on pyab.trees.Uniform's perfect ordering, whose Prolog side
    computes moves/2 and staticval/2 by rules (no stored values, so no
    direct cut-offs can fire: see docs/hsu.md)."""
    from pyab.trees import Uniform
    tree = Uniform(b, d, "perfect")
    critical = critical_positions(tree)
    for form in ("hsu-f1", "hsu-f1-negamax", "hsu-f3"):
        for r in both(tree, form):
            assert list(r.visited) == critical
    assert len(critical) == sum(corollary_count(b, i) for i in range(d + 1))
