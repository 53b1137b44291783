"""The referee's loop: every tree of a run judged on one route, the first
disagreement shrunk, saved and given a replay command.

:class:`CheckOptions` holds every option of a run as values (the command
line builds it; so can any Python caller), :func:`run` checks and returns a
:class:`Report` (:mod:`pyab.referee.report` says it, as text or JSON).
Every route takes this one path: ``--program``, ``--python``, ``--exec``.
"""

from __future__ import annotations

import math
import os
import random
import shlex
import time
from collections import deque
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, Iterator, Sequence, TypeVar

from ..engines import plain_search
from ..errors import Error, ProgramError
from ..result import bound_text as bound
from ..tree import Number, Tree
from . import Flags, Route
from .report import error_json
from .shrink import Shrunk, shrink
from ..trees.randomtrees import VALUE_PRESETS
from .verdict import Settings, Verdict, judge, reference_label

__all__ = ["VALUES", "Case", "CheckOptions", "Report", "command", "random_cases", "run",
           "save_text", "Lookahead"]

T = TypeVar("T")

# Leaf values for random trees, by name (--values NAME; LO:HI is a range):
# the one table, pyab.trees.randomtrees.VALUE_PRESETS.
VALUES = VALUE_PRESETS


def command(words: Sequence[str], flags: Flags) -> str:
    """The shell command ``words`` followed by ``flags`` (option, value;
    True for a switch), leaving out options whose value is None or False.
    The one replay builder: an option that shapes a run is one more pair."""
    out = list(words)
    for flag, value in flags:
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, str) and value.startswith("-"):
            out.append(f"{flag}={value}")  # -inf, -3: not another option
        else:
            out += [flag, str(value)]
    return shlex.join(out)


@dataclass
class CheckOptions:
    """Every option of a ``check`` run with a program under test."""

    algorithm: str = "bratko"
    depth: int | None = None
    compare: tuple[str, ...] = ("all",)
    alpha: Number = -math.inf
    beta: Number = math.inf
    shrink: str = "all"
    keep_going: bool = False
    save_dir: str | None = "."
    files: tuple[str, ...] = ()
    random: int | None = None
    seed: int = 0
    tree_depth: tuple[int, int] = (1, 4)
    branching: tuple[int, int] = (1, 4)
    values: str | tuple[int, int] = "default"
    decimals: bool = False
    ragged: float = 0.2
    windows: str = "random"
    agents: int | None = None  # K agents in turn: root MAX, K-1 MIN levels (files too)
    # Grading: a failure of the program is a failed tree, counted, not the
    # end of the run (check: exit 3 at the first); the shrinker's budget.
    count_failures: bool = False
    shrink_budget: int = 3000
    shrink_seconds: float = 120.0

    @property
    def settings(self) -> Settings:
        return Settings(self.algorithm, self.depth, self.compare, self.agents)

    def verdict_flags(self) -> Flags:
        """The options that shape every verdict and what is shown of it, in
        order (one line each: an option added to the run is one more pair)."""
        return [("--algorithm", self.algorithm), ("--depth", self.depth), ("--agents", self.agents),
                ("--compare", ",".join(self.compare) if self.compare != ("all",) else None),
                ("--shrink", self.shrink if self.shrink != "all" else None)]

    def tree_flags(self) -> Flags:
        """The options that choose the trees (and windows) of the run."""
        if self.random is None:
            return [("--alpha", _wire_flag(self.alpha, -math.inf)),
                    ("--beta", _wire_flag(self.beta, math.inf))]
        values = self.values if isinstance(self.values, str) else f"{self.values[0]}:{self.values[1]}"
        return [("--random", self.random), ("--seed", self.seed),
                ("--tree-depth", _span(self.tree_depth)), ("--branching", _span(self.branching)),
                ("--values", values), ("--decimals", self.decimals), ("--ragged", self.ragged),
                ("--windows", self.windows)]

    def check(self) -> None:
        """Refuse bad options before anything runs.  :raises ValueError:"""
        if self.save_dir is not None:
            d = Path(self.save_dir)
            if not d.is_dir():
                raise ValueError(f"--save-dir {self.save_dir}: no such folder (make it first)")
            if not os.access(d, os.W_OK | os.X_OK):
                raise ValueError(f"--save-dir {self.save_dir}: cannot write there")
        if isinstance(self.values, str) and self.values not in VALUES:
            raise ValueError(f"--values {self.values!r}: expected LO:HI or one of {', '.join(VALUES)}")
        if self.decimals and isinstance(self.values, str) and not isinstance(VALUES[self.values], tuple):
            raise ValueError("--decimals adds halves to a LO:HI range, not to --values "
                             f"{self.values}")


