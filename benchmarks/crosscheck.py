"""Cross-check throughput and memory (issue 3, item 6).

``python -m benchmarks.crosscheck`` checks random trees of about 50 nodes
(both engines, observation included, as ``pyab check --random`` does) and
prints trees per second beside the Prolog engine alone on the same trees;
then solves 10,000 fresh trees in one process and prints the resident
memory before and after (every tree's module must be dropped again).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import time

from .measure import rss_mb

# depth 3-4, 2-4 children, a fifth of the branches stopping early: 50 nodes
# on average (49.7 over 2,000 trees of seed 1).
SHAPE = dict(depth=(3, 4), branching=(2, 4), values=(-9, 9), leaf_chance=0.2)


def _trees(n: int, seed: int):
    from pyab.trees.randomtrees import Shape, random_tree, random_window
    rng = random.Random(seed)
    shape = Shape(**SHAPE)
    for _ in range(n):
        tree = random_tree(rng, shape)
        yield tree, random_window(rng, tree, "random")


def measure(n: int = 2000, solves: int = 10_000) -> dict:
    import pyab
    from pyab.prolog import bridge as prolog
    from pyab.engines import differences

    for tree, (a, b) in _trees(100, 99):  # warm up: engine, programs, imports
        pyab.solve(tree, "prolog", alpha=a, beta=b)
    batch = list(_trees(n, 1))
    nodes = sum(len(t) for t, _ in batch) / n
    t0 = time.perf_counter()
    for tree, (a, b) in batch:
        if differences(pyab.solve(tree, "prolog", alpha=a, beta=b),
                       pyab.solve(tree, "python", alpha=a, beta=b)):
            raise RuntimeError("the engines disagree: run pyab check --random")
    check_s = time.perf_counter() - t0
    del batch
    gc.collect()
    fresh = list(_trees(n, 1))  # new Tree objects: each is loaded again
    t0 = time.perf_counter()
    for tree, (a, b) in fresh:
        pyab.solve(tree, "prolog", alpha=a, beta=b)
    prolog_s = time.perf_counter() - t0
    del fresh
    gc.collect()

    before = rss_mb()
    for tree, (a, b) in _trees(solves, 2):
        pyab.solve(tree, "prolog", alpha=a, beta=b)
    gc.collect()
    live = prolog.live_modules()
    after = rss_mb()
    return {"nodes_mean": nodes, "checked_per_s": n / check_s, "prolog_per_s": n / prolog_s,
            "solves": solves, "rss_before_mb": before, "rss_after_mb": after,
            "live_modules": live}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.crosscheck", description=__doc__.split("\n")[0])
    p.add_argument("--trees", type=int, default=2000)
    p.add_argument("--solves", type=int, default=10_000)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    m = measure(args.trees, args.solves)
    if args.json:
        print(json.dumps(m))
    else:
        print(f"random trees of {m['nodes_mean']:.1f} nodes on average")
        print(f"checked (both engines, observed): {m['checked_per_s']:.0f} trees/s "
              f"(Prolog engine alone: {m['prolog_per_s']:.0f} solves/s)")
        print(f"resident memory: {m['rss_before_mb']:.1f} MB before, {m['rss_after_mb']:.1f} MB after "
              f"{m['solves']:,} solves ({m['rss_after_mb'] - m['rss_before_mb']:+.1f} MB), "
              f"{m['live_modules']} tree modules alive")
    return 0 if math.isfinite(m["checked_per_s"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
