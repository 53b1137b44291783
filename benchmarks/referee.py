"""``python -m benchmarks.referee [--trees N]``: how fast the referee judges
a program under test, route by route, on the same random trees (seed 0,
pyab's default shapes and windows), beside the yardstick of pyab's own
mirror searching them in-process.  Each route must agree (the slides'
program in each form; aima-python's unchanged search for the aima row).

Every question is one JSON line each way between pyab and the child, so the
rate is bounded by the round trips, not by the search.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "examples" / "referee"


def _trees(n: int, aima: bool):
    from pyab.trees.randomtrees import Shape, random_tree, random_window
    rng = random.Random(0)
    out = []
    for _ in range(n):
        tree = random_tree(rng, Shape())
        out.append((tree, *random_window(rng, tree, "full" if aima else "random")))
    return out


def _rate(route, trees, algorithm: str) -> tuple[float, float, bool]:
    """(trees per second, questions per second, all agree)."""
    from pyab.referee.verdict import differences, reference
    agree, questions = True, 0
    with route:
        route.search(*trees[0])  # start the child outside the clock
        start = time.perf_counter()
        for tree, a, b in trees:
            r = route.search(tree, a, b)
            questions += r.extra.get("questions", 0)
            ref = reference(tree, algorithm, a, b, None, "all")
            agree &= not differences(ref, r, "all", "reference", "yours", a, b)
        spent = time.perf_counter() - start
    return len(trees) / spent, questions / spent, agree


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trees", type=int, default=500)
    n = p.parse_args(argv).trees
    from pyab.referee import ExecRoute, PythonRoute
    from pyab.search import solve_python
    rows = []
    plain = _trees(n, False)
    start = time.perf_counter()
    for tree, a, b in plain:
        solve_python(tree, "bratko", a, b)
    mirror = n / (time.perf_counter() - start)
    routes = [("--python slides_alphabeta.py:alphabeta",
               PythonRoute(f"{REF / 'slides_alphabeta.py'}:alphabeta"), "bratko", plain),
              ("--exec client.py", ExecRoute(f"{sys.executable} {REF / 'client.py'}"), "bratko", plain)]
    if shutil.which("node"):
        routes.append(("--exec client.js (node)", ExecRoute(f"node {REF / 'client.js'}"), "bratko", plain))
    try:
        import aima.games  # noqa: F401
        routes.append(("--python aima.games:alpha_beta_search --interface aima",
                       PythonRoute("aima.games:alpha_beta_search", "aima"), "aima", _trees(n, True)))
    except ImportError:
        pass
    for name, route, alg, trees in routes:
        rows.append((name, *_rate(route, trees, alg)))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{n} random trees (seed 0), {os.cpu_count()} cores, load average {load:.1f}\n")
    print("| route | trees/s | questions/s | agrees | the mirror in-process |")
    print("| --- | ---: | ---: | --- | ---: |")
    for name, rate, qps, ok in rows:
        print(f"| `{name}` | {rate:,.0f} | {qps:,.0f} | {'yes' if ok else 'NO'} | {mirror:,.0f} trees/s |")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
