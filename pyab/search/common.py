"""What every Python search shares: recording what it reads, and turning
that record into a :class:`~pyab.result.Result`.

A search runs on the node protocol of :class:`pyab.tree.Tree` (``root_node``,
``kids_of``, ``value_of``, ``is_max``, ``name_of``), which implicit trees
implement too.  It must record the way the Prolog side is observed:

* ``visit(node)`` whenever it asks for a node's children (moves/2) or, at a
  depth limit, its static value without asking for children;
* ``read(node)`` whenever it reads a static value (staticval/2).

``visited`` keeps each node once, in the order first seen; ``leaves`` keeps
every read, in order.
"""

from __future__ import annotations

from typing import Any, Hashable

from ..result import Result
from ..tree import Number

__all__ = ["Recorder", "pruned"]


class Recorder:
    def __init__(self, tree: Any, algorithm: str):
        self.tree, self.algorithm = tree, algorithm
        self.visited: list[Hashable] = []
        self.seen: set[Hashable] = set()
        self.leaves: list[Hashable] = []

    def visit(self, node: Hashable) -> None:
        if node not in self.seen:
            self.seen.add(node)
            self.visited.append(node)

    def read(self, node: Hashable) -> Number:
        self.visit(node)
        self.leaves.append(node)
        value = self.tree.value_of(node)
        if value is None:
            raise ValueError(f"node {self.tree.name_of(node)!r} has no static value")
        return value

    def result(self, best: Hashable | None, value: Number, **extra: Any) -> Result:
        name = self.tree.name_of
        return Result(
            best=None if best is None else name(best),
            value=value,
            leaves=tuple(name(n) for n in self.leaves),
            visited=tuple(name(n) for n in self.visited),
            pruned=tuple(name(n) for n in pruned(self.tree, self.visited, self.seen)),
            engine="python",
            algorithm=self.algorithm,
            extra=extra,
        )


def pruned(tree: Any, visited: list[Hashable], seen: set[Hashable]) -> list[Hashable]:
    """Unvisited children of visited nodes, in depth-first tree order."""
    if not visited:
        return []
    out: list[Hashable] = []
    stack: list[tuple[Hashable, bool]] = [(tree.root_node, True)]
    while stack:
        node, inside = stack.pop()
        if not inside:
            out.append(node)
            continue
        kids = tree.kids_of(node)
        stack.extend((k, k in seen) for k in reversed(kids))
    return out
