"""Recycled tree modules against destroyed ones, side by side.

``python -m benchmarks.recycle`` runs each measurement twice in fresh
processes: once as pyab runs (a fact tree's module is emptied and reused
when its ``Tree`` is gone) and once with ``pyab.prolog.Engine(recycle=False)``
(every module destroyed, as before).  It prints one Markdown table:

* per load/solve/drop cycle, over ``--cycles`` cycles after a warm-up: the
  growth of resident memory, of wrap_predicate closures, of the atom table
  and of text atoms (``pyab.prolog.resource_counts()``);
* ``pyab check --random N --seed 1 --algorithm A`` in trees per second of
  wall-clock time, whole process, for bratko and hsu-f1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from .measure import ROOT

CYCLES = """
import gc, json, sys
import pyab
from pyab.prolog import bridge as prolog
from benchmarks.measure import rss_mb
prolog.set_default(prolog.Engine(recycle={recycle}))
def cycle(i):
    t = pyab.parse(f"a(b(c={{i}}, 'n{{i}}x'={{i % 7}}), e(f=3, 'u{{i}}'=2))")
    assert pyab.solve(t).value == max(min(i, i % 7), 2)
for i in range(300):
    cycle(i)
gc.collect()
c0, m0 = prolog.resource_counts(), rss_mb()
for i in range({cycles}):
    cycle(i)
gc.collect()
c1, m1 = prolog.resource_counts(), rss_mb()
print(json.dumps({{"rss_kb": (m1 - m0) * 1024, **{{k: c1[k] - c0[k] for k in c0}}}}))
"""

CHECK = """
import sys
from pyab.prolog import bridge as prolog
from pyab.cli import main
prolog.set_default(prolog.Engine(recycle={recycle}))
sys.exit(main(["check", "--random", "{n}", "--seed", "1", "--algorithm", "{alg}"]))
"""


def _python(code: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(done.stderr or done.stdout)
    return wall, done.stdout


def measure(cycles: int, trees: int) -> list[tuple[str, str, str, str]]:
    rows = []
    per = {}
    for recycle in (True, False):
        _, out = _python(CYCLES.format(recycle=recycle, cycles=cycles))
        per[recycle] = json.loads(out)
    for key, label, unit in (("rss_kb", "resident memory", "bytes"), ("closures", "closures", ""),
                             ("atoms", "atom table entries", ""), ("text_atoms", "text atoms", ""),
                             ("modules", "tree/program modules in use", "")):
        scale = 1024 if key == "rss_kb" else 1
        now, old = (per[r][key] * scale / cycles for r in (True, False))
        rows.append((f"{label} per load/solve/drop cycle ({cycles:,} cycles)",
                     f"{now:+.2f} {unit}".strip(), f"{old:+.2f} {unit}".strip(),
                     _ratio(now, old)))
    for alg in ("bratko", "hsu-f1"):
        speed = {}
        for recycle in (True, False):
            wall, _ = _python(CHECK.format(recycle=recycle, n=trees, alg=alg))
            speed[recycle] = trees / wall
        rows.append((f"`pyab check --random {trees} --seed 1 --algorithm {alg}` (trees/s, whole process)",
                     f"{speed[True]:,.0f}", f"{speed[False]:,.0f}",
                     f"{speed[True] / speed[False]:.2f}x"))
    return rows


def _ratio(now: float, old: float) -> str:
    if abs(old) < 1e-9:
        return "-"
    return f"{now / old:.3f}x"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.recycle", description=__doc__.split("\n")[0])
    p.add_argument("--cycles", type=int, default=10_000)
    p.add_argument("--trees", type=int, default=2000)
    args = p.parse_args(argv)
    rows = measure(args.cycles, args.trees)
    print("| figure | recycled (now) | destroyed (before) | ratio |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
