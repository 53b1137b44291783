"""The same big tree file solved again by fresh ``pyab solve`` processes:
the second run's cost beside the first's (issue 28's cached-load figure).

The first run parses the file, loads its clauses into SWI-Prolog and
writes the tree's table into an empty cache folder (``XDG_CACHE_HOME``
points at a temporary folder, so the run is cold whatever the user's cache
holds); the later runs map the table (pyab/trees/table.py).  A third row
is the first run with the cache turned off (``PYAB_TREE_CACHE=0``): what
writing the table adds to a first run.  Each figure is the median of
``reps`` runs; the runs of one repetition come one after the other, and
every answer must be the same.

    python -m benchmarks.repeat [--nodes N] [--reps R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from .bigtree import flat_text
from .measure import Row, Timing, py, run


def measure(size: int, folder: Path, reps: int = 3) -> dict[str, Timing]:
    """Median wall and CPU of: the first run (cache empty), a second run,
    and a run with the cache off."""
    path = folder / f"repeat-{size}.tree"
    path.write_text(flat_text(size), encoding="utf-8")
    cmd = py("-m", "pyab", "solve", str(path), "--json")
    got: dict[str, list[Timing]] = {"first": [], "second": [], "off": []}
    answers = set()
    for _ in range(reps):
        with tempfile.TemporaryDirectory(prefix="pyab-cache-", dir=folder) as cache:
            env = {**os.environ, "XDG_CACHE_HOME": cache}
            for kind, extra in (("first", {}), ("second", {}), ("off", {"PYAB_TREE_CACHE": "0"})):
                timing, done = run(cmd, env={**env, **extra})
                got[kind].append(timing)
                answers.add(done.stdout)
            if not any(Path(cache, "pyab", "trees").glob("*.table")):
                raise RuntimeError("the first run wrote no table")
    if len(answers) != 1:
        raise RuntimeError("the runs answered differently")
    return {kind: Timing(statistics.median(t.wall for t in ts), statistics.median(t.cpu for t in ts))
            for kind, ts in got.items()}


def rows(size: int, folder: Path, reps: int = 3) -> list[Row]:
    m = measure(size, folder, reps)
    first, second, off = m["first"], m["second"], m["off"]
    ratio = first.cpu / second.cpu
    cost = first.cpu / off.cpu
    return [
        Row(f"second `pyab solve` of the same {size:,}-node file (fresh process, table cached)",
            f"{second.wall:.2f} s wall, {second.cpu:.2f} s CPU",
            "the first run (parse, load, write the table)", f"{first.wall:.2f} s wall, {first.cpu:.2f} s CPU",
            ratio, f"{ratio:.1f}x faster (CPU)", ">= 3x faster", ratio >= 3),
        Row(f"first `pyab solve` of a {size:,}-node file, writing its table",
            f"{first.cpu:.2f} s CPU", "the same with PYAB_TREE_CACHE=0", f"{off.cpu:.2f} s CPU",
            cost, f"{cost:.2f}x the time", "-", None),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", type=int, default=1_000_000, help="nodes of the tree (default 1,000,000)")
    p.add_argument("--reps", type=int, default=3, help="repetitions, medians taken (default 3)")
    args = p.parse_args(argv)
    from .measure import print_table
    with tempfile.TemporaryDirectory(prefix="pyab-repeat-") as tmp:
        print_table(rows(args.nodes, Path(tmp), args.reps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
