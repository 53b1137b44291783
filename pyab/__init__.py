"""pyab: Bratko's alpha-beta program in SWI-Prolog, a Python mirror, and a
referee that checks they agree on value, move and cuts.

    >>> import pyab
    >>> tree = pyab.parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))")
    >>> r = pyab.solve(tree, engine="python")
    >>> r.best, r.value, r.pruned
    ('b', 3, ('i', 'j'))
"""

from __future__ import annotations

import math
import sys as _sys
from typing import TYPE_CHECKING

from . import check as _check_module  # loaded before `check` below shadows it
from .dsl import dump, load, parse
from .errors import ArgumentError, DSLError, Error, Mismatch, ProgramError, PrologError, SearchTimeout
from .prolog.facts import facts
from .result import Result
from .tree import Number, Tree, TreeError

if TYPE_CHECKING:
    from . import prolog

__all__ = [
    "ArgumentError", "DSLError", "Error", "Mismatch", "ProgramError", "PrologError", "Result",
    "SearchTimeout", "Tree", "TreeError", "check", "dump", "engine", "facts", "load", "parse", "solve",
]
__version__ = "0.2.0"


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
    eager: bool = False,
) -> Result:
    """Search ``tree`` with ``algorithm`` in ``engine`` ("prolog" or "python").

    The Prolog engine runs the real program in SWI-Prolog (the default
    :func:`engine`) and observes it; the Python engine runs the mirror.
    ``timeout`` and ``program`` apply to the Prolog engine.  Its lists of
    names are made when first read; ``eager=True`` makes them at once
    (cheaper when every list will be read).
    """
    from .api import expect_tree
    expect_tree(tree, "pyab.solve")
    from .engines import solve as solve_in
    result = solve_in(tree, engine, algorithm, alpha, beta, depth=depth, timeout=timeout,
                      program=program, eager=eager)
    # What the result's picture needs to show this very search (not compared, not in
    # JSON); the tree weakly, so that a kept result does not keep a tree's module alive.
    import weakref
    try:
        object.__setattr__(result, "_tree", weakref.ref(tree))
    except TypeError:  # a tree type without weak references
        pass
    object.__setattr__(result, "_search", (alpha, beta, depth))
    return result


def engine() -> "prolog.Engine":
    """The default SWI-Prolog :class:`~pyab.prolog.Engine` (started on first
    use) that :func:`solve` uses.  Make your own with ``pyab.prolog.Engine()``
    to own (and close) a set of tree modules."""
    from .prolog import engine as default
    return default()


def check(tree: Tree, algorithm: str = "bratko", alpha: Number = -math.inf,
          beta: Number = math.inf, **kw: object) -> Result:
    """Solve ``tree`` in both engines and compare best, value, leaves,
    visited and pruned.  Returns the Prolog result.

    :raises Mismatch: when they differ, with a readable diff.
    """
    from .api import expect_tree
    expect_tree(tree, "pyab.check")
    return _check_module.compare(tree, algorithm, alpha, beta, **kw)


if "IPython" in _sys.modules:  # a notebook or IPython: Trees and Results show as pictures
    from .render.notebook import register_ipython as _register_ipython
    _register_ipython()
