"""The Prolog file that runs a search: a registered algorithm's own, found
once, or a user's, looked at every time."""

from __future__ import annotations

from pathlib import Path

from ..errors import PrologError
from ..search import algorithm as find_algorithm
from .libswipl import PROLOG_DIR


def _program_path(program: str | Path | None, algorithm: str) -> str:
    if not program:  # pyab's own file of a registered algorithm: found once
        found = _REGISTRY_PATHS.get(algorithm)
        if found is None:
            found = _REGISTRY_PATHS[algorithm] = _existing(PROLOG_DIR / find_algorithm(algorithm).prolog_file)
        return found
    return _existing(Path(program).resolve())  # a user's file: looked at every time


def _existing(path: Path) -> str:
    if not path.is_file():
        raise PrologError(f"no Prolog program at {path}")
    return str(path)


# algorithm -> the path of its Prolog file (a path and a stat per search
# were a tenth of the Python side of an in-process check).
_REGISTRY_PATHS: dict[str, str] = {}
