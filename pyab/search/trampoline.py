"""Run mutually recursive generator functions without Python recursion.

A "clause" is written as a generator that ``yield``s a sub-call (another
generator) and receives its result::

    def alphabeta(pos):
        val = yield boundedbest(...)
        return val

:func:`run` drives the calls on an explicit stack, so recursion depth is
bounded by memory, not by ``sys.getrecursionlimit()``.  This lets a search
read like the printed program while a 100,000-deep chain still solves.
"""

from __future__ import annotations

from typing import Any, Generator

Call = Generator[Any, Any, Any]

__all__ = ["Call", "run"]


def run(call: Call) -> Any:
    """Run ``call`` to completion and return its value."""
    stack = [call]
    value: Any = None
    while stack:
        try:
            sub = stack[-1].send(value)
        except StopIteration as stop:
            stack.pop()
            value = stop.value
        else:
            stack.append(sub)
            value = None
    return value
