"""The referee: the same search in both engines, compared field by field."""

from __future__ import annotations

import math
from typing import Any, NamedTuple, Sequence

from .errors import Mismatch
from .prolog.facts import number
from .result import Result
from .text import printable
from .tree import Number, Tree

__all__ = ["FIELDS", "Pair", "both", "compare", "count_differences", "differences"]

# What must agree.  `pruned` follows from `visited` and the tree, but it is
# compared too: each engine derives it on its own side.  `horizon` is split
# off `pruned` by one function (pyab.result.finish) on each engine's fields.
FIELDS = ("best", "value", "leaves", "visited", "pruned", "horizon")


def _first_step(a: Sequence[str], b: Sequence[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return printable(f"first difference at step {i + 1}: prolog {x!r}, python {y!r}")
    shorter, longer, who = (a, b, "python") if len(a) < len(b) else (b, a, "prolog")
    return printable(f"first difference at step {len(shorter) + 1}: only {who} goes on, "
                     f"with {longer[len(shorter)]!r}")


def _show(v: Any) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return number(v)
    if isinstance(v, tuple):
        return printable(" ".join(v)) if v else "(none)"
    return printable(repr(v))


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


def count_differences(prolog: Result, python: Result) -> list[str]:
    """As :func:`differences`, for results that carry only counts
    (``names=False``): best, value, leaves_count and visited_count."""
    out = []
    for f in ("best", "value", "leaves_count", "visited_count"):
        a = getattr(prolog, f) if f in ("best", "value") else prolog.extra.get(f)
        b = getattr(python, f) if f in ("best", "value") else python.extra.get(f)
        if (number(a) != number(b)) if f == "value" else a != b:
            out.append(f"{f}:\n    prolog: {_show(a)}\n    python: {_show(b)}")
    return out


class Pair(NamedTuple):
    """One search in both engines: the two results and the lines on which
    they differ (empty when they agree)."""

    prolog: Result
    python: Result
    differences: list[str]

    @property
    def agree(self) -> bool:
        return not self.differences


def both(tree: Tree, algorithm: str = "bratko", alpha: Number = -math.inf,
         beta: Number = math.inf, *, depth: int | None = None, names: bool = True,
         **prolog_kw: Any) -> Pair:
    """The same search in SWI-Prolog and in the mirror, compared: the one
    place ``check``, ``variants`` and ``experiment`` do it.  With
    ``names=False`` (implicit trees) the counts are compared."""
    from .engines import solve
    prolog = solve(tree, "prolog", algorithm, alpha, beta, depth=depth, names=names, eager=True,
                   **prolog_kw)  # every list is compared
    python = solve(tree, "python", algorithm, alpha, beta, depth=depth, names=names)
    diff = differences(prolog, python) if names else count_differences(prolog, python)
    return Pair(prolog, python, diff)


def compare(tree: Tree, algorithm: str = "bratko", alpha: Number = -math.inf,
            beta: Number = math.inf, **kw: Any) -> Result:
    """Solve in both engines; return the Prolog result or raise :class:`Mismatch`."""
    pair = both(tree, algorithm, alpha, beta, **kw)
    if pair.differences:
        raise Mismatch(f"{algorithm}: Prolog and Python disagree on "
                       + ", ".join(d.split(":")[0] for d in pair.differences),
                       "\n".join(pair.differences))
    return pair.prolog
