"""Tic-tac-toe given as rules (prolog/games/tictactoe.pl) and in Python
(pyab.trees.tictactoe), searched by the unchanged slides' program."""

from __future__ import annotations

import itertools
import json

import pytest

import pyab
from pyab.prolog import bridge as prolog
from pyab.engines import differences
from pyab.trees import TicTacToe

from conftest import pyab_cli


def openings(moves: int):
    """Every legal sequence of ``moves`` squares from the empty board."""
    for seq in itertools.permutations(range(1, 10), moves):
        yield seq  # no game can be over within three moves


def test_empty_board_is_a_draw_in_both_engines():
    game = TicTacToe()
    pro = prolog.solve(game, names=False)
    pyt = pyab.solve(game, "python")
    assert pro.value == pyt.value == 0
    assert pro.best == pyt.best
    assert pro.extra == {"leaves_count": len(pyt.leaves), "visited_count": len(pyt.visited)}


def test_the_game_tree_is_counted():
    assert TicTacToe().game_tree_size() == (549_946, 255_168)


@pytest.mark.slow
def test_engines_agree_on_every_position_of_the_first_three_moves():
    """Every position reachable in at most three moves, as the root: Prolog
    (observed, full lists) and the mirror agree on best, value, leaves,
    visited and pruned."""
    roots = [seq for n in (1, 2, 3) for seq in openings(n)]
    assert len(roots) == 9 + 72 + 504
    for start in roots:
        game = TicTacToe(start)
        diff = differences(pyab.solve(game, "prolog"), pyab.solve(game, "python"))
        assert diff == [], (start, diff)


def test_sides_names_and_values():
    g = TicTacToe((1, 4, 2, 5))
    assert g.root == "r_1_4_2_5" and g.root_side == "max"
    kids = g.kids_of(g.root_node)
    assert [g.name_of(k) for k in kids][:2] == ["r_1_4_2_5_3", "r_1_4_2_5_6"]
    won = (1, 4, 2, 5, 3)
    assert g.kids_of(won) == () and g.value_of(won) == 1
    assert TicTacToe((1, 4, 2, 5, 9, 6)).value_of((1, 4, 2, 5, 9, 6)) == -1
    draw = (1, 2, 3, 5, 4, 6, 8, 7, 9)
    assert g.value_of(draw) == 0 and g.kids_of(draw) == ()
    assert g.value_of(g.root_node) is None


def test_after_a_blunder_x_wins():
    game = TicTacToe((1, 2))  # O next to X's corner loses
    assert prolog.solve(game, names=False).value == pyab.solve(game, "python").value == 1


@pytest.mark.parametrize("start,msg", [((0,), "not a square"), ((5, 5), "taken"),
                                       ((1, 4, 2, 5, 3, 6), "over already")])
def test_illegal_starts(start, msg):
    with pytest.raises(ValueError, match=msg):
        TicTacToe(start)


def test_cli_json():
    out = pyab_cli("game", "tictactoe", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["value"] == 0
    assert data["game_tree_nodes"] == 549_946
    assert data["best"].startswith("r_")
    assert data["leaves_count"] > 0 and data["visited_count"] > data["leaves_count"]


def test_cli_bad_start_exits_2():
    out = pyab_cli("game", "tictactoe", "--start", "5,5")
    assert out.returncode == 2
    assert "taken" in out.stderr and "Traceback" not in out.stderr
