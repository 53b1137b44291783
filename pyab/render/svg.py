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

from ..result import value_words
from .trace import Trace, _num
from ..tree import Tree
from .layout import layout

__all__ = ["STYLE", "svg"]

DY, R, MARGIN = 92, 15, 24
NAME_PX, WINDOW_PX, CUT_PX = 6.6, 5.6, 6.2  # width of one character (11, 9, 10 px fonts)

STYLE = """
.pyab-tree { font-family: sans-serif; }
.pyab-tree .edge { stroke: #777; stroke-width: 1.2; }
.pyab-tree .edge.searched { stroke: #333; }
.pyab-tree .edge.cut { stroke: #c33; stroke-dasharray: 5 4; }
.pyab-tree .edge.best { stroke: #1a6; stroke-width: 4; }
.pyab-tree text { paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
.pyab-tree .cutlabel { font-size: 10px; fill: #c33; visibility: hidden; text-anchor: middle; }
.pyab-tree .cutlabel.shown { visibility: visible; }
.pyab-tree .ground { fill: #fff; opacity: 0.9; }
.pyab-tree .shape { fill: #fff; stroke: #555; stroke-width: 1.5; }
.pyab-tree .visited .shape { fill: #e8f0ff; stroke: #25a; }
.pyab-tree .current .shape { fill: #ffd84d; stroke: #a60; stroke-width: 3; }
.pyab-tree .open .shape { stroke: #a60; stroke-width: 2.5; }
.pyab-tree .best .shape { stroke: #1a6; stroke-width: 3.5; }
.pyab-tree .pruned, .pyab-tree .cutoff { opacity: 0.3; }
.pyab-tree .pruned .shape { stroke: #c33; stroke-dasharray: 3 2; }
.pyab-tree .value { font-size: 11px; font-weight: bold; text-anchor: middle; stroke: none; }
.pyab-tree .name { font-size: 11px; fill: #333; text-anchor: middle; }
.pyab-tree .window { font-size: 9px; fill: #25a; text-anchor: middle; }
.pyab-tree .horizon { opacity: 0.45; }
.pyab-tree .horizon .shape { stroke: #888; stroke-dasharray: 1 3; }
.pyab-tree .edge.horizon { stroke: #999; stroke-dasharray: 1 3; }
.pyab-tree .bound { font-size: 11px; fill: #333; stroke: none; }
.pyab-tree .window.closed { fill: #777; }
.pyab-tree .guess .shape { fill: #f9c; stroke: #a04; stroke-width: 3; }
.pyab-tree .quiz-right .shape { fill: #7d7; stroke: #161; stroke-width: 3; }
.pyab-tree .quiz-wrong .shape { fill: #f66; stroke: #800; stroke-width: 3; }
.pyab-tree .quiz-missed .shape { stroke: #c0c; stroke-width: 4; stroke-dasharray: 2 2; }
.pyab-tree .pruned.quiz-right, .pyab-tree .pruned.quiz-missed { opacity: 0.9; }
.pyab-tree [data-node]:focus { outline: none; }
.pyab-tree [data-node]:focus .shape { stroke: #000; stroke-width: 3; }
"""

# Below a node: its name, then its window (both centred under it).
NAME_Y, WINDOW_Y = R + 13, R + 25
ROW = 24   # the second row of staggered leaf labels, this much lower
GAP = 8    # at least this much space between two labels side by side


def _shape(is_max: bool) -> str:
    if is_max:
        return f'<polygon class="shape" points="0,{-R - 2} {R + 3},{R - 3} {-R - 3},{R - 3}"/>'
    return f'<polygon class="shape" points="0,{R + 2} {R + 3},{-R + 3} {-R - 3},{-R + 3}"/>'


def _window(w: tuple[Any, Any] | None) -> str:
    return "" if w is None else f"[{_num(w[0])}, {_num(w[1])}]"


def _label_widths(tree: Tree, trace: Trace | None) -> list[float]:
    """How wide each node's labels get (name, the widest window it will
    show, the value inside), in pixels."""
    wide = [0] * len(tree)
    if trace is not None:
        index = tree.index
        for st in trace.steps:
            if st.kind == "call" and st.alpha is not None:
                i, w = index[st.node], len(_window((st.alpha, st.beta)))
            elif st.kind == "bounds":
                i, w = index[st.node], len(_window((st.new_alpha, st.new_beta)))
            else:
                continue
            wide[i] = max(wide[i], w)
    return [max(2 * R + 8, len(n) * NAME_PX, w * WINDOW_PX)
            for n, w in zip(tree.names, wide)]


