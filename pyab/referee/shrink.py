"""Shrinking a disagreement to a small tree that still shows it.

Delta debugging on the failing tree itself, not Hypothesis: the trees of
``--random`` come from pyab's seeded generator (and the trees of FILE...
from the user), so there is no choice sequence to shrink.  The shrinker
tries, greedily and until nothing more helps, smaller variants: opening the
window, moving a leaf value towards 0, and (``level="all"``) starting at
the root's only move, replacing a subtree by one of its leaves, removing a
child.  A variant is kept only when the program shows the **same**
disagreement on it (:meth:`~pyab.referee.verdict.Verdict.same`: the same
kind, the same fields differing, a wrong move still wrong).  Every node
keeps its own side to move (a two-MIN tree stays one), and a tree whose
leaves are all at one depth keeps them there (code written for a fixed
depth is not judged on a tree it was never meant for).

What is printed is checked before it is printed: the shrunk tree is written
as text, read back, and judged once more (:func:`shrink` returns that
verdict; when it differs the original tree is returned instead).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..tree import Number, Tree, build
from .verdict import Verdict

__all__ = ["LEVELS", "Shrunk", "shrink"]

LEVELS = ("none", "values", "all")

Shape = Any  # (name, value or None, is_max, [children]) nested


@dataclass
class Shrunk:
    """The tree (and window) to show, its verdict re-checked from its text,
    and whether that reproduced the original disagreement."""

    verdict: Verdict
    text: str
    reproduced: bool
    tries: int


def _shape(tree: Tree, i: int = 0) -> Shape:
    return (tree.names[i], tree.values[i], tree.is_max_id(i), [_shape(tree, k) for k in tree.kids[i]])


def _tree(shape: Shape) -> Tree:
    """Through :func:`pyab.tree.build`, every node with its own side."""
    edges, values, marks = [], [], []
    stack = [shape]
    while stack:
        name, value, is_max, kids = stack.pop()
        marks.append((name, "max" if is_max else "min", (0, 0)))
        if kids:
            edges.append((name, (0, 0), [(k[0], (0, 0)) for k in kids]))
            stack.extend(reversed(kids))
        if value is not None:
            values.append((name, value, (0, 0)))
    return build(edges, values, "max" if shape[2] else "min", marks=marks)


def _leaf_values(shape: Shape) -> list[Number]:
    _, value, _, kids = shape
    if not kids:
        return [value]
    own = [value] if value is not None else []
    return own + [v for k in kids for v in _leaf_values(k)]


def _uniform(tree: Tree) -> bool:
    return len({tree.depth[i] for i, ks in enumerate(tree.kids) if not ks}) == 1


def _candidates(shape: Shape, level: str, keep_depth: bool) -> list[Shape]:
    """Smaller variants of ``shape``, biggest steps first; the root stays inner."""
    out: list[Shape] = []

    def paths(s: Shape, path: tuple[int, ...]) -> list[tuple[tuple[int, ...], Shape]]:
        acc = [(path, s)]
        for i, k in enumerate(s[3]):
            acc.extend(paths(k, path + (i,)))
        return acc

    def replace(s: Shape, path: tuple[int, ...], new: Shape | None) -> Shape:
        if not path:
            return new
        name, value, is_max, kids = s
        kids = list(kids)
        if new is None and len(path) == 1:
            del kids[path[0]]
        else:
            kids[path[0]] = replace(kids[path[0]], path[1:], new)
        return (name, value, is_max, kids)

    everything = paths(shape, ())
    if level == "all":
        if not keep_depth and len(shape[3]) == 1 and shape[3][0][3]:  # start at the only move
            out.append(shape[3][0])
        if not keep_depth:
            for path, s in everything:  # a subtree becomes one of its leaves
                if path and s[3]:
                    for v in dict.fromkeys(_leaf_values(s)):
                        out.append(replace(shape, path, (s[0], v, s[2], [])))
        for path, s in everything:  # a child goes
            if len(s[3]) > 1:
                for i in range(len(s[3])):
                    out.append(replace(shape, path + (i,), None))
    for path, s in everything:  # a leaf value moves towards 0
        if not s[3] and s[1] != 0:
            v = s[1]
            smaller = [0, int(v / 2)] + ([math.floor(v)] if isinstance(v, float) else [])
            for w in dict.fromkeys(smaller):
                if abs(w) < abs(v) or (w != v and isinstance(v, float)):
                    out.append(replace(shape, path, (s[0], w, s[2], [])))
    return out


def shrink(first: Verdict, judge: Callable[[Tree, Number, Number], Verdict], level: str = "all",
           budget: int = 3000, seconds: float = 120.0) -> Shrunk:
    """The smallest tree and window found on which ``judge`` gives the same
    disagreement as ``first`` (at most ``budget`` tries and about ``seconds``:
    a program that times out on some variants costs its timeout on each),
    re-checked from its text.  ``judge`` may raise ValueError (a reference that refuses a
    variant): that variant is dropped."""
    from ..dsl import dump, parse
    if level not in LEVELS:
        raise ValueError(f"--shrink {level!r}: expected one of {', '.join(LEVELS)}")

    def check(t: Tree, a: Number, b: Number) -> Verdict | None:
        try:
            v = judge(t, a, b)
        except ValueError:
            return None
        return v if v.same(first) else None

    best, tries = first, 0
    stop = time.monotonic() + seconds
    keep_depth = _uniform(first.tree)
    if level != "none":
        shape = _shape(first.tree)
        changed = True
        while changed and tries < budget and time.monotonic() < stop:
            changed = False
            alpha, beta = best.alpha, best.beta
            for a, b in ((-math.inf, math.inf), (-math.inf, beta), (alpha, math.inf)):
                if (a, b) != (alpha, beta) and a <= b:
                    tries += 1
                    v = check(best.tree, a, b)
                    if v:
                        best, changed = v, True
                        break
            for cand in _candidates(shape, level, keep_depth):
                if tries >= budget or time.monotonic() > stop:
                    break
                try:
                    t = _tree(cand)
                except ValueError:
                    continue
                tries += 1
                v = check(t, best.alpha, best.beta)
                if v:
                    shape, best, changed = cand, v, True
                    break
    for shown in (best, first):  # what is printed is what reproduces
        text = dump(shown.tree)
        again = check(parse(text), shown.alpha, shown.beta)
        tries += 1
        if again:
            return Shrunk(again, text, True, tries)
    return Shrunk(first, dump(first.tree), False, tries)
