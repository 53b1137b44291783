"""A fast path for the flat form of big, plain tree files.

lark's LALR parser reads about 30,000 nodes a second here; a file of a
million ``a -> b, c`` / ``b = 3`` lines would take half a minute.  This
module reads the same declarations with three regular expressions that run
in C: one that checks the whole text against the flat form, two that pick
the edges and the values out of it.  It only takes plain input -- flat
form, bare names ``[a-z][A-Za-z0-9_]*``, comments, an optional leading
``max``/``min`` -- and answers ``None`` for anything else (a quote, a
nested or list tree, a syntax error), so that the lark grammar stays the
definition and the one source of every syntax error.  Positions are not
kept: when :func:`pyab.tree.build_plain` refuses the declarations,
:func:`pyab.dsl.parse` parses the text again with lark to name the place.

Every quantifier is possessive, so a name or a number is always the longest
one, as lark's lexer takes it (``a -> xy = 3`` is refused, not read as
``a -> x`` and ``y = 3``).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["scan"]

_WS = r"[ \t\f\r\n]"  # lark's common.WS
_NAME = r"[a-z][A-Za-z0-9_]*+"
_NUMBER = r"[+-]?+[0-9]++(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+"  # [0-9]: \d takes any script's digits
_EDGE = rf"({_NAME}){_WS}*+->{_WS}*+({_NAME}(?:{_WS}*+,{_WS}*+{_NAME})*+)"
_VALUE = rf"({_NAME}){_WS}*+={_WS}*+({_NUMBER})"
_FLAT = re.compile(
    rf"{_WS}*+(?:(max|min)(?![A-Za-z0-9_]){_WS}*+)?(?:(?:{_EDGE}|{_VALUE}){_WS}*+)++")
_EDGES = re.compile(_EDGE)
_VALUES = re.compile(_VALUE)
_COMMENT = re.compile(r"[#%][^\n]*+")


def scan(text: str) -> tuple[dict[str, list[str]], dict[str, Any], str] | None:
    """``(kids, values, side)`` for :func:`pyab.tree.build_plain` when
    ``text`` is a plain flat-form tree that names no node twice on the left
    of ``->`` or ``=``, else None.

    >>> scan("min a -> b, c\\nb = 3  c = 2.5")
    ({'a': ['b', 'c']}, {'b': 3, 'c': 2.5}, 'min')
    >>> scan("a(b=1)") is None
    True
    """
    if "'" in text:
        return None  # quoted names: lark unquotes them
    if "#" in text or "%" in text:
        text = _COMMENT.sub("", text)  # no quotes, so a # or % starts a comment
    match = _FLAT.fullmatch(text)
    if match is None:
        return None
    start = match.end(1) if match.group(1) else 0
    edges = _EDGES.findall(text, start)
    kids = {name: "".join(children.split()).split(",") for name, children in edges}
    pairs = _VALUES.findall(text, start)
    names = [name for name, _ in pairs]
    numbers = [number for _, number in pairs]
    try:
        try:
            values = list(map(int, numbers))  # all integers: the common case
        except ValueError:
            values = [float(x) if "." in x or "e" in x or "E" in x else int(x) for x in numbers]
    except ValueError:  # more digits than int() takes: lark reports it
        return None
    vals = dict(zip(names, values))
    if len(kids) != len(edges) or len(vals) != len(pairs):
        return None  # listed twice: lark keeps the places to say where
    return kids, vals, match.group(1) or "max"
