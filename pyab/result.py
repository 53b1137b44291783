"""What one search reports, whichever engine ran it."""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from .frozen import REQUIRED, Factory, Frozen
from .text import number
from .tree import Number

__all__ = ["LAZY", "Result", "bound_of", "bound_text", "expect_result", "json_number",
           "value_words", "window_text"]

INF = math.inf

#: The fields :meth:`Result.deferred` can leave to be computed when read.
LAZY = ("leaves", "visited", "pruned", "horizon")
_LAZY = frozenset(LAZY)


def bound_of(kind: str, value: Any, alpha: Number, beta: Number) -> str:
    """``"exact"``, ``"upper"`` (the root failed low: its true value is at
    most ``value``) or ``"lower"`` (it failed high: at least ``value``),
    from the value a search returned for the window, by the algorithm's
    ``kind`` (its registry row's "bound", docs/courses.md argues each):
    "closed" (strict cut tests, the value returned as found: exact inside
    [alpha, beta]), "open" (cuts on v >= beta / v <= alpha, or fail-hard:
    exact only strictly inside) or "exact" (no pruning).  ``"unknown"``
    when an "open" search returns the one value of a null window
    (alpha = beta): a bound, but the value cannot say which way.

    >>> bound_of("closed", 3, 3, 10), bound_of("open", 3, 3, 10), bound_of("closed", 2, 3, 10)
    ('exact', 'upper', 'upper')
    """
    if not isinstance(value, (int, float)) or kind == "exact":
        return "exact"
    if kind == "closed":
        return "upper" if value < alpha else "lower" if value > beta else "exact"
    if value == alpha == beta:
        return "unknown"  # a null window's bound returned: which side, the value cannot tell
    return "upper" if value <= alpha else "lower" if value >= beta else "exact"


def json_number(x: Number) -> Any:
    """A number for JSON, the one wire encoding of pyab: infinities (a window
    bound, or one returned by a fail-hard search) become the strings "inf" /
    "-inf"; everything else is kept."""
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def bound_text(x: Number) -> str:
    """A value or a window bound as people read it: ``inf``, ``-inf``, or
    the number as Prolog writes it.

    >>> bound_text(float("-inf")), bound_text(3), bound_text(2.5)
    ('-inf', '3', '2.5')
    """
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return number(x)


