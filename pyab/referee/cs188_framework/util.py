"""``util`` as a CS188 ``multiAgents.py`` uses it, written for pyab."""

from __future__ import annotations

import importlib
import sys
from typing import Any

__all__ = ["lookup", "manhattanDistance", "raiseNotDefined"]


def lookup(name: str, namespace: dict) -> Any:
    """The object called ``name``: first in ``namespace`` (the agent
    module's globals, where ``scoreEvaluationFunction`` lives), then as
    ``module.attribute``."""
    if name in namespace:
        return namespace[name]
    module, _, attr = name.rpartition(".")
    if module:
        return getattr(importlib.import_module(module), attr)
    raise NameError(f"{name} is not defined in the agent's module")


def manhattanDistance(xy1: Any, xy2: Any) -> Any:
    """|x1 - x2| + |y1 - y2|."""
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


def raiseNotDefined() -> None:
    """What an unfinished method calls: stops the search, naming it."""
    caller = sys._getframe(1).f_code.co_name
    raise NotImplementedError(f"{caller} is not implemented (it calls util.raiseNotDefined())")
