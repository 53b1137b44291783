"""pyab grade SUITE.toml SUBMISSION...: grade a class with a test suite."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from . import _common

AUTOGRADER_ROOT = "PYAB_AUTOGRADER_ROOT"  # where --gradescope finds submission/ and results/


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "grade", help="grade submissions with a test suite: gradebook, Gradescope results.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Grade each SUBMISSION (a file, or a folder holding it) with the test groups
of SUITE.toml: every group's trees are searched by the submission (in a
child process of its own; untrusted = true is passed to the route's
sandbox) and by pyab's reference, and compared.  A group earns its points times the share
of its trees passed (or all or nothing).  Writes DIR/gradebook.csv,
DIR/gradebook.json and DIR/NAME/results.json (Gradescope's format), with
feedback a student can use: the first failure shrunk to a small tree, what
the submission did against the reference, and the command that replays it.

Each submission's reports are written as soon as it is graded; --resume
grades only the submissions without a row in DIR.  SIGTERM or Ctrl-C stop
the run with every finished row kept.

Exit 0 when every submission has a row, whatever its score or kind (a
program that crashed, looped or was refused is a row saying so); 2 for a
bad suite or usage (named with its file and line); 3 when pyab itself
failed while grading a submission (its row says "internal").  See `pyab docs
grading` (a class, start to finish) and `pyab docs grading-reference`.""",
        epilog="""\
examples:
  pyab grade suite.toml submissions/*/ --out grades
  pyab grade suite.toml alice.py bob.py --jobs 2 --junit grades.xml
  pyab grade --gradescope suite.toml      on Gradescope: /autograder/submission ->
                                          /autograder/results/results.json
                                          (the root: $PYAB_AUTOGRADER_ROOT, default /autograder)""")
    p.add_argument("suite", metavar="SUITE.toml", help="the test suite (`pyab docs grading-reference`: its keys)")
    p.add_argument("submissions", nargs="*", metavar="SUBMISSION",
                   help="a submission: a file, or a folder holding it")
    p.add_argument("--out", default="grades", metavar="DIR",
                   help="where the gradebook and each NAME/results.json go (default grades)")
    _common.add_jobs(p, "grade N submissions at a time, each in its own process (default 1)")
    _common.add_scheduler(p, "grade the submissions on the Dask cluster at ADDRESS, one a task "
                          "(pip install 'pyab[dist]')")
    _common.add_disk(p, "untrusted suites: MB of writable space for each of a submission's "
                     "folder, /tmp and /dev/shm (default: the suite's disk, else 256)")
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    p.add_argument("--resume", action="store_true",
                   help="grade only the submissions that have no row in --out yet (a run that "
                        "was stopped); the reports are then those of a full run")
    _common.add_untrusted(p, "run every submission in the operating-system sandbox, whatever "
                          "the suite says", default=None)
    _common.add_timeout(p, "seconds a search may take, in place of the suite's timeout")
    p.add_argument("--gradescope", action="store_true",
                   help="grade $PYAB_AUTOGRADER_ROOT/submission (default /autograder/submission) "
                        "and write results/results.json there, as Gradescope expects")
    _common.add_json(p)
    p.set_defaults(run=run)


def _bar(args: argparse.Namespace, total: int) -> Any:
    """A progress bar on a terminal (stderr), or None."""
    if not sys.stderr.isatty() or args.json:
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    return Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("{task.description}"), transient=True,
                    console=Console(stderr=True))


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from ..grade import grade_class, load_suite
    from ..grade.reports import gradebook_rows
    from ..text import capped, printable
    suite = load_suite(args.suite)
    given = (("untrusted", args.untrusted), ("timeout", args.timeout), ("disk", args.disk))
    overrides = {k: v for k, v in given if v is not None}
    suite.grader = dataclasses.replace(suite.grader, **overrides)
    if args.gradescope:
        if args.submissions:
            raise ValueError("--gradescope grades the one submission Gradescope gives; "
                             "drop SUBMISSION...")
        root = Path(os.environ.get(AUTOGRADER_ROOT) or "/autograder")
        subs, names, out = [str(root / "submission")], ["submission"], root / "results"
        if not Path(subs[0]).is_dir():
            raise ValueError(f"--gradescope: no folder {subs[0]} (set ${AUTOGRADER_ROOT} to "
                             "the autograder root)")
    else:
        if not args.submissions:
            raise ValueError("give SUBMISSION... (files or folders), or --gradescope")
        for s in args.submissions:
            if not Path(s).exists() and not Path(s).is_symlink():
                raise ValueError(f"no submission at {s}")
        subs, names, out = args.submissions, None, Path(args.out)
    bar = _bar(args, len(subs))
    with bar if bar is not None else _Null() as live:
        task: Any = live.add_task("", total=len(subs)) if bar is not None else None

        def heard(i: int, r) -> None:
            if bar is not None:
                live.update(task, advance=1, description=printable(r.name))

        done = grade_class(suite, subs, jobs=args.jobs, out=out, names=names, junit=args.junit,
                           resume=args.resume, scheduler=args.scheduler,
                           gradescope=args.gradescope, on_result=heard)
    rows = done.rows
    columns, book = gradebook_rows(rows)
    summary = (f"{done.graded} graded, {done.resumed} resumed, "
               f"{sum(bool(r.error) for r in rows)} could not be graded"
               + (f", {len(done.missing)} not reached (stopped)" if done.interrupted else ""))
    if args.json:
        for row in book:
            row["submission"] = capped(row["submission"])
        _common.print_json({"suite": args.suite, "max": suite.max_score, "columns": columns,
                            "rows": book, "written": [str(p) for p in done.written],
                            "graded": done.graded, "resumed": done.resumed,
                            "not_graded": [r.name for r in rows if r.error],
                            "not_reached": done.missing, "internal": done.internal,
                            "interrupted": bool(done.interrupted)})
        return done.exit
    shown = [printable(capped(r.name, 60)) for r in rows]
    width = max((len(n) for n in shown), default=0)
    for name, r in zip(shown, rows):
        why = f"  not graded: {printable(capped(r.error, 200))}" if r.error else (
            f"  first failure: {r.first_failure}" if r.first_failure else "")
        print(f"{name:<{width}}  {r.score:g} / {r.max_score:g}  ({r.seconds:.1f} s){why}")
    where = out / "results.json" if args.gradescope else out
    print(f"{len(rows)} of {len(subs)} submission{'s' * (len(subs) != 1)} have a row "
          f"({summary}); reports in {where}")
    if done.interrupted:
        print("error: stopped; pyab grade --resume goes on where it stopped", file=sys.stderr)
    return done.exit


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass
