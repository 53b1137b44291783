"""The one picture of a tree and its search, before it is written out.

Every picture pyab makes (SVG for a notebook, the HTML stepper, PNG and
PDF, frames for slides, TikZ) is drawn from this model, so they show the
same shapes, the same labels and the same legend:

* ▲ a node where MAX moves, ▼ one where MIN moves (AIMA's figures), the
  value the node returned (or, for a leaf, its static value) inside;
* its name, and the window ``[alpha, beta]`` it was *called* with: under a
  leaf, beside an inner node (to the right, where no edge runs: edges
  leave a node from the bottom of its shape and end at the top of the
  child's), so no label sits on an edge and no white box hides one;
  ``windows="final"`` shows the window as newbounds/6 last left it
  instead, and the legend says so;
* the chosen line bold green, an edge into a cut-off subtree dashed red
  with ``α-cut`` or ``β-cut`` beside it, the nodes below faded.

All sizes are multiples of one font size ``font`` (pixels), so a picture
for a lecture hall is the same picture with ``font=18``.  Leaf labels
stay on one row, side by side (staggered rows are hard to pair with their
leaves); when they do not fit within ``max_width`` pixels (a 16:9 slide
is 1920 wide), the leaves get small shapes with their values under them,
and their names go to a tooltip.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..result import value_words
from .trace import Trace, _num
from ..tree import Tree
from .layout import layout

__all__ = ["Edge", "Model", "Node", "model", "legend_items", "text_width", "window_text", "LEGEND"]

GAP = 0.6     # the least space between two labels side by side, in font sizes

# Advance widths of Liberation Sans (Arial's metrics), in ems; others 0.6.
_WIDTHS = {**dict.fromkeys("0123456789_", 0.556), **dict.fromkeys("[](),. ", 0.278),
           "-": 0.333, "\u2212": 0.584, "\u221e": 0.713, **dict.fromkeys("ijl", 0.222),
           **dict.fromkeys("ftI", 0.278), "r": 0.333, "m": 0.833, "w": 0.722,
           **dict.fromkeys("\u03b1\u03b2", 0.6)}


def text_width(text: str, f: float, bold: bool = False) -> float:
    """About how wide ``text`` is at font size ``f`` (pixels), erring wide."""
    w = sum(_WIDTHS.get(c, 0.5 if c.islower() else 0.667 if c.isupper() else
                        0.6 if ord(c) < 0x2e80 else 1.0) for c in text)
    return w * f * (1.1 if bold else 1.04)


def window_text(w: tuple[Any, Any] | None) -> str:
    """``[−∞, 3]``: a window as every picture writes it."""
    if w is None:
        return ""
    def one(x: Any) -> str:
        t = _num(x)
        return "\u221e" if t == "inf" else "\u2212\u221e" if t == "-inf" else t
    return f"[{one(w[0])}, {one(w[1])}]"


@dataclass
class Node:
    name: str
    x: float
    y: float
    is_max: bool
    leaf: bool
    value: str = ""
    window: str = ""
    classes: list[str] = field(default_factory=list)
    left: bool = False      # an inner node's labels go to its left (no room on its right)


@dataclass
class Edge:
    parent: str
    child: str
    x1: float
    y1: float
    x2: float
    y2: float
    classes: list[str] = field(default_factory=list)
    cut: str = ""           # "α-cut", "β-cut", "cut" or "" (no cut into this child)
    cut_shown: bool = False  # the last subtree a cut removes carries its label
    lx: float = 0.0          # where that label goes (beside the edge's middle)
    ly: float = 0.0
    anchor: str = "start"


@dataclass
class Model:
    tree: Tree
    font: float
    width: float
    height: float
    nodes: list[Node]
    edges: list[Edge]
    title: str = ""
    caption: str = ""
    final_windows: bool = False
    compact: bool = False   # leaves: a small shape, the value under it, no name or window
    legend: list[tuple[str, str, float, float]] = field(default_factory=list)  # (kind, text, x, y)

    # sizes every writer shares, in pixels
    @property
    def r(self) -> float:
        return 1.3 * self.font

    def size(self, n: Node) -> float:
        return 0.5 * self.font if self.compact and n.leaf else self.r

    def triangle(self, is_max: bool, r: float | None = None) -> list[tuple[float, float]]:
        f = self.font
        r = self.r if r is None else r
        e, s = 0.15 * f * r / self.r, 0.25 * f * r / self.r
        if is_max:
            return [(0, -r - e), (r + s, r - s), (-r - s, r - s)]
        return [(0, r + e), (r + s, -r + s), (-r - s, -r + s)]

    def value_y(self, n: Node) -> float:
        if self.compact and n.leaf:
            return self.size(n) + 1.15 * self.font
        return (0.55 if n.is_max else 0.2) * self.font

    def name_at(self, n: Node) -> tuple[float, float, str]:
        """(dx, dy, anchor) of a node's name relative to its centre; its
        window goes one line lower."""
        f = self.font
        if n.leaf:
            return 0.0, self.size(n) + 1.2 * f, "middle"
        if n.left:
            return -self.r - 0.5 * f, -0.1 * f, "end"
        return self.r + 0.5 * f, -0.1 * f, "start"

    def bottom(self, n: Node) -> float:
        """How far below a node's centre its edges start."""
        r = self.size(n)
        return r - 0.25 * self.font * r / self.r if n.is_max else r + 0.15 * self.font * r / self.r

    def top(self, n: Node) -> float:
        r = self.size(n)
        return r + 0.15 * self.font * r / self.r if n.is_max else r - 0.25 * self.font * r / self.r

    @property
    def line(self) -> float:
        return 1.2 * self.font


