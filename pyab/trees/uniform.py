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
from typing import Sequence

from ..resources import prolog_dir

__all__ = ["MAX_DEPTH", "ORDERINGS", "Uniform", "hash_value", "parse_ordering"]

ORDERINGS = ("perfect", "worst", "random(SEED)")
MAX_DEPTH = 63
_M32 = 0xFFFFFFFF
_RANDOM = re.compile(r"random\((\d+)\)\Z")
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
        is known, or listed before it (a search's visited nodes are), is
        named from the parent's name in one step; others by ``name_of``,
        which walks the whole path."""
        known = {} if known is None else known
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
