"""``python -m benchmarks.command [--trees N ...] [--reps R]``: the trees/s
that ``pyab check --random N --seed 0 [ROUTE]`` prints, per route, beside
its matched floor measured in the same run on the same trees, pinned
(the command and the floors under ``taskset -c CPU``) and unpinned; medians
of R runs.  Then a budget per tree of the in-process check, stage by stage,
and with ``--program-budget N`` that of ``check --program``.

The floors are those of ``benchmarks/routes.py``: (a) the slides' program
over all the trees in one ``swipl``, (b) the Python transliteration called
in-process.  The matched floor is a and b in series for the in-process
check and ``--program``, b twice for ``--python`` and ``--exec``.  The
figure is the command's own, timed from the first tree's making to the
last report, so it counts everything a user waits for but the start.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "examples" / "referee"
AIM = 10  # within 10x of the matched floor

# name -> (label, the arguments after `pyab check --random N --seed 0`, floor)
ROUTES = {
    "check": ("in-process", [], "prolog"),
    "program": ("`--program`", ["--program", str(ROOT / "prolog" / "alphabeta.pl")], "prolog"),
    "python": ("`--python`", ["--python", f"{REF / 'slides_alphabeta.py'}:alphabeta"], "python"),
    "exec": ("`--exec`", ["--exec", f"{sys.executable} {REF / 'client.py'}"], "python"),
}
_RATE = re.compile(r"(\d+) trees/s")


def _pin() -> list[str]:
    if shutil.which("taskset") is None or not hasattr(os, "sched_getaffinity"):
        return []
    return ["taskset", "-c", str(min(os.sched_getaffinity(0)))]


def command_rate(route: str, n: int, pinned: bool) -> tuple[float, float]:
    """The trees/s the command prints, and the CPU seconds of its whole
    process tree (children included: a route's child works too)."""
    cmd = [*(_pin() if pinned else []), sys.executable, "-m", "pyab", "check", "--random", str(n),
           "--seed", "0", *ROUTES[route][1]]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=1200)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = _RATE.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout[-1000:]}"
                           f"{done.stderr[-2000:]}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return float(found.group(1)), cpu


def floors(n: int) -> dict:
    """Both floors on the command's trees, in this process."""
    from .routes import make_trees, python_floor, swipl_floor
    trees = make_trees(n)
    with tempfile.TemporaryDirectory(prefix="pyab-floor-") as tmp:
        swipl = swipl_floor(trees, Path(tmp))
        swipl_cpu = swipl_floor(trees, Path(tmp), cpu=True)
    return {"swipl": swipl, "python": python_floor(trees),
            "swipl_cpu": swipl_cpu, "python_cpu": python_floor(trees, cpu=True)}


def _floors_in(n: int, pinned: bool) -> dict:
    cmd = [*(_pin() if pinned else []), sys.executable, "-m", "benchmarks.command", "--floors", str(n)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=1200, check=True)
    return json.loads(done.stdout)


def matched(floor: dict, kind: str, cpu: bool = False) -> float:
    swipl, python = (floor["swipl_cpu"], floor["python_cpu"]) if cpu else (floor["swipl"], floor["python"])
    if kind == "prolog":
        return 1 / (1 / swipl + 1 / python)
    return python / 2


def measure(sizes: list[int], reps: int, routes: list[str]) -> list[dict]:
    pin = bool(_pin())
    out = []
    for n in sizes:
        for pinned in ([True, False] if pin else [False]):
            rates: dict[str, list[float]] = {r: [] for r in routes}
            cpus: dict[str, list[float]] = {r: [] for r in routes}
            starts: dict[str, list[float]] = {r: [] for r in routes}
            fl: list[dict] = []
            for _ in range(reps):  # the floors and every route, alternating
                fl.append(_floors_in(n, pinned))
                for r in routes:
                    rate, cpu = command_rate(r, n, pinned)
                    _, start = command_rate(r, 1, pinned)  # the start, taken off the CPU time
                    rates[r].append(rate)
                    starts[r].append(start)
                    cpus[r].append(max(cpu - start, 1e-9) / (n - 1))
            floor = {k: statistics.median(f[k] for f in fl) for k in ("swipl", "python", "swipl_cpu",
                                                                       "python_cpu")}
            for r in routes:
                rate, cpu = statistics.median(rates[r]), statistics.median(cpus[r])
                m, m_cpu = matched(floor, ROUTES[r][2]), matched(floor, ROUTES[r][2], cpu=True)
                out.append({"route": r, "trees": n, "pinned": pinned, "trees_per_s": rate,
                            "start_ms": statistics.median(starts[r]) * 1e3,
                            "floor_per_s": m, "times_floor": m / rate, "cpu_us": cpu * 1e6,
                            "cpu_floor_us": 1e6 / m_cpu, "times_floor_cpu": cpu * m_cpu,
                            **{f"floor_{k}": v for k, v in floor.items()}})
    return out


