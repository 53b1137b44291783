"""Grading one submission: every group of the suite, with the referee's
loop (pyab.referee.checking.run: a route to the submission, pyab's
reference, the verdict), behind a fault barrier: whatever the submission
does, it gets its row.

A random or trees group is one test worth its points times the share of
its trees passed (all or nothing with ``all_or_nothing``); a cs188 group
is graded in :mod:`pyab.grade.cs188`.  Each group is rounded once
(:func:`apportion`).

A failed test's ``output`` is written for the student: the first failure
shrunk to a small tree and drawn as the reference searches it, what the
submission did against the reference, and the command that replays it;
it names no grader path and nothing of another submission.
"""

from __future__ import annotations

import math
import shlex
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from types import SimpleNamespace
from pathlib import Path
from typing import Any, Callable

from ..errors import Error, ProgramError
from ..text import capped
from ..tree import Number
from .cs188 import _cs188_group
from .feedback import (MAX_TIMEOUTS, GroupResult, TestResult, _cannot_run, _clean, _draw,
                       _replay_program)
from .suite import Group, Grader, Suite

__all__ = ["GroupResult", "Refused", "SubmissionResult", "TestResult", "grade_path",
           "grade_submission", "program_file"]

SHRINK_BUDGET = 400   # searches spent shrinking a group's first failure
SHRINK_SECONDS = 30.0  # and at most about this long (a slow program costs its timeout a try)
STARTUP = 5.0         # seconds a child's start-up may take on top of its first search's timeout
DECIMALS = 4          # a test's score is rounded once, to this; the total is their sum
UNIT = 10 ** DECIMALS  # points are whole ten-thousandths, so that sums are exact


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
        return round(sum(t.score for t in self.tests), DECIMALS)  # each test rounded already

    @property
    def max_score(self) -> float:
        return sum(g.points for g in self.groups)

    @property
    def first_failure(self) -> str:
        return next((t.kind for t in self.tests if t.status == "failed"), "")

    @property
    def internal(self) -> bool:
        """pyab itself failed while judging it (the run's exit code is 3)."""
        return any(t.kind == "internal" for t in self.tests)

    def to_json(self) -> dict[str, Any]:
        """Everything, for ``--resume`` to read back (:meth:`from_json`)."""
        return {"name": self.name, "seconds": self.seconds, "error": self.error,
                "groups": [{"name": g.name, "points": g.points,
                            "tests": [vars(t) for t in g.tests]} for g in self.groups]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SubmissionResult":
        groups = [GroupResult(g["name"], g["points"], [TestResult(**t) for t in g["tests"]])
                  for g in data["groups"]]
        return cls(data["name"], groups, data.get("seconds", 0.0), data.get("error", ""))


class Refused(Error, ValueError):
    """The submission is refused: its program file is a link leaving its folder."""


# -- the submission's program ------------------------------------------------

_SUFFIX = {"python": ".py", "program": ".pl", "exec": ""}


def program_file(grader: Grader, submission: str | Path) -> Path:
    """The file to grade: the submission itself, or in a folder the
    grader's ``file``, else ``multiAgents.py`` for cs188, else its only
    file of the route's kind.  :raises ValueError: saying what is missing;
    :class:`Refused` when that file is a link leaving the folder (a file
    named as the submission itself is the grader's choice: not refused)."""
    p = Path(submission)
    if p.is_file():
        return p
    found = _program_in(grader, p)
    _inside(p, found)
    return found


def _inside(folder: Path, path: Path) -> None:
    """Refuse ``path`` when it is a link (or under a link) leading out of ``folder``."""
    real, home = path.resolve(), folder.resolve()
    if real != home and home not in real.parents:
        raise Refused(f"{path.relative_to(folder)} is a symbolic link leaving the submission "
                      "folder; a submission is graded on its own files only")


def _program_in(grader: Grader, p: Path) -> Path:
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


def _route(grader: Grader, program: Path, entry: str, algorithm: str,
           folder: Path | None = None) -> Any:
    """The route to the submission; ``untrusted`` is passed on (every
    route then runs its child in the operating-system sandbox).  The exec
    route sees ``folder``, the submission's (its program's by default)."""
    from ..referee import ExecRoute, PrologRoute, PythonRoute
    kw: dict[str, Any] = {"timeout": grader.timeout, "memory_mb": grader.memory,
                          "untrusted": grader.untrusted}
    cls: Any
    args: tuple
    if grader.route != "program":  # the timeout is the search's: start-up has its own
        kw["startup"] = STARTUP
    if grader.route == "python":
        cls, args = PythonRoute, (f"{program}:{entry}", grader.interface, grader.framework)
    elif grader.route == "exec":
        cls, args = ExecRoute, (grader.entry.replace("{file}", shlex.quote(str(program))),)
        kw["folder"] = str(folder or program.parent)
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


CANNOT_RUN = "it cannot run at all"


def _cannot_run_group(g: Group, v: Any, program: Path, label: str) -> GroupResult:
    """A program that cannot run: one short message, no tree (the same on every tree)."""
    err = v.error
    text = _clean(f"your program cannot run ({err.kind}): {capped(err.reason, 600)}", program, label)
    return GroupResult(g.name, g.points, [TestResult(g.name, 0.0, g.points, "failed", text,
                                                     err.kind, 0, len(g.trees) or (g.random or 0))])


def _score(g: Group, points: float, passed: int, total: int) -> float:
    if total == 0:
        return 0.0
    if g.all_or_nothing:
        return points if passed == total else 0.0
    return points * passed / total  # rounded once, with every test (grade_submission)


class _Routes:
    """A submission's routes, one a (entry, algorithm), opened when first
    needed and kept across its groups (one child, started once), closed
    together when the submission is done."""

    def __init__(self, grader: Grader, program: Path, folder: Path | None = None) -> None:
        self.grader, self.program, self.folder = grader, program, folder
        self.open: dict[tuple[str, str], Any] = {}

    def get(self, entry: str, algorithm: str) -> Any:
        key = (entry, algorithm)
        if key not in self.open:
            self.open[key] = _route(self.grader, self.program, entry, algorithm, self.folder)
        return self.open[key]

    def close(self) -> None:
        for route in self.open.values():
            route.close()
        self.open.clear()


class _CannotRun(Error):
    """The program fails before any search: the group ends at once."""

    def __init__(self, verdict: Any) -> None:
        self.verdict = verdict


def _options(suite: Suite, g: Group, algorithm: str) -> Any:
    """The referee's options for a random or trees group: every tree
    judged (failures counted), the first failure shrunk within the
    group's budget, nothing saved."""
    from ..referee.checking import CheckOptions
    settings = _settings(suite, g, algorithm)
    return CheckOptions(
        algorithm=algorithm, depth=g.depth, compare=settings.compare, agents=g.agents,
        keep_going=True, save_dir=None, files=tuple(g.trees or ()),
        random=None if g.trees else (g.random or 0), seed=g.seed, tree_depth=g.tree_depth,
        branching=g.branching, values=g.values, ragged=g.ragged,
        windows="full" if suite.grader.interface in ("aima", "cs188") else g.windows,
        count_failures=True, shrink_budget=SHRINK_BUDGET, shrink_seconds=SHRINK_SECONDS)


# A group's random trees and the reference's results on them, made once a
# process and shared by every submission it grades (each submission's
# every tree is still searched by its program and compared); the last few
# groups' are kept.
_SHARED: "OrderedDict[tuple, tuple[list[Any], Any]]" = OrderedDict()
SHARED_GROUPS = 8
_SHARED_LOCK = threading.Lock()


def _shared_cases(options: Any, interface: str) -> tuple[list[Any] | None, Any]:
    """The cases of a random group (None for tree files: read each time)
    and the :class:`~pyab.referee.verdict.References` on them."""
    from ..referee.checking import random_cases
    from ..referee.verdict import References
    if options.random is None:
        return None, References(())
    window_for = "full" if interface in ("aima", "cs188") else None
    key = (options.random, options.seed, options.tree_depth, options.branching, options.values,
           options.decimals, options.ragged, options.agents, options.depth is not None,
           options.windows, window_for)
    with _SHARED_LOCK:  # a Dask worker grades in threads
        if key in _SHARED:
            _SHARED.move_to_end(key)
            return _SHARED[key]
    cases = list(random_cases(options, window_for))
    made = cases, References(c.tree for c in cases if c.tree is not None)
    with _SHARED_LOCK:
        made = _SHARED.setdefault(key, made)
        while len(_SHARED) > SHARED_GROUPS:
            _SHARED.popitem(last=False)
    return made


def _random_group(suite: Suite, g: Group, program: Path, routes: _Routes) -> GroupResult:
    """A random or trees group, through the referee's own loop
    (:func:`pyab.referee.checking.run`)."""
    from ..dsl import dump
    from ..referee import checking
    from ..referee.report import _compared
    from ..referee.verdict import reference_label, sharing
    grader = suite.grader
    algorithm = g.algorithm or grader.algorithm
    route = routes.get(grader.entry, algorithm)
    options = _options(suite, g, algorithm)
    settings = options.settings
    ref_label = reference_label(algorithm, settings.compare)
    timeouts = 0

    def stop(v: Any) -> str:
        nonlocal timeouts
        err = v.error
        if err is not None and _cannot_run(err):
            raise _CannotRun(v)
        timeouts += err is not None and err.kind == "timeout"
        return f"{MAX_TIMEOUTS} searches timed out" if timeouts >= MAX_TIMEOUTS else ""

    cases, refs = _shared_cases(options, route.interface)
    try:
        with sharing(refs):
            report = checking.run(route, options, stop=stop, keep_open=True, cases=cases)
    except _CannotRun as cannot:
        return _cannot_run_group(g, cannot.verdict, program, route.label)
    planned = len(g.trees) if g.trees else (g.random or 0)
    passed = report.checked - report.disagreements - report.failures
    total, stopped, shrunk = report.checked, report.stopped, report.shrunk
    first = None
    if report.first is not None and report.first_case is not None:
        case = report.first_case
        first = (Path(case.source).name if case.source else f"random tree {case.number}",
                 report.first)
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
            lines.append(f"  your program failed ({v.error.kind}): {capped(v.error.reason)}")
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
        replay = checking.command(
            ["pyab", "check", "counterexample.tree", *_replay_program(grader, program, grader.entry)],
            [*options.verdict_flags(), ("--alpha", None if v.alpha == -math.inf else _bound(v.alpha)),
             ("--beta", None if v.beta == math.inf else _bound(v.beta))])
        lines.append("replay it:")
        lines.append(f"  cat > counterexample.tree <<'EOF'\n  {text}\n  EOF\n  {replay}")
    output = _clean("\n".join(lines), program, route.label)
    score = _score(g, g.points, passed, planned)
    status = "passed" if passed == planned else "failed"
    test = TestResult(g.name, score, g.points, status, output, kind, passed, planned)
    return GroupResult(g.name, g.points, [test])


def grade_submission(suite: Suite, submission: str | Path, name: str | None = None,
                     progress: Callable[[str], None] | None = None) -> SubmissionResult:
    """Every group of ``suite`` on one submission (a file or a folder).
    A fault barrier: whatever the submission does, it gets its row; pyab's
    own failure on one group is that group's test of kind ``internal``."""
    start = time.perf_counter()
    result = SubmissionResult(name or Path(submission).stem)
    try:
        program = program_file(suite.grader, submission)
    except ValueError as err:
        result.error = str(err)
        kind = "refused" if isinstance(err, Refused) else "missing"
        result.groups = [GroupResult(g.name, g.points, [TestResult(
            g.name, 0.0, g.points, "failed", f"not graded: {err}", kind)])
            for g in suite.tests]
        return result
    folder = Path(submission) if Path(submission).is_dir() else None
    from ..referee.sandbox import settings
    restore = settings(suite.grader.disk, suite.grader.modules)  # the suite's sandbox keys
    routes = _Routes(suite.grader, program, folder)
    try:
        for g in suite.tests:
            if progress:
                progress(g.name)
            try:
                group = (_cs188_group if g.cs188 else _random_group)(suite, g, program, routes)
            except Exception as err:  # one group's trouble: the others go on
                routes.close()  # a child in an unknown state is not reused
                group = _failed_group(g, err, program)
            apportion(group)
            result.groups.append(group)
    finally:
        routes.close()
        restore()
    result.seconds = time.perf_counter() - start
    return result


def apportion(group: GroupResult) -> None:
    """Round a group's tests once, to whole ten-thousandths, so that their
    ``max_score``s sum exactly to the group's points (the largest remainders
    get what rounding leaves over: seven tests sharing 6 points are one of
    0.8572 and six of 0.8571) and a passed test earns exactly its maximum."""
    parts = [t.max_score for t in group.tests]
    exact = [p * UNIT for p in parts]
    units = [int(x) for x in exact]
    left = round(group.points * UNIT) - sum(units) if sum(parts) > 0 else 0
    for i in sorted(range(len(parts)), key=lambda i: units[i] - exact[i])[:max(left, 0)]:
        units[i] += 1
    for t, most in zip(group.tests, units):
        got = most if t.status == "passed" else min(most, max(0, round(t.score * UNIT)))
        t.score, t.max_score = got / UNIT, most / UNIT


def _failed_group(g: Group, err: Exception, program: Path) -> GroupResult:
    """A group that could not be judged: the submission's doing (its folder
    refused by the sandbox, its program failing where the grader did not
    expect it), the grader's set-up (``setup``: a framework that cannot play)
    or pyab's own failure (``internal``, with its message)."""
    from ..errors import SetupError
    from ..referee.sandbox import SandboxUnavailable
    if isinstance(err, ProgramError):
        kind, why = err.kind, f"your program failed ({err.kind}): {err.reason}"
    elif isinstance(err, SandboxUnavailable):
        kind, why = "refused", f"refused: {err}"
    elif isinstance(err, SetupError):
        kind, why = "setup", f"could not be graded (the grader's set-up): {err}"
    else:
        kind, why = "internal", f"pyab failed while grading it ({type(err).__name__}: {err})"
    text = _clean(capped(why), program, "")
    return GroupResult(g.name, g.points, [TestResult(g.name, 0.0, g.points, "failed", text, kind)])


def grade_path(suite_path: str, submission: str, name: str | None = None,
               grader: Grader | None = None) -> SubmissionResult:
    """:func:`grade_submission` with the suite read from ``suite_path`` (and
    ``grader`` in place of its own, when given: options that override it):
    what a worker process runs (``--jobs``, a Dask worker), since a suite's
    CS188 trees keep their labels only in the process that read them."""
    from .suite import load_suite
    suite = load_suite(suite_path)
    if grader is not None:
        suite.grader = grader
    return grade_submission(suite, submission, name)
