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
import json
import math
import random
import re
import shlex
import shutil
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


# -- the course's own folders and framework, as a teaching assistant has them --

CORRECT = cs188_agent("correct").read_text()
_CALL = "value(state.generateSuccessor(agent, a), nxt, deeper, alpha, beta)"
# Agents that run under the course: each a correct agent with one change, a
# mistake (the verdict must be the course's) or another year's API or habit
# (it must pass, as under the course).
COURSE_AGENTS = {
    "correct": [],
    "prune_equal": [("if v > beta:", "if v >= beta:"), ("if v < alpha:", "if v <= alpha:")],
    "root_tie_last": [("alpha, beta)\n            if v > best_v:",
                       "alpha, beta)\n            if v >= best_v:")],
    "fresh_window_per_ghost": [("v = min(v, " + _CALL + ")",
                                "v = min(v, value(state.generateSuccessor(agent, a), nxt, deeper, "
                                "*((alpha, beta) if nxt == 0 else (float('-inf'), float('inf')))))")],
    "sentinels_9999": [('float("-inf")', "-9999"), ('float("inf")', "9999")],
    "next_state_2021": [("generateSuccessor", "getNextState")],
    "child_2020": [("generateSuccessor", "generateChild")],
    "float_score": [("def scoreEvaluationFunction(currentGameState):\n",
                     "def scoreEvaluationFunction(currentGameState):\n"
                     "    assert isinstance(currentGameState.getScore(), float), 'not a float'\n")],
    "queues_and_grid": [("import util\n", "import util\nfrom util import PriorityQueue, Queue, "
                         "Stack, Counter, PriorityQueueWithFunction, manhattanDistance\n"
                         "from game import Grid, Directions, Actions, Configuration\n"),
                        ("        n = gameState.getNumAgents()\n\n        def value(state, agent, "
                         "depth, alpha, beta):",
                         "        n = gameState.getNumAgents()\n        q = PriorityQueue(); "
                         "q.push('x', 2); q.push('y', 1); assert q.pop() == 'y'\n        g = "
                         "Grid(2, 2); g[1][0] = True; assert g.asList() == [(1, 0)]\n        c = "
                         "Counter(); c['a'] += util.manhattanDistance((0, 0), (1, 2))\n\n"
                         "        def value(state, agent, depth, alpha, beta):")],
}
EXPECT_COURSE_FAILS = {"prune_equal": {"0-tied-root", "7-equal-prune"},
                       "root_tie_last": {"0-tied-root", "6-unreachable"},
                       "fresh_window_per_ghost": {"1-two-ghosts"},
                       "sentinels_9999": {"3-below-sentinels"}}

# A real tie at the root, and states no successor line reaches (as four of
# the course's own q3 tests have): the course's grader never visits them.
UNREACHABLE = '''class: "GraphGameTreeTest"
alg: "AlphaBetaAgent"
depth: "1"
num_agents: "2"
start_state: "p"
win_states: "a b"
lose_states: "c"
successors: """
p Left g1
p Right g2
g1 Down a
g2 Down b
orphan Left c
orphan Right g1
"""
evaluation: """
a 5
b 5
c -3
"""
'''
# Equality at a cut: g2's first leaf equals alpha (4), so a strict cut goes on.
EQUAL_PRUNE = UNREACHABLE.replace("g2 Down b\n", "g2 Down b\ng2 Up c\n").replace(
    "orphan Left c\norphan Right g1\n", "")


class _YearState(_State):
    """The course's tree state of the years that renamed the successor."""

    def generateSuccessor(self, agent, action):
        nxt = self.p["succ"][self.name][action]
        self.p["generated"].add(nxt)
        return _YearState(self.p, nxt)

    getNextState = generateChild = generateSuccessor