def table(rows: list[dict]) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"`pyab check --random N --seed 0 [ROUTE]`, the trees/s it prints; {os.cpu_count()} CPUs, "
             f"load average {load}; medians; x floor = times slower than the matched floor "
             f"(aim {AIM}x)", "",
             "| route | trees | pinned | trees/s | matched floor | x floor | start ms CPU | CPU us a tree "
             "| floor's CPU us | x floor (CPU) | aim met |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        lines.append(f"| {ROUTES[r['route']][0]} | {r['trees']:,} | {'yes' if r['pinned'] else 'no'} | "
                     f"{r['trees_per_s']:,.0f} | {r['floor_per_s']:,.0f} | {r['times_floor']:.1f}x | "
                     f"{r['start_ms']:,.0f} | "
                     f"{r['cpu_us']:,.0f} | {r['cpu_floor_us']:.1f} | {r['times_floor_cpu']:.1f}x | "
                     f"{'yes' if r['times_floor'] <= AIM else 'NO'} |")
    seen = {(r["trees"], r["pinned"]): r for r in rows}
    lines.append("")
    for (n, pinned), r in seen.items():
        lines.append(f"floors on {n:,} trees{' pinned' if pinned else ''}: swipl {r['floor_swipl']:,.0f} "
                     f"trees/s ({r['floor_swipl_cpu']:,.0f} by CPU time), Python transliteration "
                     f"{r['floor_python']:,.0f} trees/s ({r['floor_python_cpu']:,.0f} by CPU time)")
    lines.append("start ms CPU: a run of one tree, the command's process tree, children included; "
                 "CPU us a tree: the same for the run, less that start; on a shared machine the "
                 "wall-clock trees/s follow the share of CPU the scheduler gives, the CPU time does not")
    return "\n".join(lines)


# -- the budget of the in-process check, stage by stage ---------------------

def budget(n: int) -> dict[str, float]:
    """Microseconds a tree for each stage of the in-process check, each
    timed over all ``n`` trees in turn, in CPU time of this process (where
    SWI-Prolog runs too); the command's own figures are wall time."""
    import random

    from pyab import engines
    from pyab.prolog import engine
    from pyab.prolog.bridge import _batch_item
    from pyab.search import solve_python
    from pyab.trees.randomtrees import Shape, random_tree, random_window

    def per_tree(fn) -> tuple[object, float]:  # CPU time: the machine may be shared
        start = time.process_time()
        got = fn()
        return got, (time.process_time() - start) / n * 1e6

    rng, shape = random.Random(0), Shape()

    def generate() -> list:
        out = []
        for _ in range(n):
            tree = random_tree(rng, shape)
            out.append((tree, *random_window(rng, tree, "random")))
        return out
    cases, gen = per_tree(generate)
    cases = list(cases)  # type: ignore[call-overload]
    eng = engine()
    eng.solve(cases[0][0], once=True)  # SWI-Prolog started outside the clock
    _, checks = per_tree(lambda: [engines._plain(t, a, b, False) or engines._check(t, "bratko", a, b, None, None)
                                  for t, a, b in cases])  # as both_many: _check for what is not plain
    _, prolog = per_tree(lambda: [eng.solve_batch(cases[i:i + engines.BATCH])
                                  for i in range(0, n, engines.BATCH)])
    _, packing = per_tree(lambda: [("\0".join(t.names), _batch_item(t, a, b)) for t, a, b in cases])
    _, mirror = per_tree(lambda: [solve_python(t, "bratko", a, b, None) for t, a, b in cases])
    _, both = per_tree(lambda: list(engines.both_many(cases, "bratko")))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pyab", "check", "--random", str(n), "--seed", "0"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    whole = (time.perf_counter() - start) / n * 1e6
    printed = 1e6 / float(_RATE.search(done.stdout).group(1))  # type: ignore[union-attr]
    return {"generate (random tree and window)": gen, "check the arguments": checks,
            "Prolog: pack, load, observed search, answer, unload (a call a batch)": prolog,
            "of which packing the trees' text in Python": packing,
            "mirror: observed search": mirror,
            "both engines and the comparison (engines.both_many)": both,
            "compare and report (both_many less the two searches)": both - prolog - mirror,
            "the command, as printed": printed,
            "the command, whole process (start included)": whole}


