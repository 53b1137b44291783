"""The experiments of ``pyab experiment``: leaf counts on uniform trees set
beside the literature, and the search for the cheapest child ordering.

Every count here is measured by running a search: the Prolog count is
observed in SWI-Prolog (counts-only observation, see
:func:`pyab.prolog.solve`), the Python count is the length of the mirror's
list of leaves.  Formulas and printed tables are only ever set beside them.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from .uniform import Uniform

__all__ = [
    "CPW_B40_BEST", "CPW_B40_WORST", "Count", "add_growth", "best_order", "count_leaves",
    "knuth_moore", "knuth_moore_rows", "random_order_rows",
]

# The table of the chessprogramming wiki's "Alpha-Beta" page (docs/literature.md),
# "number of leaves with depth n and b = 40", as printed, depths 0..8.
CPW_B40_WORST = (1, 40, 1_600, 64_000, 2_560_000, 102_400_000, 4_096_000_000,
                 163_840_000_000, 6_553_600_000_000)
CPW_B40_BEST = (1, 40, 79, 1_639, 3_199, 65_569, 127_999, 2_623_999, 5_119_999)


def knuth_moore(b: int, d: int) -> int:
    """Leaves of a perfectly ordered uniform tree: b^ceil(d/2) + b^floor(d/2) - 1."""
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


@dataclass(frozen=True)
class Count:
    """What one engine read on one tree."""

    engine: str
    best: str | None
    value: Any
    leaves: int
    visited: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"engine": self.engine, "best": self.best, "value": self.value,
                "leaves": self.leaves, "visited": self.visited,
                "seconds": round(self.seconds, 3)}


def count_leaves(tree: Any, engine: str, algorithm: str = "bratko") -> Count:
    """Run ``algorithm`` on ``tree`` in one engine and count what it read."""
    from ..engines import solve
    start = time.perf_counter()
    r = solve(tree, engine, algorithm, names=False)
    return Count(engine, r.best, r.value, r.extra["leaves_count"], r.extra["visited_count"],
                 time.perf_counter() - start)


def _agree(counts: Sequence[Count]) -> bool:
    first = counts[0]
    return all((c.best, c.value, c.leaves, c.visited) ==
               (first.best, first.value, first.leaves, first.visited) for c in counts)


def knuth_moore_rows(
    b: int, depths: Iterable[int], orderings: Sequence[str] = ("perfect", "worst"),
    algorithm: str = "bratko", engines: Sequence[str] = ("prolog", "python"),
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """One row per depth: the formula, b^d, and for each ordering the leaves
    each engine read (``runs``) and whether the engines agree."""
    rows = []
    for d in depths:
        row: dict[str, Any] = {"depth": d, "formula": knuth_moore(b, d), "minimax": b ** d}
        runs: dict[str, list[dict[str, Any]]] = {}
        agree = True
        for ordering in orderings:
            counts = []
            for engine in engines:
                if progress and b ** d >= 20_000:
                    progress(f"b={b} d={d} {ordering}: {engine} ...")
                counts.append(count_leaves(Uniform(b, d, ordering), engine, algorithm))
            key = "best" if ordering == "perfect" else "worst"
            row[key] = counts[0].leaves
            runs[key] = [c.to_json() for c in counts]
            agree = agree and _agree(counts)
        if b == 40 and d < len(CPW_B40_BEST):
            row["printed"] = {"best": CPW_B40_BEST[d], "worst": CPW_B40_WORST[d]}
        row["agree"] = agree
        row["runs"] = runs
        rows.append(row)
    return rows


def random_order_rows(
    branchings: Iterable[int], depths: Iterable[int], seeds: int = 10,
    algorithm: str = "bratko", engines: Sequence[str] = ("prolog",),
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Mean leaves read on ``seeds`` random-ordered trees per (b, d), the
    effective branching factor and the exponent x with leaves = b^(x d)."""
    rows = []
    for b in branchings:
        for d in depths:
            if progress and b ** d * seeds >= 100_000:
                progress(f"random order b={b} d={d} ({seeds} trees) ...")
            leaves, agree = [], True
            for seed in range(seeds):
                counts = [count_leaves(Uniform(b, d, f"random({seed})"), e, algorithm)
                          for e in engines]
                agree = agree and _agree(counts)
                leaves.append(counts[0].leaves)
            mean = sum(leaves) / len(leaves)
            row: dict[str, Any] = {
                "branching": b, "depth": d, "trees": seeds,
                "mean": mean, "min": min(leaves), "max": max(leaves),
                "minimax": b ** d, "perfect": knuth_moore(b, d), "agree": agree,
            }
            if d > 0:
                row["effective_branching"] = mean ** (1 / d)
            if d > 0 and b > 1:
                x = math.log(mean) / (d * math.log(b))
                row["exponent"] = x                      # leaves = b^(x*d)
                row["depth_factor"] = 1 / x if x > 0 else None
                row["fuller_b075"] = b ** 0.75
                row["knuth_moore_b_over_log_b"] = b / math.log(b)
            rows.append(row)
    return add_growth(rows)


