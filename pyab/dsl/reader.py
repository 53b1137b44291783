"""Text -> :class:`~pyab.tree.Tree`, and back.

:func:`parse` reads a text with the scanner of this installation's form
(the compiled one, else the pure-Python ones: :func:`_fast`); what it
declines, and every error, goes to lark's LALR parser over
``grammar.lark``, with the transformer applied during parsing (no parse
tree is kept), which collects declarations with their positions and hands
them to :func:`pyab.tree.build`, the one place a tree is validated.  Every problem
becomes a :class:`DSLError` that names ``FILE:LINE:COL`` and shows the line
with a caret under the place.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Token
    from lark.exceptions import UnexpectedInput

# lark is imported only when a text needs it (the fast paths read most trees
# without it; importing it costs about 50 ms of a command's start-up).

from ..errors import DSLError
from ..resources import compiled
from ..text import number as number_text
from ..tree import Number, Tree, TreeError, build, build_plain, build_preorder, nested_declarations
from .flatscan import FAST, scan
from .quoted import Bad as _Bad
from .quoted import quote
from .quoted import unquote as _unquote
from . import treescan
from .treescan import scan_list, scan_nested

__all__ = ["dump", "load", "parse"]

_TERMINALS = {
    "NAME": "a name", "QUOTED": "a quoted name", "NUMBER": "a number",
    "MAX": "'max'", "MIN": "'min'", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "EQUAL": "'='",
    "__ANON_0": "'->'", "$END": "the end of the file",
}

def _pos(token: Token) -> tuple[int, int]:
    return (token.line or 0, token.column or 0)


class _Collect:  # a lark Transformer: the base is added by _Parser
    """Builds the declarations while the parser reduces (inline)."""

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self) -> None:
        self.edges: list[Any] = []
        self.values: list[Any] = []
        self.defined: list[Any] = []
        self.marks: list[Any] = []  # (name, side, position): `max`/`min` before a name
        self.side = "max"
        self.form = "flat"

    def _marked(self, items: list) -> list:
        """``items`` without a leading side, which is recorded for the name after it."""
        if items and isinstance(items[0], str):
            name, pos = items[1]
            self.marks.append((name, items[0], pos))
            return items[1:]
        return items

    # terminals wrapped in rules
    def name(self, items):
        tok = items[0]
        text = _unquote(tok) if tok.type == "QUOTED" else str(tok)
        return (text, _pos(tok))

    def number(self, items):
        tok = items[0]
        text = str(tok)
        try:
            value: Number = float(text) if any(c in text for c in ".eE") else int(text)
        except ValueError:  # Python refuses int() of more than 4300 digits
            raise _Bad(f"integer too large ({len(text.lstrip('+-'))} digits)", tok) from None
        return (value, _pos(tok))

    def value(self, items):
        return items[0]

    def max(self, _):
        return "max"

    def min(self, _):
        return "min"

    # nested form
    def leaf(self, items):
        (name, pos), (value, _) = self._marked(items)
        self.values.append((name, value, pos))
        self.defined.append((name, pos))
        return (name, pos)

    def bare(self, items):
        name, pos = self._marked(items)[0]
        self.defined.append((name, pos))
        return (name, pos)

    def nested(self, items):
        items = self._marked(items)
        (name, pos) = items[0]
        children = [c for c in items[1:] if c is not None]
        if children and not isinstance(children[0][0], str):
            value, _ = children.pop(0)  # the optional `= number` of an inner node
            self.values.append((name, value, pos))
        self.edges.append((name, pos, children))
        self.defined.append((name, pos))
        self.form = "nested"
        return (name, pos)

    # list form: keep the shape; names are given top-down afterwards
    def list(self, items):
        self.form = "list"
        return ("list", [i for i in items if i is not None])

    # flat form
    def edge(self, items):
        items = self._marked(items)
        (name, pos), children = items[0], items[1:]
        self.edges.append((name, pos, children))
        return None

    def flat(self, _):
        self.form = "flat"
        return None

    def start(self, items):
        if len(items) == 2:  # side list
            self.side = items[0]
            return items[1]
        if self.form == "flat" and self.marks:
            # The side before a flat file's first declaration is the root's
            # (README, "Sides per node"), whichever node that declaration names.
            first = min([p for _, p, _ in self.edges] + [p for _, _, p in self.values])
            name, side, pos = self.marks[0]
            if pos == first:
                self.side = side
                self.marks.pop(0)
        return items[0]


class _Parser:
    """The compiled grammar with the transformer inlined.  Compiling costs
    tens of milliseconds, so it is done once; parses are serialised by a
    lock because the transformer collects per-parse state."""

    def __init__(self) -> None:
        from lark import Lark, Transformer
        self.collect = type("Collect", (_Collect, Transformer), {})()
        self.lark = Lark.open("grammar.lark", rel_to=__file__, parser="lalr",
                              transformer=self.collect, maybe_placeholders=True)
        self.lock = threading.Lock()


@lru_cache(maxsize=None)
def _parser() -> _Parser:
    return _Parser()


# The compiled scanner, looked up once; tests set it to None for the
# pure-Python paths alone.
_cscan = compiled("dsl._cscan")


def _from_arrays(arrays: tuple) -> Tree | None:
    names, kids, values, index, depth, side, marks = arrays
    if names is None:  # a list-form tree whose Dewey names are spelled on demand
        names = treescan.DeweyNames(*index)
        index = treescan.DeweyIndex(names, kids)
    return build_preorder(names, kids, values, side, index, depth, marks or (), scanned=True)


def _fast(text: str) -> Tree | None:
    """The tree read by the scanner of this installation's form, or None
    when it leaves the text to lark.  One reader a form: the compiled
    scanner (pyab/dsl/_cscan.c) where it is built, which returns the Tree's
    arrays or None for anything it is not sure of; else (no compiler,
    ``PYAB_PURE_PYTHON=1``) the pure-Python scanners (pyab.dsl.flatscan,
    pyab.dsl.treescan), whose rules it follows.  What the one declines goes
    to lark, never to the other."""
    if _cscan is not None:
        arrays = _cscan.scan(text)
        return None if arrays is None else _from_arrays(arrays)
    return _fast_python(text)


def _fast_python(text: str) -> Tree | None:
    """The pure-Python fast paths (see :func:`_fast`); none on Python 3.10.
    The first character after an optional side says which form to try:
    ``[`` the list form; else the flat form, whose pattern fails at the
    first ``(`` of a nested tree."""
    if not FAST:
        return None
    start = treescan._HEAD.match(text)
    if text[start.end():start.end() + 1] == "[":  # type: ignore[union-attr]
        return scan_list(text)
    plain = scan(text)
    if plain is not None:
        return build_plain(*plain)
    return scan_nested(text)


def parse(text: str, source: str = "<string>") -> Tree:
    """Parse DSL ``text`` into a validated :class:`Tree`.

    :raises DSLError: on a syntax error or an invalid tree, naming the place.

    >>> parse("a(b(e=3, f=12), c(h=2))").children("a")
    ('b', 'c')
    """
    from ..api import expect_text
    expect_text(text, "pyab.parse")
    return _parse(text, source)


def _parse(text: str, source: str) -> Tree:
    """:func:`parse` of a text known to be a str (read from a file)."""
    tree = _fast(text)
    if tree is not None:
        return tree
    # Not sure (or something is wrong): lark decides, and names the place.
    # Lines as lark counts them (by \n only; splitlines() also breaks at \r,
    # \f, \u2028, ..., and the excerpt would show the wrong line).
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    from lark.exceptions import UnexpectedInput, VisitError
    parser = _parser()
    with parser.lock:
        collect = parser.collect
        collect.reset()
        try:
            shape = parser.lark.parse(text)
        except _Bad as bad:
            raise DSLError(bad.message, source, *_pos(bad.token), lines) from None
        except VisitError as err:  # lark wraps errors raised in callbacks
            if isinstance(err.orig_exc, _Bad):
                orig = err.orig_exc
                raise DSLError(orig.message, source, *_pos(orig.token), lines) from None
            raise
        except UnexpectedInput as err:
            line, column = _place(err, text, lines)
            raise DSLError(_describe(err, text), source, line, column, lines) from None
        if collect.form == "list":
            collect.edges, collect.values = nested_declarations(
                shape, lambda n: n[1] if isinstance(n, tuple) and n and n[0] == "list" else None,
                lambda n: n, (1, 1))
        edges, values, side = collect.edges, collect.values, collect.side
        marks = collect.marks
        defined = sorted(collect.defined, key=lambda d: d[1]) if collect.form == "nested" else ()
        collect.reset()
    try:
        return build(edges, values, side, defined, marks)
    except TreeError as err:
        line, col = err.pos
        if (line, col) == (0, 0) and lines:
            line, col = 1, 1
        raise DSLError(err.message, source, line, col, lines) from None


def _place(err: UnexpectedInput, text: str, lines: list[str]) -> tuple[int, int]:
    """Where to point: the offending token, or just after the last
    non-blank character when the text ends too early."""
    from lark.exceptions import UnexpectedEOF, UnexpectedToken
    at_end = isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END")
    line, column = getattr(err, "line", 0) or 0, getattr(err, "column", 0) or 0
    if line > 0 and column > 0 and not at_end:
        return line, column
    for i in range(len(lines) - 1, -1, -1):
        body = lines[i].split("#")[0].split("%")[0].rstrip()
        if body:
            return i + 1, len(body) + 1
    return 0, 0


def _describe(err: UnexpectedInput, text: str) -> str:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    if isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream or 0
        ch = text[at] if at < len(text) else ""
        if ch == "'":
            return "unexpected character \"'\": a quoted name not closed on the line it starts on"
        if ch.isupper():  # AIMA's capital names: in Prolog a capital starts a variable
            word = re.match(r"\w+", text[err.pos_in_stream:]).group()  # type: ignore[union-attr]
            return (f"unexpected character {ch!r}: a name starts with a lower-case letter; "
                    f"quote it ('{word}') or write it in lower case ({word.lower()})")
        return f"unexpected character {ch!r}"
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        if all(not line.strip() or line.strip().startswith(("#", "%")) for line in text.split("\n")):
            return "empty file: expected a tree"
        expected = getattr(err, "accepts", None) or getattr(err, "expected", None) or []
        return "unexpected end of file" + _expected(expected)
    if isinstance(err, UnexpectedToken):
        return f"unexpected {str(err.token)!r}" + _expected(err.accepts or err.expected)
    return str(err).splitlines()[0]


def _expected(names: Any) -> str:
    words = sorted({_TERMINALS.get(n, n) for n in names})
    return f"; expected {', '.join(words)}" if words else ""


def load(path: str | Path) -> Tree:
    """Read and parse a ``.tree`` file (UTF-8); ``-`` reads standard input.
    A ``.pl`` file is a facts file (``pyab facts`` output), read without
    running it (:mod:`pyab.dsl.factsfile`)."""
    from ..api import expect_path
    expect_path(path, "pyab.load")
    if str(path).endswith(".pl"):
        from . import factsfile
        return factsfile.load(path)
    if str(path) == "-":
        import sys
        return _parse(sys.stdin.read(), "<stdin>")
    return _parse(decode(read_bytes(path), str(path)), str(path))


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a tree file.

    :raises DSLError: naming the file when it cannot be read."""
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise DSLError(f"cannot read: {err.strerror}", str(path), 0, 0, []) from None


def decode(data: bytes, source: str) -> str:
    """A tree file's text from its bytes (UTF-8).

    :raises DSLError: naming ``source`` when they are not UTF-8."""
    try:
        # A BOM (Windows editors) is not part of the tree.  Decode the bytes at
        # once: read_text() silently drops a file that is only part of a BOM.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise DSLError(f"not UTF-8 text ({err.reason} at byte {err.start})", source, 0, 0, []) from None
    # Universal newlines, as read_text() had them: a lone \r (old Mac
    # files) ends a line, so error places match what editors show.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _marks(tree: Tree) -> list[str]:
    """The side mark each node needs in the text: "min " or "max " where the
    side is not the one it would take anyway (the opposite of its parent's;
    MAX at the root), else ""."""
    marks = ["min " if tree.root_side == "min" else ""] + [""] * (len(tree) - 1)
    if tree.sides is not None:
        for i, ks in enumerate(tree.kids):
            for k in ks:
                if tree.sides[k] == tree.sides[i]:
                    marks[k] = "max " if tree.sides[k] else "min "
    return marks


def dump(tree: Tree, form: str = "nested") -> str:
    """DSL text for ``tree`` (``nested`` or ``flat``) that parses back to an
    equal tree.  Inner nodes with a static value keep it; a node whose side
    does not alternate is written with its ``max``/``min`` mark."""
    from ..api import expect_tree
    expect_tree(tree, "pyab.dump")
    names, kids, values = tree.names, tree.kids, tree.values
    marks = _marks(tree)
    if form == "flat":
        # The root's declaration comes first, so its mark is the leading one.
        out = []
        for i, ks in enumerate(kids):
            if ks:
                out.append(f"{marks[i]}{quote(names[i])} -> {', '.join(quote(names[k]) for k in ks)}")
                marks[i] = ""
        for i, v in enumerate(values):
            if v is not None:
                out.append(f"{marks[i]}{quote(names[i])} = {number_text(v)}")
        return "\n".join(out) + "\n"
    if form != "nested":
        raise ValueError(f"unknown form {form!r}")
    if not kids[0]:
        return f"{marks[0]}{quote(names[0])} = {number_text(values[0])}\n"  # type: ignore[arg-type]
    parts: list[str] = []
    stack: list[Any] = [0]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        i = item
        label = marks[i] + quote(names[i])
        if values[i] is not None:
            label += f" = {number_text(values[i])}"
        if not kids[i]:
            parts.append(label)
            continue
        parts.append(label + "(")
        stack.append(")")
        for j, k in enumerate(reversed(kids[i])):
            stack.append(k)
            if j < len(kids[i]) - 1:
                stack.append(", ")
    return "".join(parts) + "\n"
