"""Leaves per second of the slides' program on trees given as rules.

    python -m benchmarks.implicit            # the table (about a minute)
    python -m benchmarks.implicit --quick    # smaller trees

Rows, for the same uniform trees:

* ``swipl``: a plain ``swipl`` process running prolog/alphabeta.pl on
  prolog/trees/uniform.pl, nothing observed (``-O``: the same with
  SWI-Prolog's compiled arithmetic for the program too);
* ``swipl, naive rules``: benchmarks/implicit_naive.pl, the first way one
  writes the rules (numlist + maplist with a yall lambda, or with a helper
  predicate; the leaf value folded over the Dewey path at each leaf);
* ``pyab prolog``: through the bridge, every call observed (counts-only);
  on the trees of issue 17 (b=10 d=5 and b=40 d=4, random(1)) also with
  names (the full lists of leaves, visited and pruned nodes, in Python),
  with its leaves/s over the plain ``swipl`` run's in the last column
  (those rows: medians of three, the ways and ``swipl`` alternating);
* ``pyab python``: the Python mirror.

Times are CPU seconds (``statistics(cputime)`` inside swipl around the
search only; ``time.process_time`` around ``solve`` in Python), so other
processes on the machine do not count.  The leaf count of each tree is the
one the bridge observes; the plain runs search the same tree with the same
program, which reads the same leaves.  The last column is leaves/s over the
Python mirror's leaves/s on the same tree.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "prolog" / "alphabeta.pl"
RULES = ROOT / "prolog" / "trees" / "uniform.pl"
NAIVE = ROOT / "benchmarks" / "implicit_naive.pl"

__all__ = ["main", "rows"]


def _swipl(rules: Path, params: list[str], root: str, optimise: bool = False) -> float:
    """CPU seconds of one alphabeta/5 call in a fresh swipl process."""
    exe = shutil.which("swipl")
    if exe is None:
        raise SystemExit("swipl is not installed (make setup)")
    from pyab.prolog.facts import quote  # file names as Prolog atoms
    goal = (f"consult({quote(str(PROGRAM))}), consult({quote(str(rules))}), "
            + ", ".join(f"assertz({p})" for p in params)
            + f", statistics(cputime, T0), alphabeta({root}, -1.0Inf, 1.0Inf, _, _),"
            " statistics(cputime, T1), T is T1 - T0, format('~6f~n', [T])")
    cmd = [exe, *(["-O"] if optimise else []), "-q", "-g", goal, "-t", "halt"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=600)
    return float(out.stdout.strip().splitlines()[-1])


def _cpu(fn) -> tuple[float, object]:
    t0 = time.process_time()
    r = fn()
    return time.process_time() - t0, r


def rows(quick: bool = False) -> list[dict]:
    """Measure every case; one dict per table row."""
    from pyab.prolog import bridge as prolog
    from pyab.search import python_search
    from pyab.trees import Uniform

    mirror = python_search("bratko")
    prolog.solve(Uniform(2, 2), names=False)  # start the engine, load the program
    cases = ([(10, 4, "worst"), (20, 4, "perfect"), (10, 5, "random(1)")] if quick else
             [(20, 4, "worst"), (40, 6, "perfect"), (20, 5, "random(1)")])
    out = []
    for b, d, ordering in cases:
        tree = Uniform(b, d, ordering)
        label = f"b={b} d={d} {ordering}"
        secs, r = _cpu(lambda: prolog.solve(tree, names=False))
        leaves = r.extra["leaves_count"]
        py_secs, pr = _cpu(lambda: mirror(tree))
        assert len(pr.leaves) == leaves, "the engines read different leaves"
        py_rate = leaves / py_secs
        params = [f"branching({b})", f"depth({d})", f"ordering({ordering})"]
        measured = [
            ("swipl, uniform.pl", _swipl(RULES, params, "n(0, 0, 0)")),
            ("swipl -O, uniform.pl", _swipl(RULES, params, "n(0, 0, 0)", optimise=True)),
        ]
        if not ordering.startswith("random"):
            for variant in ("helper", "lambda"):
                measured.append((f"swipl, naive rules ({variant})",
                                 _swipl(NAIVE, params + [f"variant({variant})"], "p(0, [])")))
        measured += [("pyab prolog (observed, counts)", secs), ("pyab python (mirror)", py_secs)]
        for engine, s in measured:
            out.append({"tree": label, "leaves": leaves, "engine": engine, "seconds": s,
                        "leaves_per_s": leaves / s, "vs_python": leaves / s / py_rate})
    # Observed with names against the bare program, on the trees of issue 17.
    for b, d in ([(10, 5)] if quick else [(10, 5), (40, 4)]):
        tree = Uniform(b, d, "random(1)")
        params = [f"branching({b})", f"depth({d})", "ordering(random(1))"]
        prolog.solve(tree, names=False)  # load the module and run each mode once,
        prolog.solve(tree, eager=True)   # so the runs below are warm
        # Medians of three, the ways alternating (one run of each moved by a
        # fifth between runs on the shared machine).
        runs: dict[str, list[float]] = {k: [] for k in ("bare", "counts", "named", "deferred", "read")}
        for _ in range(1 if quick else 3):
            runs["bare"].append(_swipl(RULES, params, "n(0, 0, 0)"))
            t, r = _cpu(lambda: prolog.solve(tree, names=False))
            runs["counts"].append(t)
            t, rn = _cpu(lambda: prolog.solve(tree, eager=True))
            runs["named"].append(t)
            t, _ = _cpu(lambda: prolog.solve(tree))  # names deferred, never read
            runs["deferred"].append(t)
            t, rd = _cpu(lambda: (lambda x: (x.leaves, x.visited, x.pruned) and x)(prolog.solve(tree)))
            runs["read"].append(t)
        bare, counts, named, deferred, read = (statistics.median(runs[k]) for k in
                                               ("bare", "counts", "named", "deferred", "read"))
        leaves = r.extra["leaves_count"]
        assert len(rn.leaves) == leaves == len(rd.leaves), "names and counts read different leaves"
        for engine, s in [("swipl, uniform.pl", bare), ("pyab prolog (observed, counts)", counts),
                          ("pyab prolog (observed, names built at once)", named),
                          ("pyab prolog (observed, names deferred)", deferred),
                          ("pyab prolog (observed, names deferred then read)", read)]:
            out.append({"tree": f"b={b} d={d} random(1)", "leaves": leaves, "engine": engine,
                        "seconds": s, "leaves_per_s": leaves / s, "vs_python": None,
                        "vs_bare": bare / s})
    if not quick:  # the big one, Prolog only (the mirror would take a minute)
        b, d = 40, 4
        params = [f"branching({b})", f"depth({d})", "ordering(worst)"]
        secs, r = _cpu(lambda: prolog.solve(Uniform(b, d, "worst"), names=False))
        leaves = r.extra["leaves_count"]
        for engine, s in [("swipl, uniform.pl", _swipl(RULES, params, "n(0, 0, 0)")),
                          ("swipl -O, uniform.pl", _swipl(RULES, params, "n(0, 0, 0)", True)),
                          ("pyab prolog (observed, counts)", secs)]:
            out.append({"tree": f"b={b} d={d} worst", "leaves": leaves, "engine": engine,
                        "seconds": s, "leaves_per_s": leaves / s, "vs_python": None})
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the table (benchmarks/__main__ calls this).  ``argv`` are this
    benchmark's own options (default none: the full table)."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.implicit", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="smaller trees")
    args = p.parse_args([] if argv is None else argv)
    print("slides' alpha-beta on uniform trees given as rules: leaves read per CPU second")
    head = ("tree", "leaves", "engine", "CPU s", "leaves/s", "x mirror", "x bare swipl")
    table = [(r["tree"], f"{r['leaves']:,}", r["engine"], f"{r['seconds']:.3f}",
              f"{r['leaves_per_s']:,.0f}", "-" if r["vs_python"] is None else f"{r['vs_python']:.1f}",
              f"{r['vs_bare']:.2f}" if "vs_bare" in r else "-")
             for r in rows(args.quick)]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    for t in table:
        print("  ".join(c.ljust(w) for c, w in zip(t, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
