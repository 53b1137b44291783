"""The Python mirror of AIMA's ALPHA-BETA-SEARCH (``prolog/aima.pl``).

One function per function of the pseudo-code:

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
from .common import Recorder, access
from .trampoline import run

__all__ = ["search"]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           depth: int | None = None, observe=None, **_: object) -> Result:
    """ALPHA-BETA-SEARCH on the root of ``tree`` in ``alpha..beta``, ``depth``
    plies deep (None: no limit)."""
    actions, utility, is_max = access(tree)
    rec = Recorder(tree, "aima", observe)
    visit, read, leaf = rec.calls.append, rec.read, rec.leaves.append
    note = observe

    def max_value(state, alpha, beta, depth, scored=None):
        """MAX-VALUE; the root's call also lists (successor, value) in ``scored``."""
        if note:
            rec.enter(state, alpha, beta)
        if depth == 0:
            return read(state)  # EVAL at the cut-off
        visit(state)
        successors = actions(state)
        if not successors:  # if TERMINAL-TEST(state) then return UTILITY(state)
            leaf(state)
            v = utility(state)
            if v is None:
                raise ValueError(f"node {tree.name_of(state)!r} has no static value")
            if note:
                note("leaf", state, v)
            return v
        deeper = None if depth is None else depth - 1
        v = -math.inf  # v <- -inf
        for s in successors:  # for each a in ACTIONS(state) do
            w = min_value(s, alpha, beta, deeper)
            if note:
                rec.back(s, None, w)
            if scored is not None:
                scored.append((s, w))
            v = w if w > v else v  # v <- MAX(v, MIN-VALUE(RESULT(s, a), alpha, beta))
            if v >= beta:  # if v >= beta then return v
                return v
            alpha = v if v > alpha else alpha  # alpha <- MAX(alpha, v)
        return v

    def min_value(state, alpha, beta, depth, scored=None):
        """MIN-VALUE; the root's call also lists (successor, value) in ``scored``."""
        if note:
            rec.enter(state, alpha, beta)
        if depth == 0:
            return read(state)
        visit(state)
        successors = actions(state)
        if not successors:
            leaf(state)
            v = utility(state)
            if v is None:
                raise ValueError(f"node {tree.name_of(state)!r} has no static value")
            if note:
                note("leaf", state, v)
            return v
        deeper = None if depth is None else depth - 1
        v = math.inf  # v <- +inf
        for s in successors:
            w = max_value(s, alpha, beta, deeper)
            if note:
                rec.back(s, None, w)
            if scored is not None:
                scored.append((s, w))
            v = w if w < v else v  # v <- MIN(v, MAX-VALUE(RESULT(s, a), alpha, beta))
            if v <= alpha:  # if v <= alpha then return v
                return v
            beta = v if v < beta else beta  # beta <- MIN(beta, v)
        return v

    def alpha_beta_search(state, alpha, beta, depth):
        value = max_value if is_max(state) else min_value
        scored: list = []
        v = value(state, alpha, beta, depth, scored)  # v <- MAX-VALUE(state, -inf, +inf)
        action = next((s for s, w in scored if w == v), None)  # the action in ACTIONS(state) with value v
        return action, v

    best, value = run(tree, alpha_beta_search, tree.root_node, alpha, beta, depth)
    return rec.result(best, value, once=True)
