"""The Python mirror of ``prolog/lastmax.pl``: exhaustive minimax in which
a later child wins a tie.  The example of docs/adding-an-algorithm.md."""

from __future__ import annotations

import math
from typing import Any

from ..result import Result
from ..tree import Number
from .common import Recorder

__all__ = ["search"]


def search(tree: Any, alpha: Number = -math.inf, beta: Number = math.inf, *,
           depth: int | None = None, **_: object) -> Result:
    """lastmax(Root, Best, Val); the window is accepted and ignored."""
    rec = Recorder(tree, "lastmax")

    def f(pos):
        rec.visit(pos)  # moves(Pos, Ps)
        kids = tree.kids_of(pos)
        if not kids:
            return None, rec.read(pos)  # staticval(Pos, Val)
        best, val = None, None
        for p in kids:
            _, v = f(p)
            if best is None or (v >= val if tree.is_max(pos) else v <= val):
                best, val = p, v
        return best, val

    best, value = f(tree.root_node)
    return rec.result(best, value)
