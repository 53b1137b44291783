"""The game-tree model and its validation.

A :class:`Tree` is immutable once built.  Nodes are numbered in depth-first
pre-order from the root (id 0), so "tree order" is simply id order.  Every
node has a name (what Prolog sees as an atom), a tuple of child ids (empty
for a leaf) and an optional static value (required on leaves; an inner node
may carry one too, for depth-limited searches).  Sides alternate by depth,
starting from ``root_side``.

All validation lives in :func:`build`; the DSL and the generators only
collect declarations and hand them over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence, Union

Number = Union[int, float]
Pos = tuple[int, int]  # (line, column), 1-based; (0, 0) when unknown

__all__ = ["Number", "Tree", "TreeError", "build"]


class TreeError(ValueError):
    """A tree that cannot be built.  ``pos`` is the (line, column) named."""

    def __init__(self, message: str, pos: Pos = (0, 0)):
        super().__init__(message)
        self.message = message
        self.pos = pos


@dataclass(frozen=True, eq=False)
class Tree:
    """An explicit game tree (see the module docstring)."""

    names: tuple[str, ...]
    kids: tuple[tuple[int, ...], ...]
    values: tuple[Number | None, ...]
    root_side: str = "max"
    index: dict[str, int] = field(default=None, repr=False)  # type: ignore[assignment]
    depth: tuple[int, ...] = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.index is None:
            object.__setattr__(self, "index", {n: i for i, n in enumerate(self.names)})
        if self.depth is None:
            depth = [0] * len(self.names)
            for i, ks in enumerate(self.kids):
                for k in ks:
                    depth[k] = depth[i] + 1
            object.__setattr__(self, "depth", tuple(depth))

    # -- the node protocol every Python search runs on ------------------------
    # A node is an opaque handle (here: its id).  Implicit trees
    # (pyab.trees) offer the same five members, so one mirror serves both.
    root_node = 0

    def kids_of(self, node: int) -> Sequence[int]:
        """The children of ``node`` (moves/2); empty for a leaf."""
        return self.kids[node]

    def value_of(self, node: int) -> Number | None:
        """The static value of ``node`` (staticval/2)."""
        return self.values[node]

    def is_max(self, node: int) -> bool:
        """True when MAX is to move in ``node`` (max_to_move/1)."""
        return self.is_max_id(node)

    def name_of(self, node: int) -> str:
        return self.names[node]

    def depth_of(self, node: int) -> int:
        return self.depth[node]

    # -- by id -------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.names)

    @property
    def root(self) -> str:
        return self.names[0]

    def is_max_id(self, i: int) -> bool:
        """True when MAX is to move in node ``i``."""
        return (self.depth[i] % 2 == 0) == (self.root_side == "max")

    # -- by name -----------------------------------------------------------
    def children(self, name: str) -> tuple[str, ...]:
        """The children of ``name`` in order; empty for a leaf."""
        return tuple(self.names[k] for k in self.kids[self.index[name]])

    def value(self, name: str) -> Number | None:
        """The static value of ``name`` (None on an inner node without one)."""
        return self.values[self.index[name]]

    def is_leaf(self, name: str) -> bool:
        return not self.kids[self.index[name]]

    def side(self, name: str) -> str:
        """'max' or 'min': who is to move in ``name``."""
        return "max" if self.is_max_id(self.index[name]) else "min"

    def parent(self, name: str) -> str | None:
        i = self.index[name]
        if i == 0:
            return None
        # Pre-order numbering: the parent is the nearest earlier node one level up.
        d = self.depth[i] - 1
        j = i - 1
        while self.depth[j] != d:
            j -= 1
        return self.names[j]

    def leaves(self) -> list[str]:
        """Leaf names in tree order."""
        return [n for n, ks in zip(self.names, self.kids) if not ks]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __contains__(self, name: object) -> bool:
        return name in self.index


def _check_value(name: str, value: Number, pos: Pos) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TreeError(f"value of {name!r} is not a number: {value!r}", pos)
    if isinstance(value, float) and not math.isfinite(value):
        raise TreeError(f"value of {name!r} is not finite: {value!r}", pos)


def _fmt(pos: Pos) -> str:
    return f"{pos[0]}:{pos[1]}" if pos != (0, 0) else "elsewhere"


def build(
    edges: Sequence[tuple[str, Pos, Sequence[tuple[str, Pos]]]],
    values: Sequence[tuple[str, Number, Pos]],
    root_side: str = "max",
    defined: Sequence[tuple[str, Pos]] = (),
) -> Tree:
    """Validate declarations and build a :class:`Tree`.

    ``edges``: (parent, position, [(child, position), ...]) for each inner
    node; ``values``: (name, number, position); ``defined``: for forms that
    write each node exactly once (nested, list), every node with its
    position, so a repeated name is reported as a duplicate.

    :raises TreeError: naming the place of the first problem found.
    """
    if root_side not in ("max", "min"):
        raise TreeError(f"root side must be 'max' or 'min', not {root_side!r}")
    where: dict[str, Pos] = {}  # first position each name was seen at
    for name, pos in defined:
        if name in where:
            raise TreeError(f"duplicate name {name!r} (first at {_fmt(where[name])})", pos)
        where[name] = pos

    kids: dict[str, list[str]] = {}
    parent: dict[str, tuple[str, Pos]] = {}
    for name, pos, children in edges:
        where.setdefault(name, pos)
        if name in kids:
            raise TreeError(f"{name!r} has its children listed twice", pos)
        if not children:
            raise TreeError(f"inner node {name!r} has no children", pos)
        kids[name] = []
        for child, cpos in children:
            where.setdefault(child, cpos)
            if child in parent:
                first, fpos = parent[child]
                raise TreeError(
                    f"{child!r} already has the parent {first!r} (at {_fmt(fpos)}): "
                    "a node has one parent, so names must be unique",
                    cpos,
                )
            parent[child] = (name, cpos)
            kids[name].append(child)

    vals: dict[str, Number] = {}
    for name, value, pos in values:
        where.setdefault(name, pos)
        _check_value(name, value, pos)
        if name in vals:
            raise TreeError(f"{name!r} has two values", pos)
        vals[name] = value

    roots = [n for n in where if n not in parent]
    if not roots:
        first = next(iter(where), None)
        if first is None:
            raise TreeError("empty tree: no nodes")
        raise TreeError(f"cycle: every node is somebody's child (see {first!r})", where[first])
    if len(roots) > 1:
        raise TreeError(
            f"two roots, {roots[0]!r} and {roots[1]!r}: every node but the root "
            "must be somebody's child",
            where[roots[1]],
        )

    # Pre-order numbering with an explicit stack (trees may be very deep).
    names: list[str] = []
    order: dict[str, int] = {}
    stack = [roots[0]]
    while stack:
        n = stack.pop()
        order[n] = len(names)
        names.append(n)
        stack.extend(reversed(kids.get(n, ())))
    if len(names) != len(where):
        lost = next(n for n in where if n not in order)
        raise TreeError(f"cycle through {lost!r}: it cannot be reached from the root", where[lost])

    for n in names:
        if n not in kids and n not in vals:
            raise TreeError(f"leaf {n!r} has no value", where[n])
    return Tree(
        names=tuple(names),
        kids=tuple(tuple(order[c] for c in kids.get(n, ())) for n in names),
        values=tuple(vals.get(n) for n in names),
        root_side=root_side,
    )
