"""pyab.trees.cs188: CS188 .test/.solution files read as they are, and
every mistake named with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyab.errors import DSLError
from pyab.referee.cs188 import labels_of
from pyab.trees.cs188 import load_folder, load_test, read_keys

TESTS = Path(__file__).resolve().parent.parent / "referee" / "cs188_tests"

GOOD = '''\
class: "GraphGameTreeTest"   # a comment
alg: "AlphaBetaAgent"
depth: "1"
num_agents: "3"
start_state: "s"
win_states: "x"
lose_states: "y"
successors: """
s Left g
g Up h
h Up x
h Down y
"""
evaluation: """
x 1
y -2.5
"""
'''


def write(tmp_path: Path, text: str, name: str = "t.test") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_a_graph_test_becomes_a_tree(tmp_path):
    t = load_test(write(tmp_path, GOOD))
    assert t.tree.names == ("s", "g", "h", "x", "y") and t.tree.values[3:] == (1.0, -2.5)
    assert [t.tree.side(n) for n in "sghxy"] == ["max", "min", "min", "max", "max"]
    assert (t.rounds, t.agents, t.plies, t.algorithm) == (1, 3, 3, "strict-cut")
    labels = labels_of(t.tree)
    assert labels.actions["h"] == ("Up", "Down") and labels.win == {"x"} and labels.lose == {"y"}
    assert t.action is None  # no .solution next to it


def test_solution_is_read():
    t = load_test(TESTS / "0-tied-root.test")
    assert t.action == "Left" and t.generated == ("a", "b", "c", "d", "g1", "g2", "p")


def test_other_classes_are_skipped_with_the_reason(tmp_path):
    t = load_test(TESTS / "4-pacman-game.test")
    assert t.tree is None and "PacmanGameTreeTest" in t.skipped
    t = load_test(write(tmp_path, GOOD.replace("AlphaBetaAgent", "ExpectimaxAgent")))
    assert t.tree is None and "ExpectimaxAgent" in t.skipped
    assert [x.name for x in load_folder(TESTS) if x.skipped] == ["4-pacman-game"]


@pytest.mark.parametrize("change,line,words", [
    (("h Up x", "h Up"), 11, "a successor line is STATE ACTION NEXT"),
    (("y -2.5", "y minus"), 16, "an evaluation line is STATE VALUE"),
    (('depth: "1"', 'depth: "one"'), 3, "depth must be a whole number"),
    (('num_agents: "3"', 'num_agents: "0"'), 4, "num_agents must be a whole number of at least 1"),
    (('start_state: "s"', 'start_state: "x"'), 5, "start_state 'x' has no successor line"),
    (("h Down y", "h Down y\ns Right h"), 10,
     "cannot be searched: 'h' already has the parent 's' (at 13:1)"),
    (('win_states: "x"', 'win_states: "x h"'), 11, "'h' is a win or lose state with successors"),
    (("h Down y", "h Up y"), 12, "has the action 'Up' twice"),
    (('alg: "AlphaBetaAgent"', 'alg "AlphaBetaAgent"'), 2, 'expected key: "value"'),
    (('y -2.5\n"""', 'y -2.5'), 14, "the block 'evaluation' is never closed"),
])
def test_mistakes_name_the_line(tmp_path, change, line, words):
    p = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(DSLError) as err:
        load_test(p)
    assert words in err.value.message, err.value.message
    assert (err.value.source, err.value.line) == (str(p), line), str(err.value)


def test_keys_keep_block_text(tmp_path):
    keys = read_keys(write(tmp_path, GOOD))
    assert keys["class"] == ("GraphGameTreeTest", 1)
    assert keys["successors"][0].splitlines() == ["s Left g", "g Up h", "h Up x", "h Down y"]


def test_states_no_successor_reaches_are_left_out(tmp_path):
    # as the course's grader: only what the start state leads to is searched
    text = GOOD.replace("h Down y", "h Down y\nq Left r\nq Right x").replace("y -2.5", "y -2.5\nr 4")
    t = load_test(write(tmp_path, text))
    assert t.tree.names == ("s", "g", "h", "x", "y") and t.unreachable == ("q", "r")
    t = load_test(write(tmp_path, GOOD.replace('start_state: "s"', 'start_state: "g"')))
    assert t.tree.root == "g" and t.unreachable == ("s",) and t.plies == 3
