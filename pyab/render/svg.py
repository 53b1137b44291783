"""The picture model (:mod:`pyab.render.model`) written as SVG.

The same markup serves the notebook picture, PNG and PDF (this SVG,
rasterised by librsvg's ``rsvg-convert``), slides' frames and the HTML
stepper (its script fills the state in step by step).  Every node is a
``<g data-node="NAME">`` with its ``.shape``, ``.value``, ``.name`` and
``.window``; edges carry ``data-edge`` and never ``data-node``; a cut's
label carries ``data-cut-for``.  Labels never sit on an edge; they are
drawn with a thin white halo (``paint-order: stroke``) only so that they
stay legible over the faded part of a tree.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .trace import Trace
from ..tree import Tree
from .model import Model, model

__all__ = ["STYLE", "svg", "write"]


def style(f: float) -> str:
    """The stylesheet for font size ``f`` (pixels): one size for every
    label, so no text is smaller than ``f``."""
    return f"""
.pyab-tree {{ font-family: 'Liberation Sans', Arial, Helvetica, sans-serif; font-size: {f:g}px; }}
.pyab-tree .edge {{ stroke: #666; stroke-width: {0.11 * f:.2f}; fill: none; }}
.pyab-tree .edge.searched {{ stroke: #222; }}
.pyab-tree .edge.cut {{ stroke: #b00; stroke-dasharray: {0.45 * f:.1f} {0.35 * f:.1f}; }}
.pyab-tree .edge.best {{ stroke: #07603a; stroke-width: {0.36 * f:.1f}; }}
.pyab-tree text {{ paint-order: stroke; stroke: #fff; stroke-width: {0.18 * f:.1f}px; stroke-linejoin: round;
  fill: #111; }}
.pyab-tree .cutlabel {{ fill: #b00; font-weight: bold; visibility: hidden; }}
.pyab-tree .cutlabel.shown {{ visibility: visible; }}
.pyab-tree .shape {{ fill: #fff; stroke: #333; stroke-width: {0.13 * f:.2f}; }}
.pyab-tree .visited .shape {{ fill: #dbe8ff; stroke: #1a3f8f; }}
.pyab-tree .current .shape {{ fill: #ffd200; stroke: #000; stroke-width: {0.25 * f:.1f}; }}
.pyab-tree .open .shape {{ stroke: #a04000; stroke-width: {0.22 * f:.1f}; }}
.pyab-tree .best .shape {{ stroke: #07603a; stroke-width: {0.3 * f:.1f}; }}
.pyab-tree .pruned .shape, .pyab-tree .cutoff .shape {{ stroke-opacity: 0.35; fill-opacity: 0.35; }}
.pyab-tree .pruned text, .pyab-tree .cutoff text {{ fill: #8c8c8c; }}
.pyab-tree .pruned .shape {{ stroke: #b00; stroke-dasharray: {0.3 * f:.1f} {0.2 * f:.1f}; }}
.pyab-tree .value {{ font-weight: bold; text-anchor: middle; stroke: none; }}
.pyab-tree .name {{ fill: #111; }}
.pyab-tree .window {{ fill: #0b3d91; }}
.pyab-tree .window.live {{ font-weight: bold; }}
.pyab-tree .horizon .shape {{ stroke-opacity: 0.5; }}
.pyab-tree .horizon text {{ fill: #777; }}
.pyab-tree .horizon .shape {{ stroke: #666; stroke-dasharray: {0.1 * f:.1f} {0.3 * f:.1f}; }}
.pyab-tree .edge.horizon {{ stroke: #888; stroke-dasharray: {0.1 * f:.1f} {0.3 * f:.1f}; }}
.pyab-tree .caption, .pyab-tree .legend text {{ stroke: none; }}
.pyab-tree .title {{ font-size: {1.4 * f:g}px; font-weight: bold; stroke: none; }}
.pyab-tree .guess .shape {{ fill: #f7c6e0; stroke: #80004a; stroke-width: {0.25 * f:.1f}; }}
.pyab-tree .quiz-right .shape {{ fill: #b8ecb8; stroke: #0a5a0a; stroke-width: {0.25 * f:.1f}; }}
.pyab-tree .quiz-wrong .shape {{ fill: #ffb3b3; stroke: #7a0000; stroke-width: {0.25 * f:.1f};
  stroke-dasharray: {0.2 * f:.1f} {0.15 * f:.1f}; }}
.pyab-tree .quiz-missed .shape {{ stroke: #6a0080; stroke-width: {0.3 * f:.1f};
  stroke-dasharray: {0.1 * f:.1f} {0.2 * f:.1f}; }}
.pyab-tree .mark {{ font-weight: bold; stroke: none; }}
.pyab-tree .quiz-right .shape, .pyab-tree .quiz-missed .shape, .pyab-tree .quiz-wrong .shape {{
  stroke-opacity: 1; fill-opacity: 1; }}
.pyab-tree [data-node]:focus {{ outline: none; }}
.pyab-tree [data-node]:focus .shape {{ stroke: #000; stroke-width: {0.3 * f:.1f}; }}
"""


STYLE = style(12)


def _points(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def write(m: Model, element_id: str = "") -> str:
    """SVG text for a picture model."""
    f = m.font
    ident = f' id="{escape(element_id)}"' if element_id else ""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg"{ident} class="pyab-tree" '
           f'width="{m.width:.0f}" height="{m.height:.0f}" viewBox="0 0 {m.width:.0f} {m.height:.0f}">',
           f"<style>{style(f)}</style>", f'<rect width="{m.width:.0f}" height="{m.height:.0f}" fill="#fff"/>']
    if m.title:
        out.append(f'<text class="title" x="{1.2 * f:.1f}" y="{1.2 * f + 1.1 * f:.1f}">{escape(m.title)}</text>')
    out.append('<g class="edges">')
    for e in m.edges:
        key = escape(f"{e.parent}\t{e.child}", quote=True)
        out.append(f'<line class="{" ".join(e.classes)}" data-edge="{key}" '
                   f'x1="{e.x1:.1f}" y1="{e.y1:.1f}" x2="{e.x2:.1f}" y2="{e.y2:.1f}"/>')
    out.append('</g><g class="nodes">')
    line = m.line
    for n in m.nodes:
        dx, dy, anchor = m.name_at(n)
        side = "MAX" if n.is_max else "MIN"
        out.append(
            f'<g class="{" ".join(n.classes)}" data-node="{escape(n.name, quote=True)}" '
            f'transform="translate({n.x:.1f},{n.y:.1f})"><title>{escape(n.name)} ({side})</title>'
            f'<polygon class="shape" points="{_points(m.triangle(n.is_max, m.size(n)))}"/>'
            f'<text class="value" y="{m.value_y(n):.1f}">{escape(n.value)}</text>'
            + ("" if m.compact and n.leaf else
               f'<text class="name" x="{dx:.1f}" y="{dy:.1f}" text-anchor="{anchor}">{escape(n.name)}</text>'
               f'<text class="window" x="{dx:.1f}" y="{dy + line:.1f}" text-anchor="{anchor}">'
               f'{escape(n.window)}</text>') + '</g>')
    out.append('</g><g class="cutlabels">')
    for e in m.edges:
        shown = " shown" if e.cut_shown else ""
        out.append(f'<text class="cutlabel{shown}" data-cut-for="{escape(e.child, quote=True)}" '
                   f'x="{e.lx:.1f}" y="{e.ly:.1f}" text-anchor="{e.anchor}">{e.cut}</text>')
    out.append("</g>")
    if m.legend:
        out.append('<g class="legend">')
        for kind, text, x, y in m.legend:
            out.append(legend_mark(m, kind, x, y))
            out.append(f'<text x="{x + 2.2 * f:.1f}" y="{y + 0.35 * f:.1f}">{escape(text)}</text>')
        out.append("</g>")
    if m.caption:
        out.append(f'<text class="caption" x="{1.2 * f:.1f}" y="{m.height - 1.0 * f:.1f}">'
                   f"{escape(m.caption)}</text>")
    out.append("</svg>")
    return "\n".join(out)


# the shapes of the stylesheet's node states, for the legend
_MARKS = {
    "visited": lambda f: f"fill:#dbe8ff;stroke:#1a3f8f;stroke-width:{0.13 * f:.2f}",
    "current": lambda f: f"fill:#ffd200;stroke:#000;stroke-width:{0.25 * f:.1f}",
    "open": lambda f: f"fill:#fff;stroke:#a04000;stroke-width:{0.22 * f:.1f}",
    "guess": lambda f: f"fill:#f7c6e0;stroke:#80004a;stroke-width:{0.25 * f:.1f}",
    "quiz-right": lambda f: f"fill:#b8ecb8;stroke:#0a5a0a;stroke-width:{0.25 * f:.1f}",
    "quiz-wrong": lambda f: (f"fill:#ffb3b3;stroke:#7a0000;stroke-width:{0.25 * f:.1f};"
                             f"stroke-dasharray:{0.2 * f:.1f} {0.15 * f:.1f}"),
    "quiz-missed": lambda f: (f"fill:#fff;stroke:#6a0080;stroke-width:{0.3 * f:.1f};"
                              f"stroke-dasharray:{0.1 * f:.1f} {0.2 * f:.1f}"),
    "horizon": lambda f: (f"fill:#fff;stroke:#666;stroke-dasharray:{0.1 * f:.1f} {0.3 * f:.1f};"
                          f"stroke-width:{0.13 * f:.2f}"),
}


def legend_mark(m: Model, kind: str, x: float, y: float) -> str:
    """The SVG mark of a legend item ``kind`` at (x, y), as the picture draws it."""
    f = m.font
    cx = x + 0.8 * f
    small = [(cx + px * 0.55, y + py * 0.55) for px, py in m.triangle(kind != "min")]
    if kind in ("max", "min"):
        return (f'<polygon class="shape" style="fill:#fff;stroke:#333;stroke-width:{0.13 * f:.2f}" '
                f'points="{_points(small)}"/>')
    if kind == "compact":
        tiny = [(cx + px * 0.25, y - 0.3 * f + py * 0.25) for px, py in m.triangle(True)]
        return (f'<polygon points="{_points(tiny)}" style="fill:#fff;stroke:#333;stroke-width:{0.1 * f:.2f}"/>'
                f'<text x="{cx:.1f}" y="{y + 0.75 * f:.1f}" text-anchor="middle" '
                f'style="font-weight:bold">3</text>')
    if kind == "labels":
        return f'<text x="{cx:.1f}" y="{y + 0.35 * f:.1f}" text-anchor="middle" style="font-weight:bold">3</text>'
    if kind == "best":
        return (f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 1.7 * f:.1f}" y2="{y:.1f}" '
                f'style="stroke:#07603a;stroke-width:{0.36 * f:.1f}"/>')
    if kind == "cut":
        return (f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 1.7 * f:.1f}" y2="{y:.1f}" '
                f'style="stroke:#b00;stroke-width:{0.11 * f:.2f};stroke-dasharray:{0.45 * f:.1f} {0.35 * f:.1f}"/>')
    if kind in _MARKS:
        return f'<polygon points="{_points(small)}" style="{_MARKS[kind](f)}"/>'
    return (f'<polygon points="{_points(small)}" '
            f'style="fill:#fff;stroke:#333;stroke-width:{0.13 * f:.2f};opacity:0.35"/>')


def svg(tree: Tree, trace: Trace | None = None, *, final: bool = True, element_id: str = "",
        **options: Any) -> str:
    """SVG text for ``tree`` (and ``trace``'s search): see
    :func:`pyab.render.model.model` for ``final`` and the ``options``
    (``windows``, ``font``, ``max_width``, ``title``, ``caption``,
    ``legend``)."""
    return write(model(tree, trace, final=final, **options), element_id=element_id)
