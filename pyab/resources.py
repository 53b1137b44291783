"""Where pyab's own files are: the Prolog programs and the example trees.

An installed pyab (a wheel or an sdist) carries them inside the package, as
``pyab/_prolog`` and ``pyab/_examples`` (setup.py maps the checkout's
``prolog/`` and ``examples/`` there).  A checkout, or an editable install of
one, has them at the top of the tree, where the README and the SWI-Prolog
REPL use them.  Both are found beside the package's own files (SWI-Prolog
reads them as plain files, so pyab runs from a folder, never a zip; not
importing importlib.resources saves a cold start about 5 ms), so pyab works
from any current directory.
"""

from __future__ import annotations

import functools
from pathlib import Path

from .errors import Error

__all__ = ["examples_dir", "prolog_dir"]


@functools.cache
def _data_dir(name: str, probe: str) -> Path:
    package = Path(__file__).resolve().parent
    packaged = package / f"_{name}"
    checkout = package.parent / name
    for place in (packaged, checkout):
        if (place / probe).is_file():
            return place
    raise Error(f"pyab's {name} files are missing (looked for {probe} in {packaged} and "
                f"{checkout}); reinstall pyab")


def prolog_dir() -> Path:
    """The folder holding ``alphabeta.pl`` and the other Prolog programs."""
    return _data_dir("prolog", "alphabeta.pl")


def examples_dir() -> Path:
    """The folder holding the example trees (``slides.tree``, ...)."""
    return _data_dir("examples", "slides.tree")
