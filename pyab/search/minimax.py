"""The Python mirror of ``prolog/minimax.pl``: Hsu's exhaustive search.

``search`` is the mini-max F'/G' (F0'/G0' with a depth limit),
``search_negamax`` the nega-max F (F0).  No pruning: every node is
searched, so this is the referee for values.  The window is accepted and
ignored.  The best move is the first child with the best value ("if t > m
then m := t"); a terminal node (no children, or no depth left) is worth its
static value, read once.
"""

from __future__ import annotations

import math
from typing import Any

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = ["search", "search_negamax"]

INF = math.inf


def search(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
           depth: int | None = None, **_: object) -> Result:
    """F0'(root, depth) at a MAX root, G0'(root, depth) at a MIN root."""
    rec = Recorder(tree, "minimax")

    def successors(pos):
        rec.visit(pos)  # moves(Pos, Ps)
        return tree.kids_of(pos)

    def fp(pos, depth):  # F0': m := -inf; t := G0'(p_i, depth - 1)
        ps = successors(pos)
        if not ps or depth == 0:
            return None, rec.read(pos)
        m, best = -INF, None
        for p in ps:
            _, t = gp(p, depth - 1)
            if t > m:
                m, best = t, p
        return best, m

    def gp(pos, depth):  # G0': m := +inf; t := F0'(p_i, depth - 1)
        ps = successors(pos)
        if not ps or depth == 0:
            return None, rec.read(pos)
        m, best = INF, None
        for p in ps:
            _, t = fp(p, depth - 1)
            if t < m:
                m, best = t, p
        return best, m

    root, d = tree.root_node, (INF if depth is None else depth)
    best, value = run(tree, fp if tree.is_max(root) else gp, root, d)
    return rec.result(best, value)


def search_negamax(tree: Any, alpha: Number = -INF, beta: Number = INF, *,
                   depth: int | None = None, **_: object) -> Result:
    """Hsu's nega-max F0(root, depth); the value is from MAX's view."""
    rec = Recorder(tree, "minimax-negamax")

    def f(pos, depth):  # m := -inf; t := -F0(p_i, depth - 1); terminal: h(p)
        rec.visit(pos)
        ps = tree.kids_of(pos)
        if not ps or depth == 0:
            v = rec.read(pos)
            return None, (v if tree.is_max(pos) else -v)
        m, best = -INF, None
        for p in ps:
            _, t0 = f(p, depth - 1)
            t = -t0
            if t > m:
                m, best = t, p
        return best, m

    root = tree.root_node
    best, nval = run(tree, f, root, INF if depth is None else depth)
    return rec.result(best, nval if tree.is_max(root) else -nval)
