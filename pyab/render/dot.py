"""The picture model as a Graphviz graph (``pyab draw -o X.dot``), for
people who lay trees out with Graphviz themselves.

It draws the same notation as every other picture (``pyab.render.model``):
▲ (``shape=triangle``) where MAX moves, ▼ (``invtriangle``) where MIN
moves, the value inside, the name and window as an outside label
(``xlabel``), the chosen line bold green, cut edges dashed red with their
label, the subtrees below faded.  Each node's ``pos`` is the model's
(``neato -n2 -Tsvg X.dot`` keeps it; ``dot`` lays the tree out afresh).
"""

from __future__ import annotations

from .model import Model

__all__ = ["write"]


def _q(text: str) -> str:
    """A Graphviz double-quoted string (escape backslash and quote)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write(m: Model) -> str:
    f = m.font
    pt = 0.75  # Graphviz works in points
    out = ["digraph pyab {",
           f"  label={_q(m.caption or m.title)}; labelloc=t; ordering=out; splines=line; forcelabels=true;",
           f"  node [fontname=\"Liberation Sans\", fontsize={f * pt:g}, style=filled, fillcolor=white,"
           f" fixedsize=true, width={2.8 * f / 96:.2f}, height={2.4 * f / 96:.2f}];",
           f"  edge [arrowhead=none, fontname=\"Liberation Sans\", fontsize={f * pt:g}];"]
    index = {n.name: i for i, n in enumerate(m.nodes)}
    for i, n in enumerate(m.nodes):
        attrs = [f"label={_q(n.value)}", "shape=triangle" if n.is_max else "shape=invtriangle",
                 f"pos=\"{n.x * pt:.1f},{(m.height - n.y) * pt:.1f}!\""]
        outside = n.name if not n.window else f"{n.name}\n{n.window}"
        if not (m.compact and n.leaf):
            attrs.append(f"xlabel={_q(outside)}")
        else:
            attrs.append(f"tooltip={_q(n.name)}")
        if "visited" in n.classes:
            attrs.append("fillcolor=\"#dbe8ff\"")
        if "pruned" in n.classes or "cutoff" in n.classes:
            attrs += ["color=gray70", "fontcolor=gray60"]
        if "best" in n.classes:
            attrs += ["penwidth=3", "color=\"#07603a\""]
        out.append(f"  n{i} [{', '.join(attrs)}];")
    for e in m.edges:
        attrs = []
        if "cut" in e.classes:
            attrs += ["style=dashed", "color=\"#bb0000\"", "fontcolor=\"#bb0000\""]
            if e.cut_shown:
                attrs.append(f"label={_q(e.cut)}")
        elif "best" in e.classes:
            attrs += ["penwidth=4", "color=\"#07603a\""]
        out.append(f"  n{index[e.parent]} -> n{index[e.child]}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"
