"""The verdict on a program under test: what is compared (``--compare``),
the two sides' labels, the first disagreement shrunk to a small tree, and
the command that replays it.

Shrinking is delta debugging on the failing tree itself, not Hypothesis:
the trees of ``--random`` come from pyab's seeded generator (and the trees of
FILE... from the user), so there is no Hypothesis choice sequence to shrink,
and Hypothesis is only a test dependency.  The shrinker tries, greedily and
until nothing more helps: replacing a subtree by one of its leaves, removing
a child, moving a leaf value towards 0, and opening the window; a change is
kept while the disagreement remains (any compared field still differs; a
change that makes the program fail is not kept).  The result keeps the
original node names, so it reads as a piece of the tree that failed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import ProgramError
from ..prolog.facts import number
from ..result import Result
from ..tree import Number, Tree, build

__all__ = ["COMPARE", "Disagreement", "differences", "reference", "shrink", "value_correct"]

COMPARE = ("all", "value", "move", "leaves")
FIELDS = {"all": ("best", "value", "leaves", "visited"), "value": ("value",),
          "move": ("best",), "leaves": ("leaves",)}


def reference_label(algorithm: str, compare: str) -> str:
    return "reference (minimax)" if compare == "value" else f"reference ({algorithm})"


def reference(tree: Tree, algorithm: str, alpha: Number, beta: Number, depth: int | None,
              compare: str) -> Result:
    """pyab's answer: the Python mirror of ``algorithm``; for ``--compare
    value`` the exhaustive minimax value (the question is then "is it a
    correct minimax value?", whatever algorithm the program is)."""
    from ..search import solve_python
    if compare == "value":
        return solve_python(tree, "minimax", -math.inf, math.inf, depth)
    return solve_python(tree, algorithm, alpha, beta, depth)


def value_correct(v: Number, minimax: Number, alpha: Number, beta: Number) -> bool:
    """Is ``v`` a correct alpha-beta answer for a node of minimax value
    ``minimax`` searched in ``alpha..beta``?  Inside the window it must be
    the value; at or below alpha (above beta) it may be any bound at or
    below alpha (at or above beta) -- the fail-low/fail-high answers."""
    if alpha < minimax < beta:
        return v == minimax
    if minimax <= alpha:
        return v <= alpha
    return v >= beta


def _show(v: Any) -> str:
    if v is None:
        return "(none)"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return "-inf" if v == -math.inf else "inf" if v == math.inf else number(v)
    if isinstance(v, tuple):
        return " ".join(v) if v else "(none)"
    return str(v)


def differences(ref: Result, yours: Result, compare: str, ref_label: str, your_label: str,
                alpha: Number = -math.inf, beta: Number = math.inf) -> list[str]:
    """Readable lines, one per compared field on which the two differ."""
    out = []
    width = max(len(ref_label), len(your_label)) + 1
    for f in FIELDS[compare]:
        a, b = getattr(ref, f), getattr(yours, f)
        if f == "value":
            if b is None:  # the aima interface returns an action only
                continue
            same = value_correct(b, a, alpha, beta) if compare == "value" else number(a) == number(b)
        else:
            same = a == b
        if same:
            continue
        line = f"{f}:\n    {ref_label + ':':<{width}} {_show(a)}\n    {your_label + ':':<{width}} {_show(b)}"
        if compare == "value" and not (alpha < a < beta):
            line += f"\n    (the minimax value is outside the window {_show(alpha)} .. {_show(beta)}: " \
                    f"any bound on the same side is correct)"
        if isinstance(a, tuple):
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    line += f"\n    first difference at step {i + 1}: reference {x}, yours {y}"
                    break
            else:
                who, longer = ("yours", b) if len(b) > len(a) else ("the reference", a)
                line += f"\n    first difference at step {min(len(a), len(b)) + 1}: only {who} goes on, " \
                        f"with {longer[min(len(a), len(b))]}"
        out.append(line)
    return out


@dataclass
class Disagreement:
    tree: Tree
    alpha: Number
    beta: Number
    diff: list[str]
    number: int = 0          # which random tree (0 for a file)
    source: str = ""         # the file, or ""
    shrunk: tuple[Tree, Number, Number, list[str]] | None = None
    saved: list[str] = field(default_factory=list)


# -- shrinking ----------------------------------------------------------------

Shape = Any  # (name, value or None, [children]) nested


def _shape(tree: Tree, i: int = 0) -> Shape:
    return (tree.names[i], tree.values[i], [_shape(tree, k) for k in tree.kids[i]])


def _tree(shape: Shape, side: str) -> Tree:
    edges, values = [], []
    stack = [shape]
    while stack:
        name, value, kids = stack.pop()
        if kids:
            edges.append((name, (0, 0), [(k[0], (0, 0)) for k in kids]))
            stack.extend(reversed(kids))
        if value is not None:
            values.append((name, value, (0, 0)))
    return build(edges, values, side)


def _leaf_values(shape: Shape) -> list[Number]:
    name, value, kids = shape
    if not kids:
        return [value]
    return [v for k in kids for v in _leaf_values(k)]


def _candidates(shape: Shape) -> list[Shape]:
    """Smaller variants of ``shape``, biggest steps first; the root stays inner."""
    out: list[Shape] = []

    def paths(s: Shape, path: tuple[int, ...]) -> list[tuple[tuple[int, ...], Shape]]:
        acc = [(path, s)]
        for i, k in enumerate(s[2]):
            acc.extend(paths(k, path + (i,)))
        return acc

    def replace(s: Shape, path: tuple[int, ...], new: Shape | None) -> Shape:
        if not path:
            return new
        name, value, kids = s
        kids = list(kids)
        if new is None and len(path) == 1:
            del kids[path[0]]
        else:
            kids[path[0]] = replace(kids[path[0]], path[1:], new)
        return (name, value, kids)

    everything = paths(shape, ())
    if len(shape[2]) == 1 and shape[2][0][2]:  # a root with one move: start at that move
        out.append(shape[2][0])
    for path, s in everything:  # a subtree becomes one of its leaves
        if path and s[2]:
            for v in dict.fromkeys(_leaf_values(s)):
                out.append(replace(shape, path, (s[0], v, [])))
    for path, s in everything:  # a child goes
        if len(s[2]) > 1:
            for i in range(len(s[2])):
                out.append(replace(shape, path + (i,), None))
    for path, s in everything:  # a leaf value moves towards 0
        if not s[2] and s[1] != 0:
            v = s[1]
            smaller = [0, int(v / 2)] + ([math.floor(v)] if isinstance(v, float) else [])
            for w in dict.fromkeys(smaller):
                if abs(w) < abs(v) or (w != v and isinstance(v, float)):
                    out.append(replace(shape, path, (s[0], w, [])))
    return out


def _other(side: str) -> str:
    return "min" if side == "max" else "max"


def shrink(tree: Tree, alpha: Number, beta: Number,
           disagrees: Callable[[Tree, Number, Number], list[str]],
           budget: int = 3000) -> tuple[Tree, Number, Number, list[str]]:
    """The smallest tree and window found on which ``disagrees`` still
    returns difference lines (greedy delta debugging; at most ``budget``
    tries).  ``disagrees`` may raise ProgramError: that candidate is dropped."""
    side = tree.root_side

    def check(t: Tree, a: Number, b: Number) -> list[str]:
        try:
            return disagrees(t, a, b)
        except ProgramError:
            return []

    best_diff = check(tree, alpha, beta)
    if not best_diff:
        return tree, alpha, beta, []
    shape, tries = _shape(tree), 0
    changed = True
    while changed and tries < budget:
        changed = False
        for a, b in ((-math.inf, math.inf), (-math.inf, beta), (alpha, math.inf)):
            if (a, b) != (alpha, beta) and a <= b:
                tries += 1
                d = check(tree, a, b)
                if d:
                    alpha, beta, best_diff, changed = a, b, d, True
                    break
        for cand in _candidates(shape):
            if tries >= budget:
                break
            try:  # a hoisted root (one level down) has the other side to move
                t = _tree(cand, side if cand[0] == shape[0] else _other(side))
            except ValueError:
                continue
            tries += 1
            d = check(t, alpha, beta)
            if d:
                shape, tree, side, best_diff, changed = cand, t, t.root_side, d, True
                break
    return tree, alpha, beta, best_diff
