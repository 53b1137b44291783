"""Grading a ``cs188`` group: one test per CS188 ``GraphGameTreeTest``
file, judged as the course's grader judges it (states no successor
reaches left out, ``num_agents`` and ``depth`` from the file, ``action``
and ``generated`` from its ``.solution``), and, with the course's
``framework``, one per ``PacmanGameTreeTest`` with its ``.solution``,
played and scored as the course does (:mod:`pyab.referee.cs188_game`).
A failed graph test's replay carries the test itself."""

from __future__ import annotations

import math
import shlex
from pathlib import Path
from typing import Any

from ..errors import ProgramError
from ..tree import Tree
from .feedback import (MAX_TIMEOUTS, GroupResult, TestResult, _cannot_run, _clean, _draw,
                       _replay_program)
from .suite import Group, Suite


def _cs188_group(suite: Suite, g: Group, program: Path, routes: Any) -> GroupResult:
    """``routes``: the submission's routes (run._Routes), kept across its groups."""
    from ..referee.cs188 import action_of, generated, register
    from ..referee.protocol import SearchBug
    from ..referee.verdict import Settings, judge
    from ..trees.cs188 import load_folder
    tests = load_folder(str(g.cs188))
    graph = [t for t in tests if not t.skipped]
    results: list[TestResult] = []
    framework = suite.grader.framework
    games = [t for t in tests if t.cls == "PacmanGameTreeTest" and framework and t.solution]
    share = g.points / (len(graph) + len(games)) if graph or games else 0.0
    stopped, stop_kind, timeouts = "", "", 0  # a program that cannot run or keeps hanging
    for t in tests:
        if stopped and not t.skipped:  # one message for the group, not one a test
            results.append(TestResult(f"{g.name}: {t.name}", 0.0, share, "failed",
                                      f"not run: {stopped}", stop_kind, 0, 1))
            continue
        if any(t is x for x in games):
            results.append(_game(suite, g, program, routes.get(t.alg, "strict-cut"), t, share))
            continue
        if t.skipped:
            results.append(TestResult(f"{g.name}: {t.name}", 0.0, 0.0, "skipped",
                                      f"skipped: {t.skipped}", ""))
            continue
        tree = t.tree
        assert tree is not None  # not skipped
        register(tree, t.labels)
        route = routes.get(t.alg, t.algorithm)
        ref_best = _reference(tree, t.algorithm, t.plies).best
        lines, kind = [], ""
        try:
            if t.action is None or t.generated is None:  # no solution: the reference's
                v = judge(route, tree, -math.inf, math.inf,
                          Settings(t.algorithm, t.plies, ("generated",), t.agents))
                if v.error is not None:
                    raise v.error
                lines, kind = list(v.lines), ("disagree" if v.lines else "")
            else:
                yours = route.search(tree, depth=t.plies, agents=t.agents)
                got_action, got = yours.extra.get("action"), " ".join(sorted(generated(yours)))
                gold = " ".join(t.generated)
                if got_action != t.action:
                    lines.append(f"incorrect move for depth {t.rounds}:\n  yours:        "
                                 f"{got_action}\n  the solution: {t.action}")
                if got != gold:
                    lines.append(f"incorrect generated states for depth {t.rounds}:\n"
                                 f"  yours:        {got}\n  the solution: {gold}")
                kind = "disagree" if lines else ""
        except SearchBug as bug:  # a question only a wrong search asks
            lines, kind = [bug.reason], "disagree"
        except ProgramError as err:
            lines, kind = [f"your program failed ({err.kind}): {err.reason}"], err.kind
            timeouts += err.kind == "timeout"
            if _cannot_run(err):  # the same on every test: said once, without a tree
                stopped, stop_kind = "your program cannot run (see this group's first test)", err.kind
                lines = [f"your program cannot run ({err.kind}): {err.reason}"]
                results.append(TestResult(f"{g.name}: {t.name}", 0.0, share, "failed",
                                          _clean(lines[0], program, route.label), kind, 0, 1))
                continue
            if timeouts >= MAX_TIMEOUTS:
                stopped, stop_kind = f"{MAX_TIMEOUTS} searches of this group timed out", "timeout"
        if lines:
            drawn = _draw(tree, t.algorithm, -math.inf, math.inf, t.plies)
            replay = _replay(suite, program, t)
            from ..dsl import dump
            how = f", as the reference ({t.algorithm}) searches it" if drawn else ""
            head = (f"the tree ({t.agents} agents, depth {t.rounds} = {t.plies} plies){how}; "
                    f"the reference's action: {action_of(tree, ref_best)}:")
            picture = drawn or dump(tree).strip()
            lines += [head, "  " + picture.replace("\n", "\n  "), f"replay it:\n  {replay}"]
            if t.unreachable:
                lines.append(f"(left out as the course's grader does, since no successor "
                             f"reaches them: {' '.join(t.unreachable)})")
        output = _clean("\n".join(lines) if lines else "passed", program, route.label)
        results.append(TestResult(f"{g.name}: {t.name}", 0.0 if lines else share, share,
                                  "failed" if lines else "passed", output, kind,
                                  0 if lines else 1, 1))
    if g.all_or_nothing and any(r.status == "failed" for r in results):
        for r in results:
            r.score = 0.0
    return GroupResult(g.name, g.points, results)


def _game(suite: Suite, g: Group, program: Path, route: Any, t: Any, share: float) -> TestResult:
    """A PacmanGameTreeTest, played and scored as the course does, judged on
    pyab's side (:mod:`pyab.referee.cs188_game`)."""
    from ..referee.cs188_game import play
    name = f"{g.name}: {t.name}"
    passed, messages, kind = play(route, str(route.framework), t.keys, t.solution)
    output = "passed" if passed else "\n".join(messages)
    if not passed:
        output += ("\nreplay it in the course's project folder:\n  python autograder.py -t "
                   f"test_cases/{Path(t.path).parent.name}/{t.name}")
    kind = "" if passed else (kind or "disagree")
    return TestResult(name, share if passed else 0.0, share, "passed" if passed else "failed",
                      _clean(output, program, route.label), kind, int(passed), 1)


def _replay(suite: Suite, program: Path, t: Any) -> str:
    """The test itself, written beside the command that checks it: the
    student needs nothing else (num_agents and depth come from the file)."""
    text = Path(t.path).read_text(encoding="utf-8").rstrip("\n")
    end = "PYAB_TEST"
    while end in text:
        end += "_"
    name = f"{t.name}.test"
    words = ["pyab", "check", name, *_replay_program(suite.grader, program, t.alg)]
    if suite.grader.framework:
        words += ["--cs188-framework", "."]  # the student's own copy of the project
    return (f"cat > {shlex.quote(name)} <<'{end}'\n  " + text.replace("\n", "\n  ")
            + f"\n  {end}\n  {shlex.join(words)}")


def _reference(tree: Tree, algorithm: str, depth: int | None) -> Any:
    """The reference's search (minimax asking every node its side when a
    side moves twice in a row, as the verdict does)."""
    if algorithm == "minimax" and not tree.alternating:
        from ..referee.cs188 import minimax
        return minimax(tree, depth)
    from ..search import solve_python
    return solve_python(tree, algorithm, -math.inf, math.inf, depth)
