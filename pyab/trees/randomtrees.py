"""Random game trees and windows for the referee (``pyab check --random``)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..tree import Number, Tree, build

__all__ = ["Shape", "random_tree", "random_window"]

WINDOWS = ("full", "narrow", "low", "high", "random")


@dataclass(frozen=True)
class Shape:
    """Knobs of the generator.

    depth, branching: inclusive ranges; a ragged tree stops a branch early
    with probability ``leaf_chance`` (never at the root); ``values`` is the
    integer range of leaf values (a small range makes ties); ``decimals``
    adds halves; negative values come from a negative ``values`` range.
    """

    depth: tuple[int, int] = (1, 4)
    branching: tuple[int, int] = (1, 4)
    values: tuple[int, int] = (-9, 9)
    decimals: bool = False
    leaf_chance: float = 0.2
    root_side: str | None = None  # None: either, at random


def random_tree(rng: random.Random, shape: Shape = Shape()) -> Tree:
    """A random tree; nodes are named by Dewey path like the list form."""
    depth = rng.randint(*shape.depth)
    edges, values = [], []
    stack = [("r", 0)]
    while stack:
        name, d = stack.pop()
        if d >= depth or (d > 0 and rng.random() < shape.leaf_chance):
            v: Number = rng.randint(*shape.values)
            if shape.decimals and rng.random() < 0.5:
                v = v + 0.5
            values.append((name, v, (0, 0)))
            continue
        n = rng.randint(*shape.branching)
        kids = [f"{name}_{i}" for i in range(1, n + 1)]
        edges.append((name, (0, 0), [(k, (0, 0)) for k in kids]))
        stack.extend((k, d + 1) for k in reversed(kids))
    side = shape.root_side or rng.choice(("max", "min"))
    return build(edges, values, side)


def random_window(rng: random.Random, tree: Tree, kind: str) -> tuple[Number, Number]:
    """A window of the given kind: ``full`` (-inf..inf), ``narrow`` (two
    values from the leaves' range), ``low`` (above every leaf, so the root
    fails low), ``high`` (below every leaf), ``random`` (any of these)."""
    if kind == "random":
        kind = rng.choice(WINDOWS[:-1])
    vals = [v for v in tree.values if v is not None]
    lo, hi = min(vals), max(vals)
    if kind == "full":
        return -math.inf, math.inf
    if kind == "narrow":
        a = rng.randint(math.floor(lo) - 1, math.ceil(hi))
        return a, rng.randint(a, math.ceil(hi) + 1)
    if kind == "low":
        return hi + 1, hi + 1 + rng.randint(0, 5)
    if kind == "high":
        return lo - 1 - rng.randint(0, 5), lo - 1
    raise ValueError(f"unknown window kind {kind!r} (known: {', '.join(WINDOWS)})")
