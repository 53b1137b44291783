"""The one validated builder of :class:`~pyab.tree.model.Tree`.

All validation lives here: :func:`build` takes declarations (the DSL and
the generators only collect them and hand them over); its fast modes,
:func:`build_plain` and :func:`build_preorder`, take what the scanners
read in bulk and answer None for anything :func:`build` would refuse, which
then names the problem.
"""

from __future__ import annotations

import math
from functools import partial
from itertools import compress
from operator import is_not, not_
from typing import Any, Callable, Sequence

from .model import AnyTree, Number, Pos, Tree, TreeError

__all__ = ["AnyTree", "Number", "Tree", "TreeError", "build", "build_plain", "build_preorder",
           "check_window", "from_nested", "nested_declarations"]


def _check_value(name: str, value: Number, pos: Pos) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TreeError(f"value of {name!r} is not a number: {value!r}", pos)
    if isinstance(value, float) and not math.isfinite(value):
        raise TreeError(f"value of {name!r} is not finite: {value!r}", pos)


# Integers that SWI-Prolog 9.0 and Python compare alike with floats: SWI
# converts the integer to a float first (so 2**53 + 1 == 2.0**53 there),
# Python compares exactly.  Integers a float holds exactly agree in both.
_FLOAT_MAX_INT = 2**1024  # from here on float(i) overflows; SWI makes it inf


def _exact_in_float(i: int) -> bool:
    try:
        return float(i) == i
    except OverflowError:
        return False


def _check_name(name: object, pos: Pos) -> None:
    if not isinstance(name, str):
        raise TreeError(f"a name must be text, not {name!r}", pos)
    if "\0" in name:
        raise TreeError(f"name {name!r} contains the NUL character", pos)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise TreeError(f"name {name!r} holds a lone surrogate (not a Unicode character)", pos) from None


def _check_mixed(vals: dict[str, Number], where: dict[str, Pos]) -> None:
    """Refuse numbers SWI-Prolog and Python would compare differently."""
    for name, v in vals.items():
        if isinstance(v, int) and abs(v) >= _FLOAT_MAX_INT:
            raise TreeError(
                f"value of {name!r} is too large: integers from 2**1024 up cannot be compared "
                "with the window's infinite bounds (SWI-Prolog turns them into inf first)",
                where[name])
    first_float = next((n for n, v in vals.items() if isinstance(v, float)), None)
    if first_float is None:
        return
    for name, v in vals.items():
        if isinstance(v, int) and not _exact_in_float(v):
            raise TreeError(
                f"value of {name!r} is an integer a float cannot hold exactly, and the tree also "
                f"has decimals ({first_float!r} at {_fmt(where[first_float])}): SWI-Prolog would "
                "round it before comparing, Python would not; write all values as integers "
                "or all as decimals",
                where[name])


def check_window(tree: "Tree", alpha: Number, beta: Number) -> None:
    """Refuse a window that SWI-Prolog and Python would compare with the
    tree's values differently (see :func:`build`): a decimal bound against an
    integer a float cannot hold exactly, or the other way round.

    :raises TreeError: naming the bound.
    """
    if all(isinstance(b, float) and math.isinf(b) for b in (alpha, beta)):
        return  # the usual window; build() already refused what inf cannot meet
    ints = [v for v in tree.values if isinstance(v, int) and not _exact_in_float(v)]
    floats = any(isinstance(v, float) for v in tree.values)
    for label, b in (("alpha", alpha), ("beta", beta)):
        if isinstance(b, float) and math.isfinite(b) and ints:
            raise TreeError(f"{label} {b!r} is a decimal but the tree holds integers a float "
                            f"cannot hold exactly (e.g. {ints[0]}): give the bound as an integer")
        if isinstance(b, int) and not isinstance(b, bool) and floats and not _exact_in_float(b):
            raise TreeError(f"{label} {b} is an integer that SWI-Prolog would round to a float "
                            "when comparing it with this tree's values")


def _fmt(pos: Pos) -> str:
    return f"{pos[0]}:{pos[1]}" if pos != (0, 0) else "elsewhere"


def _build_quick(edges, values, root_side, defined) -> "Tree | None":
    """:func:`build` for declarations that hold no problem, with bulk checks
    (sets and dicts instead of a step per declaration): the same Tree, or
    None when any check fails, and then :func:`build`'s own walk finds and
    names the first problem.  Every check of that walk is mirrored here."""
    kids = {name: [c for c, _ in children] for name, _, children in edges}
    vals = {name: value for name, value, _ in values}
    if len(kids) != len(edges) or len(vals) != len(values):
        return None  # children listed twice, or a second value
    named = [n for n, _ in defined] if defined else None
    return build_plain(kids, vals, root_side, named)