def program_budget(n: int) -> dict[str, float]:
    """Microseconds a tree for each stage of ``check --program
    prolog/alphabeta.pl``, in CPU time: the parent's stages timed over all
    ``n`` trees in this process, the child's by running pyab's Prolog child
    (prolog/referee/child.pl) over the same jobs from a file, whole and
    reading them only, less its start.  The parent's stages run with the
    garbage collector off (it would be timed over every tree kept here);
    the command's own figures, last, count everything."""
    import gc

    from pyab.engines import check_search, plain_search
    from pyab.referee import PrologRoute
    from pyab.referee.checking import CheckOptions, random_cases
    from pyab.referee.child import _DECODER
    from pyab.referee.program import job_text, observed
    from pyab.referee.verdict import Settings, _checks, judge
    from pyab.search import algorithm, solve_python
    from pyab.tree import check_window

    def per_tree(fn) -> tuple[object, float]:
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            got = fn()
            return got, (time.process_time() - start) / n * 1e6
        finally:
            gc.enable()

    cases, gen = per_tree(lambda: list(random_cases(CheckOptions(random=n, seed=0))))
    cases = list(cases)  # type: ignore[call-overload]
    entry = algorithm("bratko").entry
    _, checking = per_tree(lambda: [plain_search(c.tree, "bratko", c.alpha, c.beta) or (  # as run, judge
        check_window(c.tree, c.alpha, c.beta), check_search(c.tree, "bratko", c.alpha, c.beta))
        for c in cases])
    refs, mirror = per_tree(lambda: [solve_python(c.tree, "bratko", c.alpha, c.beta, None) for c in cases])
    texts, making = per_tree(lambda: [job_text(c.tree, c.alpha, c.beta, None, entry) for c in cases])
    swipl = shutil.which("swipl") or "swipl"
    child = [swipl, "--no-packs", "-q", "-g", "pyab_child:main", "-t", "halt",
             str(ROOT / "prolog" / "referee" / "child.pl"), "--", str(ROOT / "prolog" / "alphabeta.pl")]
    reader = [swipl, "--no-packs", "-q", "-g", "repeat, read_term(user_input, T, [double_quotes(string)]), "
              "T == end_of_file, !", "-t", "halt"]

    def cpu(argv: list[str], text: str) -> tuple[str, float]:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return done.stdout, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    jobs = "\n".join(texts) + "\n"  # type: ignore[arg-type]
    answers, whole = cpu(child, jobs)
    _, start = cpu(child, texts[0] + "\n")  # type: ignore[index]
    _, read = cpu(reader, jobs)
    _, read_start = cpu(reader, "")
    lines = answers.splitlines()
    msgs, decoding = per_tree(lambda: [_DECODER.decode(line) for line in lines])
    _, observing = per_tree(lambda: [observed(c.tree, m) for c, m in zip(cases, msgs)])  # type: ignore[call-overload]

    class Answered:  # the child's answers, taken in order (no child: the parent's side only)
        path = "alphabeta.pl"

        def __init__(self) -> None:
            self.it = iter(msgs)  # type: ignore[call-overload]

        def search_of(self, *search: object) -> tuple:
            return search

        def answer(self, search: tuple) -> dict:  # as PrologProgram.answer: the best move named
            msg = dict(next(self.it))
            if msg["best"] is not None:
                msg["best"] = search[0].names[msg["best"]]
            return msg
    route = PrologRoute(str(ROOT / "prolog" / "alphabeta.pl"), "bratko")
    route._program.close()
    route._program = Answered()  # type: ignore[assignment]
    checks = _checks(("all",))
    agreed, judging = per_tree(lambda: [route.agrees(c.tree, c.alpha, c.beta, None, checks, r)
                                        for c, r in zip(cases, refs)])  # type: ignore[call-overload]
    assert all(a is not None for a in agreed)  # type: ignore[attr-defined]
    route._program = Answered()  # type: ignore[assignment]  # the answers again, for the whole judge
    judged, whole_judge = per_tree(lambda: [judge(route, c.tree, c.alpha, c.beta, Settings())
                                            for c in cases])  # type: ignore[call-overload]
    assert all(v.status == "agree" for v in judged)  # type: ignore[attr-defined]
    child_search = (whole - start) / (n - 1) * 1e6
    reading = (read - read_start) / n * 1e6
    rate, command = command_rate("program", n, False)  # pinned when this process is
    _, command_start = command_rate("program", 1, False)
    return {"parent: generate (random tree and window)": gen,
            "parent: check the window and the arguments": checking,
            "parent: mirror, observed search (the reference)": mirror,
            "parent: the job's text (job_text)": making,
            "parent: read the answer's JSON": decoding,
            "parent: the record's visited and leaves (observed)": observing,
            "parent: record, compare and the Result (PrologRoute.agrees, with observed)": judging,
            "parent: judge's own (verdict.judge less the mirror and agrees)":
                whole_judge - mirror - judging - checking,
            "child: read the job (read_term/3)": reading,
            "child: store, search and questions, answer (the rest)": child_search - reading,
            "child: start and load, once a run (us a tree over n trees)": start * 1e6 / n,
            "the command: CPU of its processes (parent and child), less a run of one tree":
                (command - command_start) / (n - 1) * 1e6,
            "the command, as printed (wall time)": 1e6 / rate}


