"""Grading a class: every submission graded on its own (in this process,
in a supervised pool of ``jobs`` processes, or on a Dask cluster), its
reports written as soon as it is done, so that nothing finished is lost.

    from pyab.grade import grade_class, load_suite
    run = grade_class(load_suite("suite.toml"), ["class/alice", "class/bob"],
                      jobs=2, out="grades")
    run.exit   # 0: every submission has a row; 3: pyab failed on one (internal)

Each submission gets a report folder (:func:`~pyab.grade.reports.
folder_names`: unique, fixed before grading); as each one finishes, its
``FOLDER/results.json`` and ``FOLDER/submission.json`` are written, then
``gradebook.csv`` and ``gradebook.json`` with every row so far (each file
replaced whole).  ``resume=True`` reads back the submissions that have a
``submission.json`` under ``out`` and grades only the others: the reports
are then those of a full run.  SIGTERM (as Ctrl-C) stops the run: the
workers and every child end, finished rows stay, and
:attr:`ClassRun.interrupted` says so.
"""

from __future__ import annotations

import json
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from .reports import RECORD, Gradebook, folder_names, write_atomic, write_results
from .run import GroupResult, SubmissionResult, TestResult, grade_path, grade_submission
from .suite import Grader, Suite

__all__ = ["ClassRun", "grade_class", "submission_names"]


@dataclass
class ClassRun:
    """What :func:`grade_class` did.  ``results`` holds a result per
    submission in the order given (None: not graded, the run was stopped)."""

    names: list[str]
    folders: list[str]
    results: list[SubmissionResult | None]
    graded: int = 0
    resumed: int = 0
    interrupted: str = ""  # "SIGTERM" or "SIGINT" (Ctrl-C) when the run was stopped
    written: list[Path] = field(default_factory=list)

    @property
    def rows(self) -> list[SubmissionResult]:
        return [r for r in self.results if r is not None]

    @property
    def missing(self) -> list[str]:
        """Submissions without a row (the run was stopped first)."""
        return [n for n, r in zip(self.names, self.results) if r is None]

    @property
    def internal(self) -> list[str]:
        """Submissions on which pyab itself failed."""
        return [r.name for r in self.rows if r.internal]

    @property
    def exit(self) -> int:
        """0 when every submission has a row, whatever its kinds; 3 when
        pyab failed on one (a row of kind ``internal``); 143 stopped by
        SIGTERM, 130 by Ctrl-C."""
        if self.interrupted:
            return 143 if self.interrupted == "SIGTERM" else 130
        return 3 if self.internal else 0


def submission_names(paths: Sequence[str | Path]) -> list[str]:
    """A submission's name: its file stem or folder name (not made unique:
    its report folder is, :func:`~pyab.grade.reports.folder_names`)."""
    return [Path(str(p).rstrip("/")).stem or "submission" for p in paths]


def _internal(suite: Suite, name: str, err: BaseException) -> SubmissionResult:
    """The row of a submission whose grading failed in pyab itself (a
    worker that died twice, say): every group ``internal``, with the message."""
    why = f"pyab failed while grading it ({type(err).__name__}: {err})"
    return SubmissionResult(name, [GroupResult(g.name, g.points, [TestResult(
        g.name, 0.0, g.points, "failed", why, "internal")]) for g in suite.tests], error=why)


def _resumed(out: Path, folder: str, name: str) -> SubmissionResult | None:
    try:
        data = json.loads((out / folder / RECORD).read_text(encoding="utf-8"))
        result = SubmissionResult.from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return result if result.name == name else None


def grade_class(suite: Suite, submissions: Sequence[str | Path], *, jobs: int = 1,
                out: str | Path = "grades", names: Sequence[str] | None = None,
                junit: str | Path | None = None, resume: bool = False,
                scheduler: str | None = None, gradescope: bool = False,
                on_result: Callable[[int, SubmissionResult], None] | None = None) -> ClassRun:
    """Grade every submission of a class (see the module docstring).

    ``jobs`` processes (a :class:`~pyab.referee.supervise.Pool`), or the
    Dask cluster at ``scheduler``, one task a submission; ``gradescope``
    writes the one submission's report to ``out/results.json`` and no
    gradebook; ``on_result(i, result)`` hears each as it is written.
    ``suite.grader`` is used as given (options that override the file's
    reach every worker)."""
    subs = [str(s) for s in submissions]
    names = list(names) if names is not None else submission_names(subs)
    folders = folder_names(names)
    out = Path(out)
    run = ClassRun(names, folders, [None] * len(subs))
    if resume and not gradescope:
        for i, (folder, name) in enumerate(zip(folders, names)):
            run.results[i] = _resumed(out, folder, name)
        run.resumed = sum(r is not None for r in run.results)
    todo = [i for i, r in enumerate(run.results) if r is None]
    book = Gradebook(out, folders, junit)
    for i, r in enumerate(run.results):
        if r is not None:
            book.add(i, r)

    def finished(i: int, result: SubmissionResult) -> None:
        if run.results[i] is not None:  # a task run twice (a Dask worker lost): one row
            return
        run.results[i] = result
        run.graded += 1
        if gradescope:
            run.written = [write_results(result, out / "results.json")]
        else:
            write_results(result, out / folders[i] / "results.json")
            write_atomic(out / folders[i] / RECORD, json.dumps(result.to_json()) + "\n")
            book.add(i, result)
            run.written = book.write()
        if on_result is not None:
            on_result(i, result)

    old = None
    if threading.current_thread() is threading.main_thread():
        from ..referee.supervise import raise_on_sigterm
        old = signal.signal(signal.SIGTERM, raise_on_sigterm)
    try:
        if not todo and not gradescope:
            run.written = book.write()
        elif scheduler:
            _on_dask(scheduler, suite, subs, names, todo, finished)
        elif jobs > 1 and len(todo) > 1:
            _in_pool(jobs, suite, subs, names, todo, finished)
        else:
            for i in todo:
                finished(i, grade_submission(suite, subs[i], names[i]))
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: what finished is written already
        from ..referee.supervise import Terminated
        run.interrupted = "SIGTERM" if isinstance(stop, Terminated) else "SIGINT"
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
    return run


def _in_pool(jobs: int, suite: Suite, subs: list[str], names: list[str], todo: list[int],
             finished: Callable[[int, SubmissionResult], None]) -> None:
    from ..referee.supervise import Pool
    calls = [(suite.path, suite.grader, subs[i], names[i]) for i in todo]
    with Pool(jobs, die_on_sigterm=False) as pool:
        for k, result, err in pool.each(_grade_in_worker, calls):
            i = todo[k]
            finished(i, result if err is None else _internal(suite, names[i], err))


def _on_dask(scheduler: str, suite: Suite, subs: list[str], names: list[str], todo: list[int],
             finished: Callable[[int, SubmissionResult], None]) -> None:
    from ..referee.distributed import each_task
    calls = [(suite.path, suite.grader, subs[i], names[i]) for i in todo]
    for k, result, err in each_task(scheduler, _grade_in_worker, calls):
        i = todo[k]
        finished(i, result if err is None else _internal(suite, names[i], err))


def _grade_in_worker(suite_path: str, grader: Grader, submission: str, name: str) -> Any:
    """In a worker process: the suite read there (a suite's CS188 trees keep
    their labels only in the process that read them), with the grader's
    options as the caller has them."""
    return grade_path(suite_path, submission, name, grader)
