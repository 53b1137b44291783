"""What one search reports, whichever engine ran it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .tree import Number

__all__ = ["Result", "json_number"]


def json_number(x: Number) -> Any:
    """A number for JSON: infinities (a window bound returned by a fail-hard
    search) become the strings "inf" / "-inf"; everything else is kept."""
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


@dataclass(frozen=True)
class Result:
    """The outcome of a search.

    ``best`` is the root's chosen child (the slides' GoodPos; None when the
    root is a leaf), ``value`` the value returned for the root (Val), from
    MAX's point of view.  ``leaves`` are the leaves whose static value was
    read, in the order read; ``visited`` every node the search was called on,
    in call order; ``pruned`` the unvisited children of visited nodes (the
    roots of cut-off subtrees), in tree order.
    """

    best: str | None
    value: Number
    leaves: tuple[str, ...]
    visited: tuple[str, ...]
    pruned: tuple[str, ...]
    engine: str
    algorithm: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        out = {
            "best": self.best,
            "value": json_number(self.value),
            "leaves": list(self.leaves),
            "visited": list(self.visited),
            "pruned": list(self.pruned),
            "engine": self.engine,
            "algorithm": self.algorithm,
        }
        out.update(self.extra)
        return out