def _names_ok(names) -> bool:
    """True when :func:`build` takes every one of ``names`` as a name: text,
    without NUL, without a lone surrogate (one pass in C over them all)."""
    try:
        joined = "".join(names)
        joined.encode("utf-8")
    except (TypeError, UnicodeEncodeError):
        return False
    return "\0" not in joined


def plain_values_ok(values) -> bool:
    """True when :func:`build` takes every one of ``values`` (the static
    values of one tree): numbers, finite, and SWI-Prolog and Python compare
    them alike."""
    kinds = set(map(type, values))
    if not kinds <= {int, float}:
        return False  # bool, or not a number
    if float in kinds:
        floats = [v for v in values if type(v) is float] if int in kinds else values
        if not all(map(math.isfinite, floats)):
            return False
    if int in kinds:
        ints = [v for v in values if type(v) is int] if float in kinds else values
        if not -_FLOAT_MAX_INT < min(ints) <= max(ints) < _FLOAT_MAX_INT:
            return False
        if float in kinds and not all(map(_exact_in_float, ints)):
            return False  # ints a float cannot hold, next to decimals
    return True


def build_plain(kids: dict[str, list[str]], vals: dict[str, Number], root_side: str = "max",
                named: list[str] | None = None) -> "Tree | None":
    """The tree of ``kids`` (each inner node's children in order) and
    ``vals`` (static values), or None when anything is wrong with them:
    then :func:`build` on the same declarations names the problem.  For
    callers that read declarations in bulk (``pyab.dsl.flatscan``); ``named``
    lists every node for the forms that write each node once.

    >>> build_plain({"a": ["b", "c"]}, {"b": 1, "c": 2}).kids
    ((1, 2), (), ())
    >>> build_plain({"a": ["b", "b"]}, {"b": 1}) is None
    True
    """
    if root_side not in ("max", "min") or not all(kids.values()):
        return None  # an inner node without children
    children = [c for ks in kids.values() for c in ks]
    child_set = set(children)
    if len(child_set) != len(children):
        return None  # a second parent
    if not plain_values_ok(vals.values()):
        return None
    # Every name is a child but the root; each has children or a value.
    roots = (kids.keys() - child_set) | (vals.keys() - child_set)
    both = len(kids.keys() & vals.keys())
    if len(roots) != 1 or len(kids) + len(vals) - both != len(child_set) + 1:
        return None  # no root or two, or a leaf without a value
    if named is not None:
        if len(named) != len(child_set) + 1 or set(named) != child_set | roots:
            return None
    if not _names_ok(roots) or not _names_ok(child_set):
        return None
    names: list[str] = []
    add = names.append
    stack = list(roots)
    pop, push, get = stack.pop, stack.extend, kids.get
    while stack:
        n = pop()
        add(n)
        ks = get(n)
        if ks:
            push(reversed(ks))
    if len(names) != len(child_set) + 1:
        return None  # a cycle that the root does not reach
    order = dict(zip(names, range(len(names))))
    at = order.__getitem__
    kid_ids: list[tuple[int, ...]] = [()] * len(names)
    depth = [0] * len(names)
    for i in sorted(map(at, kids)):  # a parent's id is below its children's
        ids = kid_ids[i] = tuple(map(at, kids[names[i]]))
        d = depth[i] + 1
        for k in ids:
            depth[k] = d
    return Tree(
        names=tuple(names),
        kids=tuple(kid_ids),
        values=tuple(map(vals.get, names)),
        root_side=root_side,
        index=order,
        depth=tuple(depth),
    )


def _preorder_values_ok(values: Sequence[Number | None], kids: tuple[tuple[int, ...], ...]) -> bool:
    if None in compress(values, map(not_, kids)):
        return False  # a leaf without a value
    given = list(filter(partial(is_not, None), values))
    return not given or plain_values_ok(given)


