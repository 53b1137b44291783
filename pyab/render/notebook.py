"""The one picture of a search, whatever the entry point: ``picture(tree,
result)``.  ``Result`` and ``Tree`` display themselves in Jupyter through
it: :func:`register_ipython` (called by ``import pyab`` when IPython is
running) tells IPython's SVG formatter how to draw them, so the model
modules know nothing of the renderers and a notebook and ``pyab draw``
draw the same thing.

A :class:`Picture` shows as SVG (``_repr_svg_``: the final state of the
search); ``.stepper()`` is the HTML stepper of ``pyab draw -o X.html`` in
an isolated frame (``_repr_html_``), ``.html()`` that page as text and
``.save(path)`` writes .svg, .png, .pdf, .html, .tex or .dot, all from
the one picture model (``pyab.render.model``).
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path
from typing import Any

from ..result import Result
from ..tree import Number, Tree

__all__ = ["Picture", "Stepper", "picture", "register_ipython"]


class Picture:
    """A tree, optionally with a search on it (a :class:`pyab.render.trace.Trace`).

    >>> import pyab
    >>> from pyab.render import picture
    >>> pic = picture(pyab.parse("a(b=1, c=2)"), engine="python")
    >>> pic._repr_svg_().startswith("<svg")
    True
    """

    def __init__(self, tree: Tree, trace: Any = None, **options: Any):
        self.tree, self.trace, self.options = tree, trace, options

    def _repr_svg_(self) -> str:
        from .svg import svg
        return svg(self.tree, self.trace, **self.options)

    def svg(self) -> str:
        return self._repr_svg_()

    def html(self, title: str = "", presentation: bool = False) -> str:
        """The self-contained stepper page (for a bare tree: the picture);
        ``presentation``: the lecture-hall page (``pyab.render.html``)."""
        from .html import page
        options = dict(self.options)
        if title:
            options["title"] = title
        if presentation and self.trace is not None:
            options["presentation"] = True
        return page(self.trace, tree=self.tree, **options)

    def stepper(self, presentation: bool = False) -> "Stepper":
        """The stepper, for Jupyter (shown in an isolated frame)."""
        return Stepper(self, presentation=presentation)

    def save(self, path: str | Path, dpi: int | None = None) -> Path:
        """Write the picture; the extension picks the format: .svg, .png,
        .pdf, .html, .tex (TikZ) or .dot, all drawn from one picture model."""
        from .output import save
        return save(self.tree, self.trace, path, dpi=dpi, **self.options)

    def __repr__(self) -> str:
        what = f"{self.trace.algorithm} in {self.trace.engine}" if self.trace else "no search"
        return f"<Picture of {self.tree.root!r} ({len(self.tree)} nodes), {what}>"


class Stepper:
    """The HTML stepper of a :class:`Picture` for Jupyter: the page in an
    ``<iframe srcdoc>``, so its script and ids stay apart from the
    notebook's and from other steppers in it."""

    def __init__(self, pic: Picture, height: int | None = None, presentation: bool = False):
        self.pic, self.presentation = pic, presentation
        rows = max(pic.tree.depth, default=0) + 1
        self.height = height or (1080 if presentation else 520 + min(600, 80 * rows))

    def _repr_html_(self) -> str:
        page = self.pic.html(presentation=self.presentation)
        return (f'<iframe srcdoc="{escape(page, quote=True)}" '
                f'style="width: 100%; height: {self.height}px; border: 1px solid #ddd" '
                f'sandbox="allow-scripts"></iframe>')


def picture(tree: Tree, result: Result | None = None, *, engine: str = "prolog",
            algorithm: str = "bratko", alpha: Number | None = None, beta: Number | None = None,
            depth: int | None = None, search: bool = True, **options: Any) -> Picture:
    """The picture of ``tree`` searched: with a ``result``, that search
    (its steps from the mirror, checked against it; see
    ``pyab.render.trace.explain``); without, a new search (``engine``,
    ``algorithm``, window, ``depth``); with ``search=False`` the bare tree.
    ``options`` go to the picture model (``pyab.render.model.model``):
    ``windows="final"``, ``font=18``, ``title=...``, ``caption=False``, ...

    :raises TypeError: when ``tree`` is not a Tree or ``result`` not a Result.
    """
    from ..api import expect_tree
    from ..result import expect_result
    expect_tree(tree, "pyab.render.picture")
    if not search:
        return Picture(tree, **options)
    from .trace import explain, trace
    if result is not None:
        expect_result(result, "pyab.render.picture")
        a = result.window[0] if alpha is None else alpha
        b = result.window[1] if beta is None else beta
        d = result.depth if depth is None else depth
        return Picture(tree, explain(tree, result, a, b, d), **options)
    a = -math.inf if alpha is None else alpha
    b = math.inf if beta is None else beta
    return Picture(tree, trace(tree, engine, algorithm, a, b, depth=depth), **options)


def _result_svg(result: Result) -> str | None:
    """A result of ``pyab.solve`` drawn on the tree it searched (None, and
    IPython's plain repr, when that tree is gone or unknown)."""
    tree = result.searched_tree()
    return None if tree is None else picture(tree, result)._repr_svg_()


def register_ipython() -> bool:
    """Have a running IPython (Jupyter) show every :class:`Tree` and
    :class:`Result` as its picture; False when there is no IPython shell."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    svg = shell.display_formatter.formatters["image/svg+xml"]
    svg.for_type(Tree, lambda tree: picture(tree, search=False)._repr_svg_())
    svg.for_type(Result, _result_svg)
    return True
