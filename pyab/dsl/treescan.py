"""Fast paths for the nested and the list form (see :mod:`pyab.dsl.flatscan`).

Both forms write the tree in pre-order, which is the order of a
:class:`~pyab.tree.Tree`'s ids, so the scanners build the Tree's arrays
directly: one ``findall`` of a regular expression yields one tuple a node
(its name and value, and the brackets and comma that follow it), and a
short Python loop keeps a stack of open child lists.  A catch-all branch
(``|(.+)``, which takes the rest of the text at once, so a bad text costs
one pass) makes every match start where the last ended: one bad character
anywhere sends the text to lark.  Anything the scanners are not
sure of -- a syntax error, a bare leaf, a repeated name, an odd number or
escape -- gives ``None``, and :func:`pyab.dsl.parse` reads the text with
lark, the definition of the language and the source of every message.

List-form nodes are named by their Dewey paths (``r``, ``r_1``, ``r_1_2``).
In a deep tree those names together are quadratic in the input (a chain
50,000 lists deep has names of 100,000 characters on average: 5 GB), so
past a bound the Tree gets :class:`DeweyNames`, which spells a name when
asked, and :class:`DeweyIndex` instead of a tuple and a dict: memory stays
linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Iterator

from .flatscan import FAST, NAME, NUMBER, SIDE, SKIP, numbers, unquote
from ..tree import Tree, build_preorder

__all__ = ["DeweyIndex", "DeweyNames", "scan_list", "scan_nested"]

MARK = SIDE
if FAST:  # else scan_nested and scan_list leave every text to the compiled scanner and lark
    _HEAD = re.compile(rf"{SKIP}(?:(max|min)(?![A-Za-z0-9_]){SKIP}(?=[a-z'\[]))?")
    # the side mark ("max"/"min", the courses' sides per node), name, "= value"
    # of the node, then "(" (it has children) or the ")"s that close its
    # ancestors' lists, and the "," before its next sibling.  The mark is tried
    # first and given back when no name follows it (`a(max = 3)` names `max`).
    _NESTED = re.compile(
        rf"{SKIP}(?:{MARK}{SKIP})?({NAME}){SKIP}(?:={SKIP}({NUMBER}){SKIP})?(\(|(?:\){SKIP})*+,?)|(.+)", re.S)
    # the "["s that open lists, a leaf's number, the "]"s and "," after it.
    _LIST = re.compile(rf"((?:\[{SKIP})*+)({NUMBER}){SKIP}((?:\]{SKIP})*+,?){SKIP}|(.+)", re.S)
    _COMMENT = re.compile(r"[#%][^\n]*+")  # in a run of brackets, commas and gaps: no quotes there


def _tree(names: Any, kids: tuple, texts: list[str], at: list[int], depth: list[int],
          side: str, index: Any = None, marks: list[tuple[int, str]] | None = None) -> Tree | None:
    """The Tree of the arrays (the value texts are numbers' tokens, of the
    nodes ``at``), through the builder's pre-order mode, which checks it."""
    vals = numbers(texts)
    if vals is None:
        return None
    values: list[Any] = [None] * len(kids)
    for i, v in zip(at, vals):
        values[i] = v
    return build_preorder(names, kids, values, side, index, tuple(depth), marks or ())


def scan_nested(text: str) -> Tree | None:
    """The Tree of a nested-form ``text``, or None (then lark decides).

    >>> scan_nested("min a(b(e=3, f=12), 'c d' = 1 (h=2))").names
    ('a', 'b', 'e', 'f', 'c d', 'h')
    """
    if not FAST:
        return None
    items = _NESTED.findall(text)  # a side before the root is the root's mark
    if not items or items[0][3] != "(":
        return None  # a lone `a = 3` is the flat form
    marks: list[tuple[int, str]] = []
    comments = "#" in text or "%" in text
    names: list[str] = []
    kids: list[Any] = []
    depth: list[int] = []
    texts: list[str] = []
    at: list[int] = []
    stack: list[list[int]] = []
    i = 0
    for mark, name, number, tail, bad in items:
        if bad or (not stack and i):
            return None  # a character lark must judge, or text after the root
        if mark:
            marks.append((i, mark))
        names.append(name)
        if stack:
            stack[-1].append(i)
        depth.append(len(stack))
        if number:
            texts.append(number)
            at.append(i)
        if tail == "(":
            k: list[int] = []
            kids.append(k)
            stack.append(k)
        else:
            kids.append(())
            if not number:
                return None  # a bare leaf: lark names it
            if comments:
                tail = _COMMENT.sub("", tail)
            n = tail.count(")")
            if n > len(stack):
                return None
            if n:
                del stack[-n:]
            if (tail[-1:] == ",") != bool(stack):
                return None  # a comma after the root, or a list not closed
        i += 1
    if stack:
        return None
    if "'" in text and any(n[0] == "'" for n in names):
        names = [unquote(n) if n[0] == "'" else n for n in names]  # type: ignore[misc]
        if None in names:
            return None
    return _tree(names, tuple(map(tuple, kids)), texts, at, depth, "max", None, marks)


