"""The trace as a table, one row per step (the slides' frames, unrolled)."""

from __future__ import annotations

from typing import Any

from .trace import Trace, _num

__all__ = ["print_table", "rows"]

HEADERS = ("#", "Pos", "Alpha", "Beta", "GoodPos", "Val", "what happens")


def rows(trace: Trace) -> list[tuple[str, ...]]:
    """The table's cells as text: the node indented by depth, then the
    window, GoodPos and Val that the step shows, then the step in words."""
    out: list[tuple[str, ...]] = []
    for i, s in enumerate(trace.steps, 1):
        alpha, beta, good, val = "", "", "", ""
        if s.kind == "call":
            alpha, beta = _num(s.alpha), _num(s.beta)
        elif s.kind == "leaf":
            val = _num(s.value)
        elif s.kind == "bounds":  # the new window, and the best child so far
            alpha, beta = _num(s.new_alpha), _num(s.new_beta)
            good, val = s.good or "", _num(s.good_value)
        elif s.kind == "test":
            alpha, beta = _num(s.alpha), _num(s.beta)
            good, val = s.good or "", _num(s.good_value)
        elif s.kind in ("betterof", "tie"):
            good, val = s.good or "", _num(s.good_value)
        elif s.kind == "cut":
            alpha, beta = _num(s.alpha), _num(s.beta)
            good, val = s.child or "", _num(s.value)
        elif s.kind == "return":
            good, val = s.best or "", _num(s.value)
        out.append((str(i), "  " * s.depth + s.node, alpha, beta, good, val, s.text()))
    return out


_STYLE = {"call": "cyan", "leaf": "", "test": "", "bounds": "yellow", "betterof": "blue", "tie": "blue",
          "cut": "bold red", "return": "green",
          "horizon": "magenta"}


def print_table(trace: Trace, title: str = "", console: Any = None) -> None:
    """Print the table; colour on a terminal, plain text when piped."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..text import printable

    piped = False
    if console is None:
        console = Console()
        if not console.is_terminal:  # plain text, no padding to a width
            console, piped = Console(width=400, no_color=True, highlight=False), True
    if title:
        console.print(printable(title), highlight=False, markup=False)
    table = Table(box=box.SIMPLE_HEAD, highlight=False)
    for h in HEADERS:
        table.add_column(h, justify="right" if h in ("#", "Alpha", "Beta", "Val") else "left",
                         no_wrap=h != "what happens")
    for step, row in zip(trace.steps, rows(trace)):
        table.add_row(*(Text(printable(c)) for c in row), style=_STYLE.get(step.kind, ""))
    if piped:
        with console.capture() as cap:
            console.print(table)
        print("\n".join(line.rstrip() for line in cap.get().splitlines()).strip("\n"))
    else:
        console.print(table)
    r = trace.result
    note = "" if trace.frames == "observed" else f"  ({trace.source})"
    best = printable(r.best) if r.best is not None else "(none)"
    console.print(f"GoodPos = {best}, Val = {_num(r.value)}; {len(trace.steps)} steps{note}",
                  highlight=False, markup=False)