def _span(r: tuple[int, int]) -> str:
    return str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"


def _wire_flag(x: Number, default: Number) -> str | None:
    return None if x == default else bound(x)


@dataclass
class Case:
    """One tree of a run: ``number`` (random trees, from 1) or ``source``
    (a file); ``error`` when it could not be read."""

    number: int
    source: str
    tree: Tree | None
    alpha: Number
    beta: Number
    error: Exception | None = None
    settings: Settings | None = None  # its own: a CS188 .test file's num_agents and depth


def random_cases(options: CheckOptions, window_for: str | None = None) -> Iterator[Case]:
    """The run's random trees and windows, from its seed: the same sequence
    for every process that asks (``--jobs`` rebuilds it in each worker)."""
    from ..trees.randomtrees import Shape, random_tree, random_window
    shape = Shape(depth=options.tree_depth, branching=options.branching, values=options.values,
                  decimals=options.decimals, leaf_chance=options.ragged, agents=options.agents,
                  inner_values=options.depth is not None)
    rng = random.Random(options.seed)
    for i in range(1, (options.random or 0) + 1):
        tree = random_tree(rng, shape)
        alpha, beta = random_window(rng, tree, window_for or options.windows)
        yield Case(i, "", tree, alpha, beta)


def _cases(options: CheckOptions, window_for: str | None) -> Iterator[Case]:
    if options.random is not None:
        yield from random_cases(options, window_for)
        return
    from ..dsl import load
    from ..trees.randomtrees import with_agents
    for path in options.files:
        try:
            if path.endswith(".test"):  # a CS188 GraphGameTreeTest, its actions kept
                from ..trees.cs188 import load_test
                test = load_test(path)
                if test.tree is None:
                    raise ValueError(f"{path}: {test.skipped}")
                tree = test.tree
                if options.agents is None and options.depth is None:  # the file's, as the course
                    yield Case(0, path, tree, options.alpha, options.beta, settings=Settings(
                        options.algorithm, test.plies, options.compare, test.agents))
                    continue
            else:
                tree = load(path)
            if options.agents:
                tree = with_agents(tree, options.agents)
            yield Case(0, path, tree, options.alpha, options.beta)
        except (Error, ValueError, OSError) as err:
            yield Case(0, path, None, options.alpha, options.beta, err)


@dataclass
class Report:
    """What a run found.  ``first`` is the first disagreement (as found),
    ``shrunk`` its shrunk form re-checked from the saved text, ``refused``
    the files (or trees) that were bad input, with the error."""

    options: CheckOptions
    route: Route
    checked: int = 0
    disagreements: int = 0
    first: Verdict | None = None
    first_case: Case | None = None
    shrunk: Shrunk | None = None
    saved: list[str] = field(default_factory=list)
    refused: list[tuple[str, Exception]] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)  # FILE...: each one's verdict
    elapsed: float = 0.0
    failures: int = 0    # trees on which the program failed (count_failures)
    stopped: str = ""    # why the run stopped early (``stop`` said so)

    @property
    def exit(self) -> int:
        """The worst: 2 bad input (or nothing checked), 1 a disagreement,
        0 all agree."""
        return 2 if self.refused or not self.checked else 1 if self.disagreements else 0

    @property
    def reference(self) -> str:
        return reference_label(self.options.algorithm, self.options.compare)

    @property
    def replay(self) -> str | None:
        """The command that shows the saved (shrunk) disagreement again."""
        if self.shrunk is None or not (self.saved or _as_found(self)):
            return None
        v = self.shrunk.verdict
        shown = self.saved[-1] if self.saved else self.first_case.source  # type: ignore[union-attr]
        own = self.first_case.settings  # type: ignore[union-attr]
        options = self.options if own is None or shown.endswith(".test") else replace(
            self.options, depth=own.depth, agents=own.agents)  # a .tree needs them said
        return command(["pyab", "check", shown],
                       [*self.route.flags, *options.verdict_flags(),
                        ("--alpha", _wire_flag(v.alpha, -math.inf)),
                        ("--beta", _wire_flag(v.beta, math.inf))])

    @property
    def replay_run(self) -> str:
        """The command that repeats the whole run."""
        o = self.options
        return command(["pyab", "check", *o.files],
                       [*o.tree_flags(), *self.route.flags, *o.verdict_flags(),
                        ("--keep-going", o.keep_going)])


