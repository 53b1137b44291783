"""pyab experiment: the literature's numbers, measured.

``knuth-moore``   leaves read on perfectly and worst ordered uniform trees,
                  beside the Knuth-Moore formula and the chessprogramming table;
``random-order``  leaves read on random uniform trees (the average case);
``best-order``    every ordering of a small tree's children, the cheapest one.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from . import _common

ENGINES = {"prolog": ("prolog",), "python": ("python",), "both": ("prolog", "python")}


def _ints(text: str) -> list[int]:
    """``2,3,5`` or ``2-6`` -> a list of positive integers."""
    out: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            out.extend(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers like 2,3,5 or 2-6, not {text!r}") from None
    if not out or min(out) < 1:
        raise argparse.ArgumentTypeError(f"expected positive numbers, not {text!r}")
    return out


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "experiment", help="reproduce the literature's leaf counts (knuth-moore, random-order, best-order)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Measure how many leaves alpha-beta reads on trees given as rules (never
stored): uniform trees with perfect, worst or random ordering, in SWI-Prolog
(observed) and in the Python mirror, beside the published numbers.  Exit 1
when the engines disagree.""",
        epilog="""\
examples:
  pyab experiment knuth-moore --branching 40 --depth 0-6 --ordering perfect --engine prolog
  pyab experiment knuth-moore --branching 3 --depth 0-6
  pyab experiment random-order --branching 2-8 --depth 2-6 --trees 20
  pyab experiment best-order examples/best-order.tree""")
    kinds = p.add_subparsers(dest="experiment", required=True, metavar="EXPERIMENT")

    km = kinds.add_parser(
        "knuth-moore", help="perfect and worst ordering against b^ceil(d/2)+b^floor(d/2)-1 and b^d",
        description="Leaves read on uniform trees of branching B at each depth of D0-D1, "
                    "perfectly ordered (best case) and worst ordered, beside the Knuth-Moore "
                    "formula, b^d, and for B = 40 the chessprogramming table as printed.")
    km.add_argument("--branching", type=_common.positive, required=True, metavar="B",
                    help="children of every inner node (at least 1)")
    km.add_argument("--depth", type=_common.int_range, required=True, metavar="D0-D1",
                    help="depths to run, e.g. 0-6 or 4 (the leaves are at this depth)")
    km.add_argument("--ordering", choices=["perfect", "worst", "both"], default="both",
                    help="perfect: first child always best (best case); worst: no cut-off "
                         "possible; both (default)")
    _engine_options(km, default="both")
    km.set_defaults(run=run_knuth_moore)

    ro = kinds.add_parser(
        "random-order", help="the average case: random leaf values, effective branching factor",
        description="Mean leaves read on uniform trees with random leaf values "
                    "(random(SEED) ordering, seeds 0..N-1) for every B and D of the grid, the "
                    "effective branching factor and the exponent x in leaves = b^(x d), beside "
                    "Hsu's claims (b^0.75 after Fuller et al., b/log b, 4/3 of the depth).")
    ro.add_argument("--branching", type=_ints, default=[2, 3, 4, 6, 8, 12, 16], metavar="B,...",
                    help="branching factors, e.g. 2,4,8 or 2-8 (default 2,3,4,6,8,12,16)")
    ro.add_argument("--depth", type=_common.int_range, default=(2, 6), metavar="D0-D1",
                    help="depths (default 2-6)")
    ro.add_argument("--trees", type=_common.positive, default=10, metavar="N",
                    help="random trees per cell (default 10)")
    ro.add_argument("--max-leaves", type=_common.positive, default=3_000_000, metavar="N",
                    help="skip cells whose tree has more than N leaves (default 3,000,000)")
    ro.add_argument("--plot", metavar="OUT.svg|OUT.png",
                    help="also draw the exponent against b (needs matplotlib: pip install 'pyab[plot]')")
    _engine_options(ro, default="prolog")
    ro.set_defaults(run=run_random_order)

    bo = kinds.add_parser(
        "best-order", help="try every ordering of a small tree's children",
        description="Try every ordering of the children of every node of FILE with the "
                    "Python mirror, report the one that reads the fewest leaves next to the "
                    "perfect ordering (children best first), and run both in both engines.")
    bo.add_argument("file", metavar="FILE", help="a small .tree file (or - for stdin)")
    bo.add_argument("--limit", type=_common.positive, default=500_000, metavar="N",
                    help="refuse trees with more than N orderings (default 500,000)")
    _common.add_algorithm(bo)
    _common.add_json(bo)
    bo.set_defaults(run=run_best_order)


