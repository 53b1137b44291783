"""A facts file (``pyab facts`` output, or one written by hand) -> Tree;
:func:`pyab.dsl.load` reads a ``.pl`` file so.

The file is read, never consulted: a small reader of the one subset of
Prolog such files hold, so that nothing in it runs.  It takes

    tree(Name, [Name, ...]).        staticval(Name, Number).
    min_to_move(Name).              max_to_move(Name).
    moves(Pos, Moves) :- tree(Pos, Moves).      % the slides' bridge
    :- dynamic(tree/2).             :- encoding(utf8).

with ``%`` and ``/* */`` comments; names are plain or quoted atoms (Prolog's
escapes, as pyab.dsl.quoted reads them), numbers Prolog's integers and floats
(``1.0Inf`` and ``1.5NaN`` too, which the tree then refuses as not finite).
Anything else is refused with its place.  The declarations go through
:func:`pyab.tree.build`, like a tree file's; a node's side is its
``min_to_move``/``max_to_move`` fact (one without takes the opposite of its
parent's, the root MAX).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NoReturn

from ..errors import DSLError
from ..tree import Tree, TreeError, build
from .quoted import Bad, unquote

__all__ = ["load", "parse"]

# An escape is taken whole, never given back: `(?=(?P<escape>...))(?P=escape)`
# is the atomic group `(?>...)`, which `re` has only from Python 3.11.
_TOKEN = re.compile(r"""
    (?P<space>\s+|%[^\n]*|/\*.*?\*/)
  | (?P<quoted>'(?:[^'\\\n]|\\(?=(?P<escape>[0-7]+\\|x[0-9a-fA-F]+\\|[^\n]))(?P=escape)|'')*')
  | (?P<number>-?[0-9]+(?:\.[0-9]+(?:[eE][+-]?[0-9]+|Inf|NaN)?|[eE][+-]?[0-9]+)?)
  | (?P<atom>[a-z][A-Za-z0-9_]*)
  | (?P<var>[A-Z_][A-Za-z0-9_]*)
  | (?P<neck>:-)
  | (?P<end>\.(?=\s|%|$))
  | (?P<punct>[()\[\],/])
