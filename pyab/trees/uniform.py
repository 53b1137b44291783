"""Uniform trees (branching ``b``, every leaf at depth ``d``), never stored.

The Python twin of ``prolog/trees/uniform.pl``: same node names (Dewey
paths ``r``, ``r_1``, ``r_1_2``), same sides (MAX at the root), same leaf
values for each ordering:

``perfect``
    the first child is always strictly the best (Hsu's perfect-ordering
    tree), so alpha-beta reads exactly ``b^ceil(d/2) + b^floor(d/2) - 1``
    leaves;
``worst``
    every later child is strictly better than everything before it, so
    nothing is ever cut and all ``b^d`` leaves are read;
``random(seed)``
    a 32-bit mixing hash of the seed and the leaf's number, computed the
    same way in both languages (not either language's random generator).

A node handle is one int, ``id * 64 + depth``, where ``id`` numbers the
tree level by level (root 0, the children of ``id`` are ``id*b + 1`` ...
``id*b + b``), so ``kids_of`` is a ``range`` and the side to move is the
handle's lowest bit.

>>> t = Uniform(3, 2, "perfect")
>>> [t.name_of(k) for k in t.kids_of(t.root_node)]
['r_1', 'r_2', 'r_3']
>>> [t.value_of(k) for k in t.kids_of(t.kids_of(t.root_node)[1])]
[-3, -2, -1]
"""

from __future__ import annotations

import re
import sys
from array import array
from itertools import accumulate, compress, islice, repeat
from operator import add, itemgetter, lt, sub
from typing import Sequence

from ..resources import prolog_dir

__all__ = ["MAX_DEPTH", "ORDERINGS", "Uniform", "hash_value", "parse_ordering"]

ORDERINGS = ("perfect", "worst", "random(SEED)")
MAX_DEPTH = 63
_M32 = 0xFFFFFFFF
_RANDOM = re.compile(r"random\((\d+)\)\Z")
# A handle's depth from its lowest byte (handle & 63), and where that byte
# sits in an array('q') item.
_AND63 = bytes(range(64)) * 4
_LOW = 0 if sys.byteorder == "little" else 7
# byte L -> 1, any other -> 0: the nodes of level L, for itertools.compress
_LEVEL_FLAGS = [bytes(level) + b"\1" + bytes(255 - level) for level in range(64)]
# (table, delete) for bytes.translate: keep levels L-1 (as 0) and L (as 1)
_RUNS_OF = [(bytes.maketrans(bytes((level - 1, level)), b"\0\1"),
             bytes(range(level - 1)) + bytes(range(level + 1, 256))) if level else None
            for level in range(64)]
_LEVELS_UP_TO = [bytes(range(level + 1)) for level in range(64)]
_TEMPLATES_UP_TO = 64  # children a parent can have for _spell's templates


def _first_children(here: list[int], parents: list[int], counts: list[int], level: int,
                    b: int) -> bool:
    """Is ``here`` (handles of ``level``, in list order) the first
    ``counts[i]`` children of each ``parents[i]`` (handles of the level
    above), in order?  Checked in a few C-level passes: each run's first
    and last handle, and the whole list strictly increasing.  That is
    enough: the handles of one level differ by multiples of 64, so k
    increasing ones from a parent's first child to its k-th are exactly its
    first k children."""
    if len(counts) != len(parents):
        return False
    runs = list(filter(None, counts))
    if not runs:
        return not here
    if max(runs) > b or sum(runs) != len(here):
        return False
    # the first child of parent h: ((h >> 6) * b + 1) << 6 | level
    first = list(map((64 + level - b * (level - 1)).__add__,
                     map(b.__mul__, compress(parents, counts))))
    last = list(map(add, first, map((64).__mul__, map((-1).__add__, runs))))
    ends = list(accumulate(runs))
    if len(runs) == 1:
        if (here[0], here[-1]) != (first[0], last[0]):
            return False
    elif (itemgetter(*map(sub, ends, runs))(here) != tuple(first)
          or itemgetter(*map((-1).__add__, ends))(here) != tuple(last)):
        return False
    return all(map(lt, here, islice(here, 1, None)))


