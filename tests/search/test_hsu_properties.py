"""Hsu's stated properties of F1, F2 and F3, in both engines.

Each property runs on random trees in SWI-Prolog (observed) and in the
Python mirror; the two must agree on everything, and each is then held to
what the literature says.  F(p) is the minimax value from the oracle in
hsu_common (plain recursion, independent of every algorithm here).

Hsu's assumptions: alpha <= beta, p not a leaf (every tree here has a root
with children), depth = infinity.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsu_common import ENGINES, FORMS, HSU, both, oracle, trees, value_range, windows

from pyab.search import ALGORITHMS

SETTINGS = settings(max_examples=120, deadline=None)


@st.composite
def tree_and_window(draw, **kw):
    tree = draw(trees(**kw))
    return tree, draw(windows(tree))


# -- every algorithm, full window: the minimax value ------------------------

@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
@given(tree=trees())
@settings(max_examples=60, deadline=None)
def test_full_window_gives_the_minimax_value(algorithm, tree):
    prolog, python = both(tree, algorithm)
    assert prolog.value == oracle(tree)
    assert python.value == oracle(tree)


# -- F1: fail hard ---------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["hsu-f1", "hsu-f1-negamax"])
@given(tw=tree_and_window())
@SETTINGS
def test_f1_returns_the_value_clipped_to_the_window(algorithm, tw):
    """F1 = alpha if F <= alpha; F if alpha < F < beta; beta if F >= beta."""
    tree, (alpha, beta) = tw
    f = oracle(tree)
    for r in both(tree, algorithm, alpha, beta):
        if f <= alpha:
            assert r.value == alpha
        elif f < beta:
            assert r.value == f
        else:
            assert r.value == beta


# -- F2: one-sided ---------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["hsu-f2", "hsu-f2-negamax"])
@given(tw=tree_and_window())
@SETTINGS
def test_f2_is_exact_below_its_bound(algorithm, tw):
    """F2(p, bound) = F(p) if F(p) < bound; bound <= F2 <= F(p) otherwise.

    The bound is beta at a MAX root; at a MIN root it is alpha, and the
    statement reads, from MAX's side: F2 = F if F > alpha, else
    F <= F2 <= alpha."""
    tree, (alpha, beta) = tw
    f = oracle(tree)
    for r in both(tree, algorithm, alpha, beta):
        if tree.is_max(tree.root_node):
            assert r.value == f if f < beta else beta <= r.value <= f
        else:
            assert r.value == f if f > alpha else f <= r.value <= alpha


# -- F3: fail soft ---------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["hsu-f3", "hsu-f3-negamax"])
@given(tw=tree_and_window())
@SETTINGS
def test_f3_fails_soft(algorithm, tw):
    """F <= F3 <= alpha if F <= alpha; F3 = F inside; beta <= F3 <= F if F >= beta."""
    tree, (alpha, beta) = tw
    f = oracle(tree)
    for r in both(tree, algorithm, alpha, beta):
        if f <= alpha:
            assert f <= r.value <= alpha
        elif f < beta:
            assert r.value == f
        else:
            assert beta <= r.value <= f


# -- what F1, F2 and F3 read -------------------------------------------------

def meets_the_range(tree, alpha, beta) -> bool:
    """The window reaches the tree's values: alpha < largest, beta > smallest.
    Outside it Hsu's direct cut-offs ("m is max") fire in F2/F3 on a leaf
    while F1's hard m sits at the bound (see docs/hsu.md)."""
    lo, hi = value_range(tree)
    return alpha < hi and beta > lo


@given(tw=tree_and_window())
@SETTINGS
def test_f1_and_f3_read_the_same_leaves(tw):
    """Hsu: "Both versions scan the same set of nodes" (alpha < beta)."""
    tree, (alpha, beta) = tw
    if not (alpha < beta and meets_the_range(tree, alpha, beta)):
        alpha, beta = -math.inf, math.inf
    f1, _ = both(tree, "hsu-f1", alpha, beta)
    f3, _ = both(tree, "hsu-f3", alpha, beta)
    assert f1.leaves == f3.leaves
    assert f1.visited == f3.visited


@given(tw=tree_and_window())
@SETTINGS
def test_f2_never_reads_fewer_leaves_than_f1(tw):
    """F2 has no deep cut-offs: every leaf F1 reads, F2 reads too."""
    tree, (alpha, beta) = tw
    if not meets_the_range(tree, alpha, beta):
        alpha, beta = -math.inf, math.inf
    f1, _ = both(tree, "hsu-f1", alpha, beta)
    f2, _ = both(tree, "hsu-f2", alpha, beta)
    assert set(f1.leaves) <= set(f2.leaves)
    assert len(f2.leaves) >= len(f1.leaves)


