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

Exit 0 when every submission was graded, whatever the scores; 2 for a bad
suite or usage (named with its file and line); 3 when a submission could
not be graded at all (its row says why).  See `pyab docs grading`.""",
        epilog="""\
examples:
  pyab grade suite.toml submissions/*/ --out grades
  pyab grade suite.toml alice.py bob.py --jobs 2 --junit grades.xml
  pyab grade --gradescope suite.toml      on Gradescope: /autograder/submission ->
                                          /autograder/results/results.json
                                          (the root: $PYAB_AUTOGRADER_ROOT, default /autograder)""")
    p.add_argument("suite", metavar="SUITE.toml", help="the test suite (`pyab docs grading`: its keys)")
    p.add_argument("submissions", nargs="*", metavar="SUBMISSION",
                   help="a submission: a file, or a folder holding it")
    p.add_argument("--out", default="grades", metavar="DIR",
                   help="where the gradebook and each NAME/results.json go (default grades)")
    p.add_argument("--jobs", type=_common.positive, default=1, metavar="N",
                   help="grade N submissions at a time, each in its own process (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="grade the submissions on the Dask cluster at ADDRESS, one a task "
                        "(pip install 'pyab[dist]')")
    p.add_argument("--disk", type=_common.positive, default=None, metavar="MB",
                   help="untrusted suites: MB of writable space for each of a submission's "
                        "folder, /tmp and /dev/shm (default: the suite's disk, else 256)")
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    p.add_argument("--gradescope", action="store_true",
                   help="grade $PYAB_AUTOGRADER_ROOT/submission (default /autograder/submission) "
                        "and write results/results.json there, as Gradescope expects")
    _common.add_json(p)
    p.set_defaults(run=run)


def _names(paths: list[str]) -> list[str]:
    """A name per submission: its file stem or folder name, made unique."""
    names: list[str] = []
    for p in paths:
        base = Path(p.rstrip("/")).stem or "submission"
        name, n = base, 2
        while name in names:
            name, n = f"{base}-{n}", n + 1
        names.append(name)
    return names


def _grade_all(args, suite, subs: list[str], names: list[str]) -> list:
    from ..grade import grade_submission
    from ..grade.run import grade_path
    if args.scheduler:
        from ..referee.distributed import run_tasks
        return run_tasks(args.scheduler, grade_path,
                         lambda n: [(suite.path, s, m) for s, m in zip(subs, names)])
    bar = None
    if sys.stderr.isatty() and not args.json:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        bar = Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TextColumn("{task.description}"), transient=True,
                       console=Console(stderr=True))
    results: list = [None] * len(subs)
    with bar if bar is not None else _Null() as live:
        task: Any = live.add_task("", total=len(subs)) if bar is not None else None

        def done(i: int, r) -> None:
            results[i] = r
            if bar is not None:
                live.update(task, advance=1, description=r.name)

        if args.jobs > 1 and len(subs) > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=args.jobs, mp_context=ctx) as pool:
                futures = {pool.submit(grade_path, suite.path, s, m): i
                           for i, (s, m) in enumerate(zip(subs, names))}
                for f in as_completed(futures):
                    done(futures[f], f.result())
        else:
            for i, (s, m) in enumerate(zip(subs, names)):
                if bar is not None:
                    live.update(task, description=m)
                done(i, grade_submission(suite, s, m))
    return results


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


def run(args: argparse.Namespace) -> int:
    from ..grade import gradescope_json, load_suite, write_reports
    from ..grade.reports import gradebook_rows
    suite = load_suite(args.suite)
    if args.disk is not None:  # over the suite's, in every worker too (sandbox.settings)
        os.environ["PYAB_DISK_MB"] = str(args.disk)
    if args.gradescope:
        if args.submissions:
            raise ValueError("--gradescope grades the one submission Gradescope gives; "
                             "drop SUBMISSION...")
        root = Path(os.environ.get(AUTOGRADER_ROOT) or "/autograder")
        subs, names = [str(root / "submission")], ["submission"]
        if not Path(subs[0]).is_dir():
            raise ValueError(f"--gradescope: no folder {subs[0]} (set ${AUTOGRADER_ROOT} to "
                             "the autograder root)")
    else:
        if not args.submissions:
            raise ValueError("give SUBMISSION... (files or folders), or --gradescope")
        for s in args.submissions:
            if not Path(s).exists():
                raise ValueError(f"no submission at {s}")
        subs, names = args.submissions, _names(args.submissions)
    results = _grade_all(args, suite, subs, names)
    if args.gradescope:
        import json
        out = root / "results"
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(gradescope_json(results[0]), indent=2) + "\n",
                                          encoding="utf-8")
        written = [out / "results.json"]
    else:
        written = write_reports(results, args.out, args.junit)
    columns, rows = gradebook_rows(results)
    ungraded = [r.name for r in results if r.error]
    code = 3 if ungraded else 0
    if args.json:
        _common.print_json({"suite": args.suite, "max": suite.max_score, "columns": columns,
                            "rows": rows, "written": [str(p) for p in written],
                            "not_graded": ungraded})
        return code
    width = max(len(r.name) for r in results)
    for r in results:
        why = f"  not graded: {r.error}" if r.error else (
            f"  first failure: {r.first_failure}" if r.first_failure else "")
        print(f"{r.name:<{width}}  {r.score:g} / {r.max_score:g}  ({r.seconds:.1f} s){why}")
    where = written[0].parent if not args.gradescope else written[0]
    print(f"{len(results)} submission{'s' * (len(results) != 1)} graded; reports in {where}")
    return code
