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

from . import check as _check_module  # loaded before `check` below shadows it
from .dsl import dump, load, parse
from .errors import DSLError, Error, Mismatch, PrologError, SearchTimeout
from .facts import facts
from .result import Result
from .tree import Number, Tree, TreeError

__all__ = [
    "DSLError", "Error", "Mismatch", "PrologError", "Result", "SearchTimeout",
    "Tree", "TreeError", "check", "dump", "facts", "load", "parse", "solve",
]
__version__ = "0.2.0"

ENGINES = ("prolog", "python")


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
) -> Result:
    """Search ``tree`` with ``algorithm`` in ``engine`` ("prolog" or "python").

    The Prolog engine runs the real program in SWI-Prolog and observes it;
    the Python engine runs the mirror.  ``timeout`` and ``program`` apply to
    the Prolog engine.
    """
    from .arguments import check_search
    from .result import finish
    from .tree import check_window
    check_search(tree, algorithm, alpha, beta, depth=depth, timeout=timeout)
    check_window(tree, alpha, beta)  # both engines refuse what they would compare differently
    if engine == "prolog":
        from . import prolog
        result = prolog.solve(tree, algorithm, alpha, beta, depth=depth, timeout=timeout,
                              program=program)
    elif engine == "python":
        from .search import solve_python
        result = solve_python(tree, algorithm, alpha, beta, depth)
    else:
        raise ValueError(f"unknown engine {engine!r} (known: prolog, python)")
    return finish(result, tree, alpha, beta)  # horizon and bound, alike for both engines


def check(tree: Tree, algorithm: str = "bratko", alpha: Number = -math.inf,
          beta: Number = math.inf, **kw: object) -> Result:
    """Solve ``tree`` in both engines and compare best, value, leaves,
    visited and pruned.  Returns the Prolog result.

    :raises Mismatch: when they differ, with a readable diff.
    """
    return _check_module.compare(tree, algorithm, alpha, beta, **kw)
