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

from typing import Callable

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = ["search"]


def _silent(*_: object) -> None:
    pass


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           observe: Callable[..., None] | None = None, **_: object) -> Result:
    """Run the slides' alphabeta/5 on the root of ``tree`` in ``alpha..beta``.

    ``tree`` is a :class:`Tree` or any tree with the same node protocol.
    ``observe``, when given, is called at the points SWI-Prolog's traced
    run is observed at (see ``pyab.trace``): ``observe("call", pos, alpha,
    beta)``, ``("leaf", pos, val)``, ``("bounds", pos, val, alpha, beta,
    new_alpha, new_beta)``, ``("cut", pos, val, alpha, beta, kind, rest)``,
    ``("return", pos, good_pos, val)``; positions are nodes."""
    moves, is_max = tree.kids_of, tree.is_max
    rec = Recorder(tree, "bratko")
    note = observe or _silent

    def min_to_move(pos: int) -> bool:
        return not is_max(pos)

    def max_to_move(pos: int) -> bool:
        return is_max(pos)

    def alphabeta(pos, alpha, beta):
        note("call", pos, alpha, beta)
        rec.visit(pos)
        pos_list = moves(pos)  # moves(Pos, PosList)
        if pos_list:
            good_pos, val = yield boundedbest(pos_list, 0, alpha, beta)
        else:
            good_pos, val = None, rec.read(pos)  # staticval(Pos, Val)
            note("leaf", pos, val)
        note("return", pos, good_pos, val)
        return good_pos, val

    def boundedbest(pos_list, i, alpha, beta):
        pos = pos_list[i]
        _, val = yield alphabeta(pos, alpha, beta)
        return (yield goodenough(pos_list, i + 1, alpha, beta, pos, val))

    def goodenough(pos_list, i, alpha, beta, pos, val):
        if i == len(pos_list):  # goodenough([], ...)
            return pos, val
        if (min_to_move(pos) and val > beta) or (max_to_move(pos) and val < alpha):
            note("cut", pos, val, alpha, beta, "beta" if min_to_move(pos) else "alpha", pos_list[i:])
            return pos, val  # the cut: pos_list[i:] is never searched
        new_alpha, new_beta = newbounds(alpha, beta, pos, val)
        note("bounds", pos, val, alpha, beta, new_alpha, new_beta)
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

    best, value = run(alphabeta(tree.root_node, alpha, beta))
    return rec.result(best, value)
