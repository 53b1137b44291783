"""Hsu's critical positions (Theorem 1), the Python half of ``prolog/critical.pl``.

A position is named by its Dewey path a1.a2...al from the root (1-based
branch numbers; the root is the empty path).  It is *critical* when
a_i = 1 for every even i, or a_i = 1 for every odd i (the root is
critical).  Theorem 1: F1 examines precisely the critical positions of a
perfect-ordering tree; Corollary 1: with exactly b successors everywhere,
level i holds b^ceil(i/2) + b^floor(i/2) - 1 of them.

:func:`perfect_tree` builds such a tree for the test of the theorem.

>>> is_critical((2, 1, 4, 1, 2)), is_critical((1, 2, 1, 1, 2)), is_critical(())
(True, False, True)
>>> [corollary_count(3, i) for i in range(5)]
[1, 3, 5, 11, 17]
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

from ..tree import Tree, build

__all__ = ["corollary_count", "critical_positions", "dewey", "is_critical", "perfect_tree"]


def is_critical(path: Sequence[int]) -> bool:
    """Hsu's definition, on a Dewey path (a tuple of 1-based branch numbers)."""
    odd = path[0::2]   # a1, a3, ...
    even = path[1::2]  # a2, a4, ...
    return all(a == 1 for a in even) or all(a == 1 for a in odd)


def dewey(tree: Any) -> dict[Hashable, tuple[int, ...]]:
    """Every node of ``tree`` (node protocol) with its Dewey path."""
    out: dict[Hashable, tuple[int, ...]] = {}
    stack: list[tuple[Hashable, tuple[int, ...]]] = [(tree.root_node, ())]
    while stack:
        node, path = stack.pop()
        out[node] = path
        stack.extend((k, path + (i,)) for i, k in enumerate(tree.kids_of(node), 1))
    return out


def critical_positions(tree: Any) -> list[str]:
    """Names of the critical positions of ``tree``, in depth-first order."""
    paths = dewey(tree)
    crit = [n for n, p in paths.items() if is_critical(p)]
    order = {n: i for i, n in enumerate(sorted(paths, key=lambda n: paths[n]))}
    return [tree.name_of(n) for n in sorted(crit, key=order.__getitem__)]


def corollary_count(b: int, i: int) -> int:
    """Corollary 1: b^ceil(i/2) + b^floor(i/2) - 1 positions on level i."""
    return b ** ((i + 1) // 2) + b ** (i // 2) - 1


def perfect_tree(b: int, d: int, root_side: str = "max") -> Tree:
    """A uniform tree (b successors, depth d) with perfect ordering.

    Nodes are named like the DSL's list form (``r``, ``r_1``, ``r_1_2``, ...).
    Nega-max values are set top-down: the root is worth 0; the first
    successor of a position worth v is worth -v (so it gives the best
    value, Hsu's F(p) = -F(p.1)), the i-th is worth -v + i - 1 (strictly
    worse for the mover for i > 1).  Leaves hold those values from MAX's
    point of view.

    Hsu's theorem is about F1 whose direct cut-offs ("m is max") never fire
    (Theorem 2: "if the value of the root is not +inf or -inf").  So that
    they cannot fire here, the root and its first successor carry static
    values beyond every leaf (+BIG and -BIG; the root's is the one
    its own side would stop at): the tree's value range is wider
    than anything a search reads.  Inner values are never read without a
    depth limit.
    """
    if b < 1 or d < 0:
        raise ValueError("need b >= 1 and d >= 0")
    big = b * d + 1
    edges, values = [], []
    stack = [("r", 0, 0)]  # name, depth, nega-max value
    while stack:
        name, depth, v = stack.pop()
        is_max = (depth % 2 == 0) == (root_side == "max")
        if depth == d:
            values.append((name, v if is_max else -v, (0, 0)))
            continue
        kids = [f"{name}_{i}" for i in range(1, b + 1)]
        edges.append((name, (0, 0), [(k, (0, 0)) for k in kids]))
        stack.extend((k, depth + 1, -v + i) for i, k in reversed(list(enumerate(kids))))
    sign = 1 if root_side == "max" else -1
    if d >= 1:
        values.append(("r", sign * big, (0, 0)))
    if d >= 2:
        values.append(("r_1", -sign * big, (0, 0)))
    return build(edges, values, root_side)
