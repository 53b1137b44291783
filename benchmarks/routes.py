"""``python -m benchmarks.routes [--trees N] [--reps R]``: every route of the
referee beside its matched floor, measured in the same run, pinned to one
CPU (``taskset -c 0`` on the whole process tree), unpinned (as a user runs
it: pyab puts each child on its parent's CPU) and with that placement off
(``PYAB_PLACEMENT=0``), the three alternating, medians of R runs.

The trees: N random trees of pyab's default shapes and windows, seed 0.
Each route judges them as ``pyab check`` does: the program under test
searches, pyab's mirror searches, the two are compared.

The floors, measured in the same process as the route (so pinned with it):

  - ``swipl``: the slides' program over the same trees in one ``swipl``,
    every tree loaded beforehand (its node names prefixed to keep the
    trees apart), no observation, no bridge;
  - ``python``: the Python transliteration of the slides
    (examples/referee/slides_alphabeta.py) called in-process on the trees,
    through a game object that answers from the tree and records nothing.

A route's matched floor is the time of its two searches done bare: the
Prolog routes and the in-process check pair a Prolog search with the
mirror (swipl floor + python floor a tree); ``--python`` and ``--exec``
pair two Python-speed searches (python floor twice).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "examples" / "referee"

# name -> (what the table calls it, the floor it is matched with)
ROUTES = {
    "check": ("in-process `check`", "prolog"),
    "program": ("`--program`", "prolog"),
    "untrusted": ("`--program --untrusted`", "prolog"),
    "python": ("`--python`", "python"),
    "exec-py": ("`--exec` (Python client)", "python"),
    "exec-node": ("`--exec` (Node client)", "python"),
}
AIM_PINNED, AIM_UNPINNED = 10, 15  # issue 28: within 10x of the floor pinned, 15x unpinned


BIG = {"depth": (4, 6), "branching": (2, 5)}  # --big: --tree-depth 4-6 --branching 2-5


def make_trees(n: int, big: bool = False) -> list:
    from pyab.trees.randomtrees import Shape, random_tree, random_window
    rng = random.Random(0)
    shape = Shape(**BIG) if big else Shape()  # type: ignore[arg-type]
    out = []
    for _ in range(n):
        tree = random_tree(rng, shape)
        out.append((tree, *random_window(rng, tree, "random")))
    return out


# -- floors -------------------------------------------------------------------

_FLOOR_GOAL = """\
forall(case(R, A, B), alphabeta(R, A, B, _, _)),
findall(S, (between(1, {reps}, _), {clock}(W0),
            forall(case(R, A, B), alphabeta(R, A, B, _, _)),
            {clock}(W1), S is W1 - W0), Ss),
