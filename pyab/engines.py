"""The one way into the two engines: which engine runs a search.

Every caller (``pyab.solve``, ``pyab check``, ``variants``, ``experiment``,
``trace``, ``game``) goes through :func:`solve` or :func:`traced`; nothing
else asks which engine it is.  The same search in both engines, compared,
is :func:`pyab.check.both`.
"""

from __future__ import annotations

import math
from typing import Any

from .result import Result
from .tree import Number, Tree

__all__ = ["NAMES", "named_events", "solve", "traced"]

#: The engines: ``prolog`` (SWI-Prolog, observed) and ``python`` (the mirror).
NAMES = ("prolog", "python")


def _unknown(engine: str) -> ValueError:
    return ValueError(f"unknown engine {engine!r} (known: {', '.join(NAMES)})")


def solve(
    tree: Tree,
    engine: str = "prolog",
    algorithm: str = "bratko",
    alpha: Number = -math.inf,
    beta: Number = math.inf,
    *,
    depth: int | None = None,
    timeout: float | None = None,
    program: str | None = None,
    names: bool = True,
    eager: bool = False,
    once: bool = False,
) -> Result:
    """Search ``tree`` with ``algorithm`` in ``engine``.

    ``timeout`` and ``program`` apply to the Prolog engine.  ``names=False``
    (implicit trees only) skips the lists of names in Prolog; either engine
    then puts ``leaves_count`` and ``visited_count`` in ``Result.extra``.
    ``eager=True`` has the Prolog engine name the observed nodes at once,
    for callers that read every list anyway (names read later cost a copy
    of the record more).  ``once=True`` says the tree is searched once:
    the Prolog engine may load, search and unload a small tree in one call
    (:meth:`pyab.prolog.Engine.solve`).
    """
    from .arguments import check_search
    from .result import finish
    from .tree import check_window
    check_search(tree, algorithm, alpha, beta, depth=depth, timeout=timeout)
    check_window(tree, alpha, beta)  # both engines refuse what they would compare differently
    if engine == "prolog":
        from . import prolog
        result = prolog.solve(tree, algorithm, alpha, beta, depth=depth, timeout=timeout,
                              program=program, names=names, eager=eager, once=once)
    elif engine == "python":
        from .search import solve_python
        result = solve_python(tree, algorithm, alpha, beta, depth)
        if not names:
            result.extra.update(leaves_count=len(result.leaves), visited_count=len(result.visited))
    else:
        raise _unknown(engine)
    return finish(result, tree, alpha, beta)  # horizon and bound, alike for both engines


def traced(tree: Tree, engine: str = "prolog", alpha: Number = -math.inf,
           beta: Number = math.inf, *, timeout: float | None = None
           ) -> tuple[Result, list[tuple[Any, ...]]]:
    """The slides' program step by step: the result and the events (names,
    not node ids), as :func:`pyab.prolog.solve_traced` gives them."""
    from .tree import check_window
    check_window(tree, alpha, beta)
    if engine == "prolog":
        from .prolog import solve_traced
        return solve_traced(tree, alpha, beta, timeout=timeout)
    if engine == "python":
        from .search.bratko import search
        raw: list[tuple[Any, ...]] = []
        result = search(tree, alpha, beta, observe=lambda *e: raw.append(e))
        return result, named_events(tree, raw)
    raise _unknown(engine)


def named_events(tree: Tree, raw: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The mirror's events with node ids turned into names."""
    name = tree.name_of
    out = []
    for e in raw:
        kind = e[0]
        if kind == "cut":
            out.append((*e[:1], name(e[1]), *e[2:6], tuple(name(r) for r in e[6])))
        elif kind == "return":
            out.append((kind, name(e[1]), None if e[2] is None else name(e[2]), e[3]))
        else:
            out.append((kind, name(e[1]), *e[2:]))
    return out