def add_growth(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Set each random-order row's growth per level from the rows two
    levels shallower (rows computed apart, e.g. on a cluster, get it here)."""
    # The growth per level deep in the tree, (mean(d) / mean(d-2))^(1/2):
    # leaves^(1/d) also carries the first levels, where every node's first
    # move is searched in full.  Two levels, since odd and even depths differ.
    means = {(r["branching"], r["depth"]): r["mean"] for r in rows}
    for r in rows:
        below = means.get((r["branching"], r["depth"] - 2))
        if below:
            g = (r["mean"] / below) ** 0.5
            r["growth_branching"] = g
            if r["branching"] > 1:
                r["growth_exponent"] = math.log(g) / math.log(r["branching"])
    return rows


# -- every ordering of a small tree ---------------------------------------------------


class Reordered:
    """``tree`` with the children of each inner node in a chosen order
    (the node protocol, nothing copied)."""

    def __init__(self, tree: Any, order: dict[int, tuple[int, ...]]):
        self.tree, self.order = tree, order
        self.root_node, self.root, self.root_side = tree.root_node, tree.root, tree.root_side
        self.values = tree.values
        self.value_of, self.is_max = tree.value_of, tree.is_max
        self.name_of, self.depth_of = tree.name_of, tree.depth_of

    def kids_of(self, node: int) -> Sequence[int]:
        return self.order.get(node) or self.tree.kids_of(node)

    def explicit(self):
        """The reordered tree as a :class:`pyab.tree.Tree` (for dump and Prolog)."""
        from ..tree import build
        t = self.tree
        edges = [(t.names[i], (0, 0), [(t.names[k], (0, 0)) for k in self.kids_of(i)])
                 for i in range(len(t)) if t.kids[i]]
        values = [(t.names[i], v, (0, 0)) for i, v in enumerate(t.values) if v is not None]
        return build(edges, values, t.root_side)


def minimax_values(tree: Any) -> dict[int, Any]:
    """Minimax value of every node (post-order, no recursion)."""
    out: dict[int, Any] = {}
    stack = [(tree.root_node, False)]
    while stack:
        node, done = stack.pop()
        kids = tree.kids_of(node)
        if not kids:
            out[node] = tree.value_of(node)
        elif done:
            vals = [out[k] for k in kids]
            out[node] = max(vals) if tree.is_max(node) else min(vals)
        else:
            stack.append((node, True))
            stack.extend((k, False) for k in kids)
    return out


def perfect_order(tree: Any) -> dict[int, tuple[int, ...]]:
    """Each node's children best first for the side to move (stable sort):
    the perfect ordering of this tree."""
    val = minimax_values(tree)
    order = {}
    for node in val:
        kids = tree.kids_of(node)
        if len(kids) > 1:
            order[node] = tuple(sorted(kids, key=lambda k: -val[k] if tree.is_max(node) else val[k]))
    return order


def orderings_count(tree: Any) -> int:
    return math.prod(math.factorial(len(tree.kids_of(n))) for n in range(len(tree)))


def best_order(tree: Any, algorithm: str = "bratko", limit: int = 500_000) -> dict[str, Any]:
    """Try every ordering of every node's children with the Python mirror;
    return the orderings that read the fewest leaves, next to the given and
    the perfect ordering.

    :raises ValueError: when there are more than ``limit`` orderings.
    """
    from ..search import python_search
    search = python_search(algorithm)
    inner = [n for n in range(len(tree)) if len(tree.kids_of(n)) > 1]
    total = orderings_count(tree)
    if total > limit:
        raise ValueError(f"{total:,} orderings to try, more than the limit {limit:,}: "
                         "use a smaller tree or raise --limit")

    def leaves(order: dict[int, tuple[int, ...]]) -> int:
        return len(search(Reordered(tree, order), -math.inf, math.inf).leaves)

    best_n, best, tried = math.inf, [], 0
    for perms in itertools.product(*(itertools.permutations(tree.kids_of(n)) for n in inner)):
        order = dict(zip(inner, perms))
        n = leaves(order)
        tried += 1
        if n < best_n:
            best_n, best = n, [order]
        elif n == best_n:
            best.append(order)
    perfect = perfect_order(tree)
    return {"tried": tried, "given": leaves({}), "perfect": leaves(perfect),
            "fewest": best_n, "best_orders": best, "perfect_order": perfect}