LEGEND = {
    "max": "MAX to move",
    "min": "MIN to move",
    "labels": "value inside; name and [\u03b1, \u03b2] called with",
    "final": "value inside; name and final [\u03b1, \u03b2] (after newbounds)",
    "visited": "called (blue fill)",
    "current": "the node of this step (yellow fill)",
    "open": "an open call (orange outline)",
    "best": "chosen line",
    "cut": "cut off (\u03b1-cut, \u03b2-cut)",
    "faded": "never searched",
    "horizon": "beyond the depth limit",
    "compact": "a leaf: its value under it (point at it for its name)",
}


def legend_items(trace: Trace | None, windows: str = "called", compact: bool = False,
                 stepping: bool = False) -> list[tuple[str, str]]:
    """(kind, text) of every mark a picture of ``trace`` uses: with
    ``stepping`` (a frame of the search, or the stepper) the current node
    and the open calls too."""
    items = [("max", LEGEND["max"]), ("min", LEGEND["min"]),
             ("labels", LEGEND["final" if windows == "final" else "labels"])]
    if trace is not None:
        items.append(("visited", LEGEND["visited"]))
        if stepping:
            items += [("current", LEGEND["current"]), ("open", LEGEND["open"])]
        items += [("best", LEGEND["best"]), ("cut", LEGEND["cut"]), ("faded", LEGEND["faded"])]
        if trace.result.horizon:
            items.append(("horizon", LEGEND["horizon"]))
    if compact:
        items.append(("compact", LEGEND["compact"]))
    return items


def _place(tree: Tree, pos, label: list[float], half: list[float], shape: list[float],
           f: float) -> tuple[list[float], list[bool]]:
    """Each node's x (pixels from an arbitrary origin) and whether its
    labels go to its left.  Leaves start a shape apart; wherever two
    things on one line (the shapes and beside-labels of a level, a row of
    leaf labels) would touch, the leaves from the right one's subtree on
    move right by what is missing, parents stay centred over their
    children, and that is repeated until nothing touches: gaps only
    where labels need them, so wide labels in one place do not spread the
    whole tree."""
    n = len(tree)
    gap = GAP * f
    order = [i for i in range(n) if not tree.kids[i]]   # leaves, left to right
    slot = {leaf: j for j, leaf in enumerate(order)}
    first = [0] * n                                     # each node's leftmost leaf slot
    for i in range(n - 1, -1, -1):
        first[i] = slot[i] if not tree.kids[i] else first[tree.kids[i][0]]
    lines: dict[Any, list[int]] = {}
    for i, (x, d) in enumerate(pos):
        lines.setdefault(("shape", d), []).append(i)
        if not tree.kids[i]:
            lines.setdefault(("label", d), []).append(i)
    for ids in lines.values():
        ids.sort(key=lambda i: pos[i][0])
    leafx = [j * 2.2 * shape[leaf] for j, leaf in enumerate(order)]
    x = [0.0] * n
    left = [False] * n
    for _ in range(400):
        for leaf, j in slot.items():
            x[leaf] = leafx[j]
        for i in range(n - 1, -1, -1):
            ks = tree.kids[i]
            if ks:
                x[i] = (x[ks[0]] + x[ks[-1]]) / 2
        push: dict[int, float] = {}  # leaf slot -> how far it and all after it move right

        def need(b: int, missing: float) -> None:
            if missing > 0.01:
                push[first[b]] = max(push.get(first[b], 0.0), missing)

        for key, ids in lines.items():
            if key[0] == "label":
                for a, b in zip(ids, ids[1:]):
                    need(b, half[a] + half[b] + gap - (x[b] - x[a]))
                continue
            reach = -float("inf")
            for j, i in enumerate(ids):
                nxt = x[ids[j + 1]] - shape[ids[j + 1]] if j + 1 < len(ids) else float("inf")
                need(i, reach + (gap if tree.kids[ids[j - 1]] else 0.3 * f) - (x[i] - shape[i])
                     if j else 0.0)
                if not tree.kids[i] or x[i] + label[i] + gap <= nxt:
                    left[i] = False
                    reach = x[i] + (label[i] if tree.kids[i] else shape[i])
                elif x[i] - label[i] >= reach + gap:
                    left[i], reach = True, x[i] + shape[i]
                else:
                    left[i] = False
                    need(ids[j + 1], x[i] + label[i] + gap - nxt)
                    reach = x[i] + label[i]
        if not push:
            break
        shift = 0.0
        for j in range(len(order)):
            shift += push.get(j, 0.0) if j else 0.0
            leafx[j] += shift
    return x, left


