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

Given an ``observe`` callback, the record also reports the frames a
picture needs (``pyab.trace`` turns them into steps), always from MAX's
point of view: ``enter(node, alpha, beta)`` as a search function starts on
a node with its window, ``back(node, best, value)`` as the caller receives
its value, and every static value read.  A nega-max search passes
``negamax=True`` and its own signs; the record turns them round.  Without
``observe`` the hooks cost one attribute test.
"""

from __future__ import annotations

from typing import Any, Hashable

from ..result import Result
from ..tree import Number

__all__ = ["Recorder", "pruned"]


class Recorder:
    def __init__(self, tree: Any, algorithm: str, observe: Any = None):
        self.tree, self.algorithm, self.note = tree, algorithm, observe
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
        if self.note:
            self.note("leaf", node, value)
        return value

    def enter(self, node: Hashable, alpha: Any = None, beta: Any = None, *,
              negamax: bool = False) -> None:
        """A search function starts on ``node`` with the window alpha..beta
        (None: the algorithm keeps no such bound)."""
        if self.note:
            if negamax and not self.tree.is_max(node):
                alpha, beta = _neg(beta), _neg(alpha)
            self.note("call", node, alpha, beta)

    def back(self, node: Hashable, best: Hashable | None, value: Number, *,
             negamax: bool = False) -> None:
        """The caller received ``value`` (and ``best``, where the algorithm
        returns a move) for ``node``."""
        if self.note:
            if negamax and not self.tree.is_max(node):
                value = -value
            self.note("return", node, best, value)

    def result(self, best: Hashable | None, value: Number, **extra: Any) -> Result:
        name = self.tree.name_of
        if self.note:
            self.note("return", self.tree.root_node, best, value)
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


def _neg(x: Any) -> Any:
    return None if x is None else -x


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
