"""Random game trees and windows for the referee (``pyab check --random``)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..tree import Number, Tree, build, with_sides

__all__ = ["Shape", "VALUE_PRESETS", "random_tree", "random_window", "value_preset",
           "with_agents"]

WINDOWS = ("full", "narrow", "low", "high", "random")

# Leaf values by name (``--values NAME``, a suite's ``values``): the one
# table of every command.  A pair is a range LO..HI; a list is a pool, each
# value drawn alike.  "wide" mixes small values with the sentinels students
# write for infinity (1000, 9999, 2**31 - 1 ...): a program whose
# "infinity" is a number meets a leaf that reaches it.
_SENTINELS = [999, 1000, 1001, 9999, 10000, 2**31 - 1, 2**31]
VALUE_PRESETS: dict[str, tuple[int, int] | list[int]] = {
    "default": (-9, 9),
    "ties": (0, 2),
    "wide": sorted([*range(-5, 6), *_SENTINELS, *(-s for s in _SENTINELS)]),
}


def value_preset(name: str) -> tuple[int, int] | list[int]:
    """The preset ``name``; ValueError naming the known ones."""
    try:
        return VALUE_PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown value preset {name!r} (known: {', '.join(VALUE_PRESETS)}, "
                         "or LO:HI)") from None


@dataclass(frozen=True)
class Shape:
    """Knobs of the generator.

    depth, branching: inclusive ranges; a ragged tree stops a branch early
    with probability ``leaf_chance`` (never at the root); ``values`` is the
    integer range of leaf values (a small range makes ties), or the name of
    a preset of :data:`VALUE_PRESETS` (a range, or a pool of values drawn
    alike); ``decimals`` adds halves to a range; negative values come from
    a negative ``values`` range.

    ``agents``: None for the classic tree (sides alternate, the root's side
    at random); K for K agents in turn: the root is MAX, the next K-1 levels
    MIN, and so on (K=2 is Pacman and one ghost, K=3 two ghosts).
    ``inner_values``: inner nodes carry static values too, for searches
    with a depth limit.
    """

    depth: tuple[int, int] = (1, 4)
    branching: tuple[int, int] = (1, 4)
    values: tuple[int, int] | str = (-9, 9)
    decimals: bool = False
    leaf_chance: float = 0.2
    root_side: str | None = None  # None: either, at random
    agents: int | None = None
    inner_values: bool = False
    pool: tuple[int, ...] = ()  # a pool preset's values (values then spans its places)

    def __post_init__(self) -> None:
        if isinstance(self.values, str):
            chosen = value_preset(self.values)
            if isinstance(chosen, tuple):
                object.__setattr__(self, "values", chosen)
            else:  # a place in the pool is drawn as a range value is
                object.__setattr__(self, "pool", tuple(chosen))
                object.__setattr__(self, "values", (0, len(chosen) - 1))
        if self.agents is not None and self.agents < 1:
            raise ValueError(f"agents must be 1 or more, not {self.agents}")


def random_tree(rng: random.Random, shape: Shape = Shape()) -> Tree:
    """A random tree; nodes are named by Dewey path like the list form."""
    depth = rng.randint(*shape.depth)
    edges, values = [], []
    stack = [("r", 0)]

    assert not isinstance(shape.values, str)  # a preset's name is resolved by Shape itself
    lo, hi = shape.values

    def value() -> Number:
        v: Number = rng.randint(lo, hi)
        if shape.pool:
            return shape.pool[int(v)]
        if shape.decimals and rng.random() < 0.5:
            v = v + 0.5
        return v

    while stack:
        name, d = stack.pop()
        if d >= depth or (d > 0 and rng.random() < shape.leaf_chance):
            values.append((name, value(), (0, 0)))
            continue
        if shape.inner_values:
            values.append((name, value(), (0, 0)))
        n = rng.randint(*shape.branching)
        kids = [f"{name}_{i}" for i in range(1, n + 1)]
        edges.append((name, (0, 0), [(k, (0, 0)) for k in kids]))
        stack.extend((k, d + 1) for k in reversed(kids))
    if shape.agents is not None:
        return with_agents(build(edges, values, "max"), shape.agents)
    side = shape.root_side or rng.choice(("max", "min"))
    return build(edges, values, side)


def with_agents(tree: Tree, agents: int) -> Tree:
    """``tree`` with K = ``agents`` agents moving in turn, level by level:
    the root MAX (agent 0, Pacman), the next K-1 levels MIN (the ghosts),
    then MAX again.  K=2 is the classic alternating tree with MAX at the root."""
    if agents < 1:
        raise ValueError(f"agents must be 1 or more, not {agents}")
    marks = [(name, "max" if tree.depth[i] % agents == 0 else "min", (0, 0))
             for i, name in enumerate(tree.names)]
    return with_sides(tree, marks)


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
