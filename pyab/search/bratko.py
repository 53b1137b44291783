"""The Python mirror of the slides' program (``prolog/alphabeta.pl``).

One function per predicate the program calls itself with, each clause a
branch in the printed order, so the two can be read side by side:

* comparisons are strict (``>``/``<``) in ``goodenough`` and ``newbounds``;
* ``betterof`` keeps the *later* sibling on a tie;
* a cut-off returns the cutting child's value, not the bound;
* sides are read from the tree (``min_to_move``, ``max_to_move`` is its
  negation: every node is one or the other), so values outside the window
  behave exactly as in Prolog.

Folded for speed (benchmarks/HISTORY.md): ``boundedbest/5`` and
``goodenough/7`` call each other once per child, down the list of
children, and each ``goodenough`` finishes with ``betterof/6`` on the way
back out.  Here the way down is one loop over the children (``boundedbest``
below), with ``alphabeta/5``'s clause for each child, ``goodenough``'s
clauses and ``newbounds/6``'s written out in it (a leaf costs no Python
call of its own), and the ``betterof/6`` calls are made after the loop,
from the last child back to the first: the same calls, with the same
arguments, in the same order as Prolog makes them.  When siblings always
share a side to move (``siblings_alike``: an explicit tree without max/min
marks, a uniform tree), one ``min_to_move`` answers for all the children,
and the ``betterof/6`` calls are folded forward as the loop goes: for one
side, "the later child unless an earlier one is strictly better" is the
same answer whichever end it is computed from.  Other trees take the
calls from the back.  (``tests/prolog/test_lazy_result.py`` runs mutants of both
against the observed Prolog program.)

It records on its own which nodes it calls ``alphabeta`` on and which leaves'
static values it reads; nothing is taken from the Prolog run.
"""

from __future__ import annotations

import math

from typing import Callable

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder, access, siblings_alike, sides
from .trampoline import run

__all__ = ["search"]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           observe: Callable[..., None] | None = None, **_: object) -> Result:
    """Run the slides' alphabeta/5 on the root of ``tree`` in ``alpha..beta``.

    ``tree`` is a :class:`Tree` or any tree with the same node protocol.
    ``observe``, when given, is called at the points SWI-Prolog's traced
    run is observed at (see ``pyab.render.trace``): ``observe("call", pos, alpha,
    beta)``, ``("leaf", pos, val)``, ``("bounds", pos, val, alpha, beta,
    new_alpha, new_beta)``, ``("cut", pos, val, alpha, beta, kind, rest)``,
    ``("return", pos, good_pos, val)``; positions are nodes."""
    moves, value_of, _is_max = access(tree)  # the tree's moves/2 and staticval/2
    min_to_move, _max_to_move = sides(tree)
    alike = siblings_alike(tree)  # then one min_to_move answers for all the children
    rec = Recorder(tree, "bratko")
    visit, leaf = rec.calls.append, rec.leaves.append  # the record of moves/2, staticval/2 calls
    note = observe

    def alphabeta(pos, alpha, beta):
        # alphabeta(Pos, Alpha, Beta, GoodPos, Val): the root's call; every
        # other call is written out in boundedbest's loop below.
        if note:
            note("call", pos, alpha, beta)
        visit(pos)
        pos_list = moves(pos)         # moves(Pos, PosList), !,
        if pos_list:                  # boundedbest(PosList, Alpha, Beta, GoodPos, Val)
            good_pos, val = boundedbest(pos_list, alpha, beta)
        else:                         # ; staticval(Pos, Val)
            leaf(pos)
            good_pos, val = None, value_of(pos)
            if val is None:
                raise ValueError(f"node {tree.name_of(pos)!r} has no static value")
            if note:
                note("leaf", pos, val)
        if note:
            note("return", pos, good_pos, val)
        return good_pos, val

    def boundedbest(pos_list, alpha, beta):
        # boundedbest([Pos|PosList], Alpha, Beta, GoodPos, GoodVal) :- the
        # call down the list, one turn of the loop per child:
        last = len(pos_list) - 1
        pending = []  # the goodenough/7 calls (third clause) awaiting their betterof/6
        min_pos = min_to_move(pos_list[0])
        good_pos, good_val = None, -math.inf if min_pos else math.inf  # betterof, folded forward
        for i, pos in enumerate(pos_list):
            # alphabeta(Pos, Alpha, Beta, _, Val), its clause written out here
            # (a Python call less per child: a leaf costs no call of its own):
            if note:
                note("call", pos, alpha, beta)
            visit(pos)
            kids = moves(pos)                     # moves(Pos, PosList), !,
            if kids:                              # boundedbest(PosList, Alpha, Beta, GoodPos, Val)
                below, val = boundedbest(kids, alpha, beta)
                if note:
                    note("return", pos, below, val)
            else:                                 # ; staticval(Pos, Val)
                leaf(pos)
                val = value_of(pos)
                if val is None:
                    raise ValueError(f"node {tree.name_of(pos)!r} has no static value")
                if note:
                    note("leaf", pos, val)
                    note("return", pos, None, val)
            if alike:  # the betterof/6 calls below, folded forward (siblings alike: same answer)
                if not ((good_val > val) if min_pos else (good_val < val)):
                    good_pos, good_val = pos, val
            # goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal):
            if i == last:                         # goodenough([], _, _, Pos, Val, Pos, Val) :- !.
                break
            if not alike:
                min_pos = min_to_move(pos)
            if (val > beta) if min_pos else (val < alpha):
                # goodenough(_, Alpha, Beta, Pos, Val, Pos, Val) :-
                #     min_to_move(Pos), Val > Beta, ! ; max_to_move(Pos), Val < Alpha, !.
                if note:
                    note("cut", pos, val, alpha, beta, "beta" if min_pos else "alpha",
                         pos_list[i + 1:])
                break                             # the cut: the rest is never searched
            # goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal) :-
            #     newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta),
            if min_pos and val > alpha:           # newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-
                new_alpha, new_beta = val, beta   #     min_to_move(Pos), Val > Alpha, !.
            elif not min_pos and val < beta:      # newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-
                new_alpha, new_beta = alpha, val  #     max_to_move(Pos), Val < Beta, !.
            else:                                 # newbounds(Alpha, Beta, _, _, Alpha, Beta).
                new_alpha, new_beta = alpha, beta
            if note:
                note("bounds", pos, val, alpha, beta, new_alpha, new_beta)
            if not alike:
                pending.append((pos, val, min_pos))
            alpha, beta = new_alpha, new_beta     #     boundedbest(PosList, NewAlpha, NewBeta, Pos1, Val1),
        if alike:
            return good_pos, good_val
        # ... and on the way back each of them ends with betterof/6, the last one first:
        good_pos, good_val = pos, val             # Pos1, Val1: what the rest of the list gave
        for pos, val, min_pos in reversed(pending):
            # betterof(Pos, Val, _, Val1, Pos, Val) :-
            #     min_to_move(Pos), Val > Val1, ! ; max_to_move(Pos), Val < Val1, !.
            if (val > good_val) if min_pos else (val < good_val):
                good_pos, good_val = pos, val
            # betterof(_, _, Pos1, Val1, Pos1, Val1): the later child stays
        return good_pos, good_val

    best, value = run(tree, alphabeta, tree.root_node, alpha, beta)
    return rec.result(best, value, traced=note is not None, once=True)
