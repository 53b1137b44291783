"""The Python mirror of the slides' program (``prolog/alphabeta.pl``).

One function per Prolog predicate, one branch per clause, in the printed
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
from .common import Recorder, access
from .trampoline import run

__all__ = ["search"]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           observe: Callable[..., None] | None = None, **_: object) -> Result:
    """Run the slides' alphabeta/5 on the root of ``tree`` in ``alpha..beta``.

    ``tree`` is a :class:`Tree` or any tree with the same node protocol.
    ``observe``, when given, is called at the points SWI-Prolog's traced
    run is observed at (see ``pyab.trace``): ``observe("call", pos, alpha,
    beta)``, ``("leaf", pos, val)``, ``("bounds", pos, val, alpha, beta,
    new_alpha, new_beta)``, ``("cut", pos, val, alpha, beta, kind, rest)``,
    ``("return", pos, good_pos, val)``; positions are nodes."""
    moves, _, max_to_move = access(tree)  # the tree's moves/2 and max_to_move/1
    rec = Recorder(tree, "bratko")
    visit, staticval = rec.visit, rec.staticval  # moves/2 and staticval/2 calls, recorded
    note = observe

    # min_to_move(Pos) is `not max_to_move(pos)`: every node is one or the other.

    def alphabeta(pos, alpha, beta):
        if note:
            note("call", pos, alpha, beta)
        visit(pos)
        pos_list = moves(pos)  # moves(Pos, PosList), !,
        if pos_list:           # boundedbest(PosList, Alpha, Beta, GoodPos, Val)
            good_pos, val = boundedbest(pos_list, 0, alpha, beta)
        else:                  # ; staticval(Pos, Val)
            good_pos, val = None, staticval(pos)
            if note:
                note("leaf", pos, val)
        if note:
            note("return", pos, good_pos, val)
        return good_pos, val

    # A list [Pos|PosList] is pos_list[i:], passed as (pos_list, i).

    def boundedbest(pos_list, i, alpha, beta):
        pos = pos_list[i]                         # boundedbest([Pos|PosList], ...) :-
        _, val = alphabeta(pos, alpha, beta)      #   alphabeta(Pos, Alpha, Beta, _, Val),
        return goodenough(pos_list, i + 1, alpha, beta, pos, val)  # goodenough(PosList, ...)

    def goodenough(pos_list, i, alpha, beta, pos, val):
        if i == len(pos_list):                    # goodenough([], _, _, Pos, Val, Pos, Val) :- !.
            return pos, val
        maxing = max_to_move(pos)
        if (not maxing and val > beta) or (maxing and val < alpha):
            # min_to_move(Pos), Val > Beta, ! ; max_to_move(Pos), Val < Alpha, !.
            if note:
                note("cut", pos, val, alpha, beta, "alpha" if maxing else "beta", pos_list[i:])
            return pos, val                       # the cut: pos_list[i:] is never searched
        new_alpha, new_beta = newbounds(alpha, beta, pos, val)  # newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta),
        if note:
            note("bounds", pos, val, alpha, beta, new_alpha, new_beta)
        pos1, val1 = boundedbest(pos_list, i, new_alpha, new_beta)  # boundedbest(PosList, NewAlpha, NewBeta, Pos1, Val1),
        return betterof(pos, val, pos1, val1)     # betterof(Pos, Val, Pos1, Val1, GoodPos, GoodVal).

    def newbounds(alpha, beta, pos, val):
        if max_to_move(pos):
            if val < beta:                        # newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-
                return alpha, val                 #   max_to_move(Pos), Val < Beta, !.
        elif val > alpha:                         # newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-
            return val, beta                      #   min_to_move(Pos), Val > Alpha, !.
        return alpha, beta                        # newbounds(Alpha, Beta, _, _, Alpha, Beta).

    def betterof(pos, val, pos1, val1):
        if max_to_move(pos):                      # betterof(Pos, Val, _, Val1, Pos, Val) :-
            if val < val1:                        #   ... ; max_to_move(Pos), Val < Val1, !.
                return pos, val
        elif val > val1:                          #   min_to_move(Pos), Val > Val1, ! ; ...
            return pos, val
        return pos1, val1                         # betterof(_, _, Pos1, Val1, Pos1, Val1).

    best, value = run(tree, alphabeta, tree.root_node, alpha, beta)
    return rec.result(best, value)
