"""Run mutually recursive search functions as deep as the tree demands.

Each clause of a search is a plain Python function that calls the next
one, as the printed program does::

    def alphabeta(pos, alpha, beta):
        ...
        good_pos, val = boundedbest(pos_list, 0, alpha, beta)

Since Python 3.11 a call from Python code to a Python function uses no C
stack, only a frame on the interpreter's own heap-allocated stack; what
stops deep recursion is only ``sys.getrecursionlimit()``.  :func:`run`
raises that limit for the duration of one search, to a bound taken from
the tree's size (each node puts at most a few frames on the stack at
once), and puts the old limit back afterwards.  So a search reads like the
printed program, runs at the speed of plain calls (the generator
trampoline it replaces cost four to six times more per node), and a
100,000-deep chain still solves.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, Generator

__all__ = ["FRAMES_PER_NODE", "run"]

# Frames one node can hold on the stack at once, with room to spare: the
# mirrors put one or two frames per level of the tree (the slides'
# program: alphabeta -> boundedbest), a search that recursed down a
# children list would put two per child searched.
FRAMES_PER_NODE = 4
_UNKNOWN_SIZE = 1_000_000  # nodes assumed for a tree that does not say
_lock = threading.Lock()
_active = 0
_saved = 0


def _frames(tree: Any) -> int:
    """An upper bound on the frames a search of ``tree`` stacks up."""
    try:
        size = len(tree)
    except TypeError:  # implicit trees: the nodes of one root-to-leaf path and their siblings
        b, d = getattr(tree, "branching", None), getattr(tree, "depth", None)
        size = b * (d + 1) if isinstance(b, int) and isinstance(d, int) else _UNKNOWN_SIZE
    return FRAMES_PER_NODE * size + 1000


def run(tree: Any, call: Callable[..., Any] | None = None, *args: Any) -> Any:
    """``call(*args)`` with the recursion limit raised for a search of ``tree``.

    ``run(generator)`` alone drives clauses written as generators (each
    ``yield``s a sub-call and receives its result) on an explicit stack: the
    older style, slower, kept for searches written that way."""
    if call is None:
        if isinstance(tree, Generator):
            return _trampoline(tree)
        raise TypeError("run(tree, call, *args), or run(generator)")
    global _active, _saved
    frames = _frames(tree)
    with _lock:
        if _active == 0:
            _saved = sys.getrecursionlimit()
        _active += 1
        if _saved + frames > sys.getrecursionlimit():
            sys.setrecursionlimit(_saved + frames)
    try:
        return call(*args)
    finally:
        with _lock:
            _active -= 1
            if _active == 0:
                sys.setrecursionlimit(_saved)


def _trampoline(call: Generator[Any, Any, Any]) -> Any:
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
