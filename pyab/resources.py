"""Where pyab's own files are: the Prolog programs, the example trees and
the documentation.

An installed pyab (a wheel or an sdist) carries them inside the package, as
``pyab/_prolog``, ``pyab/_examples`` and ``pyab/_docs`` (setup.py maps the
checkout's ``prolog/``, ``examples/`` and ``docs/`` there).  A checkout, or an editable install of
one, has them at the top of the tree, where the README and the SWI-Prolog
REPL use them.  Both are found beside the package's own files (SWI-Prolog
reads them as plain files, so pyab runs from a folder, never a zip; not
importing importlib.resources saves a cold start about 5 ms), so pyab works
from any current directory.
"""

from __future__ import annotations

import functools
import importlib
import os
from pathlib import Path
from typing import Any

from .errors import Error

__all__ = ["compiled", "docs_dir", "examples_dir", "prolog_dir"]


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


def docs_dir() -> Path:
    """The folder holding the user documentation (``json.md``, ...)."""
    return _data_dir("docs", "json.md")


def compiled(name: str) -> Any:
    """The package's optional compiled module ``pyab.<name>`` (``dsl._cscan``, the
    DSL scanner; ``prolog._cload``, the loader and recorder), or None when it was
    not built (no C compiler at install time) or ``PYAB_PURE_PYTHON`` is set
    to anything but ``""``/``0`` (tests and benchmarks force the pure-Python
    and load_packed/3 paths so)."""
    if os.environ.get("PYAB_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(f"pyab.{name}")
    except ImportError:
        return None
