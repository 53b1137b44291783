"""What every Python search shares: the tree's accessors, recording what a
search reads, and turning that record into a :class:`~pyab.result.Result`.

A search runs on the node protocol of :class:`pyab.tree.Tree` (``root_node``,
``kids_of``, ``value_of``, ``is_max``, ``name_of``), which implicit trees
implement too.  It must record the way the Prolog side is observed:

* ``visit(node)`` whenever it asks for a node's children (moves/2) or, at a
  depth limit, its static value without asking for children;
* ``read(node)`` whenever it reads a static value (staticval/2).

``visited`` keeps each node once, in the order first seen; ``leaves`` keeps
every read, in order.  Both are kept as node handles (ints) while the
search runs and named once, at the end.
"""

from __future__ import annotations

import weakref
from itertools import chain, filterfalse
from typing import Any, Callable, Hashable, Sequence

from ..result import Result
from ..tree import Number, Tree

__all__ = ["Recorder", "access", "pruned"]

# For an explicit Tree: who moves in each node, 1 for MAX (built once per tree).
_MAX_FLAGS: "weakref.WeakKeyDictionary[Tree, bytes]" = weakref.WeakKeyDictionary()


def access(tree: Any) -> tuple[Callable[[Any], Sequence[Any]], Callable[[Any], Any],
                               Callable[[Any], Any]]:
    """``(moves, staticval, max_to_move)`` for ``tree``: its ``kids_of``,
    ``value_of`` and ``is_max``, or for an explicit :class:`Tree` the same
    answers looked up straight in its tuples (no Python call per node)."""
    if type(tree) is not Tree:
        return tree.kids_of, tree.value_of, tree.is_max
    flags = _MAX_FLAGS.get(tree)
    if flags is None:
        parity = (1, 0) if tree.root_side == "max" else (0, 1)  # depth % 2 -> MAX moves?
        flags = _MAX_FLAGS[tree] = bytes(parity[d & 1] for d in tree.depth)
    return tree.kids.__getitem__, tree.values.__getitem__, flags.__getitem__


class Recorder:
    """The record of one search.  ``visit`` and ``read`` are plain
    attributes (a list's ``append`` and a closure) so that a search pays
    one cheap call per event."""

    def __init__(self, tree: Any, algorithm: str):
        self.tree, self.algorithm = tree, algorithm
        self.calls: list[Hashable] = []   # every visit, repeats included
        self.leaves: list[Hashable] = []  # every read, in order
        self.visit: Callable[[Hashable], None] = self.calls.append
        _, value_of, _ = access(tree)
        visit, leaf = self.calls.append, self.leaves.append

        def read(node: Hashable) -> Number:
            visit(node)
            return staticval(node)

        def staticval(node: Hashable) -> Number:
            leaf(node)
            value = value_of(node)
            if value is None:
                raise ValueError(f"node {tree.name_of(node)!r} has no static value")
            return value
        self.read: Callable[[Hashable], Number] = read
        # ``read`` for a search that has visited the node already (the
        # slides' alphabeta/5 calls moves/2 before staticval/2 on every node).
        self.staticval: Callable[[Hashable], Number] = staticval

    @property
    def visited(self) -> list[Hashable]:
        """Each visited node once, in the order first seen."""
        return list(dict.fromkeys(self.calls))

    def result(self, best: Hashable | None, value: Number, **extra: Any) -> Result:
        seen = set(self.calls)
        visited = self.calls if len(seen) == len(self.calls) else self.visited
        cut = pruned(self.tree, visited, seen)
        name = _namer(self.tree, visited + cut)
        return Result(
            best=None if best is None else name(best),
            value=value,
            leaves=tuple(map(name, self.leaves)),
            visited=tuple(map(name, visited)),
            pruned=tuple(map(name, cut)),
            engine="python",
            algorithm=self.algorithm,
            extra=extra,
        )


def _namer(tree: Any, nodes: list[Hashable]) -> Callable[[Hashable], str]:
    """A function from node to name: a tuple lookup for an explicit Tree;
    for other trees each of ``nodes`` named once (``names_of`` in bulk when
    the tree has it, parents before children), other nodes by ``name_of``."""
    if type(tree) is Tree:
        return tree.names.__getitem__
    bulk = getattr(tree, "names_of", None)
    names = dict(zip(nodes, bulk(nodes) if bulk else map(tree.name_of, nodes)))
    get, name_of = names.get, tree.name_of

    def name(node: Hashable) -> str:
        found = get(node)
        return name_of(node) if found is None else found
    return name


def pruned(tree: Any, visited: list[Hashable], seen: set[Hashable]) -> list[Hashable]:
    """Unvisited children of visited nodes, in depth-first tree order."""
    if not visited:
        return []
    if type(tree) is Tree:  # ids are in depth-first order: sort the cut children by id
        return sorted(filterfalse(seen.__contains__,
                                  chain.from_iterable(map(tree.kids.__getitem__, visited))))
    moves = access(tree)[0]
    out: list[Hashable] = []
    stack: list[Hashable] = list(reversed(moves(tree.root_node)))
    pop, push, add = stack.pop, stack.extend, out.append
    while stack:
        node = pop()
        if node in seen:
            push(reversed(moves(node)))
        else:
            add(node)
    return out
