"""Properties of the slides' program, in both engines, on generated trees.

What the program guarantees about the value v it returns for a window
alpha <= beta, where V is the minimax value (see docs/bratko.md for the
argument): the cut tests are strict, so the window behaves as the closed
interval [alpha, beta], and a cut returns the cutting child's value:

  * v is always the static value of some leaf (never a bound);
  * alpha <= v <= beta  implies  v == V;
  * v < alpha           implies  V <= v   (v is an upper bound: fail low);
  * v > beta            implies  V >= v   (v is a lower bound: fail high);
  * hence alpha <= V <= beta implies v == V, and with a window holding
    every leaf value, v == V.
"""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyab
from pyab.engines import differences

from strategies import minimax, trees, windows

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.data())
def test_engines_agree_on_all_five_fields(data):
    tree = data.draw(trees())
    alpha, beta = data.draw(windows(tree))
    prolog = pyab.solve(tree, "prolog", alpha=alpha, beta=beta)
    python = pyab.solve(tree, "python", alpha=alpha, beta=beta)
    assert differences(prolog, python) == []


@SETTINGS
@given(trees())
def test_wide_window_gives_the_minimax_value(tree):
    vals = [v for v in tree.values if v is not None]
    for alpha, beta in ((-math.inf, math.inf), (min(vals), max(vals))):
        for engine in ("prolog", "python"):
            assert pyab.solve(tree, engine, alpha=alpha, beta=beta).value == minimax(tree)


@SETTINGS
@given(st.data())
def test_what_a_narrow_window_guarantees(data):
    tree = data.draw(trees())
    alpha, beta = data.draw(windows(tree))
    big_v = minimax(tree)
    r = pyab.solve(tree, "python", alpha=alpha, beta=beta)
    v = r.value
    assert v in {x for x in tree.values if x is not None}
    if alpha <= v <= beta:
        assert v == big_v
    elif v < alpha:
        assert big_v <= v
    else:
        assert big_v >= v
    if alpha <= big_v <= beta:
        assert v == big_v


@SETTINGS
@given(st.data())
def test_visited_and_pruned_partition_the_reached_nodes(data):
    tree = data.draw(trees())
    alpha, beta = data.draw(windows(tree))
    r = pyab.solve(tree, "prolog", alpha=alpha, beta=beta)
    visited, pruned = set(r.visited), set(r.pruned)
    assert len(visited) == len(r.visited) and len(pruned) == len(r.pruned)
    assert r.visited[0] == tree.root and not (visited & pruned)
    for n in r.visited[1:]:
        assert tree.parent(n) in visited
    for n in r.pruned:
        assert tree.parent(n) in visited
    for n in r.visited:
        assert set(tree.children(n)) <= visited | pruned
    # every leaf reached was read, once, in call order
    assert list(r.leaves) == [n for n in r.visited if tree.is_leaf(n)]
    # pruned is in tree order (pre-order numbering)
    assert list(r.pruned) == sorted(r.pruned, key=tree.index.__getitem__)
    # the best move is a child of the root
    assert r.best in tree.children(tree.root)


@settings(max_examples=200, deadline=None)
@given(trees(), st.sampled_from(["nested", "flat"]))
def test_dsl_round_trip(tree, form):
    back = pyab.parse(pyab.dump(tree, form))
    assert (back.names, back.kids, back.values, back.root_side) == \
        (tree.names, tree.kids, tree.values, tree.root_side)
