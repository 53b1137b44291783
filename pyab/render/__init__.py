"""Pictures of a search: a terminal tree and table (rich), Graphviz,
a self-contained HTML stepper, and SVG for notebooks.

Every picture is drawn from a :class:`pyab.render.trace.Trace`, so what it shows
(values, windows, cuts, the chosen line) is what the search was observed
doing.  Heavy imports (rich) happen inside the functions.
"""

from __future__ import annotations

from .notebook import Picture, Stepper, picture

__all__ = ["Picture", "Stepper", "picture"]
