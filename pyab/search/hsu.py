"""The Python mirror of ``prolog/hsu.pl``: Hsu's F1, F2 and F3.

Tsan-sheng Hsu ("Alpha-Beta Pruning: Algorithm and Analysis") gives each
version twice: in mini-max form (F', G': one procedure per side) and in
nega-max form (F: one procedure, values negated at each level).  Both are
here, procedure for procedure as in the Prolog file, written as plain
recursive functions run by :func:`~pyab.search.trampoline.run`:

* ``search_f1`` / ``search_f1_negamax``: the original version, fail hard;
* ``search_f2`` / ``search_f2_negamax``: one-sided bound;
* ``search_f3`` / ``search_f3_negamax``: fail soft.

The choices Hsu leaves open are made as in ``prolog/hsu.pl`` (its header
explains each): "m is max" compares with the largest static value the tree
holds (inner values included); F1's direct cut-off returns m when m < beta;
the best move is the child that last improved m (none when F1 fails low);
F2 takes beta at a MAX root and alpha at a MIN root; h(p) is f(p) when MAX
moves in p, -f(p) otherwise.  Each node searched asks once for its
children (``visit``) and a terminal node reads its static value once
(``read``), exactly as the Prolog side calls moves/2 and staticval/2.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = [
    "search_f1", "search_f1_negamax", "search_f2", "search_f2_negamax",
    "search_f3", "search_f3_negamax", "value_range",
]

INF = math.inf


def value_range(tree: Any) -> tuple[Number, Number]:
    """The smallest and largest stored static value of ``tree`` (every node
    that has one, inner nodes included): Hsu's "min" and "max" for the
    direct cut-offs.  A tree given by rules (``pyab.trees``) stores none,
    like its Prolog side has no staticval/2 facts: (-inf, inf), so its
    direct cut-offs never fire.  Not a search: nothing is recorded."""
    present = [v for v in getattr(tree, "values", ()) if v is not None]
    return (min(present), max(present)) if present else (-INF, INF)


class _Common:
    """What every version shares: the tree protocol, the record, the range."""

    def __init__(self, tree: Any, name: str, depth: int | None):
        self.tree, self.rec = tree, Recorder(tree, name)
        self.lo, self.hi = value_range(tree)
        self.depth: Number = INF if depth is None else depth

    def successors(self, pos):
        """moves(Pos, Ps): one call per position searched."""
        self.rec.visit(pos)
        return self.tree.kids_of(pos)

    @staticmethod
    def terminal(ps, depth) -> bool:
        return not ps or depth == 0

    def f(self, pos) -> Number:
        """f(p): one staticval/2 call."""
        return self.rec.read(pos)

    def h(self, pos) -> Number:
        """h(p): f(p) from the side to move in p."""
        v = self.rec.read(pos)
        return v if self.tree.is_max(pos) else -v

    def top(self, pos) -> Number:
        """The largest nega-max value possible in ``pos``."""
        return self.hi if self.tree.is_max(pos) else -self.lo

    def minimax_root(self, alpha, beta, fp: Callable, gp: Callable) -> Result:
        """F'(root) at a MAX root, G'(root) at a MIN root."""
        root = self.tree.root_node
        first = fp if self.tree.is_max(root) else gp
        best, value = run(self.tree, first, root, alpha, beta, self.depth)
        return self.rec.result(best, value)

    def negamax_root(self, alpha, beta, f: Callable) -> Result:
        """F(root); at a MIN root the window and the value are negated."""
        root = self.tree.root_node
        if self.tree.is_max(root):
            best, value = run(self.tree, f, root, alpha, beta, self.depth)
        else:
            best, nval = run(self.tree, f, root, -beta, -alpha, self.depth)
            value = -nval
        return self.rec.result(best, value)


def _larger(x, y):
    return x if x > y else y


def _smaller(x, y):
    return x if x < y else y


# -- F1: fail hard --------------------------------------------------------

def search_f1(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
              depth: int | None = None, **_: object) -> Result:
    """Hsu's F1'/G1' (mini-max form, fail hard) on the root of ``tree``."""
    c = _Common(tree, "hsu-f1", depth)

    def f1p(pos, alpha, beta, depth):  # F1': m := alpha
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.f(pos)
        m, best = alpha, None
        for p in ps:
            _, t = g1p(p, m, beta, depth - 1)
            if t > m:
                m, best = t, p
            if m >= beta:
                return best, beta          # beta cut-off: the hard bound
            if m == c.hi:
                return best, m             # direct cut-off
        return best, m

    def g1p(pos, alpha, beta, depth):  # G1': m := beta
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.f(pos)
        m, best = beta, None
        for p in ps:
            _, t = f1p(p, alpha, m, depth - 1)
            if t < m:
                m, best = t, p
            if m <= alpha:
                return best, alpha         # alpha cut-off: the hard bound
            if m == c.lo:
                return best, m
        return best, m

    return c.minimax_root(alpha, beta, f1p, g1p)


