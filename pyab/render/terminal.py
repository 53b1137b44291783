"""The searched tree in the terminal (rich): one line per node with its
MAX/MIN mark, the value it backed up and the window it was called with;
the chosen line bold green, cut-off subtrees dim with their alpha-/beta-cut
mark.  On a terminal rich adds colour; piped, the same lines are plain
text (rich turns styles off when the output is not a terminal)."""

from __future__ import annotations

from typing import Any

from ..result import bound_text
from ..trace import Trace, _num

__all__ = ["print_tree", "rich_tree"]


def rich_tree(trace: Trace, max_nodes: int = 2000) -> Any:
    """A ``rich.tree.Tree`` of ``trace`` (at most ``max_nodes`` lines; the
    rest of a bigger tree is summarised)."""
    from rich.text import Text
    from rich.tree import Tree as RichTree

    tree = trace.tree
    values, windows, cuts = trace.values(), trace.windows(), trace.cuts()
    visited = set(trace.result.visited)
    horizon = set(trace.result.horizon)
    line = set(trace.best_line()) if trace.result.visited else set()

    def label(i: int, dim: bool) -> Text:
        name = tree.names[i]
        side = "MAX" if tree.is_max_id(i) else "MIN"
        t = Text()
        t.append(f"{side} ", style="magenta" if side == "MAX" else "cyan")
        style = "bold green" if name in line else ""
        t.append(name, style=style)
        if name in values:
            t.append(f" = {_num(values[name])}", style=style or "bold")
        if name in windows:
            a, b = windows[name]
            t.append(f"  [{_num(a)}, {_num(b)}]", style="blue")
        if name in cuts:
            kind = cuts[name]
            t.append(f"  \u2702 {kind + '-cut' if kind else 'cut'}", style="red")
        elif name in horizon:
            t.append("  \u2026 horizon (depth limit, not a cut)", style="magenta")
        elif not dim and name not in visited and trace.result.visited:
            t.append("  (not searched)", style="dim")
        if name in line and name != tree.root:
            t.append("  \u25c0 chosen", style="bold green")
        if dim:
            t.stylize("dim")
        return t

    root = RichTree(label(0, False), guide_style="grey50")
    stack = [(root, 0, False)]
    shown = 1
    while stack:
        node, i, dim = stack.pop()
        ks = tree.kids[i]
        items = []
        for k in ks:
            if shown >= max_nodes:
                items.append((None, k, dim))
                break
            kd = dim or tree.names[k] in cuts
            items.append((node.add(label(k, kd)), k, kd))
            shown += 1
        for sub, k, kd in reversed(items):
            if sub is None:
                node.add(Text(f"... {len(tree) - shown} more nodes", style="dim"))
            else:
                stack.append((sub, k, kd))
    return root


def print_tree(trace: Trace, console: Any = None) -> None:
    """Print the tree; colour on a terminal, plain lines (never wrapped at
    80 columns) when piped."""
    from rich.console import Console
    if console is None:
        console = Console(highlight=False)
        if not console.is_terminal:
            wide = Console(width=100_000, no_color=True, highlight=False)
            with wide.capture() as cap:
                wide.print(rich_tree(trace))
            print("\n".join(line.rstrip() for line in cap.get().splitlines()))
            console = wide
        else:
            console.print(rich_tree(trace))
    else:
        console.print(rich_tree(trace))
    r = trace.result
    console.print(f"{r.algorithm} in {r.engine}: GoodPos = {r.best if r.best is not None else '(none)'}, "
                  f"Val = {_num(r.value)}; cut off: {', '.join(r.pruned) or 'nothing'}"
                  + (f"; horizon: {', '.join(r.horizon)}" if r.horizon else "")
                  + f"; {bound_text(r)}", highlight=False)