""", re.X | re.S)

_DIRECTIVES = {"tree/2", "staticval/2", "min_to_move/1", "max_to_move/1", "moves/2"}
_EXPECTED = ("only tree/2, staticval/2, min_to_move/1, max_to_move/1 facts, the bridge "
             "moves(Pos, Moves) :- tree(Pos, Moves) and :- dynamic/encoding directives are read "
             "from a facts file")


class _Reader:
    def __init__(self, text: str, source: str):
        self.text, self.source = text, source
        self.lines = text.split("\n")
        self.tokens: list[tuple[str, str, int]] = []  # (kind, text, offset)
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                self.fail(f"unexpected character {text[pos]!r}", pos)
            if m.lastgroup != "space":
                self.tokens.append((str(m.lastgroup), m.group(), pos))
            pos = m.end()
        self.tokens.append(("eof", "", len(text)))
        self.i = 0

    def place(self, offset: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, offset) + 1
        return line, offset - (self.text.rfind("\n", 0, offset) + 1) + 1

    def fail(self, message: str, offset: int) -> NoReturn:
        raise DSLError(message, self.source, *self.place(offset), self.lines)

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self, kind: str, text: str | None = None) -> tuple[str, str, int]:
        tok = self.tokens[self.i]
        if tok[0] != kind or (text is not None and tok[1] != text):
            want = repr(text) if text is not None else {"atom": "a name", "number": "a number",
                                                        "var": "a variable", "end": "'.'"}.get(kind, kind)
            got = "the end of the file" if tok[0] == "eof" else repr(tok[1])
            self.fail(f"expected {want}, found {got}", tok[2])
        self.i += 1
        return tok

    def name(self) -> tuple[str, tuple[int, int]]:
        kind, text, offset = self.peek()
        if kind == "atom":
            self.i += 1
            return text, self.place(offset)
        if kind == "quoted":
            self.i += 1
            try:
                return unquote(text), self.place(offset)
            except Bad as bad:
                self.fail(bad.message, offset)
        self.take("atom")  # raises, naming what was found
        raise AssertionError("take() raised")

    def number(self) -> int | float:
        _, text, offset = self.take("number")
        if text.endswith("Inf"):
            return float("-inf") if text.startswith("-") else float("inf")
        if text.endswith("NaN"):
            return float("nan")
        try:
            return float(text) if any(c in text for c in ".eE") else int(text)
        except ValueError:  # more digits than Python converts
            self.fail(f"integer too large ({len(text.lstrip('-'))} digits)", offset)

    def clause(self, edges: list, values: list, sides: list) -> None:
        kind, text, offset = self.peek()
        if kind == "neck":
            self.directive()
            return
        if kind != "atom" or text not in ("tree", "staticval", "min_to_move", "max_to_move", "moves"):
            self.fail(_EXPECTED, offset)
        self.i += 1
        self.take("punct", "(")
        if text == "tree":
            name, pos = self.name()
            self.take("punct", ",")
            self.take("punct", "[")
            kids = []
            if self.peek()[1] != "]":
                kids.append(self.name())
                while self.peek()[1] == ",":
                    self.i += 1
                    kids.append(self.name())
            self.take("punct", "]")
            edges.append((name, pos, kids))
        elif text == "staticval":
            name, pos = self.name()
            self.take("punct", ",")
            values.append((name, self.number(), pos))
        elif text in ("min_to_move", "max_to_move"):
            name, pos = self.name()
            sides.append((name, text[:3], pos))
        else:
            self.bridge()
            return
        self.take("punct", ")")
        self.take("end")

    def bridge(self) -> None:
        _, pos_var, _ = self.take("var")
        self.take("punct", ",")
        _, moves_var, offset = self.take("var")
        self.take("punct", ")")
        self.take("neck")
        self.take("atom", "tree")
        self.take("punct", "(")
        a = self.take("var")[1]
        self.take("punct", ",")
        b = self.take("var")[1]
        self.take("punct", ")")
        if (a, b) != (pos_var, moves_var) or pos_var == moves_var or "_" in (pos_var, moves_var):
            self.fail("moves/2 must be the bridge moves(Pos, Moves) :- tree(Pos, Moves)", offset)
        self.take("end")

    def directive(self) -> None:
        self.take("neck")
        _, what, offset = self.take("atom")
        self.take("punct", "(")
        if what == "encoding":
            self.take("atom")
        elif what == "dynamic":
            while True:
                _, name, at = self.take("atom")
                self.take("punct", "/")
                arity = self.take("number")[1]
                if f"{name}/{arity}" not in _DIRECTIVES:
                    self.fail(f"dynamic({name}/{arity}) is not a predicate of a facts file", at)
                if self.peek()[1] != ",":
                    break
                self.i += 1
        else:
            self.fail(_EXPECTED, offset)
        self.take("punct", ")")
        self.take("end")


def parse(text: str, source: str = "<string>") -> Tree:
    """The tree of facts file ``text``.

    :raises DSLError: naming the place of anything that is not a fact of
        the subset, or of the first problem of the tree.
    """
    reader = _Reader(text, source)
    edges: list = []
    values: list = []
    sides: list = []
    while reader.peek()[0] != "eof":
        reader.clause(edges, values, sides)
    if not edges and not values:
        raise DSLError("no tree/2 or staticval/2 facts: not a tree", source, 0, 0, [])
    try:
        return build(edges, values, "max", (), sides)
    except TreeError as err:
        line, column = err.pos
        raise DSLError(err.message, source, line, column, reader.lines) from None


def load(path: str | Path) -> Tree:
    """Read the facts file at ``path`` (UTF-8) into a :class:`Tree`."""
    try:
        text = Path(path).read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as err:
        raise DSLError(f"not UTF-8 text ({err.reason} at byte {err.start})", str(path), 0, 0, []) from None
    except OSError as err:
        raise DSLError(f"cannot read: {err.strerror}", str(path), 0, 0, []) from None
    return parse(text, str(path))
