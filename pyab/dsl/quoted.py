"""Quoted names: the text a '...' name stands for, with Prolog's escapes
(\\n, \\x41\\, \\101\\, '' for a quote, ...).  One place for both readers of
the DSL: lark's transformer (pyab.dsl) and the fast scanners (pyab.dsl.flatscan)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Bad", "unquote"]

_ESCAPE = re.compile(
    r"\\(x[0-9a-fA-F]+\\|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]+\\|.)|''", re.S
)
_SIMPLE = {"\\": "\\", "'": "'", '"': '"', "`": "`", "n": "\n", "t": "\t",
           "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b",
           "s": " "}


class Bad(Exception):
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