def run(route: Route, options: CheckOptions, *, on_verdict: Callable[[Case, Verdict], None] | None = None,
        known_good: Callable[[int], bool] | None = None,
        stop: Callable[[Verdict], str] | None = None, keep_open: bool = False,
        cases: Iterable[Case] | None = None) -> Report:
    """Judge every tree of ``options`` on ``route``; shrink and save the
    first disagreement.  ``on_verdict`` hears each tree's verdict as it
    comes; ``known_good(number)`` says a random tree was already judged
    agreeing (``--jobs``: the workers judged it), so it is counted, not run.
    ``stop(verdict)`` may end the run after a failed tree, saying why
    (:attr:`Report.stopped`); ``keep_open`` leaves the route open (grade
    uses one child for every group of a submission); ``cases``: the
    options' cases made already (grade shares them across a class).

    :raises ProgramError: the program failed (exit 3), on the first tree
        where it did (unless ``options.count_failures``: then it is the
        tree's verdict, the first failure shown like a disagreement).
    """
    options.check()
    settings = options.settings
    if route.interface == "aima" and (options.alpha, options.beta) != (-math.inf, math.inf):
        raise ValueError("--interface aima: aima-python's searches take no window "
                         "(they always start at -inf .. inf); drop --alpha/--beta")
    if route.interface == "cs188":
        from .cs188 import check_settings
        own = (options.random is None and options.agents is None and options.depth is None
               and all(f.endswith(".test") for f in options.files))  # each file's own settings
        if not own:
            check_settings(options.agents, options.depth)
        if (options.alpha, options.beta) != (-math.inf, math.inf):
            raise ValueError("--interface cs188: getAction takes no window; drop --alpha/--beta")
    window_for = "full" if route.interface in ("aima", "cs188") else None
    report = Report(options, route)
    start = time.perf_counter()
    try:
        made = cases if cases is not None else _cases(options, window_for)
        for case, upcoming in Lookahead(made, route.lookahead):
            for later in upcoming:
                if later.tree is not None and not (
                        known_good is not None and later.number and known_good(later.number)):
                    ahead = later.settings or settings
                    route.ahead(later.tree, later.alpha, later.beta,
                                depth=ahead.depth, agents=ahead.agents)
            if known_good is not None and case.number and known_good(case.number):
                report.checked += 1
                continue
            if case.tree is None:
                assert case.error is not None
                report.refused.append((case.source, case.error))
                report.files.append({"file": case.source, "error": error_json(case.error)})
                continue
            try:
                if options.depth is None and not plain_search(case.tree, settings.algorithm,
                                                              case.alpha, case.beta):
                    from ..tree import check_window
                    check_window(case.tree, case.alpha, case.beta)
                verdict = judge(route, case.tree, case.alpha, case.beta, case.settings or settings)
                if verdict.status != "agree" and route.crowded:  # failed beside others: alone
                    tree, its = case.tree, case.settings or settings
                    verdict = route.alone(lambda: judge(route, tree, case.alpha, case.beta, its))
            except (Error, ValueError) as err:  # the reference refuses the tree: bad input
                if isinstance(err, ProgramError):
                    raise
                report.refused.append((case.source or f"random tree {case.number}", err))
                if case.source:
                    report.files.append({"file": case.source, "error": error_json(err)})
                continue
            if verdict.status == "error" and not options.count_failures:
                assert verdict.error is not None
                raise verdict.error
            report.checked += 1
            report.failures += verdict.status == "error"
            if case.source:
                report.files.append({"file": case.source, **verdict.to_json(),
                                     "yours": verdict.yours.to_json() if verdict.yours else None})
            if on_verdict is not None:
                on_verdict(case, verdict)
            if verdict.status != "agree":
                report.disagreements += verdict.status == "disagree"
                if report.first is None:
                    report.first, report.first_case = verdict, case
                report.stopped = stop(verdict) if stop is not None else ""
                if not options.keep_going or report.stopped:
                    break
        report.elapsed = time.perf_counter() - start
        seconds = _shrink_seconds(report.first, options, route)
        if report.first is not None and seconds > 0:
            first_settings = report.first_case.settings or settings  # type: ignore[union-attr]
            report.shrunk = shrink(report.first, lambda t, a, b: judge(route, t, a, b, first_settings),
                                   options.shrink, budget=options.shrink_budget, seconds=seconds)
            if options.save_dir is not None and not _as_found(report):
                report.saved = _save(report)
    finally:
        if not keep_open:
            route.close()
    return report