def test_f2_reads_more_than_f1_somewhere():
    """The inclusion above is not vacuous: a deep cut-off F2 cannot make.

    MAX at r: r_1 is worth 5; in r_2 (MIN), r_2_1 (MAX) has a MIN child
    r_2_1_1 worth 3 <= 5 after its first leaf.  F1 passes alpha = 5 down
    two levels and cuts r_2_1_1's second leaf; F2' gives G2'(r_2_1_1)
    only F2'(r_2_1)'s own m (-inf), so it reads that leaf."""
    import pyab
    tree = pyab.parse("r(r_1 = 5, r_2(r_2_1(r_2_1_1(a = 3, b = 9), r_2_1_2 = 1)))")
    for engine in ENGINES:
        f1 = pyab.solve(tree, engine, "hsu-f1")
        f2 = pyab.solve(tree, engine, "hsu-f2")
        assert f1.leaves == ("r_1", "a", "r_2_1_2")
        assert f2.leaves == ("r_1", "a", "b", "r_2_1_2")


# -- mini-max and nega-max forms ---------------------------------------------

@pytest.mark.parametrize("minimax_form", sorted(FORMS))
@given(tw=tree_and_window(inner_values=True), depth=st.one_of(st.none(), st.integers(0, 4)))
@SETTINGS
def test_minimax_and_negamax_forms_read_the_same(minimax_form, tw, depth):
    """Hsu's F' / G' and his F are the same search: same leaves, same
    calls, same value and move, in any window and at any depth limit."""
    tree, (alpha, beta) = tw
    a, _ = both(tree, minimax_form, alpha, beta, depth)
    b, _ = both(tree, FORMS[minimax_form], alpha, beta, depth)
    assert (a.best, a.value, a.leaves, a.visited, a.pruned) == \
           (b.best, b.value, b.leaves, b.visited, b.pruned)


# -- small fixed cases -------------------------------------------------------

def test_slides_tree_every_form(slides):
    for name in (*HSU, *FORMS.values(), "minimax"):
        prolog, python = both(slides, name)
        assert (prolog.best, prolog.value) == ("b", 3)


def test_f1_fails_low_without_a_move(slides):
    """Nothing beats F1's hard initial m = alpha: no move, value alpha."""
    for r in both(slides, "hsu-f1", 5, 10):
        assert (r.best, r.value) == (None, 5)


def test_direct_cut_off_uses_the_largest_value():
    """r_1 reaches 9, the largest value in the tree: F1 stops at once."""
    import pyab
    tree = pyab.parse("[9, 3, 8]")
    for name in (*HSU, *(FORMS[h] for h in HSU)):
        for r in both(tree, name):
            assert r.leaves == ("r_1",) and r.value == 9
    for name in ("minimax", "minimax-negamax"):
        for r in both(tree, name):
            assert r.leaves == ("r_1", "r_2", "r_3")


def test_hsu_worked_example():
    """Hsu's example call F1'(root, -inf, +inf): node 1 is worth 15; in
    node 2, 2.1 returns 10 <= alpha = 15, so 2.2 is cut and G1' returns 15
    (F1, the hard bound); G2' and G3' return 10 (m itself).  Hsu gives
    no value for 2.2; here node 2 has a second and third leaf."""
    import pyab
    tree = pyab.parse("[15, [10, 20, 5]]")  # 20 and 5: no direct cut-off
    for name, node2 in (("hsu-f1", 15), ("hsu-f2", 10), ("hsu-f3", 10)):
        for r in both(tree, name):
            assert (r.best, r.value, r.leaves, r.pruned) == ("r_1", 15, ("r_1", "r_2_1"), ("r_2_2", "r_2_3"))
        # what node 2 returned, seen from its own search in the same window
        sub = pyab.parse("min [10, 20, 5]")
        for r in both(sub, name, 15, math.inf):
            assert r.value == node2


# The documented exceptions (docs/hsu.md): windows that miss the tree's
# values, and alpha = beta.  (tree, alpha, beta, F1 leaves, F2 leaves, F3 leaves)
EXCEPTIONS = [
    ("max [1, 1]", 2, 3, ("r_1", "r_2"), ("r_1",), ("r_1",)),
    ("min [2, 1]", 0, 1, ("r_1",), ("r_1", "r_2"), ("r_1", "r_2")),
    ("max [1, 3]", 2, 2, ("r_1",), ("r_1", "r_2"), ("r_1", "r_2")),
]


@pytest.mark.parametrize("text,alpha,beta,l1,l2,l3", EXCEPTIONS)
def test_documented_exceptions(text, alpha, beta, l1, l2, l3):
    import pyab
    tree = pyab.parse(text)
    for name, leaves in (("hsu-f1", l1), ("hsu-f2", l2), ("hsu-f3", l3)):
        for r in both(tree, name, alpha, beta):
            assert r.leaves == leaves, name
