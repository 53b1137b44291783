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
search runs; the :class:`~pyab.result.Result` names them, and finds the
pruned nodes, only when a caller first reads those fields
(``Result.deferred``).  An explicit tree names its nodes with tuple
lookups (one ``itemgetter`` for a whole list); an implicit one with
``name_lists(visited, leaves)`` when it has one (a uniform tree: both
lists named a level at a time), else ``names_of(nodes, known)`` (naming
children from their parents' names), else ``name_of``; the pruned nodes
with ``names_of`` from their visited parents' names, or ``name_of``.
A tree whose every node has one parent (an explicit tree, or one with a
true ``one_parent``) lets a search that says it visits each node once
skip the pass that drops repeats.

Given an ``observe`` callback, the record also reports the frames a
picture needs (``pyab.render.trace`` turns them into steps), always from MAX's
point of view: ``enter(node, alpha, beta)`` as a search function starts on
a node with its window, ``back(node, best, value)`` as the caller receives
its value, and every static value read.  A nega-max search passes
``negamax=True`` and its own signs; the record turns them round.  Without
``observe`` the hooks cost one attribute test.
"""

from __future__ import annotations

import weakref
from itertools import chain, filterfalse
from operator import itemgetter
from typing import Any, Callable, Hashable, Sequence

from ..errors import NoStaticValue
from ..result import Result
from ..tree import Number, Tree

__all__ = ["Recorder", "access", "pruned", "record_ids", "siblings_alike", "sides"]

# For an explicit Tree: who moves in each node, 1 for MAX (built once per tree).
_MAX_FLAGS: "weakref.WeakKeyDictionary[Tree, bytes]" = weakref.WeakKeyDictionary()
_MIN_FLAGS: "weakref.WeakKeyDictionary[Tree, bytes]" = weakref.WeakKeyDictionary()
# The last explicit tree asked about (a weak reference: a tree dropped is
# freed, and its Prolog module with it) and its answer, one tuple replaced
# whole (threads read it safely).  A Tree never changes.
_LAST: tuple[Any, Any] = (lambda: None, None)
_SWAP = bytes.maketrans(b"\x00\x01", b"\x01\x00")  # MAX's flags into MIN's, in C


def access(tree: Any) -> tuple[Callable[[Any], Sequence[Any]], Callable[[Any], Any],
                               Callable[[Any], Any]]:
    """``(moves, staticval, max_to_move)`` for ``tree``: its ``kids_of``,
    ``value_of`` and ``is_max``, or for an explicit :class:`Tree` the same
    answers looked up straight in its tuples (no Python call per node)."""
    if type(tree) is not Tree:
        return tree.kids_of, tree.value_of, tree.is_max
    global _LAST
    last = _LAST
    if last[0]() is tree:  # a search asks several times (its own, sides(), the Recorder)
        return last[1]
    flags = _MAX_FLAGS.get(tree)
    if flags is None:
        if tree.sides is not None:  # a side per node (max/min marks that do not alternate)
            flags = _MAX_FLAGS[tree] = bytes(map(int, tree.sides))
        else:
            parity = (1, 0) if tree.root_side == "max" else (0, 1)  # depth % 2 -> MAX moves?
            flags = _MAX_FLAGS[tree] = bytes(map(parity.__getitem__, map((1).__and__, tree.depth)))
    got = tree.kids.__getitem__, tree.values.__getitem__, flags.__getitem__
    _LAST = weakref.ref(tree), got
    return got


def sides(tree: Any) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """``(min_to_move, max_to_move)`` for ``tree``, each true where that
    side moves: for an explicit :class:`Tree` lookups in bytes, for a tree
    with an ``is_min`` of its own (a uniform tree's is the handle's lowest
    bit, in C) that one; otherwise ``not is_max``."""
    max_to_move = access(tree)[2]
    if type(tree) is Tree:
        flags = _MIN_FLAGS.get(tree)
        if flags is None:
            flags = _MIN_FLAGS[tree] = _MAX_FLAGS[tree].translate(_SWAP)
        return flags.__getitem__, max_to_move
    min_to_move = getattr(tree, "is_min", None)
    if min_to_move is None:
        def min_to_move(node: Any) -> bool:
            return not max_to_move(node)
    return min_to_move, max_to_move


def siblings_alike(tree: Any) -> bool:
    """True when the children of any node all have the same side to move,
    so that asking one of them answers for all: an explicit :class:`Tree`
    whose sides alternate level by level (no max/min marks), or a tree that
    says so with a true ``sides_by_level`` (a uniform tree)."""
    if type(tree) is Tree:
        return tree.sides is None
    return getattr(tree, "sides_by_level", False) is True


class Recorder:
    """The record of one search.  ``visit`` and ``read`` are plain
    attributes (a list's ``append`` and a closure) so that a search pays
    one cheap call per event."""

    def __init__(self, tree: Any, algorithm: str, observe: Any = None):
        self.tree, self.algorithm, self.note = tree, algorithm, observe
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
                raise NoStaticValue(tree.name_of(node))
            if observe:
                observe("leaf", node, value)
            return value
        self.read: Callable[[Hashable], Number] = read
        # ``read`` for a search that has visited the node already (the
        # slides' alphabeta/5 calls moves/2 before staticval/2 on every node).
        self.staticval: Callable[[Hashable], Number] = staticval

    @property
    def visited(self) -> list[Hashable]:
        """Each visited node once, in the order first seen."""
        return list(dict.fromkeys(self.calls))

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

    def result(self, best: Hashable | None, value: Number, *, traced: bool = False,
               once: bool = False, **extra: Any) -> Result:
        """The Result of the search: ``best`` and ``value`` as given; leaves,
        visited and pruned named from the record when first read (a traced
        run, which names its events anyway, names them at once: so does a
        search given ``traced=True``, for one that notes its own events).
        ``once``: the search visits no node twice when every node has one
        parent (an explicit :class:`Tree`, or a tree with a true
        ``one_parent``, such as a uniform tree): each node is searched from
        its one parent, once, so the record needs no pass to drop repeats;
        the Prolog run, observed on its own, would show a repeat as a
        difference in ``visited``."""
        if self.note:
            self.note("return", self.tree.root_node, best, value)
        tree = self.tree
        once = once and (type(tree) is Tree or getattr(tree, "one_parent", False) is True)
        record = _Record(tree, self.calls, self.leaves, once)
        best_name = None if best is None else record.name_of(best)
        if self.note or traced:
            return Result(best=best_name, value=value, leaves=record.leaf_names(),
                          visited=record.visited_names(), pruned=record.pruned_names(),
                          engine="python", algorithm=self.algorithm, extra=extra)
        return Result.deferred(best_name, value, "python", self.algorithm,
                               {"leaves": record.leaf_names, "visited": record.visited_names,
                                "pruned": record.pruned_names}, extra=extra)


class _Record:
    """A search's record (node ids) and its names, each computed once, when
    asked for: the visited nodes without repeats, the pruned nodes, the
    names of all three lists."""

    def __init__(self, tree: Any, calls: list[Hashable], leaves: list[Hashable],
                 once: bool = False):
        self.tree, self.calls, self.leaves, self.once = tree, calls, leaves, once
        self.explicit = type(tree) is Tree
        self._visited: list[Hashable] | None = None
        self._seen: set[Hashable] | None = None
        self._names: dict[Hashable, str] | None = None  # implicit trees: node -> name
        self._lists: tuple[Sequence[str], Sequence[str]] | None = None  # implicit: visited, leaves

    def name_of(self, node: Hashable) -> str:
        return self.tree.names[node] if self.explicit else self.tree.name_of(node)

    def visited(self) -> list[Hashable]:
        if self._visited is None and self.once:
            self._visited = self.calls
        if self._visited is None:
            seen = self._seen = set(self.calls)
            self._visited = (self.calls if len(seen) == len(self.calls)
                             else list(dict.fromkeys(self.calls)))
        return self._visited

    def _implicit_lists(self) -> tuple[Sequence[str], Sequence[str]]:
        """The names of the visited nodes and of the leaves of an implicit
        tree, made together: by the tree's ``name_lists`` when it has one
        (a uniform tree names them a level at a time), else by its
        ``names_of`` or ``name_of`` and a lookup."""
        if self._lists is None:
            tree, visited = self.tree, self.visited()
            both = getattr(tree, "name_lists", None)
            if both is not None:
                self._lists = both(visited, self.leaves)
                return self._lists
            bulk = getattr(tree, "names_of", None)
            self._names = {}
            names = (bulk(visited, known=self._names) if bulk is not None
                     else list(map(tree.name_of, visited)))
            lookup = dict(zip(visited, names))
            if bulk is None:
                self._names = lookup
            try:
                leaf_names = _pick(lookup, self.leaves)
            except KeyError:  # a leaf read without a visit (no mirror does so): named alone
                get, name_of = lookup.get, tree.name_of
                leaf_names = tuple(n if (n := get(leaf)) is not None else name_of(leaf)
                                   for leaf in self.leaves)
            self._lists = names, leaf_names
        return self._lists

    def _known(self) -> dict[Hashable, str]:
        """node -> name for the visited nodes of an implicit tree (the
        pruned nodes are named from their parents')."""
        if self._names is None:
            names = self._implicit_lists()[0]
            if self._names is None:
                self._names = dict(zip(self.visited(), names))
        return self._names

    def visited_names(self) -> tuple[str, ...]:
        if self.explicit:
            return _pick(self.tree.names, self.visited())
        return tuple(self._implicit_lists()[0])

    def leaf_names(self) -> tuple[str, ...]:
        if self.explicit:
            return _pick(self.tree.names, self.leaves)
        return tuple(self._implicit_lists()[1])

    def pruned_names(self) -> tuple[str, ...]:
        visited = self.visited()
        if self._seen is None:
            self._seen = set(visited)
        cut = pruned(self.tree, visited, self._seen)
        if self.explicit:
            return _pick(self.tree.names, cut)
        bulk = getattr(self.tree, "names_of", None)
        if bulk is None:
            return tuple(map(self.tree.name_of, cut))
        return tuple(bulk(cut, known=self._known()))


def record_ids(result: Any) -> tuple[list[Hashable], list[Hashable]] | None:
    """The node ids of the visited nodes (each once, in order) and of the
    leaves read, of a mirror's search on an explicit :class:`Tree` whose
    lists are not named yet: what a referee compares with another record
    of ids, naming nothing when they agree.  None when the result holds
    no such record (another engine's, an implicit tree's, a traced or a
    named one): compare the names then."""
    pending = result.__dict__.get("_pending")
    thunk = pending.get("leaves") if pending else None
    record = getattr(thunk, "__self__", None)
    if record.__class__ is not _Record or not record.explicit:
        return None
    return record.visited(), record.leaves


def _pick(table: Any, keys: Sequence[Hashable]) -> tuple[Any, ...]:
    """``tuple(table[k] for k in keys)``, in one C call for two keys or
    more (an ``itemgetter`` of all the keys: about half the time of
    ``map(table.__getitem__, keys)``)."""
    if len(keys) > 1:
        return itemgetter(*keys)(table)
    return tuple(table[k] for k in keys)


def _neg(x: Any) -> Any:
    return None if x is None else -x


def pruned(tree: Any, visited: list[Any], seen: set[Any]) -> list[Any]:
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
