"""Write a picture to a file: one function for ``Picture.save`` and
``pyab draw``, the format from the extension.  Every format is drawn from
the same picture model (``pyab.render.model``): .svg as is, .png and .pdf
that SVG rasterised (``pyab.render.raster``), .html the stepper around it
(or, for a bare tree, the picture alone), .tex as TikZ, .dot for Graphviz.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .trace import Trace
from ..tree import Tree

__all__ = ["FORMATS", "render", "save"]

FORMATS = ("svg", "png", "pdf", "html", "tex", "dot")


def render(tree: Tree, trace: Trace | None, fmt: str, **options: Any) -> str:
    """The text of a picture in ``fmt`` (not png/pdf): see ``model`` for the options."""
    from .model import model
    if fmt == "html":
        from .html import page
        return page(trace, tree=tree, **options)
    m = model(tree, trace, **options)
    if fmt == "svg":
        from .svg import write
        return write(m)
    if fmt == "tex":
        from .tikz import write as tikz
        return tikz(m)
    if fmt == "dot":
        from .dot import write as dot
        return dot(m)
    raise ValueError(f"cannot tell the format {fmt!r} (use one of {', '.join(FORMATS)})")


def save(tree: Tree, trace: Trace | None, path: str | Path, fmt: str | None = None,
         dpi: int | None = None, **options: Any) -> Path:
    """Write the picture of ``tree`` (and ``trace``) to ``path``."""
    out = Path(path)
    fmt = (fmt or out.suffix.lower().lstrip(".")).lower()
    if fmt not in FORMATS:
        raise ValueError(f"{out}: cannot tell the format (use .svg, .png, .pdf, .html, .tex or .dot)")
    if dpi is not None and fmt != "png":
        raise ValueError(f"dpi sets the resolution of a PNG, not of {fmt}")
    if fmt in ("png", "pdf"):
        from .model import model
        from .raster import convert
        from .svg import write
        convert(write(model(tree, trace, **options)), out, fmt, dpi=dpi)
    else:
        out.write_text(render(tree, trace, fmt, **options), encoding="utf-8")
    return out
