"""The game-tree model: :class:`Tree`.

A :class:`Tree` is immutable once built.  Nodes are numbered in depth-first
pre-order from the root (id 0), so "tree order" is simply id order.  Every
node has a name (what Prolog sees as an atom), a tuple of child ids (empty
for a leaf) and an optional static value (required on leaves; an inner node
may carry one too, for depth-limited searches).  Each node has a side to
move: ``root_side`` at the root and, unless a node is marked otherwise
(``sides``), the opposite of its parent's, so sides alternate by depth.
Trees are made by :mod:`pyab.tree`'s validated builder.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence, Union

from ..errors import Error
from ..frozen import REQUIRED, Frozen


Number = Union[int, float]
Pos = tuple[int, int]  # (line, column), 1-based; (0, 0) when unknown


#: What a search runs on: a :class:`Tree`, or a tree given by rules with the
#: same node protocol (``root_node``, ``kids_of``, ``value_of``, ``is_max``,
#: ``name_of``, ``depth_of``; see :mod:`pyab.trees`).
AnyTree = Any


class TreeError(Error, ValueError):
    """A tree that cannot be built.  ``pos`` is the (line, column) named."""

    def __init__(self, message: str, pos: Pos = (0, 0)):
        super().__init__(message)
        self.message = message
        self.pos = pos


class Tree(Frozen):
    """An explicit game tree (see the module docstring).  Immutable (a
    frozen dataclass in all but its import cost: :mod:`pyab.frozen`)."""

    names: tuple[str, ...]
    kids: tuple[tuple[int, ...], ...]
    values: tuple[Number | None, ...]
    root_side: str = "max"
    # None: sides alternate level by level from root_side.  Otherwise one
    # bool per node, True where MAX is to move (see build(): marks).
    sides: tuple[bool, ...] | None = None
    # derived, not in repr or ==
    index: dict[str, int] = None  # type: ignore[assignment]
    depth: tuple[int, ...] = None  # type: ignore[assignment]

    # (name, default, compared, in repr); equality is __eq__ below.
    _fields = (("names", REQUIRED, True, True), ("kids", REQUIRED, True, True),
               ("values", REQUIRED, True, True), ("root_side", "max", True, True),
               ("sides", None, True, True), ("index", None, True, False),
               ("depth", None, True, False))
    __match_args__ = ("names", "kids", "values", "root_side", "sides", "index", "depth")

    def __init__(self, names: tuple[str, ...], kids: tuple[tuple[int, ...], ...],
                 values: tuple[Number | None, ...], root_side: str = "max",
                 sides: tuple[bool, ...] | None = None, index: dict[str, int] | None = None,
                 depth: tuple[int, ...] | None = None) -> None:
        if index is None:
            index = {n: i for i, n in enumerate(names)}
        if depth is None:
            levels = [0] * len(names)
            for i, ks in enumerate(kids):
                for k in ks:
                    levels[k] = levels[i] + 1
            depth = tuple(levels)
        self._set(names=names, kids=kids, values=values, root_side=root_side, sides=sides,
                  index=index, depth=depth)

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
        if self.sides is not None:
            return self.sides[i]
        return (self.depth[i] % 2 == 0) == (self.root_side == "max")

    @property
    def alternating(self) -> bool:
        """True when every child has the other side to move than its parent
        (what the slides' program and the textbook searches assume)."""
        return self.sides is None

    def repeated_side(self) -> str | None:
        """The first node (in tree order) with the same side to move as its
        parent, or None on an alternating tree."""
        if self.sides is None:
            return None
        for i, ks in enumerate(self.kids):
            for k in ks:
                if self.sides[k] == self.sides[i]:
                    return self.names[k]
        return None  # pragma: no cover - build() keeps sides None then

    # -- equality: the same tree, whatever text it was read from -------------
    # Two trees are equal when every field but the derived ``index`` and
    # ``depth`` is (so ``parse(dump(t)) == t``, and a field added later
    # counts without touching this).  The hash stays the identity's: the
    # Prolog bridge keys its loaded modules by tree *object* (a weak
    # dictionary), and an equal tree read from other text keeps its own.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return self is other or all(getattr(self, f[0]) == getattr(other, f[0])
                                    for f in self._fields if f[0] not in ("index", "depth"))

    __hash__ = object.__hash__

    # -- by name -----------------------------------------------------------
    def id_of(self, name: str) -> int:
        """The id of the node called ``name``.

        :raises KeyError: naming the node when the tree has none so called."""
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise KeyError(f"no node named {name!r} in this tree (root {self.root!r}, "
                           f"{len(self)} nodes)") from None

    def children(self, name: str) -> tuple[str, ...]:
        """The children of ``name`` in order; empty for a leaf."""
        return tuple(self.names[k] for k in self.kids[self.id_of(name)])

    def value(self, name: str) -> Number | None:
        """The static value of ``name`` (None on an inner node without one)."""
        return self.values[self.id_of(name)]

    def is_leaf(self, name: str) -> bool:
        return not self.kids[self.id_of(name)]

    def side(self, name: str) -> str:
        """'max' or 'min': who is to move in ``name``."""
        return "max" if self.is_max_id(self.id_of(name)) else "min"

    def level(self, name: str) -> int:
        """How deep ``name`` lies (the root is at 0)."""
        return self.depth[self.id_of(name)]

    def parent(self, name: str) -> str | None:
        i = self.id_of(name)
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