def search_f1_negamax(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
                      depth: int | None = None, **_: object) -> Result:
    """Hsu's nega-max F1 on the root of ``tree`` (value from MAX's view)."""
    c = _Common(tree, "hsu-f1-negamax", depth)

    def f1(pos, alpha, beta, depth):  # m := alpha; t := -F1(p_i, -beta, -m)
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.h(pos)
        top = c.top(pos)
        m, best = alpha, None
        for p in ps:
            _, t0 = f1(p, -beta, -m, depth - 1)
            t = -t0
            if t > m:
                m, best = t, p
            if m >= beta:
                return best, beta
            if m == top:
                return best, m
        return best, m

    return c.negamax_root(alpha, beta, f1)


# -- F2: one-sided --------------------------------------------------------

def search_f2(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
              depth: int | None = None, **_: object) -> Result:
    """Hsu's F2'(root, beta) at a MAX root, G2'(root, alpha) at a MIN root."""
    c = _Common(tree, "hsu-f2", depth)

    def f2p(pos, beta, depth):  # m := -inf; t := G2'(p_i, m)
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.f(pos)
        m, best = -INF, None
        for p in ps:
            _, t = g2p(p, m, depth - 1)
            if t > m:
                m, best = t, p
            if m == c.hi or m >= beta:
                return best, m             # beta cut-off: m itself
        return best, m

    def g2p(pos, alpha, depth):  # m := +inf; t := F2'(p_i, m)
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.f(pos)
        m, best = INF, None
        for p in ps:
            _, t = f2p(p, m, depth - 1)
            if t < m:
                m, best = t, p
            if m == c.lo or m <= alpha:
                return best, m
        return best, m

    return c.minimax_root(alpha, beta, lambda pos, a, b, d: f2p(pos, b, d),
                          lambda pos, a, b, d: g2p(pos, a, d))


def search_f2_negamax(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
                      depth: int | None = None, **_: object) -> Result:
    """Hsu's nega-max F2(root, bound): bound = beta at a MAX root, -alpha at
    a MIN root."""
    c = _Common(tree, "hsu-f2-negamax", depth)

    def f2(pos, bound, depth):  # m := -inf; t := -F2(p_i, -m)
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.h(pos)
        top = c.top(pos)
        m, best = -INF, None
        for p in ps:
            _, t0 = f2(p, -m, depth - 1)
            t = -t0
            if t > m:
                m, best = t, p
            if m == top or m >= bound:
                return best, m
        return best, m

    # negamax_root passes (-beta, -alpha) at a MIN root: the bound is its second.
    return c.negamax_root(alpha, beta, lambda pos, a, b, d: f2(pos, b, d))


# -- F3: fail soft --------------------------------------------------------

def search_f3(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
              depth: int | None = None, **_: object) -> Result:
    """Hsu's F3'/G3' (mini-max form, fail soft) on the root of ``tree``."""
    c = _Common(tree, "hsu-f3", depth)

    def f3p(pos, alpha, beta, depth):  # m := -inf; t := G3'(p_i, max{m, alpha}, beta)
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.f(pos)
        m, best = -INF, None
        for p in ps:
            _, t = g3p(p, _larger(m, alpha), beta, depth - 1)
            if t > m:
                m, best = t, p
            if m == c.hi or m >= beta:
                return best, m
        return best, m

    def g3p(pos, alpha, beta, depth):  # m := +inf; t := F3'(p_i, alpha, min{m, beta})
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.f(pos)
        m, best = INF, None
        for p in ps:
            _, t = f3p(p, alpha, _smaller(m, beta), depth - 1)
            if t < m:
                m, best = t, p
            if m == c.lo or m <= alpha:
                return best, m
        return best, m

    return c.minimax_root(alpha, beta, f3p, g3p)


def search_f3_negamax(tree: Tree, alpha: Number = -INF, beta: Number = INF, *,
                      depth: int | None = None, **_: object) -> Result:
    """Hsu's nega-max F3 on the root of ``tree`` (value from MAX's view)."""
    c = _Common(tree, "hsu-f3-negamax", depth)

    def f3(pos, alpha, beta, depth):  # m := -inf; t := -F3(p_i, -beta, -max{m, alpha})
        ps = c.successors(pos)
        if c.terminal(ps, depth):
            return None, c.h(pos)
        top = c.top(pos)
        m, best = -INF, None
        for p in ps:
            _, t0 = f3(p, -beta, -_larger(m, alpha), depth - 1)
            t = -t0
            if t > m:
                m, best = t, p
            if m == top or m >= beta:
                return best, m
        return best, m

    return c.negamax_root(alpha, beta, f3)
