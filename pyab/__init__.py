"""pyab: Bratko's alpha-beta program in SWI-Prolog, a Python mirror, and a
referee that checks they agree on value, move and cuts.

    >>> import pyab
    >>> tree = pyab.parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))")
    >>> r = pyab.solve(tree, engine="python")
    >>> r.best, r.value, r.pruned
    ('b', 3, ('i', 'j'))
"""

from __future__ import annotations

import sys as _sys
from typing import TYPE_CHECKING

from .errors import (ArgumentError, DSLError, Error, Mismatch, ProgramError, PrologError,
                     SearchArgumentError, SearchTimeout)
from .result import Result
from .tree import Tree, TreeError

if TYPE_CHECKING:
    from . import prolog
    from .dsl import dump, load, parse
    from .engines import check, solve
    from .prolog.facts import facts

# Imported when first used: a program's child (pyab.referee.pychild) and a
# command that does not read tree text start without them.
_LAZY = {"dump": "dsl", "load": "dsl", "parse": "dsl", "check": "engines", "solve": "engines",
         "facts": "prolog.facts"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

__all__ = [
    "ArgumentError", "DSLError", "Error", "Mismatch", "ProgramError", "PrologError", "Result",
    "SearchArgumentError", "SearchTimeout", "Tree", "TreeError", "check", "dump", "engine", "facts",
    "load", "parse", "solve",
]
__version__ = "0.2.0"


def engine() -> "prolog.Engine":
    """The default SWI-Prolog :class:`~pyab.prolog.Engine` (started on first
    use) that :func:`solve` uses.  Make your own with ``pyab.prolog.Engine()``
    to own (and close) a set of tree modules."""
    from .prolog import engine as default
    return default()


if "IPython" in _sys.modules:  # a notebook or IPython: Trees and Results show as pictures
    from .render.notebook import register_ipython as _register_ipython
    _register_ipython()
