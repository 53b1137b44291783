"""Random game trees and windows for the referee (``pyab check --random``)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..tree import Number, Tree, build, build_preorder, plain_values_ok, with_sides

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
    """A random tree; nodes are named by Dewey path like the list form.

    The nodes are made in the tree's own order (depth-first, children in
    order), so the arrays of the :class:`Tree` are filled as they come,
    with no declarations to read back (the referee makes thousands a
    second)."""
    depth = rng.randint(*shape.depth)
    assert not isinstance(shape.values, str)  # a preset's name is resolved by Shape itself
    lo, hi = shape.values
    bits, uniform = rng.getrandbits, rng.random

    def randint(a: int, b: int) -> int:
        # rng.randint(a, b), drawing the same bits (random.Random's
        # _randbelow_with_getrandbits) without its three Python calls
        n = b - a + 1
        if n <= 0:
            return rng.randint(a, b)  # its error for an empty range
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return a + r
    pool, decimals, inner, chance = shape.pool, shape.decimals, shape.inner_values, shape.leaf_chance
    b_lo, b_hi = shape.branching

    def value() -> Number:
        v: Number = randint(lo, hi)
        if pool:
            return pool[int(v)]
        if decimals and uniform() < 0.5:
            v = v + 0.5
        return v

    names: list[str] = []
    kids: list[list[int]] = []
    values: list[Number | None] = []
    depths: list[int] = []
    inner_ids: list[int] = []
    # the plain case (every preset but "wide", and --decimals) draws as
    # value() and randint() do, inline: most of a tree's making is this loop
    plain = (not (pool or decimals or inner) and all(type(x) is int for x in (lo, hi, b_lo, b_hi))
             and lo <= hi and b_lo <= b_hi)
    n_v, n_b = (hi - lo + 1, b_hi - b_lo + 1) if plain else (1, 1)
    k_v, k_b = n_v.bit_length(), n_b.bit_length()
    stack: list[tuple[str, int, list[int]]] = [("r", 0, [])]  # name, depth, the parent's kids
    pop, push = stack.pop, stack.extend
    while stack:
        name, d, siblings = pop()
        i = len(names)
        names.append(name)
        depths.append(d)
        own: list[int] = []
        kids.append(own)
        siblings.append(i)  # children come in order: pushed reversed
        if d >= depth or (d and uniform() < chance):
            if plain:
                r = bits(k_v)
                while r >= n_v:
                    r = bits(k_v)
                values.append(lo + r)
            else:
                values.append(value())
            continue
        if plain:
            values.append(None)
            r = bits(k_b)
            while r >= n_b:
                r = bits(k_b)
            n = b_lo + r
        else:
            values.append(value() if inner else None)
            n = randint(b_lo, b_hi)
        inner_ids.append(i)
        d += 1
        push([(f"{name}_{k}", d, own) for k in range(n, 0, -1)])
    side = "max" if shape.agents is not None else shape.root_side or rng.choice(("max", "min"))
    if not (all(kids[i] for i in inner_ids) and plain_values_ok([v for v in values if v is not None])):
        # build() names what is wrong (no children, or a range no float holds next to halves)
        build([(names[i], (0, 0), [(names[k], (0, 0)) for k in kids[i]]) for i in inner_ids],
              [(names[i], v, (0, 0)) for i, v in enumerate(values) if v is not None], side)
    tree = build_preorder(tuple(names), tuple(map(tuple, kids)), tuple(values), side,
                          index=dict(zip(names, range(len(names)))), depth=tuple(depths),
                          scanned=True)  # values checked above, Dewey names
    assert tree is not None, "a random tree the builder refuses"
    return tree if shape.agents is None else with_agents(tree, shape.agents)


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
