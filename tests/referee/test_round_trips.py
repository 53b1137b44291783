"""Fewer round trips: the Python child asks a node's side once a search,
and gets its children's sides with their names (the ``moves_sides``
question, pyab/referee/pychild.py); the referee's verdict stays what the
questions show."""

from __future__ import annotations

import random
from collections import Counter

import pyab
from pyab.referee import PythonRoute
from pyab.referee.protocol import Observer
from pyab.referee.pychild import AimaGame, PyabGame, call, load
from pyab.search import solve_python
from pyab.trees.randomtrees import Shape, random_tree, random_window

from tests.conftest import ROOT

SLIDES_PY = f"{ROOT / 'examples' / 'referee' / 'slides_alphabeta.py'}:alphabeta"


class _Uncached(PyabGame):
    def is_max(self, node):
        return bool(self._ask("max_to_move", node))


def _asked(interface: str, func, tree, alpha, beta) -> tuple[Observer, Counter]:
    obs = Observer(tree, "yours")
    call(func, interface, obs.ask, tree.root, alpha, beta)
    return obs, Counter((q, n) for q, n, _ in obs.log if q == "max_to_move")


def test_each_side_is_asked_once_a_search_and_the_observation_is_unchanged():
    func = load(SLIDES_PY)
    rng = random.Random(3)
    repeats_before = 0
    for _ in range(200):
        tree = random_tree(rng, Shape())
        a, b = random_window(rng, tree, "random")
        obs, sides = _asked("pyab", func, tree, a, b)
        assert set(sides) <= {tree.root} and all(n == 1 for n in sides.values())  # only the root's
        ref = solve_python(tree, "bratko", a, b)
        r = obs.rec.result(None, 0)
        assert (r.leaves, r.visited) == (ref.leaves, ref.visited)
        # the same search through a game that asks every time: what the cache saves
        uncached = Observer(tree, "yours")
        func(_Uncached(uncached.ask), tree.root, a, b)
        repeats_before += sum(1 for q, *_ in uncached.log if q == "max_to_move") - len(sides)
    assert repeats_before > 0  # the slides' mirror does ask again: the cache is not idle


def test_aima_games_ask_a_side_once_too():
    tree = pyab.parse("a(b(d=1, e=2), c(f=3, g=4))")
    obs = Observer(tree, "yours")
    game = AimaGame(obs.ask, tree.root)
    assert game.actions("a") == ["b", "c"]  # the referee answers only about nodes it handed out
    assert [game.to_move(s) for s in ("a", "b", "a", "b", "c")] == ["MAX", "MIN", "MAX", "MIN", "MIN"]
    assert [n for q, n, _ in obs.log if q == "max_to_move"] == ["a"]  # b's, c's came with a's moves


def test_moves_sides_is_the_moves_question_with_the_sides():
    """Any client may ask it; it is recorded as moves (visited, given),
    and answers nothing a search could not ask about anyway."""
    tree = pyab.parse("a(b(d=1, e=2), min c(f=3))")
    obs = Observer(tree, "yours")
    assert obs.ask("moves_sides", "a") == [["b", "c"], [False, False]]
    assert obs.ask("moves_sides", "c") == [["f"], [True]]
    assert obs.log == [("moves", "a", ["b", "c"]), ("moves", "c", ["f"])]
    assert obs.rec.result(None, 0).visited == ("a", "c")
    import pytest
    from pyab.referee.protocol import SearchBug
    with pytest.raises(SearchBug, match="asked moves of 'd', a node the search was not given"):
        obs.ask("moves_sides", "d")


def test_a_python_route_still_catches_a_changed_comparison(tmp_path):
    mutant = tmp_path / "mutant.py"
    src = (ROOT / "examples" / "referee" / "slides_alphabeta.py").read_text()
    changed = src.replace("val > beta)", "val >= beta)")
    assert changed != src
    mutant.write_text(changed)
    tree = pyab.parse("[[3, 12, 8], [3, 4, 6], [14, 5, 2]]")
    with PythonRoute(f"{mutant}:alphabeta") as route:
        r = route.search(tree, -100, 3)
    ref = solve_python(tree, "bratko", -100, 3)
    assert (r.leaves, r.visited) != (ref.leaves, ref.visited)
    with PythonRoute(SLIDES_PY) as route:
        r = route.search(tree, -100, 3)
    assert (r.leaves, r.visited) == (ref.leaves, ref.visited)
