"""Fast paths for reading tree text: regular expressions that run in C.

lark's LALR parser reads about 30,000 nodes a second; a file of a million
nodes would take half a minute.  The scanners here read the same text with
regular expressions (``re`` works at C speed) and a short Python loop per
declaration or node.  They take only text they are sure of and answer
``None`` for anything else -- a syntax error, an escape they would have to
judge, a repeated name, a leaf without a value -- so that the lark grammar
stays the definition of the language and the one source of every error
message: :func:`pyab.dsl.parse` then reads the text again with lark, which
names the place.

- :func:`scan`: the flat form (``a -> b, c`` / ``b = 3``), bare or quoted
  names, comments anywhere (an apostrophe in a comment or a ``#`` in a
  quoted name is read as lark reads it), a ``max``/``min`` before the first
  declaration only (the root's side; a side mark before any other name
  sends the text to lark);
- :func:`pyab.dsl.treescan.scan_nested` and :func:`pyab.dsl.treescan.scan_list`:
  the nested and the list form.

The pieces below (``WS``, ``NAME``, ``QUOTED``, ``NUMBER``) are lark's
terminals from ``grammar.lark``, written with possessive quantifiers so that
a name or a number is always the longest one, as lark's lexer takes it
(``a -> xy = 3`` is refused, not read as ``a -> x`` and ``y = 3``).
Both came to ``re`` in Python 3.11: on 3.10 these scanners are off
(:data:`FAST` is false) and every text goes to the compiled scanner, then
to lark.
"""

from __future__ import annotations

import re
import sys
from typing import Any

__all__ = ["FAST", "scan", "unquote"]

FAST = sys.version_info >= (3, 11)  # possessive quantifiers and atomic groups in `re`

# lark's common.WS and COMMENT, any number of them (an "ignore" run).
SKIP = r"(?:[ \t\f\r\n]++|[#%][^\n]*+)*+"
BARE = r"[a-z][A-Za-z0-9_]*+"
QUOTED = r"'(?:[^'\\\n]++|\\(?>[0-7]+\\|x[0-9a-fA-F]+\\|[^\n])|'')*+'"
NAME = rf"(?:{BARE}|{QUOTED})"
NUMBER = r"[+-]?+[0-9]++(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+"  # [0-9]: \d takes any script's digits
SIDE = r"(max|min)(?![A-Za-z0-9_])"


def _patterns(name: str, skip: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The whole flat form, one declaration, one edge, one value."""
    edge = rf"({name}){skip}->{skip}({name}(?:{skip},{skip}{name})*+)"
    value = rf"({name}){skip}={skip}({NUMBER})"
    return (re.compile(rf"{skip}(?:{SIDE}{skip})?(?:(?:{edge}|{value}){skip})++"),
            re.compile(rf"{skip}(?:{edge}|{value})"), re.compile(edge), re.compile(value))


# Any flat text.  After a full match, one findall of _DECL from the end of the
# side keyword yields every declaration in order: each match starts where the
# last ended (the text is known to be a run of declarations and gaps).
if FAST:
    _FLAT, _DECL, _, _ = _patterns(NAME, SKIP)
    # Text without quotes or comments (the common case, a fifth faster): bare
    # names and white space only, so the edges and the values can be picked out
    # by two findalls that may skip what lies between them.
    _PLAIN, _, _EDGES, _VALUES = _patterns(BARE, r"[ \t\f\r\n]*+")
    _COMMENT = re.compile(r"[#%][^\n]*+")
    _KID = re.compile(rf"[#%][^\n]*+|({NAME})")  # comments inside a child list are skipped


def unquote(name: str) -> str | None:
    """The name a QUOTED token stands for, or None when lark should judge it
    (an escape it would refuse, a NUL)."""
    body = name[1:-1]
    if "\\" not in body:  # then a quote inside is always doubled
        body = body.replace("''", "'")
        return body if "\0" not in body else None
    from .quoted import Bad as _Bad
    from .quoted import unquote as _unquote
    try:
        return _unquote(name)
    except _Bad:
        return None


def _names(names: list[str]) -> list[str] | None:
    """Bare names as they are, quoted names unquoted; None if one cannot be."""
    if not any(n[0] == "'" for n in names):
        return names
    out = [unquote(n) if n[0] == "'" else n for n in names]
    return None if None in out else out  # type: ignore[return-value]


def numbers(texts: list[str]) -> list[Any] | None:
    """Python numbers for NUMBER tokens, as the lark transformer makes them;
    None when one has more digits than int() takes (lark reports it)."""
    try:
        try:
            return list(map(int, texts))  # all integers: the common case
        except ValueError:
            return [float(x) if "." in x or "e" in x or "E" in x else int(x) for x in texts]
    except ValueError:
        return None


def scan(text: str) -> tuple[dict[str, list[str]], dict[str, Any], str] | None:
    """``(kids, values, side)`` for :func:`pyab.tree.build_plain` when
    ``text`` is a flat-form tree that names no node twice on the left of
    ``->`` or ``=``, else None.

    >>> scan("min a -> b, 'c d'\\nb = 3  'c d' = 2.5  # it's a comment")
    ({'a': ['b', 'c d']}, {'b': 3, 'c d': 2.5}, 'min')
    >>> scan("a(b=1)") is None
    True
    """
    if not FAST:
        return None
    if "'" not in text:
        if "#" in text or "%" in text:
            text = _COMMENT.sub("", text)  # no quotes, so a # or % starts a comment
        match = _PLAIN.fullmatch(text)
        if match is None:
            return None
        start = match.end(1) if match.group(1) else 0
        edges, pairs = _EDGES.findall(text, start), _VALUES.findall(text, start)
        plain = {name: "".join(children.split()).split(",") for name, children in edges}
        values = numbers([number for _, number in pairs])
        if values is None:
            return None
        vals = dict(zip([name for name, _ in pairs], values))
        if len(plain) != len(edges) or len(vals) != len(pairs):
            return None  # listed twice: lark keeps the places to say where
        return plain, vals, match.group(1) or "max"
    match = _FLAT.fullmatch(text)
    if match is None:
        return None
    decls = _DECL.findall(text, match.end(1) if match.group(1) else 0)
    # (parent, children, "", "") for an edge, ("", "", name, number) for a value
    parents = [d[0] for d in decls if d[0]]
    lists = [d[1] for d in decls if d[0]]
    vnames = [d[2] for d in decls if not d[0]]
    values = numbers([d[3] for d in decls if not d[0]])
    if values is None:
        return None
    kids = [[k for k in _KID.findall(c) if k] if "'" in c or "#" in c or "%" in c
            else "".join(c.split()).split(",") for c in lists]  # "": a comment
    named_parents, named_vnames = _names(parents), _names(vnames)
    named_kids = [_names(ks) for ks in kids]
    if named_parents is None or named_vnames is None or None in named_kids:
        return None
    tree: dict[str, list[str]] = dict(zip(named_parents, named_kids))  # type: ignore[arg-type]  # no None
    vals = dict(zip(named_vnames, values))
    if len(tree) != len(named_parents) or len(vals) != len(named_vnames):
        return None  # listed twice: lark keeps the places to say where
    return tree, vals, match.group(1) or "max"
