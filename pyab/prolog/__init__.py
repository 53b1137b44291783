"""The SWI-Prolog side, as Python sees it: the :class:`Engine` that loads
trees and runs the programs (``bridge``, the Python half of the bridge), the
link to SWI-Prolog's library (``libswipl``), the decoding of its answers
(``answers``), the fact text (``facts``), finding and starting SWI-Prolog
(``home``, ``state``) and the optional C loader and recorder (``_cload``).  Mirrors ``prolog/bridge/`` in the
checkout, the Prolog half of the bridge.
"""

from __future__ import annotations

from .bridge import (PROLOG_DIR, Engine, drop, engine, live_modules, resource_counts,
                     set_default, solve, solve_traced)

__all__ = ["PROLOG_DIR", "Engine", "drop", "engine", "live_modules", "resource_counts",
           "set_default", "solve", "solve_traced"]
