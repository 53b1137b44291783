"""pyab check: the referee.  Both engines on files or on random trees."""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from ..text import printable
from . import _common


def _values(text: str) -> tuple[int, int]:
    """``LO:HI`` (inclusive; negatives allowed) -> a range of leaf values."""
    try:
        lo, hi = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO:HI, e.g. -9:9, not {text!r}") from None
    if hi < lo:
        raise argparse.ArgumentTypeError(f"empty value range {text!r}")
    return lo, hi


def register(sub: argparse._SubParsersAction) -> None:
    from ..trees.randomtrees import WINDOWS
    from ..referee.verdict import COMPARE
    p = sub.add_parser(
        "check", help="run both engines and compare value, best move, leaves, calls and cuts",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Run the search in SWI-Prolog (observed) and in the Python mirror, and compare
best, value, leaves, visited and pruned.  Exit 0 when they agree, 1 on any
disagreement (both sides are printed with the first differing step, and a
random tree is saved as a .tree file to replay), 2 on bad input, 3 when the
program under test (--program) crashed, timed out, broke a limit, was
refused or gave an invalid answer (one line saying which).

With --program the program runs in a child process of its own (never in
pyab's), asks pyab for moves/2, staticval/2 and max_to_move/1, and pyab
records what it asked and checks its answer.  Its output is captured: with
--json, pyab prints exactly one JSON object whatever the program printed.""",
        epilog="""\
examples:
  pyab check examples/*.tree
  pyab check --random 2000 --seed 1
  pyab check --random 500 --values 0:2 --windows narrow      many ties
  pyab check --random 200 --program my_alphabeta.pl         referee your own program
  pyab check --random 300 --python my_ab.py:alphabeta       ... in Python
  pyab check --random 300 --exec "node my_ab.js" --keep-going   ... in any language

With --python or --exec (and --program with --compare or --keep-going) the
sides are "reference (ALGORITHM)" (pyab's mirror) and "yours (PROGRAM)"; the
first disagreement is shrunk to a small tree, saved, and printed with a
replay command.  Exit 3 when your program crashes or answers nonsense.
See docs/referee.md.
  pyab check --random 200 --program student.pl --untrusted --timeout 5 --json
                                                            grade a student's program
                                                            (docs/grading.md)""")
    p.add_argument("files", nargs="*", metavar="FILE", help=".tree files (or - for stdin)")
    p.add_argument("--random", type=int, metavar="N", help="check N random trees instead of files")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--tree-depth", type=_common.int_range, default=(1, 4), metavar="D0-D1",
                   help="depth of random trees (default 1-4)")
    p.add_argument("--branching", type=_common.int_range, default=(1, 4), metavar="B0-B1",
                   help="children per inner node; 1 gives single-child nodes (default 1-4)")
    p.add_argument("--values", type=_values, default=(-9, 9), metavar="LO:HI",
                   help="integer leaf values; a small range makes ties (default -9:9)")
    p.add_argument("--decimals", action="store_true", help="also use values ending in .5")
    p.add_argument("--ragged", type=float, default=0.2, metavar="P",
                   help="chance that a branch stops early (default 0.2; 0 = uniform depth)")
    p.add_argument("--windows", default="random", choices=WINDOWS,
                   help="full, narrow, low (root fails low), high (root fails high), "
                        "or random: one of them per tree (default)")
    p.add_argument("--jobs", type=_common.positive, default=1, metavar="N",
                   help="with --random: spread the trees over N processes, each with its own "
                        "SWI-Prolog (same seed, same trees, same verdict; default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --random: check the trees on the Dask cluster whose scheduler is "
                        "at ADDRESS (e.g. tcp://10.0.0.5:8786), one share per worker thread; "
                        "workers must be processes (needs pip install 'pyab[dist]')")
    p.add_argument("--save-dir", default=".", metavar="DIR",
                   help="where a disagreeing random tree is saved (default .)")
    _common.add_program(p)
    p.add_argument("--compare", choices=COMPARE, default=None,
                   help="with --python/--exec/--program: what must agree: all (default: value, "
                        "best move, leaves, visited), value (is it a correct minimax value? "
                        "checked against minimax), move, leaves")
    p.add_argument("--keep-going", action="store_true",
                   help="with --python/--exec/--program: check every tree and print the "
                        "disagreement count and rate instead of stopping at the first")
    p.add_argument("--timeout", type=_common.seconds, default=None, metavar="S",
                   help="with --program/--python/--exec: stop a search of your program after "
                        "S seconds (exit 3)")
    _common.add_algorithm(p, also=("all",))
    _common.add_window(p)
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.random is None and not args.files:
        raise ValueError("give FILE... or --random N")
    if args.random is not None and args.files:
        raise ValueError("give either FILE... or --random N, not both")
    if getattr(args, "scheduler", None) and args.random is None:
        raise ValueError("--scheduler works with --random N")
    if args.algorithm == "all" and (args.program or args.python or args.exec):
        raise ValueError("--program/--python/--exec: your program is one algorithm: give --algorithm NAME, not all")
    from ..referee import route_from_args
    route = route_from_args(args)
    if route is not None and (not args.program or args.compare or args.keep_going):
        from ..referee.checking import run_check
        return run_check(args, route)
    if args.compare or args.keep_going:
        raise ValueError("--compare and --keep-going judge your program: give --python, --exec "
                         "or --program")
    if not route and (args.untrusted or args.timeout is not None or args.memory is not None):
        raise ValueError("--untrusted, --timeout and --memory are for a program under test: "
                         "give --program FILE.pl (or --python/--exec for --timeout/--memory)")
    if route is not None:
        route.close()  # the classic --program path below starts its own child
    try:
        if args.random is not None:
            return _random(args)
        return _files(args)
    finally:
        _close_program()


_PROGRAM = None  # the program under test of this process (one child, reused)


def _program(args: argparse.Namespace):
    global _PROGRAM
    if _PROGRAM is None:
        from ..referee.program import PrologProgram
        _PROGRAM = PrologProgram(args.program, untrusted=args.untrusted,
                                 timeout=args.timeout, memory_mb=args.memory)
    return _PROGRAM


def _close_program() -> None:
    global _PROGRAM
    if _PROGRAM is not None:
        _PROGRAM.close()
        _PROGRAM = None


def _one(tree, args, alpha, beta):
    """Both engines on one tree; (prolog result, python result, diff lines).
    With ``--algorithm all`` every registered algorithm runs; the results
    are the first algorithm's, or the first disagreeing one's."""
    import pyab
    from ..engines import differences
    from ..search import ALGORITHMS
    names = ([n for n, a in ALGORITHMS.items() if (args.depth is None or a.depth_limit)
              and (a.any_sides or tree.alternating)]
             if args.algorithm == "all" else [args.algorithm])
    first = None
    for name in names:
        kw = dict(algorithm=name, alpha=alpha, beta=beta, depth=args.depth)
        if args.program:
            from ..engines import finish  # horizon apart from pruned, as pyab.solve does
            prolog = finish(_program(args).solve(tree, name, alpha, beta, depth=args.depth),
                            tree, alpha, beta)
        else:
            prolog = pyab.solve(tree, "prolog", **kw)
        python = pyab.solve(tree, "python", **kw)
        diff = differences(prolog, python)
        if diff:
            if len(names) > 1:
                diff = [f"({name}) {line}" for line in diff]
            return prolog, python, diff
        first = first or (prolog, python)
    return (*first, [])


def _files(args: argparse.Namespace) -> int:
    reports, failed = [], 0
    for path in args.files:
        tree = _common.load_tree(path)
        prolog, _, diff = _one(tree, args, args.alpha, args.beta)
        failed += bool(diff)
        reports.append({"file": path, "agree": not diff, "differences": diff,
                        "prolog": prolog.to_json()})
        if not args.json:
            if diff:
                print(f"DISAGREE {printable(path)} ({args.algorithm}, window "
                      f"{_common.window_text(args.alpha, args.beta)})")
                for line in diff:
                    print("  " + line.replace("\n", "\n  "))
            else:
                every = f" every algorithm agrees; {prolog.algorithm}:" if args.algorithm == "all" else ""
                print(f"ok  {printable(path)}:{every} best {printable(prolog.best)}, value {prolog.value}, "
                      f"{len(prolog.leaves)} leaves, {len(prolog.pruned)} cut")
    if args.json:
        _common.print_json({"algorithm": args.algorithm, "agree": not failed, "checked": len(reports),
                            "disagreements": failed, "files": reports})
    return 1 if failed else 0


def _random(args: argparse.Namespace) -> int:
    import random

    from ..dsl import dump
    from ..trees.randomtrees import Shape, random_tree, random_window
    shape = Shape(depth=args.tree_depth, branching=args.branching, values=args.values,
                  decimals=args.decimals, leaf_chance=args.ragged)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    last = start
    jobs = getattr(args, "jobs", 1)
    scheduler = getattr(args, "scheduler", None)
    parallel = jobs > 1 or scheduler is not None
    tty = sys.stderr.isatty() and not parallel
    # With --jobs the workers check the trees; this loop then only rebuilds
    # the sequence up to the first disagreement to report it like --jobs 1.
    first_bad = _first_disagreement(args, shape, jobs) if parallel else None
    for i in range(1, args.random + 1):
        if parallel and first_bad is None:
            break
        tree = random_tree(rng, shape)
        alpha, beta = random_window(rng, tree, args.windows)
        if parallel and i != first_bad:
            continue
        _, _, diff = _one(tree, args, alpha, beta)
        if parallel and not diff:
            why = f"a worker saw a disagreement on tree {i} that a second run does not show"
            if args.program:  # the program answers differently from run to run
                from ..errors import ProgramError
                raise ProgramError(why, "invalid")
            raise RuntimeError(why)
        if diff:
            out = Path(args.save_dir) / f"pyab-mismatch-seed{args.seed}-{i}.tree"
            window = _common.window_text(alpha, beta)
            out.write_text(f"# pyab check --random: tree {i} of seed {args.seed}, "
                           f"algorithm {args.algorithm}, window {window}\n" + dump(tree),
                           encoding="utf-8")
            replay = (f"pyab check {out} --algorithm {args.algorithm} "
                      f"--alpha {_bound(alpha)} --beta {_bound(beta)}")
            if args.json:
                _common.print_json({"checked": i, "agree": False, "tree": str(out),
                                    "window": [_bound(alpha), _bound(beta)], "differences": diff})
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


def _first_disagreement(args: argparse.Namespace, shape, jobs: int) -> int | None:
    """Check the random trees in ``jobs`` processes; the number of the first
    tree on which the engines disagree, or None.  Each process has its own
    SWI-Prolog, rebuilds the whole sequence from the seed (cheap next to
    solving) and checks every ``jobs``-th tree, so the trees and the verdict
    are those of one process."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    settings = {k: v for k, v in vars(args).items() if k != "run"}
    if getattr(args, "scheduler", None):  # one share per worker thread of the cluster
        from ..referee.distributed import run_tasks
        found = run_tasks(args.scheduler, _check_share,
                          lambda n: [(settings, shape, share, n) for share in range(n)])
        bad = [i for i in found if i is not None]
        return min(bad) if bad else None
    ctx = multiprocessing.get_context("spawn")  # a fresh engine, nothing shared
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_start,
                               initargs=(os.getpid(),))
    with _workers_die_with_us(pool):
        try:
            found = list(pool.map(_check_share, [settings] * jobs, [shape] * jobs,
                                  range(jobs), [jobs] * jobs))
        except BrokenProcessPool:
            codes = [p.exitcode for p in list(getattr(pool, "_processes", {}).values())]
            how = next((f" (killed by signal {-c})" for c in codes if c is not None and c < 0), "")
            reason = f"a --jobs worker process died{how}; no verdict"
            if args.program:
                from ..errors import ProgramError
                raise ProgramError(reason, "crash") from None
            from ..errors import Error
            raise Error(reason) from None
    bad = [i for i in found if i is not None]
    return min(bad) if bad else None


class _workers_die_with_us:
    """Whatever ends the --jobs run (an answer, an error, Ctrl-C, SIGTERM to
    pyab), the workers end with it, each killing its program's child: they
    are sent SIGTERM, then SIGKILL, and none is left behind."""

    def __init__(self, pool) -> None:
        self.pool = pool

    def __enter__(self):
        import signal
        import threading
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGTERM, self._on_sigterm)
        return self

    def _on_sigterm(self, signum, frame) -> None:
        import os
        import signal
        self.stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    def stop(self) -> None:
        procs = list(getattr(self.pool, "_processes", {}).values())
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=1.0)
            if p.is_alive():
                p.kill()
                p.join(timeout=1.0)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def __exit__(self, exc_type, *rest) -> None:
        import signal
        if exc_type is None:
            self.pool.shutdown(wait=True)
        else:
            self.stop()
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)


def _worker_start(parent: int) -> None:
    """In a --jobs worker: die with the parent (Linux), and end the
    program's child cleanly on SIGTERM."""
    import os
    import signal
    import sys
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except Exception:
            pass
    if os.getppid() != parent:  # the parent died before we asked
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us

    def on_term(signum, frame):
        _close_program()
        os._exit(143)
    signal.signal(signal.SIGTERM, on_term)


def _check_share(settings: dict, shape, share: int, jobs: int) -> int | None:
    """In a worker: check trees share+1, share+1+jobs, ...; the first that
    disagrees, or None."""
    import random

    from ..trees.randomtrees import random_tree, random_window
    args = argparse.Namespace(**settings)
    rng = random.Random(args.seed)
    try:
        for i in range(1, args.random + 1):
            tree = random_tree(rng, shape)
            alpha, beta = random_window(rng, tree, args.windows)
            if (i - 1) % jobs == share and _one(tree, args, alpha, beta)[2]:
                return i
        return None
    finally:
        _close_program()


def _bound(x) -> str:
    from ..prolog.facts import number
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return number(x)