def _engine_options(p: argparse.ArgumentParser, default: str) -> None:
    _common.add_engine(p, choices=tuple(ENGINES), default=default,
                       help=f"prolog, python or both (default {default}); both must agree")
    _common.add_algorithm(p)
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    _common.add_scheduler(p, "run the table's cells on the Dask cluster whose scheduler is at ADDRESS, "
                          "one SWI-Prolog per worker process (needs pip install 'pyab[dist]')")
    _common.add_json(p)


class _Progress:
    """Progress lines on stderr for the long runs (the experiments announce
    a run when its tree is big), each with the time since the start."""

    def __init__(self, quiet: bool):
        self.quiet, self.start = quiet, time.perf_counter()

    def __call__(self, text: str) -> None:
        if not self.quiet:
            print(f"  [{time.perf_counter() - self.start:7.1f} s] {text}", file=sys.stderr, flush=True)


def _n(x) -> str:
    return f"{x:,}" if isinstance(x, int) else str(x)


def run_knuth_moore(args: argparse.Namespace) -> int:
    from ..trees.experiments import knuth_moore_rows
    orderings = ("perfect", "worst") if args.ordering == "both" else (args.ordering,)
    d0, d1 = args.depth
    if getattr(args, "scheduler", None):  # one task per depth
        from ..referee.distributed import run_tasks
        cells = run_tasks(args.scheduler, knuth_moore_rows, lambda _: [
            (args.branching, [d], orderings, args.algorithm, ENGINES[args.engine])
            for d in range(d0, d1 + 1)])
        rows = [row for cell in cells for row in cell]
    else:
        rows = knuth_moore_rows(args.branching, range(d0, d1 + 1), orderings, args.algorithm,
                                ENGINES[args.engine], _Progress(args.quiet or args.json))
    agree = all(r["agree"] for r in rows)
    if args.json:
        _common.print_json({"branching": args.branching, "algorithm": args.algorithm,
                            "engines": list(ENGINES[args.engine]), "agree": agree, "rows": rows})
        return 0 if agree else 1
    b = args.branching
    print(f"leaves read by {args.algorithm} on uniform trees, b = {b} "
          f"(engines: {', '.join(ENGINES[args.engine])})")
    head = ["depth"]
    if "perfect" in orderings:
        head += ["best (measured)", "b^ceil(d/2)+b^floor(d/2)-1"]
    if "worst" in orderings:
        head += ["worst (measured)", "b^d"]
    if b == 40:
        head += ["CPW table (best / worst)"]
    head += ["engines"]
    table = []
    for r in rows:
        line = [str(r["depth"])]
        if "perfect" in orderings:
            line += [_n(r["best"]), _n(r["formula"]) + ("" if r["best"] == r["formula"] else " (differs)")]
        if "worst" in orderings:
            line += [_n(r["worst"]), _n(r["minimax"]) + ("" if r["worst"] == r["minimax"] else " (differs)")]
        if b == 40:
            printed = r.get("printed")
            if printed:
                marks = []
                for key in ("best", "worst"):
                    if key in r:
                        ok = printed[key] == r[key]
                        marks.append(_n(printed[key]) + ("" if ok else " (printed; measured differs)"))
                line.append(" / ".join(marks))
            else:
                line.append("-")
        line.append(_agreement(r["agree"], args.engine))
        table.append(line)
    _print_table(head, table)
    for r in rows:
        if not r["agree"]:
            for key, runs in r["runs"].items():
                print(f"depth {r['depth']} {key}: " + "; ".join(
                    f"{x['engine']}: best {x['best']}, value {x['value']}, "
                    f"{x['leaves']} leaves, {x['visited']} nodes" for x in runs))
    return 0 if agree else 1


def _agreement(agree: bool, engine: str) -> str:
    if engine != "both":
        return f"{engine} only"
    return "agree" if agree else "DISAGREE"


