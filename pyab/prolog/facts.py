"""Tree -> Prolog facts, in the slides' vocabulary.

A name becomes Prolog text only through :func:`pyab.dsl.quoted.quote` and a
number only through :func:`pyab.text.number` (both importable from here
too); the DSL printer uses the same two functions, so a name reads back
the same in the DSL, in the REPL and in the bridge.
"""

from __future__ import annotations

from ..dsl.quoted import quote
from ..text import number
from ..tree import Tree

__all__ = ["facts", "number", "quote"]

def facts(tree: Tree) -> str:
    """The fact file of ``tree``: tree/2, staticval/2, min_to_move/1,
    max_to_move/1 for every node, and the slides' moves/2 bridge."""
    from ..api import expect_tree
    expect_tree(tree, "pyab.facts")
    names = [quote(n) for n in tree.names]
    lines: list[str] = []
    if any(not n.isascii() for n in tree.names):
        lines.append(":- encoding(utf8).")
    inner = [i for i, ks in enumerate(tree.kids) if ks]
    valued = [i for i, v in enumerate(tree.values) if v is not None]
    mins = [i for i in range(len(tree)) if not tree.is_max_id(i)]
    maxs = [i for i in range(len(tree)) if tree.is_max_id(i)]
    for pred, ids in (("tree/2", inner), ("staticval/2", valued),
                      ("min_to_move/1", mins), ("max_to_move/1", maxs)):
        if not ids:
            lines.append(f":- dynamic({pred}).")
    if lines:
        lines.append("")
    lines += [f"tree({names[i]}, [{', '.join(names[k] for k in tree.kids[i])}])." for i in inner]
    lines.append("")
    lines += [f"staticval({names[i]}, {number(tree.values[i])})." for i in valued]  # type: ignore[arg-type]
    lines.append("")
    lines += [f"min_to_move({names[i]})." for i in mins]
    lines += [f"max_to_move({names[i]})." for i in maxs]
    lines.append("")
    lines.append("moves(Pos, Moves) :- tree(Pos, Moves).")
    return "\n".join(lines) + "\n"
