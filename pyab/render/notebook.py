"""SVG for Jupyter: ``_repr_svg_`` on a small adapter object."""

from __future__ import annotations

import math
from typing import Any

from ..result import Result
from ..tree import Number, Tree

__all__ = ["Picture", "picture"]


class Picture:
    """A tree, optionally with a search on it, that Jupyter shows as SVG.

    >>> import pyab
    >>> from pyab.render import picture
    >>> pic = picture(pyab.parse("a(b=1, c=2)"), engine="python")
    >>> pic._repr_svg_().startswith("<svg")
    True
    """

    def __init__(self, tree: Tree, trace: Any = None):
        self.tree, self.trace = tree, trace

    def _repr_svg_(self) -> str:
        from .svg import svg
        return svg(self.tree, self.trace)

    def __repr__(self) -> str:
        what = f"{self.trace.algorithm} in {self.trace.engine}" if self.trace else "no search"
        return f"<Picture of {self.tree.root!r} ({len(self.tree)} nodes), {what}>"


def picture(tree: Tree, result: Result | None = None, *, engine: str = "prolog",
            algorithm: str = "bratko", alpha: Number = -math.inf,
            beta: Number = math.inf, search: bool = True) -> Picture:
    """A :class:`Picture` of ``tree`` searched (bratko step by step; other
    algorithms rebuilt).  Given a ``result``, draw that one instead of
    searching again (its trace is rebuilt from the result); with
    ``search=False``, the bare tree."""
    from ..trace import reconstruct, trace
    if not search:
        return Picture(tree)
    if result is not None:
        return Picture(tree, reconstruct(tree, result, alpha, beta))
    return Picture(tree, trace(tree, engine, algorithm, alpha, beta))