def window_text(alpha: Number, beta: Number) -> str:
    """``alpha .. beta`` as people read it (``-inf .. inf``)."""
    return f"{bound_text(alpha)} .. {bound_text(beta)}"


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
    depth: int | None = None
    bound: str = "exact"
    tree_ref: Any = None

    # (name, default, compared, in repr)
    _fields = (("best", REQUIRED, True, True), ("value", REQUIRED, True, True),
               ("leaves", REQUIRED, True, True), ("visited", REQUIRED, True, True),
               ("pruned", REQUIRED, True, True), ("engine", REQUIRED, True, True),
               ("algorithm", REQUIRED, True, True), ("extra", Factory(dict), False, True),
               ("horizon", (), True, True), ("window", (-INF, INF), False, True),
               ("depth", None, False, False), ("bound", "exact", False, False),
               ("tree_ref", None, False, False))
    __match_args__ = ("best", "value", "leaves", "visited", "pruned", "engine", "algorithm",
                      "extra", "horizon", "window", "depth", "bound", "tree_ref")

    def __init__(self, best: str | None, value: Number, leaves: tuple[str, ...],
                 visited: tuple[str, ...], pruned: tuple[str, ...], engine: str, algorithm: str,
                 extra: dict[str, Any] = Factory(dict),  # type: ignore[assignment]  # made per instance
                 horizon: tuple[str, ...] = (),
                 window: tuple[Number, Number] = (-INF, INF), depth: int | None = None,
                 bound: str = "exact", tree_ref: Any = None) -> None:
        self._set(best=best, value=value, leaves=leaves, visited=visited, pruned=pruned,
                  engine=engine, algorithm=algorithm,
                  extra={} if isinstance(extra, Factory) else extra,
                  horizon=horizon, window=window, depth=depth, bound=bound, tree_ref=tree_ref)

    # -- names computed when first read ---------------------------------------
    # A mirror's search keeps node ids; turning them into names (and finding
    # the pruned nodes) can cost as much as the search.  ``deferred`` builds
    # a Result whose listed fields are computed from that record on first
    # read: the observation is the same, only its naming waits.  Until then
    # the fields are missing from the instance, so ``__getattr__`` (called
    # only for a missing attribute) computes one, stores it, and the next
    # read is an ordinary attribute.  Equality, repr, ``to_json``,
    # ``dataclasses.replace`` and pickling read the fields as a caller does.

    @classmethod
    def deferred(cls, best: str | None, value: Number, engine: str, algorithm: str,
                 names: dict[str, Callable[[], Sequence[str]]], *,
                 extra: dict[str, Any] | None = None,
                 window: tuple[Number, Number] = (-INF, INF), depth: int | None = None,
                 bound: str = "exact", tree_ref: Any = None, **known: Any) -> "Result":
        """A Result whose fields named in ``names`` (of ``LAZY``) are
        ``tuple(names[field]())``, computed when first read; the others are
        given (``known``) or default.

        >>> r = Result.deferred("b", 3, "python", "bratko", {"leaves": lambda: ["d", "e"]},
        ...                     visited=("a", "b", "d", "e"), pruned=())
        >>> r.leaves, r == Result("b", 3, ("d", "e"), ("a", "b", "d", "e"), (), "python", "bratko")
        (('d', 'e'), True)
        """
        pending = {f: thunk for f, thunk in names.items() if f not in known} if known else dict(names)
        given = {"horizon": (), **{f: tuple(v) for f, v in known.items()}}
        if pending.keys() | given.keys() != _LAZY or not known.keys() <= _LAZY:
            raise TypeError(f"Result.deferred: give each of {LAZY} (or leave horizon empty), "
                            f"got names for {sorted(names)} and values for {sorted(known)}")
        self = object.__new__(cls)
        fields = self.__dict__  # as Frozen keeps them
        fields.update(best=best, value=value, engine=engine, algorithm=algorithm,
                      extra={} if extra is None else extra, window=window, depth=depth,
                      bound=bound, tree_ref=tree_ref)
        for f, v in given.items():
            if f not in pending:
                fields[f] = v
        if pending:
            fields["_pending"] = pending
        return self

    def __getattr__(self, name: str) -> Any:
        pending = self.__dict__.get("_pending")
        thunk = pending.get(name) if pending else None
        if thunk is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = tuple(thunk())
        object.__setattr__(self, name, value)
        pending.pop(name, None)  # type: ignore[union-attr]  # pending holds thunk
        if not pending:
            self.__dict__.pop("_pending", None)
        return value

    def _replace(self, **changes: Any) -> "Result":
        """A copy with ``changes``; the fields not named yet stay so (the
        copy names them from the same record, when read)."""
        pending = self.__dict__.get("_pending")
        if not pending or not changes.keys() <= _NAMES or pending.keys() & changes.keys():
            return super()._replace(**changes)  # (an unknown name: its TypeError)
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, **changes)
        copy.__dict__["_pending"] = dict(pending)
        return copy

    def _pending_fields(self) -> dict[str, Callable[[], Sequence[str]]]:
        """The fields not named yet (field -> how to name it)."""
        return dict(self.__dict__.get("_pending") or {})

    def __getstate__(self) -> dict[str, Any]:  # pickling (--jobs, Dask) sends names, not thunks
        for f in self._pending_fields():
            getattr(self, f)
        # the tree is referred to weakly, for pictures in this process only
        return {k: (None if k == "tree_ref" else v) for k, v in self.__dict__.items()
                if k != "_pending"}

    def searched_tree(self) -> Any:
        """The tree this result's search ran on, while it lives (else None):
        what a notebook draws a Result on."""
        return self.tree_ref() if self.tree_ref is not None else None

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



# The default of ``horizon`` is kept by ``__init__``; taken off
# the class, a deferred result's missing horizon reaches ``__getattr__`` as
# the other lists do, instead of the class's ``()``.
del Result.horizon
_NAMES = frozenset(f[0] for f in Result._fields)

_BOUND_WORDS = {"exact": "exact", "upper": "an upper bound: the root failed low",
                "lower": "a lower bound: the root failed high",
                "unknown": "a bound: the null window's value, low or high"}


def value_words(result: Result) -> str:
    """One line for people: the root's value and what it is.

    >>> value_words(Result("b", 3, (), (), (), "python", "bratko", window=(5, 10), bound="upper"))
    'Val = 3 is an upper bound: the root failed low (below alpha 5)'
    """
    b = result.bound
    v = result.value
    if v is None:  # an agent's search (aima, cs188): it returns an action, never a value
        action = (result.extra or {}).get("action", result.best)
        return f"it returns an action ({'none' if action is None else action}), no value"
    text = f"Val = {bound_text(v) if isinstance(v, (int, float)) else v} is {_BOUND_WORDS[b]}"
    alpha, beta = result.window
    if b == "upper":
        text += f" ({'below' if v < alpha else 'at'} alpha {bound_text(alpha)})"
    elif b == "lower":
        text += f" ({'above' if v > beta else 'at'} beta {bound_text(beta)})"
    return text


def expect_result(obj: Any, where: str) -> None:
    """A :class:`Result`, or an ArgumentError naming ``where`` and how to get one."""
    if not isinstance(obj, Result):
        from .api import kind
        from .errors import ArgumentError
        raise ArgumentError(f"{where}: expected a Result, got {kind(obj)}: use pyab.solve(tree)")
