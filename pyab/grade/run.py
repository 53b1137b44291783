"""Grading one submission: every group of the suite, tree by tree, with
the referee (a route to the submission, pyab's reference, the verdict).

A random or trees group is one test worth its points times the share of
its trees passed (all or nothing with ``all_or_nothing``).  A cs188 group
is one test per ``GraphGameTreeTest`` file, sharing the group's points; a
file with a ``.solution`` is judged as the course's grader judges it (the
same action and the same set of generated states as the solution), one
without against the reference.  Other classes are listed as skipped.

A failed test's ``output`` is written for the student: the first failure
shrunk to a small tree and drawn as the reference searches it, what the
submission did against the reference, and the command that replays it;
it names no grader path and nothing of another submission.
"""

from __future__ import annotations

import functools
import math
import random
import shlex
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from pathlib import Path
from typing import Any, Callable

from ..tree import Number, Tree
from .cs188 import _cs188_group
from .feedback import GroupResult, TestResult, _clean, _draw, _replay_program
from .suite import Group, Grader, Suite

__all__ = ["GroupResult", "SubmissionResult", "TestResult", "grade_path", "grade_submission",
           "program_file"]

SHRINK_BUDGET = 400   # searches spent shrinking a group's first failure
SHRINK_SECONDS = 30.0  # and at most about this long (a slow program costs its timeout a try)
MAX_TIMEOUTS = 3      # a group stops after this many timed-out searches (the rest fail)
NO_SHRINK = ("timeout", "limit", "refused")


@dataclass
class SubmissionResult:
    name: str
    groups: list[GroupResult] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""         # the submission could not be graded at all (no file ...)

    @property
    def tests(self) -> list[TestResult]:
        return [t for g in self.groups for t in g.tests]

    @property
    def score(self) -> float:
        return round(sum(g.score for g in self.groups), 6)

    @property
    def max_score(self) -> float:
        return sum(g.points for g in self.groups)

    @property
    def first_failure(self) -> str:
        return next((t.kind for t in self.tests if t.status == "failed"), "")


# -- the submission's program ------------------------------------------------

_SUFFIX = {"python": ".py", "program": ".pl", "exec": ""}


def program_file(grader: Grader, submission: str | Path) -> Path:
    """The file to grade: the submission itself, or in a folder the
    grader's ``file``, else ``multiAgents.py`` for cs188, else its only
    file of the route's kind.  :raises ValueError: saying what is missing."""
    p = Path(submission)
    if p.is_file():
        return p
    if not p.is_dir():
        raise ValueError(f"no submission at {p.name}")
    if grader.file:
        if not (p / grader.file).is_file():
            raise ValueError(f"the submission has no {grader.file}")
        return p / grader.file
    if grader.interface == "cs188" and (p / "multiAgents.py").is_file():
        return p / "multiAgents.py"
    suffix = _SUFFIX[grader.route]
    found = sorted(f for f in p.iterdir() if f.is_file() and f.suffix == suffix) if suffix else []
    if len(found) != 1:
        raise ValueError(f"the submission folder has {len(found)} {suffix or 'program'} files; "
                         "say which with file = \"NAME\" in [grader]")
    return found[0]


def _route(grader: Grader, program: Path, entry: str, algorithm: str) -> Any:
    """The route to the submission; ``untrusted`` is passed on (every
    route then runs its child in the operating-system sandbox)."""
    from ..referee import ExecRoute, PrologRoute, PythonRoute
    kw: dict[str, Any] = {"timeout": grader.timeout, "memory_mb": grader.memory,
                          "untrusted": grader.untrusted}
    cls: Any
    args: tuple
    if grader.route == "python":
        cls, args = PythonRoute, (f"{program}:{entry}", grader.interface, grader.framework)
    elif grader.route == "exec":
        cls, args = ExecRoute, (grader.entry.replace("{file}", shlex.quote(str(program))),)
    else:
        cls, args = PrologRoute, (str(program), algorithm)
    route = cls(*args, **kw)
    route.label = "yours"  # what the student reads names no path
    return route


# -- groups --------------------------------------------------------------------

def _bound(x: Number) -> str:
    from ..prolog.facts import number
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return number(x)


def _settings(suite: Suite, g: Group, algorithm: str) -> Any:
    """The verdict's settings for a group: its algorithm, depth, agents and
    comparison (CS188 agents: the course's rule, ``generated``)."""
    from ..referee.verdict import Settings, parse_compare
    cs188 = suite.grader.interface == "cs188"
    compare = parse_compare(g.compare or suite.grader.compare or ("generated" if cs188 else "all"))
    return Settings(algorithm, g.depth, compare, g.agents)


