"""The searched tree as a Graphviz graph.

MAX nodes are boxes, MIN nodes ellipses (the usual look of Graphviz game
trees; the SVG and HTML pictures use triangles).  Each node shows its name,
the value it returned or was read as, and the window it was called with;
the chosen line is bold, an edge into a cut-off subtree is dashed and
labelled alpha-cut or beta-cut, and the subtree below it is grey.  Sizes
are kept small (and edges straight); a tree with many leaves is drawn left
to right, so a few hundred nodes stay readable.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..errors import Error
from .trace import Trace, _num

__all__ = ["dot", "render"]


def _id(i: int) -> str:
    return f"n{i}"


def _label(text: str) -> str:
    """A Graphviz double-quoted string (escape backslash and quote)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot(trace: Trace, wide: int = 40) -> str:
    """The DOT text of ``trace``'s tree and search.  A tree with more than
    ``wide`` leaves is laid out left to right with one-line labels (leaves
    stacked down the page), which keeps hundreds of nodes legible."""
    tree = trace.tree
    sideways = len(tree.leaves()) > wide
    sep = "  " if sideways else "\n"
    values, windows, cuts = trace.values(), trace.windows(), trace.cuts()
    visited = set(trace.result.visited)
    horizon = {tree.index[h] for h in trace.result.horizon}  # left out by the depth limit
    line = trace.best_line()
    best_edges = set(zip(line, line[1:]))
    grey: set[int] = set()
    todo = [tree.index[c] for c in cuts]
    while todo:
        i = todo.pop()
        grey.add(i)
        todo.extend(tree.kids[i])
    r = trace.result
    title = f"{trace.algorithm} in {trace.engine}: GoodPos = {r.best}, Val = {_num(r.value)}"
    if r.bound != "exact":
        title += f" ({r.bound} bound)"
    out = [
        "digraph pyab {",
        f"  label={_label(title + f' ({trace.source})')};",
        "  labelloc=t; fontname=Helvetica; ordering=out; nodesep=0.15; ranksep=0.45; splines=line;"
        + (" rankdir=LR; nodesep=0.05; ranksep=0.6;" if sideways else ""),
        "  node [fontname=Helvetica, fontsize=10, margin=\"0.04,0.02\", height=0.3, style=filled, fillcolor=white];",
        "  edge [fontname=Helvetica, fontsize=9, arrowsize=0.5];",
    ]
    on_line = set(line)
    for i, name in enumerate(tree.names):
        parts = [name]
        if name in values:
            parts.append(_num(values[name]))
        if name in windows:
            a, b = windows[name]
            parts.append(f"[{_num(a)}, {_num(b)}]")
        attrs = [f"label={_label(sep.join(parts))}",
                 "shape=box" if tree.is_max_id(i) else "shape=ellipse"]
        if i in grey:
            attrs += ["color=gray70", "fontcolor=gray60", "fillcolor=gray95"]
        elif i in horizon:
            attrs += ["style=\"filled,dotted\"", "color=gray50", "fontcolor=gray50"]
        elif name in visited:
            attrs.append("fillcolor=\"#e8f0ff\"")
        if name in on_line and trace.result.visited:
            attrs += ["penwidth=3", "color=\"#118855\""]
        out.append(f"  {_id(i)} [{', '.join(attrs)}];")
    for i, ks in enumerate(tree.kids):
        for k in ks:
            child = tree.names[k]
            attrs = []
            if child in cuts:
                kind = cuts[child]
                attrs += ["style=dashed", "color=\"#cc3333\"", "fontcolor=\"#cc3333\"",
                          f"label={_label(f'{kind}-cut' if kind else 'cut')}"]
            elif k in grey:
                attrs += ["color=gray80", "style=dashed"]
            elif k in horizon:
                attrs += ["color=gray60", "style=dotted", "fontcolor=gray50", "label=\"horizon\""]
            if (tree.names[i], child) in best_edges:
                attrs += ["penwidth=3", "color=\"#118855\""]
            out.append(f"  {_id(i)} -> {_id(k)}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"


def render(trace: Trace, out: Path, fmt: str, dpi: int | None = None) -> list[str]:
    """Write ``trace`` to ``out`` as ``fmt`` ("dot", "svg", "png" or "pdf");
    ``dpi`` sets the resolution of a PNG (Graphviz's default is 96).
    Returns Graphviz's warnings (one per line), for the caller to show."""
    text = dot(trace)
    if dpi is not None:
        text = text.replace("digraph pyab {\n", f"digraph pyab {{\n  dpi={int(dpi)};\n", 1)
    if fmt == "dot":
        out.write_text(text, encoding="utf-8")
        return []
    exe = shutil.which("dot")
    if exe is None:
        raise Error("Graphviz's `dot` is not installed (Debian: apt-get install graphviz; "
                    "`make setup` does it); .dot output works without it")
    done = subprocess.run([exe, f"-T{fmt}", "-o", str(out)], input=text.encode("utf-8"),
                          capture_output=True, timeout=300)
    said = done.stderr.decode("utf-8", "replace").strip()
    if done.returncode != 0:
        raise Error(f"dot failed: {said}")
    return [line for line in said.splitlines() if line.strip()]
