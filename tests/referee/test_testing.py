"""pyab.testing: assert_same_search and the strategies, in-process."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyab
from pyab.testing import assert_same_search, search_with, trees, windows
from conftest import EXAMPLES

import importlib.util

_spec = importlib.util.spec_from_file_location("slides_alphabeta", EXAMPLES / "referee" / "slides_alphabeta.py")
sa = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sa)


def mutant(game, pos, alpha, beta):
    """The slides' program with goodenough's `val > beta` made `>=`."""
    def alphabeta(pos, alpha, beta):
        kids = game.children(pos)
        if not kids:
            return None, game.value(pos)
        return boundedbest(kids, alpha, beta)

    def boundedbest(kids, alpha, beta):
        _, val = alphabeta(kids[0], alpha, beta)
        return goodenough(kids[1:], alpha, beta, kids[0], val)

    def goodenough(rest, alpha, beta, pos, val):
        if not rest:
            return pos, val
        if (not game.is_max(pos) and val >= beta) or (game.is_max(pos) and val < alpha):
            return pos, val
        new_alpha, new_beta = sa.newbounds(game, alpha, beta, pos, val)
        pos1, val1 = boundedbest(rest, new_alpha, new_beta)
        return sa.betterof(game, pos, val, pos1, val1)

    return alphabeta(pos, alpha, beta)


def test_the_slides_transliteration_passes():
    assert_same_search(sa.alphabeta, max_examples=60)


def test_the_mutant_fails_with_a_shrunk_tree():
    with pytest.raises(AssertionError, match="disagree") as caught:
        # small values make the ties this mutant trips on
        assert_same_search(mutant, max_examples=300, tree_strategy=trees(leaf_values=st.integers(0, 3)))
    text = str(caught.value)
    tree_line = text.splitlines()[1].strip()
    assert len(pyab.parse(tree_line)) <= 6, text  # Hypothesis shrank it
    assert "reference (bratko):" in text and "yours (mutant):" in text


def test_a_crash_is_a_program_error_naming_the_frame():
    def broken(game, pos, alpha, beta):
        return game.children(pos)[0], 1 / 0

    with pytest.raises(pyab.ProgramError, match=r"ZeroDivisionError.*in broken") as caught:
        assert_same_search(broken, max_examples=5)
    assert caught.value.kind == "crash"


def test_the_observation_is_made_by_the_game_object(slides):
    r = search_with(sa.alphabeta, slides)
    assert (r.best, r.value, r.pruned) == ("b", 3, ("i", "j"))
    assert r.leaves == ("e", "f", "g", "h", "k", "l", "m")

    def peeks(game, pos, alpha, beta):  # answers without reading any leaf
        return "b", 3

    r = search_with(peeks, slides)
    assert r.leaves == () and r.visited == ()


def test_aima_pythons_search_in_process():
    games = pytest.importorskip("aima.games", reason="aima-python: `make setup` installs it")
    assert_same_search(games.alpha_beta_search, interface="aima", algorithm="aima", max_examples=60)


@settings(max_examples=50, deadline=None)
@given(trees().flatmap(lambda t: windows(t).map(lambda w: (t, w))))
def test_the_strategies_make_valid_trees_and_windows(tw):
    tree, (alpha, beta) = tw
    assert not tree.is_leaf(tree.root) and alpha <= beta
    assert pyab.solve(tree, "python", alpha=alpha, beta=beta).value is not None
    assert all(math.isfinite(v) for v in tree.values if v is not None)


def test_a_wrong_search_fails_the_assertion_with_its_kind_even_when_caught():
    """A static value asked of an inner node is a disagreement (an
    AssertionError naming the kind), even when the function swallows the
    referee's exception and answers anyway."""
    def swallowing(game, pos, alpha, beta):
        kids = game.children(pos)
        try:
            return kids[0], game.value(pos)  # the root is inner: a wrong search
        except Exception:
            return kids[0], 0
    with pytest.raises(AssertionError, match=r"disagree \(inner-static-value\)"):
        assert_same_search(swallowing, max_examples=20)


def test_compare_takes_a_list_in_process_too():
    def earlier_tie(game, pos, alpha, beta):  # minimax, keeping the earlier child on a tie
        # (the slides' betterof/6 keeps the later one)
        def mm(node):
            kids = game.children(node)
            if not kids:
                return game.value(node)
            vals = [mm(k) for k in kids]
            return max(vals) if game.is_max(node) else min(vals)
        kids = game.children(pos)
        vals = [mm(k) for k in kids]
        v = max(vals) if game.is_max(pos) else min(vals)
        return kids[vals.index(v)], v
    assert_same_search(earlier_tie, compare="value,optimal-move", max_examples=60, use_windows=False)
    with pytest.raises(AssertionError, match="best:"):
        assert_same_search(earlier_tie, compare="move", max_examples=200, use_windows=False)