def build_preorder(names: Sequence[str], kids: tuple[tuple[int, ...], ...], values: Sequence[Number | None],
                   root_side: str = "max", index: Any = None, depth: tuple[int, ...] | None = None,
                   marks: Sequence[tuple[int, str]] = (), scanned: bool = False) -> "Tree | None":
    """:func:`build`'s mode for a scanner that reads a tree in pre-order
    (the nested and the list form, and the compiled scanner's every form):
    the Tree of the arrays, or None when :func:`build` would refuse them.
    ``kids`` are child ids, each above its parent's (the scanner's own
    stack makes them so); ``index`` (name -> id) and ``depth`` are taken when
    the scanner has them; ``marks``: (id, side) for the nodes written with a
    side.  Bulk checks only (C-speed passes over the arrays).  ``scanned``:
    the arrays come from a maker that applies :func:`plain_values_ok`'s
    rules, a value on every leaf and valid names itself -- the compiled
    scanner (pyab/dsl/_cscan.c; tests/dsl/test_cscan.py holds it to the
    same answers) or the random trees (pyab.trees.randomtrees: Dewey names,
    values checked as they are made): only the shape is checked then, which
    keeps their speed (the value and name passes cost the scanner a fifth).

    >>> build_preorder(("a", "b", "c"), ((1, 2), (), ()), (None, 1, 2)).kids
    ((1, 2), (), ())
    >>> build_preorder(("a", "b", "b"), ((1, 2), (), ()), (None, 1, 2)) is None
    True
    """
    n = len(names)
    if root_side not in ("max", "min") or not n or len(kids) != n or len(values) != n:
        return None
    if not scanned and not _preorder_values_ok(values, kids):
        return None
    if not scanned and isinstance(names, (tuple, list)):  # else names spelled on demand (list-form Dewey names)
        if not _names_ok(names):
            return None
        names = tuple(names)
    if index is None:
        index = dict(zip(names, range(n)))
    if len(index) != n:
        return None  # a name written twice
    tree = Tree(names=names, kids=kids, values=tuple(values),  # type: ignore[arg-type]  # a tuple or DeweyNames
                root_side=root_side, index=index, depth=depth)
    if marks:
        return with_sides(tree, [(names[i], side, (0, 0)) for i, side in marks])
    return tree


def build(
    edges: Sequence[tuple[str, Pos, Sequence[tuple[str, Pos]]]],
    values: Sequence[tuple[str, Number, Pos]],
    root_side: str = "max",
    defined: Sequence[tuple[str, Pos]] = (),
    marks: Sequence[tuple[str, str, Pos]] = (),
) -> Tree:
    """Validate declarations and build a :class:`Tree`.

    ``edges``: (parent, position, [(child, position), ...]) for each inner
    node; ``values``: (name, number, position); ``defined``: for forms that
    write each node exactly once (nested, list), every node with its
    position, so a repeated name is reported as a duplicate.  ``marks``:
    (name, "max" | "min", position) for each node written with a side; a
    node without one takes the opposite of its parent's side, the root
    ``root_side`` (a mark on the root wins over ``root_side``).

    :raises TreeError: naming the place of the first problem found.
    """
    if root_side not in ("max", "min"):
        raise TreeError(f"root side must be 'max' or 'min', not {root_side!r}")
    tree = _build_quick(edges, values, root_side, defined)
    if tree is None:
        tree = _build_checked(edges, values, root_side, defined)
    return with_sides(tree, marks) if marks else tree


def nested_declarations(
    nested: Any,
    kids: Callable[[Any], Sequence[Any] | None] = lambda x: x if isinstance(x, list) else None,
    leaf: Callable[[Any], tuple[Number, Pos]] = lambda x: (x, (0, 0)),
    at: Pos = (0, 0),
) -> tuple[list[tuple[str, Pos, list[tuple[str, Pos]]]], list[tuple[str, Number, Pos]]]:
    """The declarations (``edges``, ``values``) of :func:`build` for a tree
    written as nested lists (the DSL's list form), its nodes named by Dewey
    path: ``r``, ``r_1``, ``r_1_2``, ...  ``kids(x)`` is the children of an
    inner node (None for a leaf), ``leaf(x)`` a leaf's value and position;
    inner nodes are placed at ``at``."""
    edges: list[tuple[str, Pos, list[tuple[str, Pos]]]] = []
    values: list[tuple[str, Number, Pos]] = []
    stack = [("r", nested)]
    while stack:
        name, node = stack.pop()
        children = kids(node)
        if children is None:
            value, pos = leaf(node)
            values.append((name, value, pos))
            continue
        names = [f"{name}_{i}" for i in range(1, len(children) + 1)]
        edges.append((name, at, [(n, at) for n in names]))
        stack.extend(reversed(list(zip(names, children))))
    return edges, values


def from_nested(nested: Any, root_side: str = "max") -> Tree:
    """The tree of a nested list of numbers (inner nodes are lists), named
    like the DSL's list form and validated by :func:`build`.

    >>> from_nested([[3, 12], 2]).names
    ('r', 'r_1', 'r_1_1', 'r_1_2', 'r_2')
    """
    edges, values = nested_declarations(nested)
    return build(edges, values, root_side)

