"""The Python mirror of the slides' program (``prolog/alphabeta.pl``).

One generator per Prolog predicate, one branch per clause, in the printed
order, so the two can be read side by side:

* comparisons are strict (``>``/``<``) in ``goodenough`` and ``newbounds``;
* ``betterof`` keeps the *later* sibling on a tie;
* a cut-off returns the cutting child's value, not the bound;
* sides are read from the tree (``min_to_move``/``max_to_move``), so values
  outside the window behave exactly as in Prolog.

It records on its own which nodes it calls ``alphabeta`` on and which leaves'
static values it reads; nothing is taken from the Prolog run.
"""

from __future__ import annotations

import math

from ..result import Result
from ..tree import Number, Tree
from .trampoline import run

__all__ = ["search"]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, **_: object) -> Result:
    """Run the slides' alphabeta/5 on the root of ``tree`` in ``alpha..beta``."""
    kids, values, is_max = tree.kids, tree.values, tree.is_max_id
    visited: list[int] = []
    leaves: list[int] = []

    def min_to_move(pos: int) -> bool:
        return not is_max(pos)

    def max_to_move(pos: int) -> bool:
        return is_max(pos)

    def alphabeta(pos, alpha, beta):
        visited.append(pos)
        pos_list = kids[pos]  # moves(Pos, PosList)
        if pos_list:
            return (yield boundedbest(pos_list, 0, alpha, beta))
        leaves.append(pos)  # staticval(Pos, Val)
        return None, values[pos]

    def boundedbest(pos_list, i, alpha, beta):
        pos = pos_list[i]
        _, val = yield alphabeta(pos, alpha, beta)
        return (yield goodenough(pos_list, i + 1, alpha, beta, pos, val))

    def goodenough(pos_list, i, alpha, beta, pos, val):
        if i == len(pos_list):  # goodenough([], ...)
            return pos, val
        if (min_to_move(pos) and val > beta) or (max_to_move(pos) and val < alpha):
            return pos, val  # the cut: pos_list[i:] is never searched
        new_alpha, new_beta = newbounds(alpha, beta, pos, val)
        pos1, val1 = yield boundedbest(pos_list, i, new_alpha, new_beta)
        return betterof(pos, val, pos1, val1)

    def newbounds(alpha, beta, pos, val):
        if min_to_move(pos) and val > alpha:
            return val, beta
        if max_to_move(pos) and val < beta:
            return alpha, val
        return alpha, beta

    def betterof(pos, val, pos1, val1):
        if (min_to_move(pos) and val > val1) or (max_to_move(pos) and val < val1):
            return pos, val
        return pos1, val1

    best, value = run(alphabeta(0, alpha, beta))
    names = tree.names
    visited_names = [names[i] for i in visited]
    return Result(
        best=None if best is None else names[best],
        value=value,
        leaves=tuple(names[i] for i in leaves),
        visited=tuple(visited_names),
        pruned=tuple(tree.pruned(visited_names)),
        engine="python",
        algorithm="bratko",
    )
