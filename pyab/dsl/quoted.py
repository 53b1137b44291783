"""Quoted names, both ways: :func:`unquote`, the text a '...' name stands
for, with Prolog's escapes (\\n, \\x41\\, \\101\\, '' for a quote, ...), for both
readers of the DSL (lark's transformer and the fast scanners); and
:func:`quote`, the one function that writes a name as Prolog (and DSL) text,
for the fact files, the bridge and the DSL printer alike."""

from __future__ import annotations

import functools
import re
from typing import Any

from ..errors import Error

__all__ = ["Bad", "quote", "unquote"]

_ESCAPE = re.compile(
    r"\\(x[0-9a-fA-F]+\\|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]+\\|.)|''", re.S
)
_SIMPLE = {"\\": "\\", "'": "'", '"': '"', "`": "`", "n": "\n", "t": "\t",
           "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b",
           "s": " "}


class Bad(Error):
    """A problem found inside the transformer, with its token."""

    def __init__(self, message: str, token: Any):
        super().__init__(message)
        self.message, self.token = message, token


def unquote(token: Any) -> str:
    """The name a quoted name token ('...', quotes included) stands for, with
    Prolog's escapes read; :class:`Bad` for an escape it cannot hold."""
    body = token[1:-1]

    def one(m: re.Match[str]) -> str:
        if m.group(0) == "''":
            return "'"
        esc = m.group(1)
        if esc in _SIMPLE:
            return _SIMPLE[esc]
        if esc[0] in "xuU" and len(esc) > 1:
            code = int(esc[1:].rstrip("\\"), 16)
        elif esc[0] in "01234567":
            code = int(esc.rstrip("\\"), 8)
        else:
            raise Bad(f"unknown escape \\{esc} in a quoted name", token)
        if code == 0:
            raise Bad("a name cannot contain the NUL character", token)
        if code > 0x10FFFF:
            raise Bad(f"escape \\{esc} is not a character a name may hold", token)
        return chr(code)

    name = _ESCAPE.sub(one, body)
    if "\0" in name:
        raise Bad("a name cannot contain the NUL character", token)
    return name


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


@functools.lru_cache(maxsize=1 << 16)  # the referee quotes every name of every tree it ships
def quote(name: str) -> str:
    """``name`` as a Prolog atom: bare when it is a plain identifier, else in
    single quotes with ``\\`` escapes, so it reads back as exactly ``name``.

    >>> quote("b"), quote("King e1"), quote("X"), quote("it's")
    ('b', "'King e1'", "'X'", "'it\\\\'s'")
    """
    if _PLAIN.match(name) and name not in _OPERATORS:
        return name
    return "'" + "".join(_escape(c) for c in name) + "'"
