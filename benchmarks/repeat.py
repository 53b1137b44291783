"""The same big tree file solved twice, by two fresh ``pyab solve``
processes: the second run's cost beside the first's.

Issue 28 aims at a second run three times faster than the first, by a
cache of the tree's compiled facts.  There is no such cache: on
SWI-Prolog 9.0.4 loading the same facts from a ``.qlf`` file and building
their indexes took about as long as pyab's compiled loader (see
benchmarks/results-referee.md), so the row shows what a second run costs
today, and says so.
"""

from __future__ import annotations

from pathlib import Path

from .bigtree import flat_text
from .measure import Row, py, run


def rows(size: int, folder: Path) -> list[Row]:
    path = folder / f"repeat-{size}.tree"
    path.write_text(flat_text(size), encoding="utf-8")
    cmd = py("-m", "pyab", "solve", str(path), "--json")
    first, done1 = run(cmd)
    second, done2 = run(cmd)
    if done1.stdout != done2.stdout:
        raise RuntimeError("the second pyab solve answered differently from the first")
    ratio = first.cpu / second.cpu
    return [Row(f"second `pyab solve` of the same {size:,}-node file (fresh process)",
                f"{second.wall:.2f} s wall, {second.cpu:.2f} s CPU",
                "the first run", f"{first.wall:.2f} s wall, {first.cpu:.2f} s CPU",
                ratio, f"{ratio:.2f}x faster (CPU)", ">= 3x faster", ratio >= 3)]