# _spell's templates: "\n\0_1\n\0_2...\n\0_k" for k children (\0 stands for the
# parent's name), and the same after "\n\0" (the parent itself first).
_CHILDREN = [""]
for _k in range(1, _TEMPLATES_UP_TO + 1):
    _CHILDREN.append(f"{_CHILDREN[-1]}\n\0_{_k}")
_PARENT_AND_CHILDREN = ["\n\0" + _t for _t in _CHILDREN]
del _k


def _spell(parent_names: list[str], counts: list[int], with_parents: bool) -> list[str]:
    """The names of each parent's first ``counts[i]`` children, in order
    (after each parent's own name, when ``with_parents``): one text, spelt
    in C from a template per count (or a join, for a parent with more
    children than there are templates), split once."""
    if max(counts, default=0) <= _TEMPLATES_UP_TO:
        templates = _PARENT_AND_CHILDREN if with_parents else _CHILDREN
        text = "".join(map(str.replace, map(templates.__getitem__, counts), repeat("\0"),
                           parent_names))
    else:
        top = max(counts)
        pieces = ["", "", *(f"_{k}" for k in range(1, top + 1))][0 if with_parents else 1:]
        more = 2 if with_parents else 1
        text = "".join(map(str.join, map("\n".__add__, parent_names),
                           map(islice, repeat(pieces), map(more.__add__, counts))))
    return text.split("\n")[1:] if text else []


RULES = prolog_dir() / "trees" / "uniform.pl"


def parse_ordering(text: str) -> tuple[str, int | None]:
    """``"perfect"``, ``"worst"`` or ``"random(SEED)"`` -> (kind, seed).

    >>> parse_ordering("random(7)")
    ('random', 7)
    """
    t = text.strip()
    if t in ("perfect", "worst"):
        return t, None
    m = _RANDOM.match(t)
    if m:
        return "random", int(m.group(1))
    raise ValueError(f"unknown ordering {text!r} (known: perfect, worst, random(SEED) "
                     "with SEED a non-negative integer)")


def _mix32(x: int) -> int:
    x ^= x >> 16
    x = (x * 0x7FEB352D) & _M32
    x ^= x >> 15
    x = (x * 0x5BD1E995) & _M32
    return x ^ (x >> 16)


def hash_value(seed: int, node_id: int) -> int:
    """The ``random(seed)`` value of node ``node_id``: 0 .. 2**24 - 1
    (``hash_value/3`` in uniform.pl)."""
    h = _mix32(_mix32((seed & _M32) ^ 0x9E3779B9) ^ (node_id & _M32))
    if node_id > _M32:
        h = _mix32(h ^ (node_id >> 32))
    return h >> 8