def with_sides(tree: Tree, marks: Sequence[tuple[str, str, Pos]]) -> Tree:
    """``tree`` with the sides ``marks`` give (see :func:`build`).

    >>> t = with_sides(build([("a", (0, 0), [("b", (0, 0))]), ("b", (0, 0), [("c", (0, 0))])],
    ...                      [("c", 1, (0, 0))]), [("b", "max", (0, 0))])
    >>> [t.side(n) for n in t], t.repeated_side()
    (['max', 'max', 'min'], 'b')

    :raises TreeError: for a mark that is not max/min, names no node of the
        tree, or contradicts another mark of the same node.
    """
    marked: dict[str, tuple[str, Pos]] = {}
    for name, side, pos in marks:
        if side not in ("max", "min"):
            raise TreeError(f"side of {name!r} must be 'max' or 'min', not {side!r}", pos)
        if name not in tree.index:
            raise TreeError(f"side given for {name!r}, which is not a node of the tree", pos)
        if name in marked and marked[name][0] != side:
            first, fpos = marked[name]
            raise TreeError(f"{name!r} is marked {first} (at {_fmt(fpos)}) and {side}", pos)
        marked[name] = (side, pos)
    by_id = {tree.index[n]: s == "max" for n, (s, _) in marked.items()}
    sides = [True] * len(tree)
    sides[0] = by_id.get(0, tree.root_side == "max")
    for i, ks in enumerate(tree.kids):  # pre-order: a parent's side is known first
        for k in ks:
            sides[k] = by_id.get(k, not sides[i])
    alternating = all(sides[k] != sides[i] for i, ks in enumerate(tree.kids) for k in ks)
    return Tree(names=tree.names, kids=tree.kids, values=tree.values,
                root_side="max" if sides[0] else "min",
                sides=None if alternating else tuple(sides),
                index=tree.index, depth=tree.depth)


def _build_checked(edges, values, root_side, defined) -> Tree:
    """:func:`build`'s walk over the declarations, one at a time, naming the
    place of the first problem."""
    where: dict[str, Pos] = {}  # first position each name was seen at
    for name, pos in defined:
        if name in where:
            raise TreeError(f"duplicate name {name!r} (first at {_fmt(where[name])})", pos)
        where[name] = pos

    kids: dict[str, list[str]] = {}
    parent: dict[str, tuple[str, Pos]] = {}
    for name, pos, children in edges:
        where.setdefault(name, pos)
        if name in kids:
            raise TreeError(f"{name!r} has its children listed twice", pos)
        if not children:
            raise TreeError(f"inner node {name!r} has no children", pos)
        kids[name] = []
        for child, cpos in children:
            where.setdefault(child, cpos)
            if child in parent:
                first, fpos = parent[child]
                raise TreeError(
                    f"{child!r} already has the parent {first!r} (at {_fmt(fpos)}): "
                    "a node has one parent, so names must be unique",
                    cpos,
                )
            parent[child] = (name, cpos)
            kids[name].append(child)

    vals: dict[str, Number] = {}
    value_at: dict[str, Pos] = {}  # where each value is written
    for name, value, pos in values:
        where.setdefault(name, pos)
        _check_value(name, value, pos)
        if name in vals:
            raise TreeError(f"{name!r} has two values", pos)
        vals[name] = value
        value_at[name] = pos

    for name, pos in where.items():
        _check_name(name, pos)
    _check_mixed(vals, value_at)

    roots = [n for n in where if n not in parent]
    if not roots:
        if not where:
            raise TreeError("empty tree: no nodes")
        first = next(iter(where))
        raise TreeError(f"cycle: every node is somebody's child (see {first!r})", where[first])
    if len(roots) > 1:
        raise TreeError(
            f"two roots, {roots[0]!r} and {roots[1]!r}: every node but the root "
            "must be somebody's child",
            where[roots[1]],
        )

    # Pre-order numbering with an explicit stack (trees may be very deep).
    names: list[str] = []
    order: dict[str, int] = {}
    stack = [roots[0]]
    while stack:
        n = stack.pop()
        order[n] = len(names)
        names.append(n)
        stack.extend(reversed(kids.get(n, ())))
    if len(names) != len(where):
        lost = next(n for n in where if n not in order)
        raise TreeError(f"cycle through {lost!r}: it cannot be reached from the root", where[lost])

    for n in names:
        if n not in kids and n not in vals:
            raise TreeError(f"leaf {n!r} has no value", where[n])
    return Tree(
        names=tuple(names),
        kids=tuple(tuple(order[c] for c in kids.get(n, ())) for n in names),
        values=tuple(vals.get(n) for n in names),
        root_side=root_side,
    )