def _spacing(pos, widths: list[float], rows: list[int]) -> float:
    """The smallest distance between leaf slots at which no two labels on
    one line of text touch (GAP pixels between them)."""
    lines: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for (x, d), w, r in zip(pos, widths, rows):
        lines.setdefault((d, r), []).append((x, w))
    dx = 2 * R + 16
    for items in lines.values():
        items.sort()
        for (xa, wa), (xb, wb) in zip(items, items[1:]):
            if xb > xa:
                dx = max(dx, ((wa + wb) / 2 + GAP) / (xb - xa))
    return dx


def placement(tree: Tree, trace: Trace | None = None) -> tuple[list[tuple[float, int]], float, list[int]]:
    """Leaf slots and depths (``layout``), the slot width, and for each
    node the label row: 1 for every other leaf when long leaf labels need
    two rows (staggered), else 0."""
    pos = layout(tree)
    widths = _label_widths(tree, trace)
    flat = [0] * len(tree)
    dx = _spacing(pos, widths, flat)
    stagger, k = [0] * len(tree), 0
    for i, ks in enumerate(tree.kids):
        if not ks:
            stagger[i], k = k % 2, k + 1
    dx2 = _spacing(pos, widths, stagger)
    if dx > 90 and dx2 < 0.8 * dx:  # only long names: short ones read better on one row
        return pos, dx2, stagger
    return pos, dx, flat


def svg(tree: Tree, trace: Trace | None = None, *, final: bool = True, element_id: str = "") -> str:
    """SVG text for ``tree``.  With ``final`` (the default) and a ``trace``,
    nodes and edges carry the search's end state: values, windows, the
    classes ``visited``, ``pruned`` (a cut-off subtree's root), ``cutoff``
    (below one), ``horizon`` (left out by the depth limit, not cut) and
    ``best``, and a line saying whether the root's value is exact or a
    bound; without, the bare tree.

    Each node's value sits inside its triangle, its name and window
    directly under it; edges join node centres (drawn under the nodes); a
    cut is labelled once, on the edge into the first subtree it removes,
    halfway between the parent's labels and the child."""
    pos, dx, rows = placement(tree, trace)
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
    widths = _label_widths(tree, trace)
    width = max(x for x, _ in pos) * dx + 2 * MARGIN + max(dx, max(widths))
    height = max(d for _, d in pos) * DY + 2 * MARGIN + WINDOW_Y + R + (ROW if any(rows) else 0)
    said = value_words(trace.result) if final and trace is not None else ""
    if said:  # whether the root's value is exact or a bound, under the tree
        height += 16
        width = max(width, len(said) * NAME_PX + 2 * MARGIN)

    def xy(i: int) -> tuple[float, float]:
        x, d = pos[i]
        return MARGIN + max(dx, max(widths)) / 2 + x * dx, MARGIN + R + 2 + d * DY

    # the first removed child of each cut carries the label
    first_cut = ({s.removed[0] for s in trace.steps if s.kind == "cut" and s.removed}
                 if trace is not None else set())

    ident = f' id="{escape(element_id)}"' if element_id else ""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg"{ident} class="pyab-tree" '
           f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
           f"<style>{STYLE}</style>", '<g class="edges">']
    labels = []
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
                       f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
            label = {"alpha": "\u03b1-cut", "beta": "\u03b2-cut"}.get(cuts.get(child) or "", "cut")
            shown = " shown" if child in cuts and child in first_cut else ""
            t = (WINDOW_Y + 14 + (DY - R - WINDOW_Y - 14) / 2) / DY  # between the labels and the child
            labels.append(f'<text class="cutlabel{shown}" data-cut-for="{escape(child, quote=True)}" '
                          f'x="{x1 + t * (x2 - x1):.1f}" y="{y1 + t * (y2 - y1) + 3:.1f}">{label}</text>')
    out.append('</g><g class="nodes">')
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
        low = ROW * rows[i]
        # under an inner node the labels get a white ground: its edges pass there
        ground = (f'<rect class="ground" x="{-widths[i] / 2 - 2:.1f}" y="{R + 2}" '
                  f'width="{widths[i] + 4:.1f}" height="{WINDOW_Y - R + 2}" rx="3"/>'
                  if tree.kids[i] else "")
        out.append(
            f'<g class="{" ".join(cls)}" data-node="{escape(name, quote=True)}" '
            f'transform="translate({x:.1f},{y:.1f})"><title>{escape(name)} ({side})</title>'
            f"{ground}{_shape(is_max)}"
            f'<text class="value" y="{7 if is_max else 3}">{escape(value)}</text>'
            f'<text class="name" y="{NAME_Y + low}">{escape(name)}</text>'
            f'<text class="window" y="{WINDOW_Y + low}">{escape(_window(windows.get(name)))}</text></g>')
    out.append('</g><g class="cutlabels">')
    out.extend(labels)
    out.append("</g>")
    if said:
        out.append(f'<text class="bound" x="{MARGIN}" y="{height - 6:.0f}">{escape(said)}</text>')
    out.append("</svg>")
    return "\n".join(out)

