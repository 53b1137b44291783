"""A tree as the text the bridge's loaders read: load_packed/3's names and
shape, and solve_batch/8's items (see prolog/bridge/store.pl)."""

from __future__ import annotations

import math

from ..tree import Number, Tree
from .facts import number


def _packed(tree: Tree) -> tuple[str, str]:
    """The tree for load_packed/3: the names joined by NUL, and the text of
    shape(Sides, Parents, Kids, Values) (see prolog/bridge/store.pl).  It
    yields the clauses of :func:`pyab.facts.facts` in the same order, about
    five times faster than reading that text for a big tree
    (benchmarks/HISTORY.md).  Each part is made by one call that runs in C
    (``str`` of a list, ``str.join``) rather than a Python step per node."""
    sides = _sides(tree)
    kids = tree.kids
    parents = [i for i, ks in enumerate(kids) if ks]
    # Node ids are ints, so the tuples' text is Prolog's list text once its
    # brackets are swapped: "(1, 2)" -> "[1, 2]", "(3,)" -> "[3]".
    kid_lists = str([kids[i] for i in parents]).replace(",)", ")").replace("(", "[").replace(")", "]")
    values = tree.values
    if set(map(type, values)) <= {int, type(None)}:
        value_list = str(list(values)).replace("None", "n")
    else:
        value_list = "[" + ",".join("n" if v is None else str(v) if type(v) is int else number(v)
                                    for v in values) + "]"
    return "\0".join(tree.names), f'shape("{sides}", {parents}, {kid_lists}, {value_list})'


def _batch_item(tree: Tree, alpha: Number, beta: Number) -> str:
    """A tree's item of solve_batch/8's list (its names travel apart)."""
    return (f'b({len(tree.names)}, k({_lists(tree.kids)}), v({_numbers(tree.values)}), '
            f'"{_sides(tree)}", "{number(alpha)}", "{number(beta)}")')


def _lists(kids: tuple[tuple[int, ...], ...]) -> str:
    """Each node's children as Prolog lists, comma-separated: the text of
    a tuple of int tuples with its brackets swapped ("(3,)" -> "[3]")."""
    return str(kids)[1:-1].replace(",)", ")").replace("(", "[").replace(")", "]").rstrip(",")


def _numbers(values: tuple[Number | None, ...]) -> str:
    """Each node's value as Prolog text, ``n`` where it has none."""
    if set(map(type, values)) <= {int, type(None)}:
        return str(values)[1:-1].replace("None", "n").rstrip(",")
    return ",".join("n" if v is None else str(v) if type(v) is int else number(v) for v in values)


def _sides(tree: Tree) -> str:
    """A code a node: ``x`` where MAX is to move, ``n`` for MIN."""
    if tree.sides is None:  # sides alternate by depth
        by_depth = ("x", "n") if tree.root_side == "max" else ("n", "x")
        return "".join([by_depth[d & 1] for d in tree.depth])
    return "".join(["x" if s else "n" for s in tree.sides])  # a side a node (pyab.tree.with_sides)


def _check_window(alpha: Number, beta: Number) -> None:
    for bound in (alpha, beta):
        if isinstance(bound, float) and math.isnan(bound):
            raise ValueError("a window bound cannot be NaN")
