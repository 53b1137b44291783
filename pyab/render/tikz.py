"""The picture model as TikZ, for a Beamer slide or a LaTeX paper.

The file is one ``tikzpicture`` in a ``\\resizebox`` to the line width:
put ``\\usepackage{tikz}`` in the preamble and ``\\input{tree.tex}`` in a
frame.  It draws what the SVG draws (the same model): ▲/▼, values,
names, windows, the chosen line, cut edges with their labels, the legend
and the caption.  Coordinates are the SVG's pixels (y down).
"""

from __future__ import annotations

from .model import Model

__all__ = ["write"]

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
            "#": r"\#", "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}",
            "\u03b1": r"$\alpha$", "\u03b2": r"$\beta$", "\u221e": r"$\infty$", "\u2212": r"$-$",
            "<": r"\textless{}", ">": r"\textgreater{}", "\n": " ", "\r": " "}


def tex(text: str) -> str:
    """``text`` as LaTeX that prints it."""
    return "".join(_SPECIAL.get(c, c) for c in text)


_COLOURS = r"""\definecolor{pyabbest}{RGB}{7,96,58}
\definecolor{pyabcut}{RGB}{187,0,0}
\definecolor{pyabwin}{RGB}{11,61,145}
\definecolor{pyabseen}{RGB}{219,232,255}
\definecolor{pyabnow}{RGB}{255,210,0}
\definecolor{pyabopen}{RGB}{160,64,0}
"""


def _p(x: float, y: float) -> str:
    return f"({x:.1f},{y:.1f})"


def write(m: Model) -> str:
    f = m.font
    out = ["% pyab: \\usepackage{tikz} in the preamble, then \\input{this file}",
           "\\resizebox{\\linewidth}{!}{%",
           "\\begin{tikzpicture}[x=1pt, y=-1pt, every node/.style={inner sep=0pt, outer sep=0pt}, "
           f"font=\\sffamily\\fontsize{{{f:g}}}{{{1.2 * f:g}}}\\selectfont]",
           _COLOURS.rstrip("\n"),
           f"\\path[use as bounding box] (0,0) rectangle {_p(m.width, m.height)};"]
    if m.title:
        out.append(f"\\node[anchor=base west, font=\\bfseries\\fontsize{{{1.4 * f:g}}}{{{1.7 * f:g}}}\\selectfont] "
                   f"at {_p(1.2 * f, 2.3 * f)} {{{tex(m.title)}}};")
    faded = {n.name for n in m.nodes if "pruned" in n.classes or "cutoff" in n.classes}
    for e in m.edges:
        style = ["line width=%.1fpt" % (0.11 * f), "draw=black!70"]
        if "best" in e.classes:
            style = ["line width=%.1fpt" % (0.36 * f), "draw=pyabbest"]
        elif "cut" in e.classes:
            style += ["draw=pyabcut", "dashed"]
        if e.child in faded and "cut" not in e.classes:
            style.append("opacity=0.35")
        out.append(f"\\draw[{', '.join(style)}] {_p(e.x1, e.y1)} -- {_p(e.x2, e.y2)};")
    line = m.line
    for n in m.nodes:
        pts = " -- ".join(_p(n.x + x, n.y + y) for x, y in m.triangle(n.is_max, m.size(n)))
        style = ["line width=%.1fpt" % (0.13 * f), "draw=black!80", "fill=white"]
        if "visited" in n.classes:
            style[-1] = "fill=pyabseen"
        if "open" in n.classes:
            style[0], style[1] = "line width=%.1fpt" % (0.22 * f), "draw=pyabopen"
        if "current" in n.classes:
            style = ["line width=%.1fpt" % (0.25 * f), "draw=black", "fill=pyabnow"]
        if "best" in n.classes:
            style[0], style[1] = "line width=%.1fpt" % (0.3 * f), "draw=pyabbest"
        if n.name in faded:
            style.append("opacity=0.35")
            if "pruned" in n.classes:
                style += ["draw=pyabcut", "dashed"]
        fade = ", opacity=0.35" if n.name in faded else ""
        out.append(f"\\draw[{', '.join(style)}] {pts} -- cycle;")
        if n.value:
            out.append(f"\\node[anchor=base, font=\\bfseries{fade}] at {_p(n.x, n.y + m.value_y(n))} "
                       f"{{{tex(n.value)}}};")
        if m.compact and n.leaf:
            continue
        dx, dy, anchor = m.name_at(n)
        a = {"start": "base west", "end": "base east", "middle": "base"}[anchor]
        out.append(f"\\node[anchor={a}{fade}] at {_p(n.x + dx, n.y + dy)} {{{tex(n.name)}}};")
        if n.window:
            out.append(f"\\node[anchor={a}, text=pyabwin{fade}] at {_p(n.x + dx, n.y + dy + line)} "
                       f"{{{tex(n.window)}}};")
    for e in m.edges:
        if e.cut_shown:
            a = "base west" if e.anchor == "start" else "base east"
            out.append(f"\\node[anchor={a}, text=pyabcut, font=\\bfseries] at {_p(e.lx, e.ly)} {{{tex(e.cut)}}};")
    for kind, text, x, y in m.legend:
        cx = x + 0.8 * f
        if kind in ("max", "min", "faded"):
            pts = " -- ".join(_p(cx + px * 0.55, y + py * 0.55) for px, py in m.triangle(kind != "min"))
            op = ", opacity=0.35" if kind == "faded" else ""
            out.append(f"\\draw[line width={0.13 * f:.1f}pt{op}] {pts} -- cycle;")
        elif kind in ("visited", "current", "open", "horizon"):
            pts = " -- ".join(_p(cx + px * 0.55, y + py * 0.55) for px, py in m.triangle(True))
            look = {"visited": f"line width={0.13 * f:.1f}pt, fill=pyabseen",
                    "current": f"line width={0.25 * f:.1f}pt, fill=pyabnow",
                    "open": f"line width={0.22 * f:.1f}pt, draw=pyabopen",
                    "horizon": f"line width={0.13 * f:.1f}pt, draw=black!60, densely dotted"}[kind]
            out.append(f"\\draw[{look}] {pts} -- cycle;")
        elif kind == "best":
            out.append(f"\\draw[line width={0.36 * f:.1f}pt, draw=pyabbest] {_p(x, y)} -- {_p(x + 1.7 * f, y)};")
        elif kind == "cut":
            out.append(f"\\draw[line width={0.11 * f:.1f}pt, draw=pyabcut, dashed] {_p(x, y)} -- {_p(x + 1.7 * f, y)};")
        else:
            out.append(f"\\node[anchor=base, font=\\bfseries] at {_p(cx, y + 0.35 * f)} {{3}};")
        out.append(f"\\node[anchor=base west] at {_p(x + 2.2 * f, y + 0.35 * f)} {{{tex(text)}}};")
    if m.caption:
        out.append(f"\\node[anchor=base west] at {_p(1.2 * f, m.height - 1.0 * f)} {{{tex(m.caption)}}};")
    out.append("\\end{tikzpicture}}")
    return "\n".join(out) + "\n"