NO_SHRINK = ("limit", "refused")  # failures a smaller tree does not explain


def _shrink_seconds(first: Verdict | None, options: CheckOptions, route: Route) -> float:
    """How long the first failure may be shrunk: a disagreement the
    options' time; a program's failure (when counted) is not shrunk, but a
    timeout is, leaving room for the last try and the re-check, which may
    each take a timeout; 0: not shrunk."""
    if first is None:
        return 0.0
    if first.status != "error":
        return options.shrink_seconds
    if first.kind in NO_SHRINK:
        return 0.0
    if first.kind == "timeout":
        return options.shrink_seconds - 2 * (getattr(route, "timeout", None) or 0)
    return options.shrink_seconds


class Lookahead(Generic[T]):
    """Each item with the items that come into view behind it, up to ``k``
    ahead, each shown once and in order: a loop announces them to its
    route (:meth:`Route.ahead`) before it asks for the item's search, so
    a route may have up to ``k`` searches under way (0: none is shown).  :meth:`rest` is what
    the loop has not had yet (the items in view, then the others)."""

    def __init__(self, items: Iterable[T], k: int = 1):
        self._it, self._k = iter(items), max(0, k)
        self._view: deque[T] = deque()

    def __iter__(self) -> Iterator[tuple[T, list[T]]]:
        view, it = self._view, self._it  # view: the items after the one yielded
        first = list(islice(it, 1 + self._k))
        if not first:
            return
        item, fresh = first[0], first[1:]
        view.extend(fresh)
        while True:
            yield item, fresh
            step = list(islice(it, 1))
            view.extend(step)
            fresh = step if self._k else []
            if not view:
                return
            item = view.popleft()

    def rest(self) -> list[T]:
        return [*self._view, *self._it]


def _as_found(report: Report) -> bool:
    """A file that could not be made smaller: it is its own replay."""
    f, s = report.first, report.shrunk
    return bool(report.first_case and report.first_case.source and report.first_case.source != "-"
                and f and s and s.reproduced and s.verdict.tree == f.tree
                and (s.verdict.alpha, s.verdict.beta) == (f.alpha, f.beta))


def _save(report: Report) -> list[str]:
    """Write the failing random tree (a file is on disk already) and the
    shown one; never over another run's file: a name taken by other text
    gets -2, -3, ..."""
    from ..dsl import dump
    o, case, first, shrunk = report.options, report.first_case, report.first, report.shrunk
    assert case is not None and first is not None and shrunk is not None
    out = Path(o.save_dir or ".")
    if case.number:
        stem = f"pyab-mismatch-seed{o.seed}-{case.number}"
        head = (f"# pyab check --random: tree {case.number} of seed {o.seed} "
                f"(values {o.values}), {report.route.label}")
    else:
        name = Path(case.source).stem.removesuffix("-shrunk") or "stdin"
        stem = name if name.startswith("pyab-mismatch-") else f"pyab-mismatch-{name}"
        head = f"# pyab check: {case.source}, {report.route.label}"
    v = shrunk.verdict
    files = []
    if case.number:
        files.append((f"{stem}.tree", f"{head}, window {bound(first.alpha)} .. {bound(first.beta)}\n"
                      + dump(first.tree)))
    how = (f"shrunk from {len(first.tree)} to {len(v.tree)} nodes" if shrunk.reproduced
           else "not reproduced when checked again: the tree as found")
    files.append((f"{stem}-shrunk.tree", f"{head}, {how}, window {bound(v.alpha)} .. {bound(v.beta)}\n"
                  + shrunk.text))
    return [save_text(out, name, text) for name, text in files]


def save_text(folder: Path, name: str, text: str) -> str:
    """Write ``text`` to ``folder/name``, or to NAME-2.tree, NAME-3.tree ...
    when the name holds other text (another run's); the path written."""
    base, n = name.removesuffix(".tree"), 1
    while True:
        path = folder / (name if n == 1 else f"{base}-{n}.tree")
        try:
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
            return str(path)
        except FileExistsError:
            if path.read_text(encoding="utf-8") == text:
                return str(path)  # the same run again: the same file
            n += 1
