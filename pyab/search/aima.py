"""The Python mirror of AIMA's ALPHA-BETA-SEARCH (``prolog/aima.pl``).

One generator per function of the pseudo-code:

* MAX-VALUE cuts on ``v >= beta``, MIN-VALUE on ``v <= alpha`` (non-strict,
  unlike the slides' program) and both return ``v``, the best value seen,
  not the bound;
* ALPHA-BETA-SEARCH returns the *first* successor whose value, as the root's
  loop received it, equals ``v`` (the slides' program keeps the later one);
* ``MAX(v, x)`` keeps ``v`` unless ``x`` is strictly greater, as in Prolog;
* at a depth limit a node is scored by its static value without asking for
  its moves (AIMA's CUTOFF-TEST / EVAL).

It records on its own which nodes it asks for moves and which static values
it reads; nothing is taken from the Prolog run.
"""

from __future__ import annotations

import math

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = ["search"]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           depth: int | None = None, observe=None, **_: object) -> Result:
    """ALPHA-BETA-SEARCH on the root of ``tree`` in ``alpha..beta``, ``depth``
    plies deep (None: no limit)."""
    moves, is_max = tree.kids_of, tree.is_max
    rec = Recorder(tree, "aima", observe)

    def deeper(depth):
        return None if depth is None else depth - 1

    def max_value(state, alpha, beta, depth):
        """MAX-VALUE; returns (v, [(successor, value), ...])."""
        rec.enter(state, alpha, beta)
        if depth == 0:
            return rec.read(state), []  # EVAL at the cut-off
        rec.visit(state)
        successors = moves(state)
        if not successors:  # TERMINAL-TEST
            return rec.read(state), []  # UTILITY
        v, scored = -math.inf, []
        for s in successors:
            w, _ = yield min_value(s, alpha, beta, deeper(depth))
            rec.back(s, None, w)
            scored.append((s, w))
            v = w if w > v else v
            if v >= beta:
                return v, scored
            alpha = v if v > alpha else alpha
        return v, scored

    def min_value(state, alpha, beta, depth):
        """MIN-VALUE; returns (v, [(successor, value), ...])."""
        rec.enter(state, alpha, beta)
        if depth == 0:
            return rec.read(state), []
        rec.visit(state)
        successors = moves(state)
        if not successors:
            return rec.read(state), []
        v, scored = math.inf, []
        for s in successors:
            w, _ = yield max_value(s, alpha, beta, deeper(depth))
            rec.back(s, None, w)
            scored.append((s, w))
            v = w if w < v else v
            if v <= alpha:
                return v, scored
            beta = v if v < beta else beta
        return v, scored

    def alpha_beta_search(state, alpha, beta, depth):
        value = max_value if is_max(state) else min_value
        v, scored = yield value(state, alpha, beta, depth)
        action = next((s for s, w in scored if w == v), None)
        return action, v

    best, value = run(alpha_beta_search(tree.root_node, alpha, beta, depth))
    return rec.result(best, value)
