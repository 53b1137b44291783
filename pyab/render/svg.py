"""The tree as SVG: MAX nodes as upward triangles, MIN nodes as downward
ones (as in AIMA's figures), a value inside, the window below, cut-off
subtrees greyed, cut edges dashed and labelled, the chosen line bold.

The same markup serves the notebook picture (the final state filled in
here) and the HTML stepper (its script fills the state in step by step).
Every node is a ``<g data-node="NAME">``; edges carry ``data-edge`` and
never ``data-node``.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..result import bound_text
from ..trace import Trace, _num
from ..tree import Tree
from .layout import layout

__all__ = ["STYLE", "svg"]

DX, DY, R, MARGIN = 46, 78, 15, 30

STYLE = """
.pyab-tree { font-family: sans-serif; }
.pyab-tree .edge { stroke: #777; stroke-width: 1.2; }
.pyab-tree .edge.searched { stroke: #333; }
.pyab-tree .edge.cut { stroke: #c33; stroke-dasharray: 5 4; }
.pyab-tree .edge.best { stroke: #1a6; stroke-width: 4; }
.pyab-tree .cutlabel { font-size: 10px; fill: #c33; visibility: hidden; text-anchor: end; }
.pyab-tree .cutlabel.shown { visibility: visible; }
.pyab-tree .shape { fill: #fff; stroke: #555; stroke-width: 1.5; }
.pyab-tree .visited .shape { fill: #e8f0ff; stroke: #25a; }
.pyab-tree .current .shape { fill: #ffd84d; stroke: #a60; stroke-width: 3; }
.pyab-tree .open .shape { stroke: #a60; stroke-width: 2.5; }
.pyab-tree .best .shape { stroke: #1a6; stroke-width: 3.5; }
.pyab-tree .pruned, .pyab-tree .cutoff { opacity: 0.3; }
.pyab-tree .pruned .shape { stroke: #c33; stroke-dasharray: 3 2; }
.pyab-tree .horizon { opacity: 0.45; }
.pyab-tree .horizon .shape { stroke: #888; stroke-dasharray: 1 3; }
.pyab-tree .edge.horizon { stroke: #999; stroke-dasharray: 1 3; }
.pyab-tree .bound { font-size: 11px; fill: #333; }
.pyab-tree .value { font-size: 11px; font-weight: bold; text-anchor: middle; }
.pyab-tree .name { font-size: 11px; fill: #333; }
.pyab-tree .window { font-size: 9px; fill: #25a; text-anchor: end; }
.pyab-tree .window.below { text-anchor: middle; }
.pyab-tree .window.closed { fill: #777; }
"""


def _shape(is_max: bool) -> str:
    if is_max:
        return f'<polygon class="shape" points="0,{-R - 2} {R + 3},{R - 3} {-R - 3},{R - 3}"/>'
    return f'<polygon class="shape" points="0,{R + 2} {R + 3},{-R + 3} {-R - 3},{-R + 3}"/>'


def _window(w: tuple[Any, Any] | None) -> str:
    return "" if w is None else f"[{_num(w[0])}, {_num(w[1])}]"


def svg(tree: Tree, trace: Trace | None = None, *, final: bool = True, element_id: str = "") -> str:
    """SVG text for ``tree``.  With ``final`` (the default) and a ``trace``,
    nodes and edges carry the search's end state: values, windows, the
    classes ``visited``, ``pruned`` (a cut-off subtree's root), ``cutoff``
    (below one), ``horizon`` (left out by the depth limit, not cut) and
    ``best``, and a line saying whether the root's value is exact or a
    bound; without, the bare tree."""
    pos = layout(tree)
    width = max(x for x, _ in pos) * DX + 2 * MARGIN + 40
    height = max(d for _, d in pos) * DY + 2 * MARGIN + 32
    said = bound_text(trace.result) if final and trace is not None else ""
    if said:
        height += 16

    def xy(i: int) -> tuple[float, float]:
        x, d = pos[i]
        return MARGIN + 20 + x * DX, MARGIN + d * DY

    values: dict[str, Any] = {}
    windows: dict[str, Any] = {}
    cuts: dict[str, Any] = {}
    visited: set[str] = set()
    best: set[str] = set()
    cutoff: set[str] = set()
    horizon: set[str] = set()
    if final and trace is not None:
        horizon = set(trace.result.horizon)
        values, windows, cuts = trace.values(), trace.windows(), trace.cuts()
        visited = set(trace.result.visited)
        best = set(trace.best_line())
        stack = [tree.index[c] for c in cuts]
        while stack:
            i = stack.pop()
            for k in tree.kids[i]:
                cutoff.add(tree.names[k])
                stack.append(k)
    elif trace is None:
        values = {n: v for n, v in zip(tree.names, tree.values) if v is not None}

    def wpos(i: int) -> str:
        # Leaves: under the node, every other one a line lower so that
        # neighbours' windows do not overlap; inner nodes: left of the node
        # (their edges go below).
        if tree.kids[i]:
            return f'x="-{R + 6}" y="4"'
        return f'y="{R + 13 + (11 if int(pos[i][0]) % 2 else 0)}"'

    ident = f' id="{escape(element_id)}"' if element_id else ""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg"{ident} class="pyab-tree" '
           f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
           f"<style>{STYLE}</style>", '<g class="edges">']
    for i, ks in enumerate(tree.kids):
        x1, y1 = xy(i)
        for k in ks:
            x2, y2 = xy(k)
            child = tree.names[k]
            cls = ["edge"]
            if child in visited:
                cls.append("searched")
            if child in cuts:
                cls.append("cut")
            if child in horizon:
                cls.append("horizon")
            if child in best and tree.names[i] in best:
                cls.append("best")
            key = escape(f"{tree.names[i]}\t{child}", quote=True)
            out.append(f'<line class="{" ".join(cls)}" data-edge="{key}" '
                       f'x1="{x1:.1f}" y1="{y1 + R:.1f}" x2="{x2:.1f}" y2="{y2 - R:.1f}"/>')
            label = {"alpha": "\u03b1-cut", "beta": "\u03b2-cut"}.get(cuts.get(child) or "", "cut")
            shown = " shown" if child in cuts else ""
            out.append(f'<text class="cutlabel{shown}" data-cut-for="{escape(child, quote=True)}" '
                       f'x="{x1 + 0.7 * (x2 - x1) - 3:.1f}" y="{y1 + 0.7 * (y2 - y1):.1f}">{label}</text>')
    out.append("</g><g class=\"nodes\">")
    for i, name in enumerate(tree.names):
        x, y = xy(i)
        is_max = tree.is_max_id(i)
        cls = ["node", "max" if is_max else "min"]
        if name in visited:
            cls.append("visited")
        if name in cuts:
            cls.append("pruned")
        if name in cutoff:
            cls.append("cutoff")
        if name in horizon:
            cls.append("horizon")
        if name in best:
            cls.append("best")
        value = _num(values.get(name)) if name in values else ""
        side = "MAX" if is_max else "MIN"
        out.append(
            f'<g class="{" ".join(cls)}" data-node="{escape(name, quote=True)}" '
            f'transform="translate({x:.1f},{y:.1f})"><title>{escape(name)} ({side})</title>'
            f"{_shape(is_max)}"
            f'<text class="value" y="{4 if is_max else 0}">{escape(value)}</text>'
            f'<text class="name" x="{R + 4}" y="-{R - 2}">{escape(name)}</text>'
            f'<text class="window{"" if tree.kids[i] else " below"}" {wpos(i)}>'
            f'{escape(_window(windows.get(name)))}</text></g>')
    out.append("</g>")
    if said:
        out.append(f'<text class="bound" x="{MARGIN}" y="{height - 6:.0f}">{escape(said)}</text>')
    out.append("</svg>")
    return "\n".join(out)