class Uniform:
    """A uniform tree of branching ``b`` and depth ``d`` (see the module
    docstring).  ``ordering`` is ``"perfect"``, ``"worst"`` or
    ``"random(SEED)"``.

    :raises ValueError: for b < 1, d < 0, d > 63 or an unknown ordering.
    """

    root_node = 0
    root = "r"
    root_side = "max"
    #: Sides alternate level by level (``pyab.search.common.siblings_alike``).
    sides_by_level = True
    #: Every node has one parent (``pyab.search.common.Recorder.result``'s ``once``).
    one_parent = True
    # No stored values for pyab.tree.check_window to scan: every value here
    # is an integer well below 2**53, which SWI and Python compare alike.
    values: tuple = ()

    def __init__(self, branching: int, depth: int, ordering: str = "perfect"):
        for what, x, low in (("branching", branching, 1), ("depth", depth, 0)):
            if isinstance(x, bool) or not isinstance(x, int) or x < low:
                raise ValueError(f"{what} must be an integer >= {low}, not {x!r}")
        if depth > MAX_DEPTH:
            raise ValueError(f"depth must be at most {MAX_DEPTH}, not {depth}")
        self.branching, self.depth = branching, depth
        self.kind, self.seed = parse_ordering(ordering)
        self.ordering = ordering.strip()

    def __repr__(self) -> str:
        return f"Uniform({self.branching}, {self.depth}, {self.ordering!r})"

    # -- the node protocol ----------------------------------------------------
    def kids_of(self, node: int) -> Sequence[int]:
        d = node & 63
        if d >= self.depth:
            return ()
        start = (((node >> 6) * self.branching + 1) << 6) | (d + 1)
        return range(start, start + (self.branching << 6), 64)

    def is_max(self, node: int) -> bool:
        return not node & 1

    #: True (1) where MIN moves: the handle's lowest bit, an int method (no Python frame).
    is_min = (1).__and__

    def depth_of(self, node: int) -> int:
        return node & 63

    def value_of(self, node: int) -> int | None:
        """The static value of a leaf; None for an inner node."""
        if node & 63 != self.depth:
            return None
        i = node >> 6
        if self.kind == "random":
            return hash_value(self.seed or 0, i)
        b, value, weight = self.branching, 0, 1
        # Walk the Dewey path from the leaf up.  The parent at level L-1 is
        # MAX when L is odd; perfect puts its better children first.
        sign = 1 if self.kind == "worst" else -1
        for level in range(self.depth, 0, -1):
            i, a = divmod(i - 1, b)
            value += (sign if level & 1 else -sign) * a * weight
            weight *= b
        return value

    def name_of(self, node: int) -> str:
        path = []
        i, d, b = node >> 6, node & 63, self.branching
        for _ in range(d):
            i, a = divmod(i - 1, b)
            path.append(str(a + 1))
        return "_".join(["r", *reversed(path)])

    def names_of(self, nodes: Sequence[int], known: dict[int, str] | None = None) -> list[str]:
        """The names of ``nodes``, in bulk (same names as ``name_of``).

        ``known`` (node -> name) is used and extended.  A node whose parent
        is known, or listed before it, is named from the parent's name in
        one step; others by ``name_of``, which walks the whole path.  (A
        search's visited nodes are named faster by :meth:`name_lists`.)"""
        return self._one_by_one(nodes, {} if known is None else known)

    def name_lists(self, visited: Sequence[int], leaves: Sequence[int]
                   ) -> tuple[Sequence[str], Sequence[str]]:
        """The names of a search's ``visited`` nodes and of its ``leaves``
        (the leaves read, in order), both at once.  A visited list that
        starts at the root and holds each node's first children after it
        (every search here makes one) is named a level at a time
        (:meth:`_by_levels`); and when the leaves read are the visited
        leaves, in the order visited (a search without a depth limit reads
        each leaf it visits, once), their names are those already made.
        Otherwise as :meth:`names_of`."""
        fast = self._by_levels(visited)
        if fast is None:
            known: dict[int, str] = {}
            return self._one_by_one(visited, known), self._one_by_one(leaves, known)
        names, visited_leaves, leaf_names = fast
        if visited_leaves == leaves:  # list == list, in C
            return names, leaf_names
        return names, self._one_by_one(leaves, dict(zip(visited, names)))

    def _one_by_one(self, nodes: Sequence[int], known: dict[int, str]) -> list[str]:
        try:
            return list(map(known.__getitem__, nodes))  # all named already
        except KeyError:
            pass
        b, name_of = self.branching, self.name_of
        suffix = [f"_{k}" for k in range(1, b + 1)]
        get, out = known.get, []
        for node in nodes:
            d = node & 63
            up, a = divmod((node >> 6) - 1, b)
            parent = get(up << 6 | (d - 1)) if d else None
            name = known[node] = name_of(node) if parent is None else parent + suffix[a]
            out.append(name)
        return out

    def _by_levels(self, nodes: Sequence[int]
                   ) -> tuple[list[str], list[int], tuple[str, ...]] | None:
        """``nodes`` named a level at a time, or None when the list is not
        of the shape this needs (then nothing is known from it).

        The shape: the root first and once; after each node of level L-1,
        the nodes of level L that come before the next node of level L-1
        are its first children, in order; and the leaves (the last level)
        come right after their parent.  A search's visited list has it:
        each node's children are searched first one first, a cut leaves out
        the rest.  Each level's names are then its parents' names joined to
        the children's suffixes, and the whole list is spelt as one text
        and split: a few C-level passes over the list, no Python step per
        node.  Every handle is checked against the one its name stands for
        (:func:`_first_children`), so a list of any other shape falls back
        to naming one by one and never gets a wrong name.

        Returns (names in list order, the listed leaves in list order,
        their names)."""
        b, depth = self.branching, self.depth
        if not nodes or nodes[0] != 0 or depth == 0:
            return None
        try:
            handles = array("q", nodes)
        except (TypeError, OverflowError):
            return None
        levels_of = bytes(memoryview(handles).cast("B")[_LOW::8]).translate(_AND63)
        if levels_of.count(0) != 1 or levels_of.translate(None, _LEVELS_UP_TO[depth]):
            return None  # the root twice, or a handle deeper than the tree
        # The leaves come in runs, one after each node above them (maybe empty).
        is_leaf = levels_of.translate(_LEVEL_FLAGS[depth])
        leaf_counts = list(map(len, is_leaf.split(b"\0")))[1:]  # one per upper node
        # The nodes above the leaves (each at its rank plus the leaves before
        # it), named level by level.
        at = list(map(add, range(len(leaf_counts)), accumulate(leaf_counts, initial=0)))
        upper: list[int] = list(itemgetter(*at)(nodes)) if len(at) > 1 else [nodes[0]]
        upper_levels = levels_of.translate(None, bytes((depth,)))
        parents, by_level = [0], [["r"]]
        for level in range(1, depth):
            # this level's bytes (1) and the level above's (0): after each
            # parent, the run of its children
            table, delete = _RUNS_OF[level]  # type: ignore[misc]  # set for every level > 0
            runs = upper_levels.translate(table, delete).split(b"\0")
            counts = list(map(len, runs[1:]))
            here = list(compress(upper, upper_levels.translate(_LEVEL_FLAGS[level])))
            if runs[0] or not _first_children(here, parents, counts, level, b):
                return None
            by_level.append(_spell(by_level[-1], counts, False))
            parents = here
        upper_names = list(map(next, map(list(map(iter, by_level)).__getitem__, upper_levels)))
        # The leaves: the run after each node above them is its children.
        leaves = list(compress(nodes, is_leaf))
        if (bytes(compress(upper_levels, leaf_counts)).count(depth - 1) != sum(map(bool, leaf_counts))
                or not _first_children(leaves, upper, leaf_counts, depth, b)):
            return None
        names = _spell(upper_names, leaf_counts, True)
        return names, leaves, tuple(compress(names, is_leaf))

    # -- sizes ------------------------------------------------------------------
    def leaf_count(self) -> int:
        """b^d: the leaves of the whole tree."""
        return self.branching ** self.depth

    def node_count(self) -> int:
        return sum(self.branching ** k for k in range(self.depth + 1))

    # -- the Prolog side ----------------------------------------------------------
    def prolog_source(self) -> tuple[str, str]:
        """(rules file, parameter facts) for the bridge's ``load_rules``."""
        order = self.kind if self.kind != "random" else f"random({self.seed})"
        params = (f"branching({self.branching}).\ndepth({self.depth}).\n"
                  f"ordering({order}).\n")
        return str(RULES), params