def model(tree: Tree, trace: Trace | None = None, *, final: bool = True, windows: str = "called",
          font: float = 12, max_width: float | None = None, title: str = "",
          caption: bool | str = True, legend: bool = True, step: int | None = None) -> Model:
    """The picture of ``tree`` (and ``trace``'s search; with ``final`` the
    search's end state, else the bare tree for the stepper's script to
    fill in).  ``windows``: "called" (default) or "final"; ``caption``:
    True for whether the root's value is exact or a bound, a string for
    your own, False for none; ``step``: the state after that many steps
    of the trace (0 is before the first), as the stepper shows it."""
    if windows not in ("called", "final"):
        raise ValueError(f"windows must be 'called' or 'final', not {windows!r}")
    f = float(font)
    r = 1.3 * f
    values: dict[str, Any] = {}
    wins: dict[str, Any] = {}
    cuts: dict[str, Any] = {}
    visited: set[str] = set()
    best: set[str] = set()
    cutoff: set[str] = set()
    horizon: set[str] = set()
    if trace is not None:
        # the window texts the stepper will show, for spacing even when not final
        all_wins = trace.windows() if windows == "final" else trace.called()
    else:
        all_wins = {}
    current: set[str] = set()
    opened: set[str] = set()
    if step is not None and trace is not None and step < len(trace.steps):
        st = state_at(trace, step)
        values, cuts, visited = st["values"], st["cuts"], st["visited"]
        horizon, cutoff = st["horizon"], st["cutoff"]
        wins = {n: w for n, w in all_wins.items() if n in visited}
        current, opened = st["current"], st["open"]
    elif final and trace is not None:
        horizon = set(trace.result.horizon)
        values, wins, cuts = trace.values(), all_wins, trace.cuts()
        visited = set(trace.result.visited)
        best = set(trace.best_line()) if trace.result.visited else set()
        stack = [tree.index[c] for c in cuts]
        while stack:
            i = stack.pop()
            for k in tree.kids[i]:
                cutoff.add(tree.names[k])
                stack.append(k)
    elif trace is None:
        values = {n: v for n, v in zip(tree.names, tree.values) if v is not None}

    pos = layout(tree)
    texts = [max(text_width(n, f), text_width(window_text(all_wins.get(n)), f)) for n in tree.names]
    label = [r + 0.5 * f + t for t in texts]   # an inner node's labels beside it
    choice = None
    # leaf labels on one row, never staggered: full names when they fit
    # max_width, else the compact leaves (values under small shapes)
    for compact in (False, True):
        if compact:  # leaves: a small shape with the value under it
            shape = [0.5 * f + 0.25 * f if not ks else r + 0.25 * f for ks in tree.kids]
            half = [text_width(_num(v), f, bold=True) / 2 if v is not None else 0.0
                    for v in tree.values]
        else:
            shape = [r + 0.25 * f] * len(tree)
            half = [t / 2 for t in texts]              # a leaf's labels under it
        xs, sides = _place(tree, pos, label, half, shape, f)
        lefts = [x - (label[i] if sides[i] else max(shape[i], 0 if tree.kids[i] else half[i]))
                 for i, x in enumerate(xs)]
        rights = [x + (shape[i] if sides[i] else max(shape[i], half[i]) if not tree.kids[i]
                       else label[i]) for i, x in enumerate(xs)]
        width = max(rights) - min(lefts)
        if choice is None or width < choice[0] - f:
            choice = (width, xs, sides, min(lefts), compact)
        if max_width is None or width + 2.4 * f <= max_width:
            break
    width, xs, sides, left, compact = choice  # type: ignore[misc]
    margin = 1.2 * f
    dy = 6.2 * f
    top = margin + r + 0.2 * f + (2.0 * f if title else 0)

    nodes: list[Node] = []
    for i, name in enumerate(tree.names):
        x, d = pos[i]
        cls = ["node", "max" if tree.is_max_id(i) else "min"]
        for flag, on in (("visited", name in visited), ("pruned", name in cuts),
                         ("cutoff", name in cutoff), ("horizon", name in horizon),
                         ("best", name in best), ("open", name in opened),
                         ("current", name in current)):
            if on:
                cls.append(flag)
        nodes.append(Node(name, margin - left + xs[i], top + d * dy, tree.is_max_id(i),
                          not tree.kids[i], _num(values[name]) if name in values else "",
                          window_text(wins.get(name)), cls, sides[i]))
    if compact:
        for n in nodes:
            if n.leaf:
                n.window = ""
    m = Model(tree, f, 0, 0, nodes, [], title=title, final_windows=windows == "final",
              compact=compact)
    # each cut is labelled once, beside the edge into the last subtree it removes (the
    # rightmost child: no sibling's edge lies beyond it)
    first_cut = ({s.removed[-1] for s in trace.steps if s.kind == "cut" and s.removed}
                 if trace is not None else set())
    for i, ks in enumerate(tree.kids):
        p = nodes[i]
        for k in ks:
            c = nodes[k]
            cls = ["edge"]
            if c.name in visited:
                cls.append("searched")
            if c.name in cuts:
                cls.append("cut")
            if c.name in horizon:
                cls.append("horizon")
            if c.name in best and p.name in best:
                cls.append("best")
            y1, y2 = p.y + m.bottom(p), c.y - m.top(c)
            kind = {"alpha": "\u03b1-cut", "beta": "\u03b2-cut"}.get(cuts.get(c.name) or "", "cut")
            # beside the edge, 60% down, on the outer side
            my = y1 + 0.6 * (y2 - y1) + 0.35 * f          # the label's baseline
            low = min(y2, my + 0.3 * f)                       # its bottom: there the edge is
            ex = p.x + (c.x - p.x) * (low - y1) / (y2 - y1) if y2 > y1 else c.x  # farthest out
            right = c.x >= p.x
            m.edges.append(Edge(p.name, c.name, p.x, y1, c.x, y2, cls, kind,
                                c.name in cuts and c.name in first_cut,
                                ex + (0.4 * f if right else -0.4 * f), my,
                                "start" if right else "end"))
    bottom = max(n.y + (m.value_y(n) + 0.4 * f if compact and n.leaf else
                        m.name_at(n)[1] + m.line + 0.4 * f if n.leaf else r + 1.4 * f)
                 for n in nodes)
    width = max(width + 2 * margin, 10 * f)
    if title:
        width = max(width, text_width(title, 1.4 * f, bold=True) + 2 * margin)
    y = bottom + 0.6 * f
    if legend:
        items = legend_items(trace, windows, compact, stepping=step is not None)
        room = max(width - 2 * margin, 36 * f)
        x = 0.0
        y += f
        for kind, text in items:
            w = 2.2 * f + text_width(text, f) + 1.2 * f
            if x and x + w > room:
                x, y = 0.0, y + 1.5 * f
            m.legend.append((kind, text, margin + x, y))
            x += w
            width = max(width, margin + x + margin)
        y += 0.6 * f
    if caption and trace is not None and final:
        m.caption = caption if isinstance(caption, str) else value_words(trace.result)
    elif isinstance(caption, str):
        m.caption = caption
    if m.caption:
        y += 1.5 * f
        width = max(width, text_width(m.caption, f) + 2 * margin)
    m.width, m.height = width, y + margin * 0.6
    return m