def memory(n: int, marks: int = 10) -> list[tuple[int, float]]:
    """Resident memory (MB) of the in-process check after every n/marks
    trees, as ``pyab check --random n --seed 0`` judges them (the same
    trees, batches and comparison): flat means nothing piles up."""
    import random

    from pyab.engines import both_many
    from pyab.trees.randomtrees import Shape, random_tree, random_window
    page = os.sysconf("SC_PAGE_SIZE")

    def cases():
        rng, shape = random.Random(0), Shape()
        for _ in range(n):
            tree = random_tree(rng, shape)
            yield (tree, *random_window(rng, tree, "random"))
    out = []
    for i, (_, diff) in enumerate(both_many(cases()), 1):
        assert not diff
        if i % (n // marks) == 0:
            with open("/proc/self/statm") as f:
                out.append((i, int(f.read().split()[1]) * page / 2**20))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trees", type=int, action="append", help="trees a run (default 1,000 and 10,000)")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--route", action="append", choices=list(ROUTES), help="only these routes")
    p.add_argument("--budget", type=int, default=None, help="only the budget, on this many trees")
    p.add_argument("--program-budget", type=int, default=None,
                   help="only the budget of check --program, on this many trees")
    p.add_argument("--memory", type=int, default=None,
                   help="only resident memory along this many trees (in-process)")
    p.add_argument("--floors", type=int, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.floors:
        print(json.dumps(floors(args.floors)))
        return 0
    if args.memory:
        marks = memory(args.memory)
        print(json.dumps(marks) if args.json else "resident memory (MB) after each share of trees: " +
              ", ".join(f"{i:,}: {mb:.1f}" for i, mb in marks))
        return 0
    if args.program_budget:
        b = program_budget(args.program_budget)
        print(json.dumps(b) if args.json else "\n".join(
            [f"budget a tree, check --program prolog/alphabeta.pl, {args.program_budget:,} trees "
             "(us of CPU):", ""] + [f"| {k} | {v:,.1f} |" for k, v in b.items()]))
        return 0
    if args.budget:
        b = budget(args.budget)
        print(json.dumps(b) if args.json else "\n".join(
            [f"budget a tree, in-process check, {args.budget:,} trees (us):", ""] +
            [f"| {k} | {v:,.1f} |" for k, v in b.items()]))
        return 0
    rows = measure(args.trees or [1000, 10_000], args.reps, args.route or list(ROUTES))
    print(json.dumps(rows) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
