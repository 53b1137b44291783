"""Where each node goes in a drawing: leaves side by side in tree order,
each inner node centred over its first and last child, one row per depth.
Iterative, so deep chains lay out without recursion."""

from __future__ import annotations

from ..tree import Tree

__all__ = ["layout"]


def layout(tree: Tree) -> list[tuple[float, int]]:
    """(slot, depth) for every node id; slots count leaf widths from 0."""
    n = len(tree)
    x = [0.0] * n
    slot = 0
    for i in range(n):  # pre-order: leaves come left to right
        if not tree.kids[i]:
            x[i] = float(slot)
            slot += 1
    for i in range(n - 1, -1, -1):  # children have larger ids than parents
        ks = tree.kids[i]
        if ks:
            x[i] = (x[ks[0]] + x[ks[-1]]) / 2
    return [(x[i], tree.depth[i]) for i in range(n)]
