"""The Python mirror of ``prolog/strict_cut.pl``: strict-cut, depth-limited
alpha-beta with a side to move per node.

The rule, as the alpha-beta question of UC Berkeley's CS188 Pacman project
("multiagent", ``AlphaBetaAgent``) states it for its autograder:

* a MAX node returns as soon as its value is *strictly* above beta, a MIN
  node as soon as it is *strictly* below alpha: a value equal to a bound
  never cuts (the project insists on it, because its grader counts the
  states a search generates);
* the children are searched in the order given, never reordered, and the
  first strictly better child becomes the move: on a tie the earlier one
  stays;
* a node at the depth limit is scored by its own static value, without
  asking for its children (here ``depth`` counts plies, see docs/courses.md);
* each node says who moves in it (``is_max``), so several MIN (or MAX)
  nodes may follow one another, as when several ghosts move in a row.

The value is returned as found (fail-soft): inside alpha..beta it is exact,
below alpha an upper bound, above beta a lower bound.  It records on its own
which nodes it asks for moves and which static values it reads; nothing is
taken from the Prolog run.
"""

from __future__ import annotations

import math

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = ["search"]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           depth: int | None = None, **_: object) -> Result:
    """VALUE(root, alpha, beta), ``depth`` plies deep (None: no limit)."""
    moves, is_max = tree.kids_of, tree.is_max
    rec = Recorder(tree, "strict-cut")

    def value(pos, alpha, beta, depth):
        """(best child or None, value) of ``pos`` in ``alpha..beta``."""
        if depth == 0:
            return None, rec.read(pos)  # the horizon: a static value, no moves asked
        rec.visit(pos)
        kids = moves(pos)
        if not kids:
            return None, rec.read(pos)
        deeper = None if depth is None else depth - 1
        best = None
        if is_max(pos):
            v = -math.inf
            for k in kids:
                _, w = yield value(k, alpha, beta, deeper)
                if w > v:  # only a strictly better move replaces the first
                    v, best = w, k
                if v > beta:  # strictly above: equality does not cut
                    return best, v
                alpha = v if v > alpha else alpha
        else:
            v = math.inf
            for k in kids:
                _, w = yield value(k, alpha, beta, deeper)
                if w < v:
                    v, best = w, k
                if v < alpha:
                    return best, v
                beta = v if v < beta else beta
        return best, v

    best, v = run(value(tree.root_node, alpha, beta, depth))
    return rec.result(best, v)
