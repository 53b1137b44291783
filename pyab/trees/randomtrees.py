"""Random game trees and windows for the referee (``pyab check --random``)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..tree import Number, Tree, build, with_sides

__all__ = ["Shape", "VALUE_PRESETS", "random_tree", "random_window", "value_preset",
           "with_agents"]

WINDOWS = ("full", "narrow", "low", "high", "random")

# Named value ranges for ``--values NAME`` (one table for every command).
# ``specials`` are drawn instead of the range with probability
# ``special_chance``: "wide" puts the sentinels students initialise with
# (+-1000, +-9999, +-2**31 and its neighbours) on the leaves themselves,
# so a search that starts from -9999 instead of -inf is caught.
_SENTINELS = (1000, 9999, 2**31 - 1, 2**31, 2**31 + 1)
VALUE_PRESETS: dict[str, dict] = {
    "default": {"values": (-9, 9)},
    "ties": {"values": (0, 2)},
    "wide": {"values": (-99, 99), "specials": tuple(s * m for s in _SENTINELS for m in (1, -1)),
             "special_chance": 0.4},
}


def value_preset(name: str) -> dict:
    """The Shape fields of the preset ``name``; ValueError naming the known ones."""
    try:
        return dict(VALUE_PRESETS[name])
    except KeyError:
        raise ValueError(f"unknown value preset {name!r} (known: {', '.join(VALUE_PRESETS)}, "
                         "or LO:HI)") from None


@dataclass(frozen=True)
class Shape:
    """Knobs of the generator.

    depth, branching: inclusive ranges; a ragged tree stops a branch early
    with probability ``leaf_chance`` (never at the root); ``values`` is the
    integer range of leaf values (a small range makes ties), or the name of
    a preset of :data:`VALUE_PRESETS`; ``decimals`` adds halves; negative
    values come from a negative ``values`` range.  ``specials``: values
    drawn instead, each time with probability ``special_chance``.

    ``agents``: None for the classic tree (sides alternate, the root's side
    at random); K for K agents in turn: the root is MAX, the next K-1 levels
    MIN, and so on (K=2 is Pacman and one ghost, K=3 two ghosts).
    ``inner_values``: inner nodes carry static values too, for searches
    with a depth limit.
    """

    depth: tuple[int, int] = (1, 4)
    branching: tuple[int, int] = (1, 4)
    values: tuple[int, int] = (-9, 9)
    decimals: bool = False
    leaf_chance: float = 0.2
    root_side: str | None = None  # None: either, at random
    specials: tuple[Number, ...] = ()
    special_chance: float = 0.0
    agents: int | None = None
    inner_values: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.values, str):  # a preset's fields, given ones win
            for key, val in value_preset(self.values).items():
                if key == "values" or getattr(self, key) == Shape.__dataclass_fields__[key].default:
                    object.__setattr__(self, key, val)
        if self.agents is not None and self.agents < 1:
            raise ValueError(f"agents must be 1 or more, not {self.agents}")


def random_tree(rng: random.Random, shape: Shape = Shape()) -> Tree:
    """A random tree; nodes are named by Dewey path like the list form."""
    depth = rng.randint(*shape.depth)
    edges, values = [], []
    stack = [("r", 0)]

    def value() -> Number:
        if shape.specials and rng.random() < shape.special_chance:
            return rng.choice(shape.specials)
        v: Number = rng.randint(*shape.values)
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