def _print_table(head: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


def run_random_order(args: argparse.Namespace) -> int:
    from ..trees.experiments import add_growth, random_order_rows
    d0, d1 = args.depth
    progress = _Progress(args.quiet or args.json)
    cells = [(b, d) for b in args.branching for d in range(d0, d1 + 1) if b ** d <= args.max_leaves]
    if getattr(args, "scheduler", None):  # one task per (b, d) cell
        from ..referee.distributed import run_tasks
        done = run_tasks(args.scheduler, random_order_rows, lambda _: [
            ([b], [d], args.trees, args.algorithm, ENGINES[args.engine]) for b, d in cells])
        rows = add_growth([row for cell in done for row in cell])
    else:
        rows = []
        for b in args.branching:
            depths = [d for b1, d in cells if b1 == b]
            rows += random_order_rows([b], depths, args.trees, args.algorithm,
                                      ENGINES[args.engine], progress)
    agree = all(r["agree"] for r in rows)
    if args.plot:
        from ..trees.plot import plot_random_order
        plot_random_order(rows, args.plot)
    if args.json:
        _common.print_json({"algorithm": args.algorithm, "trees": args.trees,
                            "engines": list(ENGINES[args.engine]), "agree": agree, "rows": rows})
        return 0 if agree else 1
    print(f"mean leaves read by {args.algorithm} on {args.trees} random uniform trees per cell "
          f"(engines: {', '.join(ENGINES[args.engine])})")
    head = ["b", "d", "mean leaves", "b^d", "best case", "leaves^(1/d)", "growth/level",
            "b^0.75", "b/ln b", "x (leaves=b^xd)", "x (growth)", "depth x1/x", "engines"]
    table = []
    for r in rows:
        table.append([
            str(r["branching"]), str(r["depth"]), f"{r['mean']:,.1f}", _n(r["minimax"]),
            _n(r["perfect"]), _f(r.get("effective_branching")), _f(r.get("growth_branching")),
            _f(r.get("fuller_b075")), _f(r.get("knuth_moore_b_over_log_b")),
            _f(r.get("exponent"), 3), _f(r.get("growth_exponent"), 3),
            _f(r.get("depth_factor"), 2), _agreement(r["agree"], args.engine)])
    _print_table(head, table)
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0 if agree else 1


def _f(x, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def run_best_order(args: argparse.Namespace) -> int:
    import pyab
    from ..engines import differences
    from ..dsl import dump
    from ..trees.experiments import Reordered, best_order
    tree = _common.load_tree(args.file)
    res = best_order(tree, args.algorithm, args.limit)
    best = Reordered(tree, res["best_orders"][0]).explicit()
    perfect = Reordered(tree, res["perfect_order"]).explicit()
    # The winner and the perfect ordering, run in both engines.
    checked: dict[str, dict[str, Any]] = {}
    for label, t in (("best", best), ("perfect", perfect)):
        pro = pyab.solve(t, "prolog", args.algorithm)
        pyt = pyab.solve(t, "python", args.algorithm)
        diff = differences(pro, pyt)
        checked[label] = {"tree": dump(t).strip(), "leaves": list(pro.leaves),
                          "value": pro.value, "best": pro.best, "agree": not diff}
    agree = all(c["agree"] for c in checked.values())
    if args.json:
        _common.print_json({"file": args.file, "algorithm": args.algorithm,
                            "orderings_tried": res["tried"], "given": res["given"],
                            "perfect": res["perfect"], "fewest": res["fewest"],
                            "orderings_with_fewest": len(res["best_orders"]),
                            "best_tree": checked["best"], "perfect_tree": checked["perfect"],
                            "agree": agree})
        return 0 if agree else 1
    print(f"{args.file}: {res['tried']:,} orderings tried with {args.algorithm}")
    print(f"  as given          {res['given']} leaves")
    print(f"  perfect ordering  {res['perfect']} leaves: {checked['perfect']['tree']}")
    print(f"                    reads {' '.join(checked['perfect']['leaves'])}")
    print(f"  fewest            {res['fewest']} leaves ({len(res['best_orders'])} orderings), e.g. "
          f"{checked['best']['tree']}")
    print(f"                    reads {' '.join(checked['best']['leaves'])}")
    if res["fewest"] < res["perfect"]:
        extra = res["perfect"] - res["fewest"]
        print(f"  the perfect ordering is not the cheapest: {extra} leaf{'' if extra == 1 else 's'} "
              "more than the best ordering")
    else:
        print("  the perfect ordering is among the cheapest")
    print("  engines " + ("agree on both trees" if agree else "DISAGREE"))
    return 0 if agree else 1
