"""The Python mirrors of the Chess Programming Wiki's alpha-beta routines
(``prolog/cpw.pl``): ``cpw-minmax`` (alphaBetaMax/alphaBetaMin), ``cpw-negamax``
(negamax, fail-hard) and ``cpw-failsoft`` (negamax, fail-soft).

As in the Prolog file:

* cut-offs are non-strict (``score >= beta``; ``score <= alpha`` in
  alphaBetaMin); fail-hard returns the bound, fail-soft the score;
* the best move is the one that raised alpha (lowered beta) last or caused
  the cut-off; fail-hard leaves it None when no move beat the bound;
* ``depthleft == 0`` reads the static value without asking for moves; a leaf
  above the horizon is scored by its static value too;
* negamax scores are from the side to move's point of view; the entry
  functions take the window and report the value from MAX's.

Each search records on its own what it asks for and reads.
"""

from __future__ import annotations

import math
from typing import Callable

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = ["search_failsoft", "search_minmax", "search_negamax"]


def _deeper(depthleft):
    return None if depthleft is None else depthleft - 1


def search_minmax(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
                  depth: int | None = None, **_: object) -> Result:
    """alphaBetaMax (or alphaBetaMin when MIN is to move) from the root."""
    moves, is_max = tree.kids_of, tree.is_max
    rec = Recorder(tree, "cpw-minmax")

    def alpha_beta_max(pos, alpha, beta, depthleft):
        if depthleft == 0:
            return None, rec.read(pos)  # return evaluate()
        rec.visit(pos)
        all_moves = moves(pos)
        if not all_moves:
            return None, rec.read(pos)
        best = None
        for move in all_moves:
            _, score = alpha_beta_min(move, alpha, beta, _deeper(depthleft))
            if score >= beta:
                return move, beta  # fail hard beta-cutoff
            if score > alpha:
                alpha, best = score, move  # alpha acts like max in MiniMax
        return best, alpha

    def alpha_beta_min(pos, alpha, beta, depthleft):
        if depthleft == 0:
            return None, rec.read(pos)  # MAX's point of view: see the module docs
        rec.visit(pos)
        all_moves = moves(pos)
        if not all_moves:
            return None, rec.read(pos)
        best = None
        for move in all_moves:
            _, score = alpha_beta_max(move, alpha, beta, _deeper(depthleft))
            if score <= alpha:
                return move, alpha  # fail hard alpha-cutoff
            if score < beta:
                beta, best = score, move  # beta acts like min in MiniMax
        return best, beta

    root = tree.root_node
    first = alpha_beta_max if is_max(root) else alpha_beta_min
    best, value = run(tree, first, root, alpha, beta, depth)
    return rec.result(best, value)


def _negamax(tree: Tree, name: str, routine: Callable, alpha: Number, beta: Number,
             depth: int | None) -> Result:
    """Run a negamax ``routine(rec, pos, alpha, beta, depthleft)`` from the root,
    with the window and the value from MAX's point of view."""
    rec = Recorder(tree, name)
    root = tree.root_node
    if tree.is_max(root):
        best, value = run(tree, routine, tree, rec, root, alpha, beta, depth)
    else:
        best, score = run(tree, routine, tree, rec, root, -beta, -alpha, depth)
        value = -score
    return rec.result(best, value)


def _side_score(tree: Tree, pos, value: Number) -> Number:
    return value if tree.is_max(pos) else -value


def _alpha_beta(tree, rec, pos, alpha, beta, depthleft):
    """The negamax alphaBeta, fail-hard."""
    if depthleft == 0:
        return None, _side_score(tree, pos, rec.read(pos))  # quiesce(alpha, beta)
    rec.visit(pos)
    all_moves = tree.kids_of(pos)
    if not all_moves:
        return None, _side_score(tree, pos, rec.read(pos))
    best = None
    for move in all_moves:
        _, score = _alpha_beta(tree, rec, move, -beta, -alpha, _deeper(depthleft))
        score = -score
        if score >= beta:
            return move, beta  # fail hard beta-cutoff
        if score > alpha:
            alpha, best = score, move
    return best, alpha


def _alpha_beta_fail_soft(tree, rec, pos, alpha, beta, depthleft):
    """The negamax alphaBeta, fail-soft."""
    if depthleft == 0:
        return None, _side_score(tree, pos, rec.read(pos))
    rec.visit(pos)
    all_moves = tree.kids_of(pos)
    if not all_moves:
        return None, _side_score(tree, pos, rec.read(pos))
    bestscore, best = -math.inf, None
    for move in all_moves:
        _, score = _alpha_beta_fail_soft(tree, rec, move, -beta, -alpha, _deeper(depthleft))
        score = -score
        if score >= beta:
            return move, score  # fail-soft beta-cutoff
        if score > bestscore:
            bestscore, best = score, move
            if score > alpha:
                alpha = score
    return best, bestscore


def search_negamax(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
                   depth: int | None = None, **_: object) -> Result:
    """The fail-hard negamax alphaBeta from the root."""
    return _negamax(tree, "cpw-negamax", _alpha_beta, alpha, beta, depth)


def search_failsoft(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
                    depth: int | None = None, **_: object) -> Result:
    """The fail-soft negamax alphaBeta from the root."""
    return _negamax(tree, "cpw-failsoft", _alpha_beta_fail_soft, alpha, beta, depth)
