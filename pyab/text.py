"""Text for people: what a student controls made safe for where it lands
(a terminal or pipe, a CSV cell, XML), capped, and numbers as Prolog writes them.

A node name may be any quoted text (``'King e1'``), so it may also hold an
escape sequence that recolours or clears the screen, a bell, a carriage
return that overwrites the line, or a bidirectional override (U+202E) that
makes ``abc`` read as ``cba``.  :func:`printable` is the one place that
turns such characters into visible escapes; every command that prints a
name, a diff or an error excerpt to a terminal goes through it.  JSON
output and the pictures (SVG, HTML, DOT) keep names exactly: they are
escaped by their own formats and shown by programs that do not obey
terminal control codes.

    >>> printable("a\\x1b[2Jb")
    'a\\\\x1b[2Jb'
    >>> printable("ok name")
    'ok name'
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Sequence

__all__ = ["CAP", "capped", "csv_cell", "printable", "printable_lines", "shorten", "xml_text"]

CAP = 4000  # characters of an error text kept (a few KB)

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _unsafe(ch: str) -> bool:
    # Cc: C0/C1 controls and DEL (ESC, BEL, CR, ...); Cf: format characters,
    # among them the bidi embeddings/overrides/isolates and zero-width
    # characters; Zl/Zp: line and paragraph separators; Cs: lone surrogates
    # (from undecodable bytes) that a terminal cannot print.
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")


def printable(s: object) -> str:
    """``s`` as text with every control, format (bidi) and separator
    character written as a visible escape (``\\x1b``, ``\\u202e``, ``\\n``).
    Plain text, spaces and other scripts are kept as they are."""
    text = str(s)
    if text.isprintable():  # the common case: nothing to do
        return text
    return "".join(_escape(ch) if _unsafe(ch) else ch for ch in text)


def printable_lines(s: object) -> str:
    """:func:`printable`, keeping line breaks and tabs (a multi-line
    message or a program's stderr shown on a terminal)."""
    return "\n".join(printable(line).replace("\\t", "\t") for line in str(s).split("\n"))


def capped(s: object, limit: int = CAP) -> str:
    """``s`` with at most ``limit`` characters (whole characters: a str is
    cut between code points), saying how many more there were.

    >>> capped("abcdef", 3)
    'abc... (3 more characters)'
    """
    text = str(s)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A gradebook cell: text that a spreadsheet would read as a formula
    (starting with = + - @, a tab or a carriage return) gets a leading
    ``'``; numbers are kept as they are.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell(-2), csv_cell("bob")
    ("'=HYPERLINK(1)", -2, 'bob')
    """
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return value


def _xml_allowed(ch: str) -> bool:
    o = ord(ch)
    return (o >= 0x20 or ch in "\t\n\r") and not (0xD800 <= o <= 0xDFFF) and o not in (0xFFFE, 0xFFFF)


def xml_text(s: object) -> str:
    """``s`` with every character XML 1.0 forbids (most C0 controls, lone
    surrogates, U+FFFE/FFFF) written as a visible escape, so a JUnit report
    stays well-formed whatever a program printed."""
    text = str(s)
    if all(map(_xml_allowed, text)):
        return text
    return "".join(ch if _xml_allowed(ch) else _escape(ch) for ch in text)


def shorten(names: "list[str] | tuple[str, ...]", keep: int = 8, sep: str = " ") -> str:
    """``names`` joined by ``sep``, printable; a list longer than ``2 * keep
    + 1`` keeps its first and last ``keep`` items around a count of the
    rest, so that a 100,000-leaf answer stays one readable line.

    >>> shorten([f"n{i}" for i in range(100)], keep=2)
    'n0 n1 ... (96 more) ... n98 n99'
    """
    if len(names) <= 2 * keep + 1:
        return printable(sep.join(names))
    head, tail = names[:keep], names[-keep:]
    return printable(sep.join(head) + f"{sep}... ({len(names) - 2 * keep} more) ...{sep}"
                     + sep.join(tail))


def number(x: float) -> str:
    """``x`` as Prolog number syntax (floats keep a dot; infinities as 1.0Inf).

    >>> number(3), number(-2.5), number(1e300), number(float("-inf"))
    ('3', '-2.5', '1.0e+300', '-1.0Inf')
    """
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number here")
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "1.5NaN"
    if math.isinf(x):
        return "1.0Inf" if x > 0 else "-1.0Inf"
    text = repr(float(x))
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def numbers(xs: Sequence[float | None]) -> str:
    """A Prolog list of :func:`number` texts, ``null`` for None; made at C
    speed when every item is an int or None (a 475-node tree's values:
    about 20x faster than item by item).

    >>> numbers([3, None, -2]), numbers([1.5, None, float("inf")])
    ('[3,null,-2]', '[1.5,null,1.0Inf]')
    """
    if all(x is None or x.__class__ is int for x in xs):
        return json.dumps(list(xs), separators=(",", ":"))  # an int's JSON is its str()
    return "[" + ",".join("null" if x is None else number(x) for x in xs) + "]"
