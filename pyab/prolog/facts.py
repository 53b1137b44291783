"""Tree -> Prolog facts, in the slides' vocabulary.

This module is the only place that turns a name into Prolog text
(:func:`quote`) or a number into Prolog text (:func:`number`).  The DSL
printer uses the same two functions, so a name reads back the same in the
DSL, in the REPL and in the bridge.
"""

from __future__ import annotations

import re

from ..text import number
from ..tree import Tree

__all__ = ["facts", "number", "quote"]

_PLAIN = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
# Lower-case atoms that SWI-Prolog 9 declares as operators.  SWI reads them
# as plain arguments too, but quoting them costs nothing and is portable.
_OPERATORS = frozenset(
    "as discontiguous div dynamic initialization is meta_predicate mod "
    "module_transparent multifile public rdiv rem table thread_initialization "
    "thread_local volatile xor".split()
)
_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch == "\0":
        raise ValueError("a name cannot contain the NUL character")
    if ord(ch) < 0x20 or ord(ch) == 0x7F:
        return f"\\x{ord(ch):x}\\"
    return ch


def quote(name: str) -> str:
    """``name`` as a Prolog atom: bare when it is a plain identifier, else in
    single quotes with ``\\`` escapes, so it reads back as exactly ``name``.

    >>> quote("b"), quote("King e1"), quote("X"), quote("it's")
    ('b', "'King e1'", "'X'", "'it\\\\'s'")
    """
    if _PLAIN.match(name) and name not in _OPERATORS:
        return name
    return "'" + "".join(_escape(c) for c in name) + "'"


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