def _trees(suite: Suite, g: Group) -> list[tuple[str, Tree, Number, Number]]:
    """(label, tree, alpha, beta) for a random or trees group: made (or
    read) once a process and shared by every submission it grades."""
    windows = "full" if suite.grader.interface in ("aima", "cs188") else g.windows
    if g.trees:
        files = tuple((f, *_stamp(f)) for f in g.trees)
        return _tree_files(files)
    return _random_trees(g.seed, g.random or 0, g.tree_depth, g.branching, g.values, g.ragged,
                         g.agents, g.depth is not None, windows)


def _stamp(path: str) -> tuple[int, int]:
    st = Path(path).stat()
    return st.st_mtime_ns, st.st_size


@functools.lru_cache(maxsize=16)
def _tree_files(files: tuple) -> list[tuple[str, Tree, Number, Number]]:
    from ..dsl import load
    return [(Path(f).name, load(f), -math.inf, math.inf) for f, *_ in files]


@functools.lru_cache(maxsize=16)
def _random_trees(seed: Any, n: int, depth: Any, branching: Any, values: Any, ragged: Any,
                  agents: Any, inner_values: bool, windows: str) -> list[tuple[str, Tree, Number, Number]]:
    from ..trees.randomtrees import Shape, random_tree, random_window
    shape = Shape(depth=depth, branching=branching, values=values, leaf_chance=ragged,
                  agents=agents, inner_values=inner_values)
    rng = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        tree = random_tree(rng, shape)
        alpha, beta = random_window(rng, tree, windows)
        out.append((f"random tree {i}", tree, alpha, beta))
    return out


# Failures that come before any search, the same on every tree (a Python
# file that fails to import, a Prolog file that fails to load, a command
# that cannot start): the group stops at the first.
_BEFORE_ANY_SEARCH = ("importing ", "the program could not be loaded", "cannot start ")


def _cannot_run(err: Any) -> bool:
    return err.kind == "refused" or any(s in err.reason for s in _BEFORE_ANY_SEARCH)


def _score(g: Group, points: float, passed: int, total: int) -> float:
    if total == 0:
        return 0.0
    if g.all_or_nothing:
        return points if passed == total else 0.0
    return round(points * passed / total, 4)


class _Routes:
    """A submission's routes, one a (entry, algorithm), opened when first
    needed and kept across its groups (one child, started once), closed
    together when the submission is done."""

    def __init__(self, grader: Grader, program: Path) -> None:
        self.grader, self.program = grader, program
        self.open: dict[tuple[str, str], Any] = {}

    def get(self, entry: str, algorithm: str) -> Any:
        key = (entry, algorithm)
        if key not in self.open:
            self.open[key] = _route(self.grader, self.program, entry, algorithm)
        return self.open[key]

    def close(self) -> None:
        for route in self.open.values():
            route.close()
        self.open.clear()