def _course_problem(path):
    """A .test file parsed as the course's grader parses it (every listed
    state kept, unreachable or not)."""
    from pyab.trees.cs188 import read_keys
    keys = {k: v for k, (v, _) in read_keys(path).items()}
    succ = {}
    for line in keys["successors"].split("\n"):
        if line.split():
            s, a, n = line.split()
            succ.setdefault(s, {})[a] = n
    evals = {s: float(v) for s, v in (line.split() for line in keys["evaluation"].split("\n")
                                      if line.split())}
    return keys, {"succ": succ, "eval": evals, "win": set(keys["win_states"].split()),
                  "lose": set(keys["lose_states"].split()), "agents": int(keys["num_agents"]),
                  "generated": {keys["start_state"]}}


def course_rule(mod, path):
    """(action, generated) as the course's grader computes it, or None."""
    keys, p = _course_problem(path)
    try:
        agent = getattr(mod, keys["alg"])(depth=int(keys["depth"]))
        action = agent.getAction(_YearState(p, keys["start_state"]))
    except Exception:
        return None
    return action, " ".join(sorted(p["generated"]))


def _agent_file(folder: Path, name: str) -> Path:
    text = CORRECT
    for old, new in COURSE_AGENTS[name]:
        assert old in text, (name, old)
        text = text.replace(old, new)
    d = folder / name
    d.mkdir()
    (d / "multiAgents.py").write_text(text)
    return d / "multiAgents.py"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A q3-shaped folder (its .solution files written by the correct agent
    under the course's rule, as the course's staff writes them) and agents."""
    root = tmp_path_factory.mktemp("course")
    q3 = root / "test_cases" / "q3"
    q3.mkdir(parents=True)
    for f in TESTS.glob("*.test"):
        (q3 / f.name).write_text(f.read_text())
    (q3 / "6-unreachable.test").write_text(UNREACHABLE)
    (q3 / "7-equal-prune.test").write_text(EQUAL_PRUNE)
    agents = {name: _agent_file(root, name) for name in COURSE_AGENTS}
    correct = _module_at(agents["correct"])
    for t in sorted(q3.glob("*.test")):
        if "GraphGameTreeTest" not in t.read_text():
            continue
        action, generated = course_rule(correct, t)
        t.with_suffix(".solution").write_text(f'action: "{action}"\ngenerated: "{generated}"\n')
    return root, q3, agents


def _module_at(path: Path):
    prepare()
    spec = importlib.util.spec_from_file_location(f"course_agent_{path.parent.name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_course_folder_is_graded_test_by_test_as_the_course_grades(course):
    from pyab.grade import grade_submission, load_suite
    root, q3, agents = course
    suite_file = root / "suite.toml"
    suite_file.write_text('[grader]\nroute = "python"\nentry = "AlphaBetaAgent"\n'
                          'interface = "cs188"\nalgorithm = "strict-cut"\ntimeout = 20\n\n'
                          '[[tests]]\nname = "q3"\npoints = 7\ncs188 = "test_cases/q3"\n')
    suite = load_suite(str(suite_file))
    graph = sorted(t.stem for t in q3.glob("*.test") if "GraphGameTreeTest" in t.read_text())
    assert len(graph) == 7 and "6-unreachable" in graph  # the course's own folder shape: accepted
    for name, path in agents.items():
        mod = _module_at(path)
        result = grade_submission(suite, path.parent, name)
        got = {t.name.removeprefix("q3: "): t for t in result.tests}
        assert sorted(n for n, t in got.items() if t.status != "skipped") == graph  # every one
        course_fails = set()
        for stem in graph:
            solution = read_solution(q3 / f"{stem}.solution")
            rule = course_rule(mod, q3 / f"{stem}.test")
            assert rule is not None, (name, stem)  # it runs under the course ...
            assert got[stem].kind in ("", "disagree"), (name, stem, got[stem].output)  # ... and here
            if rule != solution:
                course_fails.add(stem)
            assert (got[stem].status == "passed") == (rule == solution), (name, stem,
                                                                          got[stem].output)
        assert course_fails == EXPECT_COURSE_FAILS.get(name, set()), name
    bad = grade_submission(suite, agents["root_tie_last"].parent)
    out = next(t.output for t in bad.tests if t.name == "q3: 6-unreachable")
    # the replay carries the test itself and needs no --agents/--depth
    assert "cat > 6-unreachable.test <<'PYAB_TEST'" in out and "orphan Left c" in out
    assert "pyab check 6-unreachable.test --python multiAgents.py:AlphaBetaAgent" in out
    assert "--agents" not in out and "left out as the course's grader does" in out


def read_solution(path):
    from pyab.trees.cs188 import read_keys
    keys = read_keys(path)
    return keys["action"][0], keys["generated"][0]


def test_check_reads_a_test_file_as_the_course_does(course, tmp_path):
    root, q3, agents = course
    test = str(q3 / "6-unreachable.test")
    ok = pyab_cli("check", test, "--python", f"{agents['correct']}:AlphaBetaAgent",
                  "--interface", "cs188", "--verbose", "--json")
    assert ok.returncode == 0, ok.stdout + ok.stderr  # no --agents, --depth nor --algorithm
    assert "left out" in ok.stderr and "g1 orphan" not in ok.stderr and "c orphan" in ok.stderr
    assert '"algorithm": "strict-cut"' in ok.stdout and '"compare": "generated"' in ok.stdout
    bad = pyab_cli("check", test, "--python", f"{agents['root_tie_last']}:AlphaBetaAgent",
                   "--interface", "cs188", "--save-dir", str(tmp_path))
    assert bad.returncode == 1 and "g2 (value 5.0)" in bad.stdout, bad.stdout + bad.stderr


@pytest.mark.parametrize("call,kind", [
    ("state.getPacmanPosition()", "NoBoard: getPacmanPosition() asks about the Pacman board"),
    ("state.getFood().asList()", "NoBoard: getFood() asks about the Pacman board"),
])
def test_a_board_question_on_a_tree_is_said_in_words(tmp_path, call, kind):
    prog = tmp_path / "multiAgents.py"
    head, tail = CORRECT.split("class AlphaBetaAgent")
    prog.write_text(head + "class AlphaBetaAgent" + tail.replace(
        "        n = gameState.getNumAgents()\n", f"        n = gameState.getNumAgents()\n"
        f"        state = gameState\n        {call}\n", 1))
    tree = load_folder(TESTS)[0].tree
    with PythonRoute(f"{prog}:AlphaBetaAgent", "cs188", timeout=20) as route:
        with pytest.raises(ProgramError, match=re.escape(kind)) as err:
            route.search(tree, depth=2, agents=2)
    assert err.value.kind == "crash" and "AttributeError" not in err.value.reason
    assert "--cs188-framework DIR" in err.value.reason


def test_every_successor_name_of_every_year_is_answered(tmp_path):
    tree = load_folder(TESTS)[0].tree
    for root_call in ("generatePacmanSuccessor(a)", "getPacmanNextState(a)",
                      "generatePacmanChild(a)", "getNextState(0, a)", "generateChild(0, a)"):
        prog = tmp_path / f"{root_call.split('(')[0]}.py"
        prog.write_text(CORRECT.replace(
            "value(gameState.generateSuccessor(0, a), 1 % n", f"value(gameState.{root_call}, 1 % n")
            .replace("gameState.getLegalActions(0):\n            v", "gameState.getLegalPacmanActions():"
                     "\n            v"))
        with PythonRoute(f"{prog}:AlphaBetaAgent", "cs188", timeout=20) as route:
            v = judge(route, tree, -math.inf, math.inf, Settings("strict-cut", 2, ("generated",), 2))
        assert v.status == "agree", (root_call, v.lines, v.error)


FRAMEWORK_GAME = '''class Agent:
    def __init__(self, index=0):
        self.index = index


class Grid:
    def __init__(self, width, height):
        self.data = [[False] * height for _ in range(width)]
'''


def _framework(root: Path) -> Path:
    fw = root / "multiagent"
    (fw / "test_cases" / "q3").mkdir(parents=True)
    shutil.copyfile(HERE / "cs188_course" / "util.py", fw / "util.py")  # MARK = "course"
    (fw / "game.py").write_text(FRAMEWORK_GAME)
    (fw / "pacman.py").write_text("class GameState:\n    pass\n")
    (fw / "layout.py").write_text("LAYOUT = 'course'\n")
    (fw / "multiAgents.py").write_text("SOLUTION = 'the staff solution'\n")
    (fw / "test_cases" / "q3" / "secret.solution").write_text('action: "Left"\n')
    return fw


# The agent proves where it runs: the course's modules, a read-only copy with
# nothing else beside it (no test cases, no course multiAgents.py).
FRAMEWORK_AGENT = CORRECT.replace("import util\n", '''import os
import util
import layout
from util import PriorityQueue
from game import Grid
here = os.path.dirname(os.path.abspath(util.__file__))
assert util.MARK == "course" and layout.LAYOUT == "course", "not the course's modules"
assert sorted(os.listdir(here)) in (["game.py", "layout.py", "pacman.py", "util.py"],
                                    ["__pycache__", "game.py", "layout.py", "pacman.py", "util.py"]), os.listdir(here)
assert not os.stat(os.path.join(here, "util.py")).st_mode & 0o222, "the copy is writable"
''')


def test_the_course_framework_replaces_the_stand_in(course, tmp_path):
    from pyab.grade import grade_submission, load_suite
    root, q3, agents = course
    fw = _framework(tmp_path)
    sub = tmp_path / "alice"
    sub.mkdir()
    (sub / "multiAgents.py").write_text(FRAMEWORK_AGENT)
    test = str(q3 / "1-two-ghosts.test")
    spec = f"{sub / 'multiAgents.py'}:AlphaBetaAgent"
    r = pyab_cli("check", test, "--python", spec, "--interface", "cs188",
                 "--cs188-framework", str(fw))
    assert r.returncode == 0, r.stdout + r.stderr
    r = pyab_cli("check", test, "--python", spec, "--interface", "cs188")  # pyab's stand-in
    assert r.returncode == 3 and "No module named 'layout'" in r.stderr  # it is not the course's
    suite_file = tmp_path / "suite.toml"
    suite_file.write_text(f'[grader]\nroute = "python"\nentry = "AlphaBetaAgent"\n'
                          f'interface = "cs188"\nframework = "multiagent"\ntimeout = 20\n\n'
                          f'[[tests]]\nname = "q3"\npoints = 7\ncs188 = "{q3}"\n')
    result = grade_submission(load_suite(str(suite_file)), sub)
    graded = [t for t in result.tests if t.status != "skipped"]
    assert len(graded) == 7 and all(t.status == "passed" for t in graded), \
        [t.output for t in graded if t.status != "passed"]
    (tmp_path / "not-a-course").mkdir()
    r = pyab_cli("check", test, "--python", spec, "--interface", "cs188",
                 "--cs188-framework", str(tmp_path / "not-a-course"))
    assert r.returncode == 2 and "not the course's project folder" in r.stderr


GAME_TEST = '''class: "PacmanGameTreeTest"
alg: "AlphaBetaAgent"
seed: "1"
depth: "2"
max_points: "4"
layoutName: "corridor"
layout: """
%%%%%%%
%.P..G%
%.%%%.%
%G...%%
%%%%%%%
"""
'''
GAME_FRAMEWORK = HERE / "cs188_course"
GAME_RULE = HERE / "cs188_game_rule.py"


def _game_rule(*args) -> dict:
    import subprocess
    import sys
    r = subprocess.run([sys.executable, str(GAME_RULE), *map(str, args)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout) if r.stdout.strip() else {}


def test_the_game_test_is_graded_through_the_framework_as_the_course_scores_it(tmp_path):
    import shutil
    from pyab.grade import grade_submission, load_suite
    fw = tmp_path / "multiagent"
    shutil.copytree(GAME_FRAMEWORK, fw)
    (fw / "multiAgents.py").write_text("SOLUTION = 'the staff solution'\n")  # never copied
    q3 = fw / "test_cases" / "q3"
    q3.mkdir(parents=True)
    for f in ("1-two-ghosts", "6-unreachable"):
        src = TESTS / f"{f}.test"
        (q3 / f"{f}.test").write_text(src.read_text() if src.is_file() else UNREACHABLE)
    (q3 / "8-pacman-game.test").write_text(GAME_TEST)
    # the solutions, as the course's staff writes them
    _game_rule(fw, q3 / "8-pacman-game.test", cs188_agent("correct"), cs188_agent("depth_plies"),
               "--write")
    correct = _module("correct")
    for t in ("1-two-ghosts", "6-unreachable"):
        action, generated = course_rule(correct, q3 / f"{t}.test")
        (q3 / f"{t}.solution").write_text(f'action: "{action}"\ngenerated: "{generated}"\n')
    suite_file = tmp_path / "suite.toml"
    suite_file.write_text('[grader]\nroute = "python"\nentry = "AlphaBetaAgent"\n'
                          'interface = "cs188"\nframework = "multiagent"\ntimeout = 20\n\n'
                          '[[tests]]\nname = "q3"\npoints = 3\n'
                          'cs188 = "multiagent/test_cases/q3"\n')
    suite = load_suite(str(suite_file))
    verdicts = {}
    for name in ["correct", "prune_equal", "root_tie_last", "ghosts_not_chained", "depth_plies",
                 "window_9999"]:
        sub = tmp_path / name
        sub.mkdir()
        shutil.copyfile(cs188_agent(name), sub / "multiAgents.py")
        rule = _game_rule(fw, q3 / "8-pacman-game.test", sub / "multiAgents.py")
        result = grade_submission(suite, sub, name)
        game = next(t for t in result.tests if t.name == "q3: 8-pacman-game")
        assert len(result.tests) == 3 and all(t.status != "skipped" for t in result.tests)
        assert (game.status == "passed") == rule["passed"], (name, rule, game.output)
        assert game.kind in ("", "disagree"), (name, game.output)  # none crashes
        verdicts[name] = game.status
    assert verdicts["correct"] == "passed" and verdicts["depth_plies"] == "failed"
    assert verdicts["root_tie_last"] == "failed" and verdicts["prune_equal"] == "failed"
    # without the framework the game test is skipped, saying how to grade it
    suite_file.write_text(suite_file.read_text().replace('framework = "multiagent"\n', ""))
    result = grade_submission(load_suite(str(suite_file)), tmp_path / "correct")
    game = next(t for t in result.tests if t.name == "q3: 8-pacman-game")
    assert game.status == "skipped" and "framework" in game.output


def test_a_framework_that_cannot_play_the_game_is_said(tmp_path):
    import shutil
    from pyab.grade import grade_submission, load_suite
    fw = tmp_path / "multiagent"
    shutil.copytree(GAME_FRAMEWORK, fw)
    (fw / "ghostAgents.py").unlink()
    q3 = tmp_path / "q3"
    q3.mkdir()
    (q3 / "8-pacman-game.test").write_text(GAME_TEST)
    (q3 / "8-pacman-game.solution").write_text(
        'optimalActions: """\n[[["East"], 1]]\n"""\naltDepthActions: """\n[["East"]]\n"""\n'
        'partialPlyBugActions: """\n[["East"]]\n"""\n')
    suite_file = tmp_path / "suite.toml"
    suite_file.write_text('[grader]\nroute = "python"\nentry = "AlphaBetaAgent"\n'
                          'interface = "cs188"\nframework = "multiagent"\ntimeout = 20\n\n'
                          '[[tests]]\nname = "q3"\npoints = 1\ncs188 = "q3"\n')
    sub = tmp_path / "alice"
    sub.mkdir()
    shutil.copyfile(cs188_agent("correct"), sub / "multiAgents.py")
    result = grade_submission(load_suite(str(suite_file)), sub)
    (test,) = result.tests
    assert test.status == "failed" and test.kind == "setup", test
    assert "could not be played" in test.output and "ghostAgents" in test.output


def test_an_agents_search_is_drawn_as_returning_an_action():
    from pyab.result import Result, value_words
    r = Result("g1", None, (), (), (), "its own process", "yours", extra={"action": "Left"})
    assert value_words(r) == "it returns an action (Left), no value"
    assert "Val = None" not in value_words(r._replace(extra={}))
