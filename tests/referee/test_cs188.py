"""--interface cs188: CS188-style agents get the verdict the course's grader
gives, tree by tree.

The course grader's rule (its GraphGameTreeTest): build the agent with the
test's depth, call getAction on the start state, and pass it when the
action and the *set* of states it generated (start state included) equal
the solution's.  ``berkeley`` below applies that rule in-process, on a
state class of its own (a dictionary of successors, as the course's test
states are), independent of pyab's referee; the solutions are the .test
files' hand-worked .solution files, and on random trees the answers of
the correct fixture agent (standing in for the course's staff agent).
pyab's verdict is the referee's: the agent in a child process, compared
with strict-cut (or minimax) by ``--compare generated``.
"""

from __future__ import annotations

import importlib.util
import math
import random
import shlex
from pathlib import Path

import pytest

from conftest import pyab_cli, cs188_agent
from pyab.errors import ProgramError
from pyab.trees.randomtrees import Shape, random_tree
from pyab.referee import PythonRoute
from pyab.referee.cs188 import labels_of
from pyab.referee.cs188_framework import prepare
from pyab.referee.verdict import Settings, judge
from pyab.trees.cs188 import load_folder

HERE = Path(__file__).resolve().parent
TESTS = HERE / "cs188_tests"
FIXTURES = ["correct", "prune_equal", "root_tie_last", "ghosts_not_chained", "depth_plies",
            "window_9999"]


# -- the course grader's rule, in-process ------------------------------------

class _State:
    """A test-tree state as the course's grader builds them: successors by
    action, values by state; every generated successor is recorded."""

    def __init__(self, problem, name):
        self.p, self.name = problem, name

    def generateSuccessor(self, agent, action):
        nxt = self.p["succ"][self.name][action]
        self.p["generated"].add(nxt)
        return _State(self.p, nxt)

    def getLegalActions(self, agent=0):
        return list(self.p["succ"].get(self.name, {}))

    def getScore(self):
        if self.name not in self.p["eval"]:
            raise Exception("getScore() called on non-terminal state or before maximum depth")
        return float(self.p["eval"][self.name])

    def isWin(self):
        return self.name in self.p["win"]

    def isLose(self):
        return self.name in self.p["lose"]

    def getNumAgents(self):
        return self.p["agents"]


