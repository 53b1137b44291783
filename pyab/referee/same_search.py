"""Referee your own alpha-beta from pytest, with Hypothesis.

    from pyab.testing import assert_same_search
    from my_search import alphabeta

    def test_my_alphabeta_searches_like_the_slides():
        assert_same_search(alphabeta, interface="pyab", algorithm="bratko")

``assert_same_search`` draws trees and windows with Hypothesis, runs your
function on each and pyab's reference (the Python mirror of ``algorithm``)
on the same, and fails with the first disagreement, shrunk by Hypothesis to
a small tree.  Your function runs *in-process* (it is your own code, under
your own test run), but it sees the tree only through the game object pyab
hands it, and that object records every question: the visited nodes and the
leaves read are observed by pyab, exactly as over ``--python`` in a child
process, never reported by your function.

The strategies :func:`trees` and :func:`windows` are public too, for
property tests of your own.  Needs ``hypothesis`` (``pip install hypothesis``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from hypothesis import HealthCheck, given
from hypothesis import settings as settings_
from hypothesis import strategies as st

from ..dsl import dump
from ..errors import ProgramError
from . import FunctionRoute
from .verdict import Settings, judge, parse_compare, reference_label
from ..result import Result, window_text
from ..tree import Number, Tree, from_nested

__all__ = ["assert_same_search", "search_with", "trees", "values", "windows"]

# Small ranges make ties (where alpha-beta variants part); halves exercise decimals.
values = st.one_of(st.integers(-3, 3), st.integers(-50, 50), st.integers(-6, 6).map(lambda x: x / 2))


def trees(max_leaves: int = 30, leaf_values: st.SearchStrategy = values) -> st.SearchStrategy:
    """Game trees whose root has at least one move, MAX or MIN to move at
    the root, nodes named by Dewey path (r, r_1, r_1_2, ...); leaf values
    drawn from ``leaf_values`` (e.g. ``st.integers(0, 3)`` for many ties)."""
    shapes = st.recursive(leaf_values, lambda kids: st.lists(kids, min_size=1, max_size=4),
                          max_leaves=max_leaves)
    return st.builds(from_nested, st.lists(shapes, min_size=1, max_size=4), st.sampled_from(["max", "min"]))


@st.composite
def windows(draw: Any, tree: Tree) -> tuple[Number, Number]:
    """alpha <= beta: -inf/inf, the tree's values (a bound equal to a leaf
    value tests strict against non-strict cut-offs) or just beside them."""
    vals = sorted({v for v in tree.values if v is not None})
    pick = st.sampled_from(vals + [v + 0.25 for v in vals] + [v - 0.25 for v in vals])
    a = draw(st.one_of(st.just(-math.inf), pick))
    b = draw(st.one_of(st.just(math.inf), pick))
    return (a, b) if a <= b else (b, a)


def search_with(func: Callable, tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf,
                interface: str = "pyab", *, label: str | None = None) -> Result:
    """Run ``func`` on ``tree`` in-process through the referee's game
    object; the Result holds what the game object observed.

    :raises ProgramError: when ``func`` raises or answers nonsense;
        :class:`~pyab.referee.protocol.SearchBug` when its search asks what
        only a wrong search asks.
    """
    return FunctionRoute(func, interface, label).search(tree, alpha, beta)


def assert_same_search(func: Callable, interface: str = "pyab", algorithm: str = "bratko", *,
                       compare: str = "all", max_examples: int = 200,
                       tree_strategy: st.SearchStrategy | None = None,
                       use_windows: bool = True) -> None:
    """Fail unless ``func`` searches like pyab's ``algorithm`` on every tree
    Hypothesis draws (``max_examples`` of them).

    ``interface``: "pyab" (``func(game, root, alpha, beta) -> (best, value)``)
    or "aima" (aima-python's Game protocol, ``func(state, game) -> action``;
    always the full window).  ``compare``: what must agree, as ``pyab check
    --compare``: "all" (value, best move, leaves, visited), "value" (a
    correct minimax value), "move", "optimal-move", "leaves", "visited", or
    a comma-separated list.  Each tree is judged by the referee's one
    verdict (:func:`pyab.referee.verdict.judge`), as ``pyab check`` judges.

    :raises AssertionError: with the shrunk tree, window and differences
        (a wrong search, such as a static value asked of an inner node, too).
    :raises ProgramError: when ``func`` raises or answers nonsense.
    """
    settings = Settings(algorithm, None, parse_compare(compare))
    strategy = tree_strategy if tree_strategy is not None else trees()
    route = FunctionRoute(func, interface)
    ref_label = reference_label(algorithm, settings.compare)
    full = interface == "aima" or not use_windows

    crashed: list[ProgramError] = []  # a crash is the program's, not the tree's: not shrunk

    @settings_(max_examples=max_examples, deadline=None, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def same(data: Any) -> None:
        tree = data.draw(strategy, label="tree")
        alpha, beta = (-math.inf, math.inf) if full else data.draw(windows(tree), label="window")
        if crashed:
            return
        verdict = judge(route, tree, alpha, beta, settings)
        if verdict.status == "error":
            err = verdict.error
            assert err is not None
            err.reason += f" -- on {dump(tree).strip()}"
            err.args = (err.reason,)
            crashed.append(err)
            return
        if verdict.status == "disagree":
            raise AssertionError(
                f"{route.label} and {ref_label} disagree ({verdict.kind}) on\n  {dump(tree).strip()}\n"
                f"  window {window_text(alpha, beta)}\n  "
                + "\n  ".join(d.replace("\n", "\n  ") for d in verdict.lines))

    same()
    if crashed:
        raise crashed[0]
