"""What one search reports, whichever engine ran it."""

from __future__ import annotations

import math
from typing import Any

from .frozen import REQUIRED, Factory, Frozen
from .tree import Number

__all__ = ["BOUNDS", "Result", "bound_of", "bound_text", "expect_result", "finish", "json_number"]

INF = math.inf

# How far a root value can be trusted, per algorithm (docs/courses.md argues
# each).  "closed": the cut tests are strict and the value is returned as
# found, so a value inside [alpha, beta] is exact, below alpha an upper
# bound, above beta a lower bound (docs/bratko.md proves it for the slides'
# program; strict-cut runs the same tests).  "open": cuts on v >= beta /
# v <= alpha, or a fail-hard search that returns the bound itself: only a
# value strictly inside (alpha, beta) is exact, alpha or below an upper
# bound, beta or above a lower bound.  "exact": no pruning, the window is
# ignored.  Algorithms not named here are "open".
BOUNDS = {"bratko": "closed", "strict-cut": "closed",
          "minimax": "exact", "minimax-negamax": "exact"}


def bound_of(algorithm: str, value: Any, alpha: Number, beta: Number) -> str:
    """``"exact"``, ``"upper"`` (the root failed low: its true value is at
    most ``value``) or ``"lower"`` (it failed high: at least ``value``),
    from the value a search of ``algorithm`` returned for the window; and
    ``"unknown"`` when an "open" algorithm returns the one value of a null
    window (alpha = beta): a bound, but the value cannot say which way.

    >>> bound_of("bratko", 3, 3, 10), bound_of("aima", 3, 3, 10), bound_of("bratko", 2, 3, 10)
    ('exact', 'upper', 'upper')
    """
    if not isinstance(value, (int, float)):
        return "exact"
    kind = BOUNDS.get(algorithm, "open")
    if kind == "exact":
        return "exact"
    if kind == "closed":
        return "upper" if value < alpha else "lower" if value > beta else "exact"
    if value == alpha == beta:
        return "unknown"  # a null window's bound returned: which side, the value cannot tell
    return "upper" if value <= alpha else "lower" if value >= beta else "exact"


def json_number(x: Number) -> Any:
    """A number for JSON: infinities (a window bound returned by a fail-hard
    search) become the strings "inf" / "-inf"; everything else is kept."""
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


class Result(Frozen):
    """The outcome of a search.

    ``best`` is the root's chosen child (the slides' GoodPos; None when the
    root is a leaf), ``value`` the value returned for the root (Val), from
    MAX's point of view.  ``leaves`` are the leaves whose static value was
    read, in the order read; ``visited`` every node the search was called on,
    in call order; ``pruned`` the unvisited children of visited nodes (the
    roots of cut-off subtrees), in tree order, except those left out because
    the depth limit scored their parent by its static value: those are
    ``horizon``.  ``window`` is the alpha..beta searched with, and
    :attr:`bound` says whether ``value`` is exact or a bound.  Immutable (a
    frozen dataclass in all but its import cost: :mod:`pyab.frozen`);
    ``extra`` and ``window`` are not compared.
    """

    best: str | None
    value: Number
    leaves: tuple[str, ...]
    visited: tuple[str, ...]
    pruned: tuple[str, ...]
    engine: str
    algorithm: str
    extra: dict[str, Any]
    horizon: tuple[str, ...] = ()
    window: tuple[Number, Number] = (-INF, INF)

    # (name, default, compared, in repr)
    _fields = (("best", REQUIRED, True, True), ("value", REQUIRED, True, True),
               ("leaves", REQUIRED, True, True), ("visited", REQUIRED, True, True),
               ("pruned", REQUIRED, True, True), ("engine", REQUIRED, True, True),
               ("algorithm", REQUIRED, True, True), ("extra", Factory(dict), False, True),
               ("horizon", (), True, True), ("window", (-INF, INF), False, True))
    __match_args__ = ("best", "value", "leaves", "visited", "pruned", "engine", "algorithm",
                      "extra", "horizon", "window")

    def __init__(self, best: str | None, value: Number, leaves: tuple[str, ...],
                 visited: tuple[str, ...], pruned: tuple[str, ...], engine: str, algorithm: str,
                 extra: dict[str, Any] = Factory(dict), horizon: tuple[str, ...] = (),
                 window: tuple[Number, Number] = (-INF, INF)) -> None:
        self._set(best=best, value=value, leaves=leaves, visited=visited, pruned=pruned,
                  engine=engine, algorithm=algorithm,
                  extra={} if isinstance(extra, Factory) else extra,
                  horizon=horizon, window=window)

    @property
    def bound(self) -> str:
        """"exact", "upper" (failed low) or "lower" (failed high): see :func:`bound_of`."""
        return bound_of(self.algorithm, self.value, *self.window)

    def to_json(self) -> dict[str, Any]:
        out = {
            "best": self.best,
            "value": json_number(self.value),
            "leaves": list(self.leaves),
            "visited": list(self.visited),
            "pruned": list(self.pruned),
            "horizon": list(self.horizon),
            "bound": self.bound,
            "engine": self.engine,
            "algorithm": self.algorithm,
        }
        out.update(self.extra)
        return out


_BOUND_WORDS = {"exact": "exact", "upper": "an upper bound: the root failed low",
                "lower": "a lower bound: the root failed high",
                "unknown": "a bound: the null window's value, low or high"}


def bound_text(result: Result) -> str:
    """One line for people: the root's value and what it is.

    >>> bound_text(Result("b", 3, (), (), (), "python", "bratko", window=(5, 10)))
    'Val = 3 is an upper bound: the root failed low (below alpha 5)'
    """
    from .facts import number
    b = result.bound
    v = result.value
    text = f"Val = {number(v) if isinstance(v, (int, float)) else v} is {_BOUND_WORDS[b]}"
    alpha, beta = result.window
    if b == "upper":
        text += f" ({'below' if v < alpha else 'at'} alpha {_num(alpha)})"
    elif b == "lower":
        text += f" ({'above' if v > beta else 'at'} beta {_num(beta)})"
    return text


def _num(x: Number) -> str:
    from .facts import number
    return ("-inf" if x < 0 else "inf") if isinstance(x, float) and math.isinf(x) else number(x)


def finish(result: Result, tree: Any, alpha: Number, beta: Number) -> Result:
    """``result`` of a search of ``tree`` in ``alpha..beta``, with the window
    kept and the nodes the depth limit left out moved from ``pruned`` to
    ``horizon``: the unsearched children of a node whose static value was
    read although it has children.  The same function for both engines, on
    their observed fields; implicit trees (no names) are left as they are.
    """
    from .tree import Tree
    if not isinstance(tree, Tree) or not result.pruned:
        return result._replace(window=(alpha, beta))
    kids, index = tree.kids, tree.index
    scored = {index[n] for n in set(result.leaves) if kids[index[n]]}
    below = {tree.names[k] for i in scored for k in kids[i]}
    return result._replace(window=(alpha, beta),
                   pruned=tuple(p for p in result.pruned if p not in below),
                   horizon=tuple(p for p in result.pruned if p in below))


def expect_result(obj: Any, where: str) -> None:
    """A :class:`Result`, or an ArgumentError naming ``where`` and how to get one."""
    if not isinstance(obj, Result):
        from .api import kind
        from .errors import ArgumentError
        raise ArgumentError(f"{where}: expected a Result, got {kind(obj)}: use pyab.solve(tree)")
