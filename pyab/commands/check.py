"""pyab check: the referee.  Both engines on files or on random trees."""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from ..result import window_text
from ..text import printable
from . import _common


def _values(text: str) -> str | tuple[int, int]:
    """``LO:HI`` (inclusive; negatives allowed) or a preset name (wide, ...)."""
    from ..referee.checking import VALUES
    if text in VALUES:
        return text
    try:
        lo, hi = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO:HI, e.g. -9:9, or one of {', '.join(VALUES)}, "
                                         f"not {text!r}") from None
    if hi < lo:
        raise argparse.ArgumentTypeError(f"empty value range {text!r}")
    return lo, hi


def _compare(text: str) -> tuple[str, ...]:
    from ..referee.verdict import parse_compare
    try:
        return parse_compare(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def register(sub: argparse._SubParsersAction) -> None:
    from ..referee.checking import VALUES
    from ..referee.shrink import LEVELS
    from ..referee.verdict import COMPARE
    from ..trees.randomtrees import WINDOWS
    p = sub.add_parser(
        "check", help="run both engines and compare value, best move, leaves, calls and cuts",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Without a program: run the search in SWI-Prolog (observed) and in the
Python mirror, and compare best, value, leaves, visited and pruned.

With --program, --python or --exec: referee YOUR program against pyab's
reference (the mirror of --algorithm).  It runs in a child process of its
own, asks pyab for the tree (moves, static values, sides), and pyab records
what it asked and judges its answer: one verdict per tree, whatever the
route.  Its output is captured: with --json, pyab prints exactly one JSON
object whatever the program printed.

Exit 0 when every tree agrees, 1 on a disagreement (both sides printed with
the first differing step; the tree saved, shrunk and given a replay
command) or a wrong search, 2 on bad input (each bad file named; the others
are still checked), 3 when the program under test crashed, timed out, broke
a limit, was refused or gave an invalid answer (one line saying which).""",
        epilog="""\
examples:
  pyab check examples/*.tree
  pyab check --random 2000 --seed 1
  pyab check --random 500 --values ties --windows narrow      many ties
  pyab check --random 200 --program my_alphabeta.pl         referee your own program
  pyab check --random 300 --python my_ab.py:alphabeta       ... in Python
  pyab check --random 300 --exec "node my_ab.js" --keep-going   ... in any language
  pyab check --random 300 --python my_ab.py:alphabeta --compare value,optimal-move
                                                            right values and optimal moves,
                                                            whatever its tie rule
  pyab check --random 300 --program mine.pl --values wide   leaves at 1000, 9999, 2**31 ...
  pyab check --random 200 --program student.pl --untrusted --timeout 5 --json
                                                            grade a student's program
                                                            (pyab docs grading)

With --program, --python or --exec the sides are "reference (ALGORITHM)"
(pyab's mirror) and "yours (PROGRAM)"; the first disagreement is shrunk to a
small tree that still shows it (checked again from its saved text), saved,
and printed with a command that replays it.  A wrong search (a static value
asked of an inner node, a question about a node the search was not given)
is a disagreement too (exit 1), shown the same way.  Exit 3 when your
program crashes, times out or answers nonsense.  See `pyab docs referee`.""")
    p.add_argument("files", nargs="*", metavar="FILE", help=".tree files (or - for stdin)")
    p.add_argument("--random", type=_common.positive, metavar="N", help="check N random trees instead of files")
    _common.add_seed(p, 0, "random seed (default 0)")
    p.add_argument("--tree-depth", type=_common.int_range, default=(1, 4), metavar="D0-D1",
                   help="depth of random trees (default 1-4)")
    _common.add_branching(p, (1, 4), "B0-B1", "children per inner node; 1 gives single-child nodes (default 1-4)")
    p.add_argument("--values", type=_values, default="default", metavar="LO:HI|NAME",
                   help="integer leaf values: a range LO:HI (a small one makes ties) or a preset: "
                        + ", ".join(f"{k} ({v[0]}:{v[1]})" if isinstance(v, tuple) else
                                    f"{k} (-5..5 with the sentinels ±999, ±1000, ±1001, ±9999, "
                                    "±10000, 2**31-1, ±2**31)" for k, v in VALUES.items())
                        + "; default: default")
    _common.add_agents(p, "K agents move in turn: the root MAX, then K-1 MIN levels, cycling "
                       "(2: Pacman and a ghost, 3: two ghosts); on FILE... it sets every "
                       "node's side by its level; with --depth, random trees carry static "
                       "values on inner nodes")
    p.add_argument("--decimals", action="store_true", help="also use values ending in .5")
    p.add_argument("--ragged", type=float, default=0.2, metavar="P",
                   help="chance that a branch stops early (default 0.2; 0 = uniform depth)")
    p.add_argument("--windows", default="random", choices=WINDOWS,
                   help="full, narrow, low (root fails low), high (root fails high), "
                        "or random: one of them per tree (default)")
    _common.add_jobs(p, "with --random: spread the trees over N processes, each with its own "
                     "SWI-Prolog (same seed, same trees, same verdict; default 1)")
    _common.add_scheduler(p, "with --random: check the trees on the Dask cluster whose scheduler is "
                          "at ADDRESS (e.g. tcp://10.0.0.5:8786), one share per worker thread; "
                          "workers must be processes (needs pip install 'pyab[dist]')")
    p.add_argument("--save-dir", default=".", metavar="DIR",
                   help="an existing folder where a disagreeing tree is saved (default .); "
                        "a name another run used gets -2, -3, ...")
    _common.add_program(p)
    p.add_argument("--submission", metavar="DIR",
                   help="with --exec --untrusted: the submission's folder, all the command sees "
                        "(default: the folder of the command's program file; never the current "
                        "folder)")
    _common.add_disk(p, "--untrusted: MB of writable space (a tmpfs) for each of the program's "
                     "folder, /tmp and /dev/shm (default 256); pyab docs sandbox")
    p.add_argument("--allow-module", action="append", default=[], metavar="NAME",
                   help="--untrusted --python: a module of pyab's environment the program may "
                        "import (numpy, say), bound read-only; repeatable; never pyab")
    p.add_argument("--compare", type=_compare, default=None, metavar="WHAT[,WHAT]",
                   help="with --python/--exec/--program: what must agree, one or a comma-separated "
                        f"list of {', '.join(COMPARE)}: all (default: value, best move, leaves, "
                        "visited, each the algorithm's), value (a correct minimax value), move (the "
                        "algorithm's move), optimal-move (any move whose minimax value is the "
                        "root's), leaves, visited, generated (the root move and the set of "
                        "states generated: CS188's rule, the default for --interface cs188)")
    p.add_argument("--shrink", choices=LEVELS, default="all",
                   help="with --python/--exec/--program: how a disagreement is shrunk: all "
                        "(default: the tree's shape, values and window; a tree whose leaves are all "
                        "at one depth keeps that depth), values (values and window only), none")
    p.add_argument("--keep-going", action="store_true",
                   help="with --python/--exec/--program: check every tree and print the "
                        "disagreement count and rate instead of stopping at the first")
    _common.add_timeout(p, "with --program/--python/--exec: stop a search of your program after "
                        "S seconds (exit 3)")
    _common.add_algorithm(p, also=("all",))
    p.set_defaults(algorithm=None)  # bratko, or strict-cut for --interface cs188 (run)
    _common.add_depth(p)
    p.add_argument("--cs188-framework", metavar="DIR", default=None,
                   help="with --interface cs188: the course's project folder; its Python modules "
                        "(util.py, game.py, pacman.py, ...) replace pyab's stand-in, read-only, "
                        "and PacmanGameTreeTest files are graded through them")
    p.add_argument("--verbose", action="store_true",
                   help="say what each CS188 .test file's reading left out, and its settings")
    _common.add_window(p)
    _common.add_json(p)
    p.set_defaults(run=run)


def _options(args: argparse.Namespace):
    from ..referee.checking import CheckOptions
    return CheckOptions(
        algorithm=args.algorithm, depth=args.depth, agents=args.agents,
        compare=args.compare or (("generated",) if args.interface == "cs188" else ("all",)),
        alpha=args.alpha, beta=args.beta, shrink=args.shrink, keep_going=args.keep_going,
        save_dir=args.save_dir, files=tuple(args.files), random=args.random, seed=args.seed,
        tree_depth=args.tree_depth, branching=args.branching, values=args.values,
        decimals=args.decimals, ragged=args.ragged, windows=args.windows)


def _route(args: argparse.Namespace):
    from ..referee import open_route
    return open_route(program=args.program, python=args.python, exec=args.exec,
                      interface=args.interface, untrusted=args.untrusted, timeout=args.timeout,
                      memory_mb=args.memory, algorithm=args.algorithm,
                      submission=getattr(args, "submission", None),
                      framework=getattr(args, "cs188_framework", None))


def _sandbox_options(args: argparse.Namespace) -> None:
    """--disk and --allow-module: checked, then handed to every sandbox of
    the run (its --jobs workers too) through the environment."""
    import os
    if args.disk is not None:
        if not args.untrusted:
            raise ValueError("--disk bounds an --untrusted program's writable space: give --untrusted")
        os.environ["PYAB_DISK_MB"] = str(args.disk)
    if args.allow_module:
        if not (args.untrusted and args.python):
            raise ValueError("--allow-module is for an --untrusted --python program (without "
                             "--untrusted it imports what its Python has)")
        from ..referee.sandbox import allowed_modules
        allowed_modules(tuple(args.allow_module))  # a name not found: said now, exit 2
        os.environ["PYAB_ALLOW_MODULES"] = ",".join(args.allow_module)


def run(args: argparse.Namespace) -> int:
    from ..referee.cs188 import default_algorithm, test_notes
    args.algorithm = args.algorithm or default_algorithm(args.interface, args.files) or "bratko"
    if args.verbose:
        for line in test_notes(args.files):
            print(f"note: {printable(line)}", file=sys.stderr)
    if args.random is None and not args.files:
        raise ValueError("give FILE... or --random N")
    if args.random is not None and args.files:
        raise ValueError("give either FILE... or --random N, not both")
    if getattr(args, "scheduler", None) and args.random is None:
        raise ValueError("--scheduler works with --random N")
    yours = args.program or args.python or args.exec
    if args.algorithm == "all" and yours:
        raise ValueError("--program/--python/--exec: your program is one algorithm: give --algorithm NAME, not all")
    if not yours and (args.compare or args.keep_going or args.shrink != "all"):
        raise ValueError("--compare, --keep-going and --shrink judge your program: give --python, "
                         "--exec or --program")
    if not yours and (args.untrusted or args.timeout is not None or args.memory is not None):
        raise ValueError("--untrusted, --timeout and --memory are for a program under test: "
                         "give --program FILE.pl (or --python/--exec for --timeout/--memory)")
    if getattr(args, "submission", None) and not args.exec:
        raise ValueError("--submission DIR is the folder an --exec command sees: give --exec")
    _sandbox_options(args)
    options = _options(args)
    options.check()  # a missing --save-dir is said before anything runs
    if yours:
        return _referee(args, options)
    if args.random is not None:
        return _random(args, options)
    return _files(args)


def _referee(args: argparse.Namespace, options) -> int:
    """Every route: the referee's one loop, verdict, shrinker and report."""
    from ..referee import checking
    from ..referee.report import report_json, report_text
    bad: list[int] | None = None
    if args.random is not None and (args.jobs > 1 or args.scheduler):
        bad = _parallel(args, options)
    route = _route(args)

    def said(case, verdict) -> None:
        if case.source and verdict.status == "agree" and not args.json:
            print(f"ok  {printable(case.source)}: {route.label} agrees with "
                  f"{checking.reference_label(options.algorithm, options.compare)}", flush=True)

    report = checking.run(route, options, on_verdict=said,
                          known_good=None if bad is None else (lambda i: i not in bad))
    if args.json:
        _common.print_json(report_json(report))
    else:
        for line in report_text(report):
            where = sys.stderr if line.startswith("error: ") else sys.stdout
            print("\n".join(printable(part) for part in line.split("\n")), file=where)
    return report.exit


def _one(tree, args, alpha, beta):
    """Both engines on one tree (:func:`pyab.engines.both`); (prolog result,
    diff lines).  With ``--algorithm all`` every registered algorithm runs;
    the result is the first algorithm's, or the first disagreeing one's."""
    from ..engines import both
    from ..search import ALGORITHMS
    names = ([n for n, a in ALGORITHMS.items() if (args.depth is None or a.depth_limit)
              and (a.any_sides or tree.alternating)]
             if args.algorithm == "all" else [args.algorithm])
    first = None
    for name in names:
        pair = both(tree, name, alpha, beta, depth=args.depth)
        if pair.differences:
            diff = pair.differences
            if len(names) > 1:
                diff = [f"({name}) {line}" for line in diff]
            return pair.prolog, diff
        first = first or pair.prolog
    return first, []


def _files(args: argparse.Namespace) -> int:
    """Every file, each on its own: a file that is bad input is named and
    the rest are still checked; the exit code is the worst."""
    from ..errors import Error
    from ..referee.report import error_json
    reports, failed, refused = [], 0, 0
    for path in args.files:
        try:
            tree = _common.load_tree(path, args.agents)
            prolog, diff = _one(tree, args, args.alpha, args.beta)
        except (Error, ValueError) as err:
            refused += 1
            reports.append({"file": path, "error": error_json(err)})
            text = str(err) if str(err).startswith(path) else f"{path}: {err}"
            print("error: " + printable(text).replace("\n", "\n  "), file=sys.stderr)
            continue
        failed += bool(diff)
        reports.append({"file": path, "agree": not diff, "differences": diff,
                        "prolog": prolog.to_json()})
        if not args.json:
            if diff:
                print(f"DISAGREE {printable(path)} ({args.algorithm}, window "
                      f"{window_text(args.alpha, args.beta)})")
                for line in diff:
                    print("  " + line.replace("\n", "\n  "))
            else:
                every = f" every algorithm agrees; {prolog.algorithm}:" if args.algorithm == "all" else ""
                print(f"ok  {printable(path)}:{every} best {printable(prolog.best)}, value {prolog.value}, "
                      f"{len(prolog.leaves)} leaves, {len(prolog.pruned)} cut", flush=True)
    if args.json:
        _common.print_json({"algorithm": args.algorithm, "agree": not failed and not refused,
                            "checked": len(reports) - refused, "disagreements": failed,
                            "refused": refused, "files": reports})
    return 2 if refused else 1 if failed else 0


def _random(args: argparse.Namespace, options) -> int:
    from ..referee.checking import random_cases
    start = time.perf_counter()
    last = start
    jobs = getattr(args, "jobs", 1)
    scheduler = getattr(args, "scheduler", None)
    parallel = jobs > 1 or scheduler is not None
    tty = sys.stderr.isatty() and not parallel
    # With --jobs the workers check the trees; this loop then only rebuilds
    # the sequence up to the first disagreement to report it like --jobs 1.
    first_bad = min(_parallel(args, options), default=None) if parallel else None
    for case, diff in _judged(random_cases(options), args, parallel):
        i, tree, alpha, beta = case.number, case.tree, case.alpha, case.beta
        assert tree is not None  # random trees are always made
        if parallel and first_bad is None:
            break
        if parallel and i != first_bad:
            continue
        if diff is None:
            _, diff = _one(tree, args, alpha, beta)
        if parallel and not diff:
            raise RuntimeError(f"a worker saw a disagreement on tree {i} that a second run does not show")
        if diff:
            from ..dsl import dump
            from ..referee.checking import command, save_text
            from ..result import bound_text as bound
            window = window_text(alpha, beta)
            out = save_text(Path(args.save_dir), f"pyab-mismatch-seed{args.seed}-{i}.tree",
                            f"# pyab check --random: tree {i} of seed {args.seed}, "
                            f"algorithm {args.algorithm}, window {window}\n" + dump(tree))
            replay = command(["pyab", "check", out],
                             [("--algorithm", args.algorithm), ("--depth", args.depth),
                              ("--alpha", bound(alpha)), ("--beta", bound(beta))])
            if args.json:
                _common.print_json({"checked": i, "agree": False, "tree": str(out),
                                    "window": [bound(alpha), bound(beta)], "differences": diff,
                                    "replay": replay})
            else:
                print(f"DISAGREE on random tree {i} (seed {args.seed}, window {window}):")
                print("  " + printable(dump(tree).strip()))
                for line in diff:
                    print("  " + line.replace("\n", "\n  "))
                print(f"saved to {out}; replay with:\n  {replay}")
            return 1
        now = time.perf_counter()
        if tty and now - last > 0.5:
            print(f"\r{i}/{args.random} trees agree", end="", file=sys.stderr, flush=True)
            last = now
    elapsed = time.perf_counter() - start
    if tty:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    rate = args.random / elapsed if elapsed > 0 else math.inf
    if args.json:
        _common.print_json({"checked": args.random, "agree": True, "seed": args.seed,
                            "algorithm": args.algorithm, "seconds": round(elapsed, 3)})
    else:
        on = (f" on the Dask cluster at {scheduler}" if scheduler else
              f" on {jobs} processes" if jobs > 1 else "")
        print(f"{args.random} random trees (seed {args.seed}, {args.algorithm}): "
              f"both engines agree on every one ({rate:.0f} trees/s{on})")
    return 0


def _judged(cases, args: argparse.Namespace, parallel: bool):
    """Each case with its differences, judged in batches by
    :func:`pyab.engines.both_many` for one algorithm without --depth;
    otherwise with None, for the loop to judge it (or skip it)."""
    if parallel or args.algorithm == "all" or args.depth is not None:
        return ((case, None) for case in cases)
    from ..engines import both_many
    return ((item[3], diff) for item, diff in
            both_many(((c.tree, c.alpha, c.beta, c) for c in cases), args.algorithm))


def _parallel(args: argparse.Namespace, options) -> list[int]:
    """Check the random trees in ``--jobs`` processes (or on a Dask
    cluster); the numbers of the trees that did not agree (the first only,
    without --keep-going).  Each process has its own SWI-Prolog or program
    child, rebuilds the whole sequence from the seed (cheap next to
    solving) and checks every ``jobs``-th tree, so the trees and the
    verdict are those of one process."""
    from concurrent.futures.process import BrokenProcessPool

    from ..referee.supervise import Pool

    jobs = args.jobs
    settings = {k: v for k, v in vars(args).items() if k != "run"}
    if getattr(args, "scheduler", None):  # one share per worker thread of the cluster
        from ..referee.distributed import run_tasks
        found = run_tasks(args.scheduler, _check_share,
                          lambda n: [(settings, options, share, n) for share in range(n)])
        return _merge(found, args)
    shares: list = [[] for _ in range(jobs)]
    with Pool(jobs, retries=0) as pool:  # a dead worker: no verdict
        for share, bad, err in pool.each(_check_share, [(settings, options, share, jobs)
                                                        for share in range(jobs)]):
            if isinstance(err, BrokenProcessPool):
                reason = "a --jobs worker process died; no verdict"
                if args.program or args.python or args.exec:
                    from ..errors import ProgramError
                    raise ProgramError(reason, "crash") from None
                from ..errors import Error
                raise Error(reason) from None
            if err is not None:
                raise err
            shares[share] = bad
    return _merge(shares, args)


def _merge(found: list[list[int]], args: argparse.Namespace) -> list[int]:
    bad = sorted(i for share in found for i in share)
    return bad if args.keep_going else bad[:1]


def _check_share(settings: dict, options, share: int, jobs: int) -> list[int]:
    """In a worker: check trees share+1, share+1+jobs, ...; the numbers of
    those that did not agree (with a program under test: disagreed or
    failed; the main process judges them again and reports)."""
    from ..errors import Error
    from ..referee.checking import Lookahead, random_cases
    from ..referee.supervise import WORKER_ROUTE
    from ..referee.verdict import judge
    args = argparse.Namespace(**settings)
    mine = (case for case in random_cases(options, "full" if args.interface == "aima" else None)
            if (case.number - 1) % jobs == share)
    if not (args.program or args.python or args.exec):
        return _share_in_process(mine, args, share, jobs)
    bad: list[int] = []
    route = _route(args)
    WORKER_ROUTE[:] = [route]
    cases = Lookahead(mine, route.lookahead)
    try:
        for case, upcoming in cases:
            assert case.tree is not None
            for later in upcoming:
                route.ahead(later.tree, later.alpha, later.beta,
                            depth=options.settings.depth, agents=options.settings.agents)
            failed = False
            try:
                status = judge(route, case.tree, case.alpha, case.beta, options.settings).status
                wrong, failed = status != "agree", status == "error"
            except (Error, ValueError):
                wrong = True  # bad input: the main process judges it again and says why
            if wrong:
                bad.append(case.number)
                if failed:  # the program failed (a hang costs a timeout a tree): the main
                    # process ends the run there; the rest of the share is judged there if not
                    bad += [c.number for c in cases.rest()]
                    break
                if not args.keep_going:
                    break
        return bad
    finally:
        route.close()
        WORKER_ROUTE.clear()


def _share_in_process(mine, args: argparse.Namespace, share: int, jobs: int) -> list[int]:
    """:func:`_check_share` without a program: the share judged as the
    single process judges its trees (:func:`_judged`: 64 trees a call into
    SWI-Prolog); the number of the first tree that did not agree or was
    refused, if any (the main process judges it again and says why)."""
    from ..errors import Error
    last = share + 1 - jobs  # the number before the share's first tree
    try:
        for case, diff in _judged(mine, args, False):
            if diff is None:  # --algorithm all or --depth: one tree at a time
                try:
                    diff = _one(case.tree, args, case.alpha, case.beta)[1]
                except (Error, ValueError):
                    return [case.number]
            if diff:
                return [case.number]
            last = case.number
    except (Error, ValueError):  # raised for the tree after the last one judged
        return [last + jobs]
    return []
