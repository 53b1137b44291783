"""The arguments of one search, checked in one place for the API
(:func:`pyab.solve`, :func:`pyab.render.trace.trace`) and so for every command.

>>> check_search(None, "bratko", 5, 3)
Traceback (most recent call last):
...
pyab.arguments.SearchArgumentError: inverted window: alpha 5 is above beta 3 (alpha must be at most beta)
"""

from __future__ import annotations

import math
from typing import Any

from .errors import Error
from .prolog.facts import number

__all__ = ["SearchArgumentError", "check_search"]


class SearchArgumentError(Error, ValueError):
    """A search asked for with arguments it cannot honour (exit code 2)."""


def _text(x: Any) -> str:
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return number(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else repr(x)


def check_search(tree: Any, algorithm: str, alpha: Any, beta: Any, *,
                 depth: Any = None, timeout: Any = None) -> None:
    """Refuse what would make a search meaningless or silently wrong.

    :raises SearchArgumentError: for a bound that is not a number (or is
        NaN), an inverted window (alpha above beta), a depth that is not a
        whole number of at least 0, a depth limit for an algorithm without
        one, a timeout of 0 or less, and a tree whose sides do not
        alternate for an algorithm that infers them.
    :raises ValueError: for an unknown algorithm.
    """
    from .search import algorithm as find
    alg = find(algorithm)
    for label, b in (("alpha", alpha), ("beta", beta)):
        if isinstance(b, bool) or not isinstance(b, (int, float)):
            raise SearchArgumentError(f"{label} must be a number or -inf/inf, not {b!r}")
        if math.isnan(b):
            raise SearchArgumentError(f"{label} cannot be NaN")
    if alpha > beta:
        raise SearchArgumentError(f"inverted window: alpha {_text(alpha)} is above beta "
                                  f"{_text(beta)} (alpha must be at most beta)")
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise SearchArgumentError(f"depth must be a whole number of plies, not {depth!r}")
        if depth < 0:
            raise SearchArgumentError(f"depth must be 0 or more plies, not {depth} "
                                      "(leave it out to search to the leaves)")
        if not alg.depth_limit:
            raise SearchArgumentError(
                f"{algorithm} has no depth limit (the slides' program searches to the leaves); "
                "--depth works with the other algorithms")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or math.isnan(timeout):
            raise SearchArgumentError(f"timeout must be a number of seconds, not {timeout!r}")
        if timeout <= 0:
            raise SearchArgumentError(f"timeout must be more than 0 seconds, not {_text(timeout)} "
                                      "(leave it out for no limit)")
    if tree is not None and not alg.any_sides and not getattr(tree, "alternating", True):
        node = tree.repeated_side()
        side = tree.side(node).upper()
        why = ("the slides' program infers the side to move from the child it has just "
               "searched (goodenough/7, newbounds/6 and betterof/6 ask min_to_move/1 of it), "
               "so it needs sides that alternate"
               if algorithm == "bratko" else
               f"{algorithm} assumes sides that alternate level by level")
        raise SearchArgumentError(
            f"{algorithm} cannot search this tree: {node!r} has {side} to move like its parent "
            f"{tree.parent(node)!r}, and {why}; use --algorithm strict-cut, which asks every "
            "node who moves")