def scan_list(text: str) -> Tree | None:
    """The Tree of a list-form ``text`` (Dewey names), or None.

    >>> scan_list("min [[3, 12], 8]").names
    ('r', 'r_1', 'r_1_1', 'r_1_2', 'r_2')
    """
    if not FAST:
        return None
    head = _HEAD.match(text)
    side = head.group(1) or "max"  # type: ignore[union-attr]
    items = _LIST.findall(text, head.end())  # type: ignore[union-attr]
    if not items or not items[0][0]:
        return None  # a lone number is no tree
    comments = "#" in text or "%" in text
    parent: list[int] = []
    nth: list[int] = []  # 1-based place among the siblings (0: the root)
    kids: list[Any] = []
    depth: list[int] = []
    texts: list[str] = []
    at: list[int] = []
    stack: list[list[int]] = []  # the open lists' children
    owner: list[int] = []  # the open lists' nodes
    i = 0
    for opens, number, tail, bad in items:
        if bad or (not stack and i):
            return None
        if comments:
            opens, tail = _COMMENT.sub("", opens), _COMMENT.sub("", tail)
        for _ in range(opens.count("[")):
            if stack:
                parent.append(owner[-1])
                stack[-1].append(i)
                nth.append(len(stack[-1]))
            else:
                parent.append(-1)
                nth.append(0)
            depth.append(len(stack))
            k: list[int] = []
            kids.append(k)
            stack.append(k)
            owner.append(i)
            i += 1
        parent.append(owner[-1])
        stack[-1].append(i)
        nth.append(len(stack[-1]))
        depth.append(len(stack))
        kids.append(())
        texts.append(number)
        at.append(i)
        i += 1
        n = tail.count("]")
        if n > len(stack):
            return None
        if n:
            del stack[-n:], owner[-n:]
        if (tail[-1:] == ",") != bool(stack):
            return None
    if stack:
        return None
    shape = tuple(map(tuple, kids))
    del kids
    names, index = _dewey(parent, nth, shape, len(text))
    return _tree(names, shape, texts, at, depth, side, index)


def _dewey(parent: list[int], nth: list[int], kids: tuple, budget: int) -> tuple[Any, Any]:
    """The Dewey names as a tuple and a dict when they take at most eight
    characters per character of the input, else spelled on demand."""
    length = [1] * len(parent)
    for i in range(1, len(parent)):
        length[i] = length[parent[i]] + 1 + len(str(nth[i]))
    if sum(length) > 8 * budget + 10_000:
        names = DeweyNames(parent, nth)
        return names, DeweyIndex(names, kids)
    del length
    out = ["r"] * len(parent)
    for i in range(1, len(parent)):
        out[i] = f"{out[parent[i]]}_{nth[i]}"
    return tuple(out), None


class DeweyNames(Sequence):
    """A list-form tree's names, spelled from the parent links when asked
    (``r_1_2`` is the second child of the first child of the root)."""

    def __init__(self, parent: list[int], nth: list[int]):
        self._parent, self._nth = parent, nth

    def __len__(self) -> int:
        return len(self._parent)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("node id out of range")
        parts = []
        while i > 0:
            parts.append(self._nth[i])
            i = self._parent[i]
        return "_".join(["r", *map(str, reversed(parts))])

    def __iter__(self) -> Iterator[str]:
        return map(self.__getitem__, range(len(self)))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Sequence) and len(other) == len(self)
                and all(a == b for a, b in zip(self, other)))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} Dewey names>"


class DeweyIndex(Mapping):
    """Name -> id for :class:`DeweyNames`, read off the path in the name."""

    def __init__(self, names: DeweyNames, kids: tuple):
        self._names, self._kids = names, kids

    def __getitem__(self, name: Any) -> int:
        if not isinstance(name, str) or not name.startswith("r"):
            raise KeyError(name)
        i = 0
        for part in name[1:].split("_")[1:] if name != "r" else ():
            if not part.isdigit() or not part.isascii() or part != str(int(part)):
                raise KeyError(name)
            k = int(part)
            if not 1 <= k <= len(self._kids[i]):
                raise KeyError(name)
            i = self._kids[i][k - 1]
        if name != "r" and not name.startswith("r_"):
            raise KeyError(name)
        return i

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)
