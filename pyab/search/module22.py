"""The Python mirror of "AI Module 22"'s threshold-swapping negamax
(``prolog/module22.pl``; Rich & Knight's MINIMAX-A-B).

``minimax_a_b(state, current_depth, current, next)`` returns ``(path, value)``
with the value from the side to move's point of view.  Each child is searched
with the thresholds swapped and negated; a child better than ``next`` (by
more than the futility margin) becomes the path and the new ``next``; the
cut-off comes when it reaches ``current`` (see the Prolog file on the
module's inverted printed test), or comes within the margin of it.  The
starting thresholds are the tree's largest and smallest static values,
unless a finite window bound replaces them.

It records on its own what it asks for and reads; the extreme values are
computed here from the tree, not taken from Prolog.
"""

from __future__ import annotations

import math

from ..result import Result
from ..tree import Number, Tree
from .common import Recorder
from .trampoline import run

__all__ = ["search", "search_path", "value_range"]


def value_range(tree: Tree) -> tuple[Number, Number]:
    """The smallest and largest static value of ``tree`` (the first of equal
    numbers wins, in tree order, as with the Prolog clauses).  A tree given
    by rules (``pyab.trees``) stores no values, like its Prolog side has no
    staticval/2 facts: then (-inf, inf).  Not a search: nothing is recorded."""
    values = [v for v in getattr(tree, "values", ()) if v is not None]
    if not values:
        return -math.inf, math.inf
    lo = hi = values[0]
    for v in values[1:]:
        lo = v if v < lo else lo
        hi = v if v > hi else hi
    return lo, hi


def search_path(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
                depth: int | None = None, margin: Number = 0) -> tuple[Result, list[str]]:
    """The search and its path (names, from the root's child down)."""
    moves, is_max = tree.kids_of, tree.is_max
    rec = Recorder(tree, "module22")

    def over(current_depth):
        return depth is not None and current_depth >= depth

    def sef(state):
        value = rec.read(state)
        return value if is_max(state) else -value

    def minimax_a_b(state, current_depth, current, next_):
        if over(current_depth):  # 1. Over
            return [], sef(state)
        rec.visit(state)
        children = moves(state)  # 2. PMG
        if not children:  # 3. no children
            return [], sef(state)
        path: list = []
        for child in children:  # 4.
            child_path, child_value = minimax_a_b(child, current_depth + 1, -next_, -current)
            child_sef = -child_value
            if child_sef > next_ + margin:
                next_, path = child_sef, [child, *child_path]
                if child_sef >= current - margin:  # cut-off
                    return path, next_
        return path, next_  # 5.

    lo, hi = value_range(tree)
    smallest = lo if math.isinf(alpha) else alpha
    largest = hi if math.isinf(beta) else beta
    root = tree.root_node
    if is_max(root):
        path, value = run(tree, minimax_a_b, root, 0, largest, smallest)
    else:
        path, score = run(tree, minimax_a_b, root, 0, -smallest, -largest)
        value = -score
    result = rec.result(path[0] if path else None, value)
    return result, [tree.name_of(n) for n in path]


def search(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
           depth: int | None = None, margin: Number = 0, **_: object) -> Result:
    """Minimax(root, 0, player, largest value, smallest value); ``best`` is
    the first step of the path (None when the path is NULL)."""
    return search_path(tree, alpha, beta, depth=depth, margin=margin)[0]