def state_at(trace: Trace, k: int) -> dict[str, Any]:
    """What the stepper shows after ``k`` steps (the same replay as its
    script): values backed up so far, nodes called, cut-off subtree roots
    with their kind, the nodes below them, the horizon, the open calls and
    the current node."""
    tree = trace.tree
    values: dict[str, Any] = {}
    visited: set[str] = set()
    cuts: dict[str, Any] = {}
    horizon: set[str] = set()
    stack: list[str] = []
    for s in trace.steps[:k]:
        if s.kind == "call":
            visited.add(s.node)
            stack.append(s.node)
        elif s.kind == "leaf":
            values[s.node] = s.value
        elif s.kind == "cut":
            for r in s.removed:
                cuts[r] = s.cut
        elif s.kind == "horizon":
            horizon.update(s.removed)
        elif s.kind == "return":
            if s.value is not None:
                values[s.node] = s.value
            while stack and stack[-1] != s.node:
                stack.pop()
            if stack:
                stack.pop()
    cutoff: set[str] = set()
    todo = [tree.index[c] for c in cuts]
    while todo:
        for kid in tree.kids[todo.pop()]:
            cutoff.add(tree.names[kid])
            todo.append(kid)
    current = {trace.steps[k - 1].node} if k > 0 else set()
    return {"values": values, "visited": visited, "cuts": cuts, "horizon": horizon,
            "cutoff": cutoff, "open": set(stack), "current": current}
