"""``pyab check`` with a program under test (--python, --exec, --program
with --compare/--keep-going): every tree searched by the program and by
pyab's reference, compared, and the verdict printed."""

from __future__ import annotations

import math
import shlex
import time
from pathlib import Path
from typing import Any, Iterator

from ..dsl import dump
from ..result import json_number
from ..tree import Number, Tree
from . import Route
from .verdict import Disagreement, differences, reference, reference_label, shrink

__all__ = ["run_check"]


def _bound(x: Number) -> str:
    from ..prolog.facts import number
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return number(x)


def _window(a: Number, b: Number) -> str:
    return f"{_bound(a)} .. {_bound(b)}"


def _trees(args: Any) -> Iterator[tuple[int, str, Tree, Number, Number]]:
    """(number, source, tree, alpha, beta) for FILE... or --random N."""
    if args.random is None:
        from ..dsl import load
        for path in args.files:
            yield 0, path, load(path), args.alpha, args.beta
        return
    import random

    from ..trees.randomtrees import Shape, random_tree, random_window
    shape = Shape(depth=args.tree_depth, branching=args.branching, values=args.values,
                  decimals=args.decimals, leaf_chance=args.ragged)
    rng = random.Random(args.seed)
    windows = "full" if args.interface == "aima" else args.windows
    for i in range(1, args.random + 1):
        tree = random_tree(rng, shape)
        alpha, beta = random_window(rng, tree, windows)
        yield i, "", tree, alpha, beta


def run_check(args: Any, route: Route) -> int:
    compare = args.compare or "all"
    ref_label = reference_label(args.algorithm, compare)
    if route.interface == "aima":
        if not (args.alpha == -math.inf and args.beta == math.inf):
            raise ValueError("--interface aima: aima-python's searches take no window "
                             "(they always start at -inf .. inf); drop --alpha/--beta")

    def both(tree: Tree, alpha: Number, beta: Number) -> list[str]:
        ref = reference(tree, args.algorithm, alpha, beta, args.depth, compare)
        yours = route.search(tree, alpha, beta, depth=args.depth,
                             allow_no_best=ref.best is None)
        return differences(ref, yours, compare, ref_label, route.label, alpha, beta)

    checked, bad, first = 0, 0, None
    start = time.perf_counter()
    with route:
        for number, source, tree, alpha, beta in _trees(args):
            if args.depth is None:
                from ..tree import check_window
                check_window(tree, alpha, beta)
            diff = both(tree, alpha, beta)
            checked += 1
            if diff:
                bad += 1
                if first is None:
                    first = Disagreement(tree, alpha, beta, diff, number, source)
                if not args.keep_going:
                    break
            elif source and not args.json:
                print(f"ok  {source}: {route.label} agrees with {ref_label}")
        elapsed = time.perf_counter() - start
        if first is not None:
            first.shrunk = shrink(first.tree, first.alpha, first.beta, both)
    total = args.random if args.random is not None else len(args.files)
    return _report(args, route, ref_label, compare, checked, total, bad, first, elapsed)


def _replay(args: Any, route: Route, path: str, alpha: Number, beta: Number, compare: str) -> str:
    words = ["pyab", "check", path, *route.replay, "--algorithm", args.algorithm]
    if args.depth is not None:
        words += ["--depth", str(args.depth)]
    if (alpha, beta) != (-math.inf, math.inf):
        words += [f"--alpha={_bound(alpha)}", f"--beta={_bound(beta)}"]
    if compare != "all":
        words += ["--compare", compare]
    return shlex.join(words)


def _save(args: Any, first: Disagreement) -> tuple[str, str]:
    """Write the failing tree and the shrunk one; (original, shrunk) paths."""
    name = Path(first.source).stem.removesuffix("-shrunk") or "stdin"
    stem = (f"pyab-mismatch-seed{args.seed}-{first.number}" if first.number
            else name if name.startswith("pyab-mismatch-") else f"pyab-mismatch-{name}")
    out = Path(args.save_dir)
    tree, a, b, _ = first.shrunk
    original, small = out / f"{stem}.tree", out / f"{stem}-shrunk.tree"
    head = (f"# pyab check --random: tree {first.number} of seed {args.seed}" if first.number
            else f"# pyab check: {first.source}")
    original.write_text(f"{head}, window {_window(first.alpha, first.beta)}\n" + dump(first.tree),
                        encoding="utf-8")
    small.write_text(f"{head}, shrunk from {len(first.tree)} to {len(tree)} nodes, "
                     f"window {_window(a, b)}\n" + dump(tree), encoding="utf-8")
    return str(original), str(small)


def _report(args, route, ref_label, compare, checked, total, bad, first, elapsed) -> int:
    rate = bad / checked if checked else 0.0
    speed = checked / elapsed if elapsed > 0 else math.inf
    what = {"all": "value, best move, leaves and visited nodes", "value": "a correct minimax value",
            "move": "the best move", "leaves": "the leaves read, in order"}[compare]
    if route.interface == "aima" and compare == "all":
        what = "best move, leaves and visited nodes (an aima player returns no value)"
    replay = None
    if first is not None:
        original, small = _save(args, first)
        tree, a, b, diff = first.shrunk
        replay = _replay(args, route, small, a, b, compare)
    if args.json:
        from ..commands._common import print_json
        out: dict[str, Any] = {
            "verdict": "disagree" if bad else "agree", "checked": checked, "disagreements": bad,
            "rate": round(rate, 6), "compare": compare, "reference": ref_label, "yours": route.label,
            "algorithm": args.algorithm, "trees_per_second": round(speed, 1) if math.isfinite(speed) else None,
        }
        if args.random is not None:
            out["seed"] = args.seed
        if first is not None:
            out["first"] = {
                "tree_number": first.number or None, "file": first.source or original,
                "window": [json_number(first.alpha), json_number(first.beta)],
                "nodes": len(first.tree), "differences": first.diff,
                "shrunk": {"file": small, "tree": dump(tree).strip(), "nodes": len(tree),
                           "window": [json_number(a), json_number(b)], "differences": diff},
            }
            out["replay"] = replay
        print_json(out)
        return 1 if bad else 0
    if first is None:
        on = f"{checked} random trees (seed {args.seed})" if args.random is not None else f"{checked} files"
        print(f"{on}, {args.algorithm}: {route.label} agrees with {ref_label} on every one "
              f"(compared: {what}; {speed:.0f} trees/s)")
        return 0
    where = (f"random tree {first.number} (seed {args.seed})" if first.number else first.source)
    print(f"DISAGREE on {where}, window {_window(first.alpha, first.beta)}: "
          f"{ref_label} vs {route.label}")
    print("  " + dump(first.tree).strip())
    for line in first.diff:
        print("  " + line.replace("\n", "\n  "))
    print(f"shrunk to {len(tree)} nodes (from {len(first.tree)}), window {_window(a, b)}:")
    print("  " + dump(tree).strip())
    for line in diff:
        print("  " + line.replace("\n", "\n  "))
    print(f"saved to {original} and {small}; replay with:\n  {replay}")
    if args.keep_going:
        print(f"{bad} of {checked} trees disagree ({100 * rate:.1f}%; compared: {what})")
    return 1
