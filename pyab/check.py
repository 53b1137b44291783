"""The referee: the same search in both engines, compared field by field."""

from __future__ import annotations

import math
from typing import Any, Sequence

from .errors import Mismatch
from .facts import number
from .result import Result
from .tree import Number, Tree

__all__ = ["FIELDS", "compare", "differences"]

# What must agree.  `pruned` follows from `visited` and the tree, but it is
# compared too: each engine derives it on its own side.  `horizon` is split
# off `pruned` by one function (pyab.result.finish) on each engine's fields.
FIELDS = ("best", "value", "leaves", "visited", "pruned", "horizon")


def _first_step(a: Sequence[str], b: Sequence[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at step {i + 1}: prolog {x!r}, python {y!r}"
    shorter, longer, who = (a, b, "python") if len(a) < len(b) else (b, a, "prolog")
    return f"first difference at step {len(shorter) + 1}: only {who} goes on, with {longer[len(shorter)]!r}"


def _show(v: Any) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return number(v)
    if isinstance(v, tuple):
        return " ".join(v) if v else "(none)"
    return repr(v)


def differences(prolog: Result, python: Result) -> list[str]:
    """Readable lines, one per field on which the two results differ."""
    out = []
    for f in FIELDS:
        a, b = getattr(prolog, f), getattr(python, f)
        same = number(a) == number(b) if f == "value" else a == b
        if not same:
            line = f"{f}:\n    prolog: {_show(a)}\n    python: {_show(b)}"
            if isinstance(a, tuple):
                line += f"\n    {_first_step(a, b)}"
            out.append(line)
    return out


def compare(tree: Tree, algorithm: str = "bratko", alpha: Number = -math.inf,
            beta: Number = math.inf, **kw: Any) -> Result:
    """Solve in both engines; return the Prolog result or raise :class:`Mismatch`."""
    from . import solve
    depth = kw.pop("depth", None)
    prolog = solve(tree, "prolog", algorithm, alpha, beta, depth=depth, **kw)
    python = solve(tree, "python", algorithm, alpha, beta, depth=depth)
    diff = differences(prolog, python)
    if diff:
        raise Mismatch(f"{algorithm}: Prolog and Python disagree on "
                       + ", ".join(d.split(":")[0] for d in diff), "\n".join(diff))
    return prolog