def _random_group(suite: Suite, g: Group, program: Path, routes: _Routes) -> GroupResult:
    from ..dsl import dump
    from ..referee.report import _compared
    from ..referee.shrink import shrink
    from ..referee.checking import with_next
    from ..referee.verdict import judge, reference_label
    grader = suite.grader
    algorithm = g.algorithm or grader.algorithm
    route = routes.get(grader.entry, algorithm)
    settings = _settings(suite, g, algorithm)
    ref_label = reference_label(algorithm, settings.compare)
    passed = total = timeouts = 0
    first: tuple[str, Any] | None = None  # (label, verdict)
    stopped = ""
    planned = len(g.trees) if g.trees else (g.random or 0)
    for (label, tree, alpha, beta), upcoming in with_next(_trees(suite, g)):
        if upcoming is not None:
            route.ahead(*upcoming[1:], depth=settings.depth, agents=settings.agents)
        total += 1
        v = judge(route, tree, alpha, beta, settings)
        if v.status == "agree":
            passed += 1
            continue
        if first is None:
            first = (label, v)
        err = v.error
        if err is not None and _cannot_run(err):
            stopped = "it cannot run at all"
            break
        timeouts += err is not None and err.kind == "timeout"
        if timeouts >= MAX_TIMEOUTS:
            stopped = f"{MAX_TIMEOUTS} searches timed out"
            break
    shrunk = None
    if first is not None and first[1].kind not in NO_SHRINK:
        shrunk = shrink(first[1], lambda t, a, b: judge(route, t, a, b, settings), "all",
                        budget=SHRINK_BUDGET, seconds=SHRINK_SECONDS)
    values = g.values if isinstance(g.values, str) else f"{g.values[0]}:{g.values[1]}"
    what = (f"{len(g.trees)} tree files" if g.trees else
            f"{g.random} random trees (seed {g.seed}"
            + (f", {g.agents} agents" if g.agents else "")
            + (f", depth {g.depth} plies" if g.depth is not None else "")
            + (f", values {values}" if g.values != (-9, 9) else "") + ")")
    compared = _compared(SimpleNamespace(options=SimpleNamespace(compare=settings.compare),
                                         route=route))
    lines = [f"passed {passed} of {what}; compared with {ref_label}: {compared}"]
    kind = ""
    if first is not None:
        label, v = first
        kind = "disagree" if v.status == "disagree" else v.kind
        if stopped:
            lines.append(f"stopped after {total} trees: {stopped}; the other trees count as failed")
        lines.append(f"first failure: {label}, window {_bound(v.alpha)} .. {_bound(v.beta)}")
        if v.error is not None:
            lines.append(f"  your program failed ({v.error.kind}): {v.error.reason}")
        if shrunk is not None and shrunk.reproduced:
            v = shrunk.verdict
            lines.append(f"the smallest tree found that still fails ({len(v.tree)} nodes), "
                         f"window {_bound(v.alpha)} .. {_bound(v.beta)}:")
        else:
            lines.append(f"the tree ({len(v.tree)} nodes):")
        text = dump(v.tree).strip()
        lines.append("  " + text.replace("\n", "\n  "))
        drawn = _draw(v.tree, algorithm, v.alpha, v.beta, g.depth)
        if drawn:
            lines.append(f"how the reference ({algorithm}) searches it:")
            lines.append("  " + drawn.replace("\n", "\n  "))
        if v.status == "disagree" and v.lines:
            lines.append("what yours did against the reference:")
            lines += ["  " + d.replace("\n", "\n  ") for d in v.lines]
        words = ["pyab", "check", "counterexample.tree",
                 *_replay_program(grader, program, grader.entry),
                 "--algorithm", algorithm]
        if g.depth is not None:
            words += ["--depth", str(g.depth)]
        if g.agents:
            words += ["--agents", str(g.agents)]
        if (v.alpha, v.beta) != (-math.inf, math.inf):
            words += [f"--alpha={_bound(v.alpha)}", f"--beta={_bound(v.beta)}"]
        if settings.compare != ("all",):
            words += ["--compare", ",".join(settings.compare)]
        lines.append("replay it:")
        lines.append(f"  cat > counterexample.tree <<'EOF'\n  {text}\n  EOF\n  {shlex.join(words)}")
    output = _clean("\n".join(lines), program, route.label)
    score = _score(g, g.points, passed, planned)
    status = "passed" if passed == planned else "failed"
    test = TestResult(g.name, score, g.points, status, output, kind, passed, planned)
    return GroupResult(g.name, g.points, [test])


def grade_submission(suite: Suite, submission: str | Path, name: str | None = None,
                     progress: Callable[[str], None] | None = None) -> SubmissionResult:
    """Every group of ``suite`` on one submission (a file or a folder)."""
    start = time.perf_counter()
    result = SubmissionResult(name or Path(submission).stem)
    try:
        program = program_file(suite.grader, submission)
    except ValueError as err:
        result.error = str(err)
        result.groups = [GroupResult(g.name, g.points, [TestResult(
            g.name, 0.0, g.points, "failed", f"not graded: {err}", "missing")])
            for g in suite.tests]
        return result
    from ..errors import Error
    routes = _Routes(suite.grader, program)
    try:
        for g in suite.tests:
            if progress:
                progress(g.name)
            try:
                group = (_cs188_group if g.cs188 else _random_group)(suite, g, program, routes)
            except (Error, OSError, ValueError) as err:  # one group's trouble: the others go on
                why = _clean(f"could not be graded: {err}", program, "")
                group = GroupResult(g.name, g.points, [TestResult(g.name, 0.0, g.points, "failed",
                                                                  why, "error")])
            result.groups.append(group)
    finally:
        routes.close()
    result.seconds = time.perf_counter() - start
    return result


def grade_path(suite_path: str, submission: str, name: str | None = None) -> SubmissionResult:
    """:func:`grade_submission` with the suite read from ``suite_path``: what
    a worker process runs (``--jobs``, a Dask worker), since a suite's CS188
    trees keep their labels only in the process that read them."""
    from .suite import load_suite
    return grade_submission(load_suite(suite_path), submission, name)