msort(Ss, Sorted), length(Ss, N), Mid is N // 2, nth0(Mid, Sorted, Median),
format("seconds=~15f~n", [Median])"""


def swipl_floor(trees: list, folder: Path, reps: int = 5, cpu: bool = False) -> float:
    """Trees a second of the slides' program in one swipl (the median of
    ``reps`` passes over the trees, wall time, as the routes are timed, or
    CPU time with ``cpu``)."""
    from pyab.prolog.facts import facts, number, quote
    from pyab.tree import Tree
    lines = [":- discontiguous tree/2, staticval/2, min_to_move/1, max_to_move/1."]
    for i, (tree, a, b) in enumerate(trees):
        renamed = Tree(tuple(f"t{i}_{n}" for n in tree.names), tree.kids, tree.values,
                       tree.root_side, tree.sides)
        lines += [ln for ln in facts(renamed).splitlines() if ln and not ln.startswith("moves(")]
        lines.append(f"case({quote(renamed.root)}, {number(a)}, {number(b)}).")
    lines.append("moves(Pos, Moves) :- tree(Pos, Moves).")
    data = folder / "floor_trees.pl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run([shutil.which("swipl") or "swipl", "-q", "-g",
                           _FLOOR_GOAL.format(reps=reps, clock="statistics(cputime)" if cpu else "get_time")
                           .replace("statistics(cputime)(", "statistics(cputime, "), "-t", "halt",
                           str(ROOT / "prolog" / "alphabeta.pl"), str(data)],
                          capture_output=True, text=True, check=True)
    seconds = float(done.stdout.split("seconds=")[1])
    return len(trees) / seconds


class _Game:
    """The pyab interface answered straight from the tree: nothing recorded."""

    def __init__(self, tree) -> None:
        self.kids, self.names, self.index, self.values = tree.kids, tree.names, tree.index, tree.values
        self.tree = tree

    def children(self, pos):
        return [self.names[k] for k in self.kids[self.index[pos]]]

    def is_max(self, pos):
        return self.tree.is_max_id(self.index[pos])

    def value(self, pos):
        return self.values[self.index[pos]]


def python_floor(trees: list, reps: int = 5, cpu: bool = False) -> float:
    """Trees a second of the Python transliteration called in-process (the
    median of ``reps`` passes, wall time, or CPU time with ``cpu``)."""
    clock = time.process_time if cpu else time.perf_counter
    from pyab.referee.pychild import load
    func = load(f"{REF / 'slides_alphabeta.py'}:alphabeta")
    games = [(_Game(t), t.root, a, b) for t, a, b in trees]
    passes = []
    for _ in range(reps):
        w0 = clock()
        for game, root, a, b in games:
            func(game, root, a, b)
        passes.append(clock() - w0)
    return len(trees) / statistics.median(passes)


# -- one route ----------------------------------------------------------------

def _route(name: str):
    from pyab.referee import ExecRoute, PrologRoute, PythonRoute
    alphabeta = str(ROOT / "prolog" / "alphabeta.pl")
    if name == "program":
        return PrologRoute(alphabeta, "bratko")
    if name == "untrusted":
        return PrologRoute(alphabeta, "bratko", untrusted=True)
    if name == "python":
        return PythonRoute(f"{REF / 'slides_alphabeta.py'}:alphabeta")
    if name == "exec-py":
        return ExecRoute(f"{sys.executable} {REF / 'client.py'}")
    if name == "exec-node":
        return ExecRoute(f"node {REF / 'client.js'}")
    raise ValueError(name)


def measure(name: str, n: int, big: bool = False) -> dict:
    """One route on the trees and the floors beside it, in this process."""
    from pyab.referee.verdict import Settings, judge
    trees = make_trees(n, big)
    agree, questions = True, 0
    if name == "check":
        from pyab.engines import both, both_many
        both(trees[0][0], "bratko", *trees[0][1:])  # start SWI-Prolog outside the clock
        start = time.perf_counter()
        for _, diff in both_many(trees, "bratko"):  # as pyab check --random judges them
            agree &= not diff
        spent = time.perf_counter() - start
    else:
        with _route(name) as route:
            route.search(*trees[0])  # start the child outside the clock
            lines = _count_lines(route)
            start = time.perf_counter()
            settings = Settings()  # the slides' program, every field compared, as pyab check does
            for i, (tree, a, b) in enumerate(trees):  # as pyab check's loop: the next one announced
                if i + 1 < len(trees):
                    route.ahead(*trees[i + 1])
                verdict = judge(route, tree, a, b, settings)
                agree &= verdict.status == "agree"
                extra = verdict.yours.extra if verdict.yours is not None else {}
                questions = None if questions is None or "questions" not in extra \
                    else questions + extra["questions"]
            spent = time.perf_counter() - start
            if lines is not None:  # the Prolog child: its answers are the round trips
                questions = lines[0]
    py_floor = python_floor(trees)
    if ROUTES[name][1] == "prolog":
        with tempfile.TemporaryDirectory(prefix="pyab-floor-") as tmp:
            pl_floor = swipl_floor(trees, Path(tmp))
        floor = 1 / (1 / pl_floor + 1 / py_floor)
    else:
        pl_floor, floor = None, py_floor / 2
    return {"route": name, "trees_per_s": n / spent, "floor_per_s": floor, "swipl_floor": pl_floor,
            "python_floor": py_floor, "round_trips": None if questions is None else questions / n,
            "agree": agree}


def _count_lines(route) -> list[int] | None:
    """A counter of the lines the Prolog child sends (one a round trip),
    or None for the other routes (their questions are counted by pyab)."""
    program = getattr(route, "_program", None)
    if program is None:
        return None
    child, count = program._start(), [0]
    receive = child.receive

    def counted():
        count[0] += 1
        return receive()
    child.receive = counted
    return count


# -- the table ----------------------------------------------------------------

# How each route is run: pinned (the whole process tree on one CPU, by
# taskset), as a user runs it (pyab places each child on its parent's CPU),
# and with that placement off (PYAB_PLACEMENT=0: the scheduler decides).
CONFIGS = ("pinned", "unpinned", "unplaced")


def _run_one(name: str, n: int, config: str, big: bool = False) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.routes", "--one", name, "--trees", str(n),
           *(["--big"] if big else [])]
    env = dict(os.environ)
    if config == "pinned":
        cmd = [shutil.which("taskset") or "taskset", "-c", str(min(os.sched_getaffinity(0))), *cmd]
    elif config == "unplaced":
        env["PYAB_PLACEMENT"] = "0"
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def rows(n: int = 1000, reps: int = 3, names: list[str] | None = None, big: bool = False) -> list[dict]:
    names = names or [r for r in ROUTES if r != "exec-node" or shutil.which("node")]
    pin = shutil.which("taskset") is not None and hasattr(os, "sched_getaffinity")
    configs = [c for c in CONFIGS if pin or c != "pinned"]
    runs: dict[tuple[str, str], list[dict]] = {}
    for _ in range(reps):
        for name in names:
            for config in configs:
                runs.setdefault((name, config), []).append(_run_one(name, n, config, big))
    out = []
    for name in names:
        row: dict = {"route": name, "label": ROUTES[name][0]}
        for config in configs:
            ms = runs[(name, config)]
            rate = statistics.median(m["trees_per_s"] for m in ms)
            floor = statistics.median(m["floor_per_s"] for m in ms)
            row[config] = {"trees_per_s": rate, "floor_per_s": floor, "times_floor": floor / rate,
                           "agree": all(m["agree"] for m in ms)}
            row["round_trips"] = ms[0]["round_trips"]
            row.setdefault("floors", []).extend(
                (m["swipl_floor"], m["python_floor"]) for m in ms)
        out.append(row)
    return out


def table(rows_: list[dict], n: int, big: bool = False) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    shapes = "depth 4-6, branching 2-5" if big else "default shapes"
    lines = [f"{n} random trees (seed 0, {shapes} and windows), {os.cpu_count()} CPUs, "
             f"load average {load}; medians; x floor = how many times slower than the matched "
             f"floor (aim: {AIM_PINNED}x pinned, {AIM_UNPINNED}x unpinned)", "",
             "| route | trees/s pinned | x floor | trees/s unpinned | x floor "
             "| trees/s placement off | x floor | round trips a tree | agrees | aim met |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in rows_:
        p, u, o = r.get("pinned"), r["unpinned"], r["unplaced"]
        met = (p is None or p["times_floor"] <= AIM_PINNED) and u["times_floor"] <= AIM_UNPINNED
        agrees = all(m["agree"] for m in (p, u, o) if m is not None)
        lines.append(f"| {r['label']} | {_n(p, 'trees_per_s')} | {_x(p)} | "
                     f"{u['trees_per_s']:,.0f} | {_x(u)} | {o['trees_per_s']:,.0f} | {_x(o)} | "
                     f"{_trips(r['route'], r['round_trips'])} | "
                     f"{'yes' if agrees else 'NO'} | {'yes' if met else 'NO'} |")
    swipl = [s for r in rows_ for s, _ in r["floors"] if s]
    python = [p for r in rows_ for _, p in r["floors"]]
    lines += ["", f"floors (medians over every run): the slides' program in one swipl "
                  f"{statistics.median(swipl) if swipl else float('nan'):,.0f} trees/s; the Python "
                  f"transliteration in-process {statistics.median(python):,.0f} trees/s"]
    return "\n".join(lines)


def _trips(name: str, trips: float | None) -> str:
    if name == "check":
        return "0 (a call into SWI-Prolog a batch)"
    return "-" if trips is None else f"{trips:.1f}"


def _n(m: dict | None, key: str) -> str:
    return "-" if m is None else f"{m[key]:,.0f}"


def _x(m: dict | None) -> str:
    return "-" if m is None else f"{m['times_floor']:.1f}x"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trees", type=int, default=1000)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--route", action="append", choices=list(ROUTES), help="only these routes")
    p.add_argument("--one", choices=list(ROUTES), help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="the measurements as JSON")
    p.add_argument("--big", action="store_true",
                   help="bigger trees: depth 4-6, branching 2-5 (475 nodes on average)")
    args = p.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.trees, args.big)))
        return 0
    rows_ = rows(args.trees, args.reps, args.route, args.big)
    print(json.dumps(rows_) if args.json else table(rows_, args.trees, args.big))
    return 0 if all(r[k]["agree"] for r in rows_ for k in CONFIGS if k in r) else 1


if __name__ == "__main__":
    sys.exit(main())