def _module(name: str):
    prepare()  # the agents import util and game
    spec = importlib.util.spec_from_file_location(f"cs188_fixture_{name}", cs188_agent(name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _problem(tree, agents):
    labels = labels_of(tree)
    succ = {}
    for i, ks in enumerate(tree.kids):
        if ks:
            name = tree.names[i]
            acts = labels.actions.get(name) or [tree.names[k] for k in ks]
            succ[name] = dict(zip(acts, (tree.names[k] for k in ks)))
    evals = {n: v for n, v in zip(tree.names, tree.values) if v is not None}
    return {"succ": succ, "eval": evals, "win": labels.win, "lose": labels.lose,
            "agents": agents, "generated": {tree.root}}


def berkeley(mod, cls, tree, agents, rounds):
    """(action, sorted generated states) as the course grader sees them;
    None when the agent raises."""
    p = _problem(tree, agents)
    try:
        action = getattr(mod, cls)(depth=rounds).getAction(_State(p, tree.root))
    except Exception:
        return None
    return action, " ".join(sorted(p["generated"]))


# -- pyab's verdict ------------------------------------------------------------

def pyab_passes(route, tree, algorithm, agents, plies) -> bool:
    """The referee's verdict with --compare generated (an error fails too)."""
    v = judge(route, tree, -math.inf, math.inf, Settings(algorithm, plies, ("generated",), agents))
    return v.status == "agree"


# Which fixtures fail somewhere, by (agents, values): the rule's verdict.
EXPECT_FAILING = {
    (2, "ties"): {"prune_equal", "root_tie_last", "depth_plies"},
    (3, "ties"): {"prune_equal", "root_tie_last", "depth_plies", "ghosts_not_chained"},
    (2, "wide"): {"prune_equal", "root_tie_last", "depth_plies", "window_9999"},
}


@pytest.mark.parametrize("agents,values", list(EXPECT_FAILING))
def test_random_trees_verdicts_match_the_course_rule(agents, values):
    rounds = 2
    rng = random.Random(agents * 7 + len(values))
    trees = [random_tree(rng, Shape(depth=(1, 5), branching=(1, 3), values=values, agents=agents,
                                    inner_values=True)) for _ in range(60)]
    correct = _module("correct")
    failing = set()
    for name in FIXTURES:
        mod = _module(name)
        with PythonRoute(f"{cs188_agent(name)}:AlphaBetaAgent", "cs188", timeout=20) as route:
            for n, tree in enumerate(trees):
                gold = berkeley(correct, "AlphaBetaAgent", tree, agents, rounds)
                rule = berkeley(mod, "AlphaBetaAgent", tree, agents, rounds) == gold
                ours = pyab_passes(route, tree, "strict-cut", agents, rounds * agents)
                assert ours == rule, (name, n, rule, tree)
                if not ours:
                    failing.add(name)
    assert failing == EXPECT_FAILING[(agents, values)]


def test_test_files_verdicts_match_the_course_rule():
    tests = load_folder(TESTS)
    skipped = [t.name for t in tests if t.skipped]
    assert skipped == ["4-pacman-game"]
    verdicts = {}
    for name in FIXTURES:
        mod = _module(name)
        for t in (t for t in tests if not t.skipped):
            with PythonRoute(f"{cs188_agent(name)}:{t.alg}", "cs188", timeout=20) as route:
                gold = (t.action, " ".join(t.generated))
                rule = berkeley(mod, t.alg, t.tree, t.agents, t.rounds) == gold
                ours = pyab_passes(route, t.tree, t.algorithm, t.agents, t.plies)
            assert ours == rule, (name, t.name)
            verdicts[name, t.name] = ours
    assert all(verdicts["correct", t] for t in ("0-tied-root", "1-two-ghosts", "2-depth-limit",
                                                "3-below-sentinels", "5-minimax"))
    assert not verdicts["prune_equal", "0-tied-root"]
    assert not verdicts["root_tie_last", "0-tied-root"]
    assert verdicts["ghosts_not_chained", "0-tied-root"]
    assert not verdicts["ghosts_not_chained", "1-two-ghosts"]
    assert not verdicts["depth_plies", "2-depth-limit"]
    assert not verdicts["window_9999", "3-below-sentinels"]


def test_check_cli_cs188(tmp_path):
    spec = f"{cs188_agent('correct')}:AlphaBetaAgent"
    r = pyab_cli("check", "--random", "50", "--agents", "3", "--depth", "3", "--algorithm",
                 "strict-cut", "--python", spec, "--interface", "cs188")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the set of states generated" in r.stdout
    bad = f"{cs188_agent('prune_equal')}:AlphaBetaAgent"
    r = pyab_cli("check", "--random", "100", "--agents", "2", "--depth", "4", "--values", "ties",
                 "--algorithm", "strict-cut", "--python", bad, "--interface", "cs188",
                 "--save-dir", str(tmp_path))
    assert r.returncode == 1 and "never generated" in r.stdout and "--agents 2" in r.stdout
    replay = r.stdout.split("replay with:\n", 1)[1].strip()  # run as printed: it fails again
    again = pyab_cli(*shlex.split(replay)[1:], "--save-dir", str(tmp_path))
    assert again.returncode == 1 and "never generated" in again.stdout, again.stdout + again.stderr
    assert "min " not in open(shlex.split(replay)[2]).read()  # two agents: sides alternate
    # the depth must be a whole number of rounds, and agents must be given
    r = pyab_cli("check", "--random", "5", "--agents", "3", "--depth", "4", "--algorithm",
                 "strict-cut", "--python", spec, "--interface", "cs188")
    assert r.returncode == 2 and "multiple of 3" in r.stderr
    r = pyab_cli("check", "--random", "5", "--depth", "4", "--algorithm", "strict-cut",
                 "--python", spec, "--interface", "cs188")
    assert r.returncode == 2 and "--agents" in r.stderr


def test_an_illegal_action_is_named(tmp_path):
    prog = tmp_path / "multiAgents.py"
    prog.write_text("from game import Agent, Directions\n"
                    "class AlphaBetaAgent(Agent):\n"
                    "    def __init__(self, depth='2'):\n"
                    "        self.depth = int(depth)\n"
                    "    def getAction(self, state):\n"
                    "        state.generateSuccessor(0, Directions.STOP)\n")
    tree = load_folder(TESTS)[0].tree
    with PythonRoute(f"{prog}:AlphaBetaAgent", "cs188", timeout=20) as route:
        with pytest.raises(ProgramError, match="'Stop', which is not a legal action"):
            route.search(tree, depth=2, agents=2)


def test_trace_shows_the_agents_questions():
    spec = f"{cs188_agent('correct')}:AlphaBetaAgent"
    tree = str(TESTS.parent.parent.parent / "examples" / "courses" / "tied-root.tree")
    r = pyab_cli("trace", tree, "--python", spec, "--interface", "cs188", "--algorithm",
                 "strict-cut", "--agents", "2", "--depth", "2")
    assert r.returncode == 0, r.stderr
    assert "successor(max, min1) -> min1" in r.stdout and "outcome(A) -> win" in r.stdout
    r = pyab_cli("solve", tree, "--agents", "3", "--algorithm", "strict-cut", "--json")
    assert r.returncode == 0 and '"best": "min1"' in r.stdout.replace("'", '"'), r.stdout
