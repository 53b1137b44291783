"""The searched tree in the terminal (rich): one line per node with its
MAX/MIN mark, the value it backed up and the window it was called with;
the chosen line bold green, cut-off subtrees dim with their alpha-/beta-cut
mark.  On a terminal rich adds colour; piped, the same lines are plain
text (rich turns styles off when the output is not a terminal)."""

from __future__ import annotations

from typing import Any

from ..result import value_words
from ..text import printable
from .trace import Trace, _num

__all__ = ["print_tree", "rich_tree", "shown_nodes", "subtree_sizes"]


def shown_nodes(tree: Any, line: list[str], max_nodes: int) -> list[bool]:
    """Which node ids a picture of at most ``max_nodes`` lines shows: the
    chosen line first, then the rest breadth-first (every level before the
    next), so a big tree keeps its top and its answer."""
    show = [False] * len(tree)
    count = 0
    for name in line:
        i = tree.index[name]
        if not show[i]:
            show[i], count = True, count + 1
    level = [0]
    while level and count < max_nodes:
        nxt = []
        for i in level:
            if not show[i]:
                if count >= max_nodes:
                    break
                show[i], count = True, count + 1
            nxt.extend(tree.kids[i])
        level = nxt
    return show


def subtree_sizes(tree: Any) -> list[int]:
    """The number of nodes in each node's subtree (itself included)."""
    size = [1] * len(tree)
    for i in range(len(tree) - 1, -1, -1):  # children have larger ids
        for k in tree.kids[i]:
            size[i] += size[k]
    return size


def rich_tree(trace: Trace, max_nodes: int = 2000, final_windows: bool = False) -> Any:
    """A ``rich.tree.Tree`` of ``trace``.  A tree of more than ``max_nodes``
    nodes is cut breadth-first, keeping the chosen line whole; each node
    with hidden children ends with one line counting the nodes hidden
    under it (its own subtrees only).  Each node shows the window it was
    called with, or with ``final_windows`` as newbounds/6 last left it."""
    from rich.text import Text
    from rich.tree import Tree as RichTree

    tree = trace.tree
    values, cuts = trace.values(), trace.cuts()
    windows = trace.windows() if final_windows else trace.called()
    visited = set(trace.result.visited)
    horizon = set(trace.result.horizon)
    best_line = trace.best_line() if trace.result.visited else []
    line = set(best_line)
    show = shown_nodes(tree, best_line, max_nodes)
    size = subtree_sizes(tree) if not all(show) else None

    def label(i: int, dim: bool) -> Text:
        name = tree.names[i]
        side = "MAX" if tree.is_max_id(i) else "MIN"
        t = Text()
        t.append(f"{side} ", style="magenta" if side == "MAX" else "cyan")
        style = "bold green" if name in line else ""
        t.append(printable(name), style=style)
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
    while stack:
        node, i, dim = stack.pop()
        items = []
        hidden = hidden_kids = 0
        for k in tree.kids[i]:
            if not show[k]:
                hidden += size[k]  # type: ignore[index]
                hidden_kids += 1
                continue
            kd = dim or tree.names[k] in cuts
            items.append((node.add(label(k, kd)), k, kd))
        if hidden:
            what = "node" if hidden == 1 else "nodes"
            under = "subtree" if hidden_kids == 1 else "subtrees"
            node.add(Text(f"... {hidden} more {what} here ({hidden_kids} {under} not shown)",
                          style="dim"))
        for sub, k, kd in reversed(items):
            stack.append((sub, k, kd))
    return root


def print_tree(trace: Trace, console: Any = None, max_nodes: int = 2000,
               final_windows: bool = False) -> None:
    """Print the tree; colour on a terminal, plain lines (never wrapped at
    80 columns) when piped."""
    from rich.console import Console
    if console is None:
        console = Console(highlight=False)
        if not console.is_terminal:
            wide = Console(width=100_000, no_color=True, highlight=False)
            with wide.capture() as cap:
                wide.print(rich_tree(trace, max_nodes, final_windows))
            print("\n".join(line.rstrip() for line in cap.get().splitlines()))
            console = wide
        else:
            console.print(rich_tree(trace, max_nodes, final_windows))
    else:
        console.print(rich_tree(trace, max_nodes, final_windows))
    r = trace.result
    from ..text import shorten
    best = printable(r.best) if r.best is not None else "(none)"
    console.print(f"{r.algorithm} in {r.engine}: GoodPos = {best}, Val = {_num(r.value)}; "
                  f"cut off: {shorten(r.pruned, sep=', ') if r.pruned else 'nothing'}"
                  + (f"; horizon: {shorten(r.horizon, sep=', ')}" if r.horizon else "")
                  + f"; {value_words(r)}; windows: "
                  + ("final, as newbounds/6 left them" if final_windows else "as each node was called"),
                  highlight=False, markup=False)
