"""What a confined child may see of pyab's machine: the system's read-only
folders, the modules a teacher allows (``--allow-module``), never pyab."""

from __future__ import annotations

import os
import sys
from pathlib import Path


# Mounted read-only when present (links stay links: Debian's /bin -> usr/bin).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def hidden() -> list[str]:
    """pyab's package and the reference programs: never visible inside."""
    from ..resources import prolog_dir
    here = Path(__file__).resolve().parent.parent
    return sorted({str(here), str(Path(prolog_dir()).resolve())})


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def under_hidden(path: str) -> bool:
    return any(path == h or path.startswith(h + "/") for h in hidden())


def allowed_modules(names: tuple[str, ...] | None = None) -> tuple[list[str], list[str]]:
    """The folders and files of the modules a teacher allows a confined
    Python child to import (``names``, else ``PYAB_ALLOW_MODULES``, set by
    ``--allow-module``), as found by pyab's own interpreter, and the
    folders to put on the child's ``sys.path``: ``(paths, folders)``.
    Each is bound read-only, nothing else of pyab's environment.
    :raises ValueError: a name that is not a top-level module there, or pyab."""
    import importlib.util
    if names is None:
        names = tuple(n for n in os.environ.get("PYAB_ALLOW_MODULES", "").split(",") if n)
    paths: list[str] = []
    folders: list[str] = []
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"--allow-module {name}: a top-level module's name, like numpy")
        spec = importlib.util.find_spec(name) if name not in ("pyab", "__main__") else None
        if spec is None or spec.origin in (None, "built-in", "frozen"):
            raise ValueError(f"--allow-module {name}: no module {name} in pyab's environment "
                             f"({sys.executable})" if name != "pyab" else
                             "--allow-module pyab: pyab itself is never visible to a program")
        where = list(spec.submodule_search_locations or []) or [spec.origin]
        for w in where:
            real = os.path.realpath(w)
            if under_hidden(real) or any(inside(h, real) for h in hidden()):
                raise ValueError(f"--allow-module {name}: it holds pyab itself")
            if real.startswith(tuple(s + "/" for s in SYSTEM)):
                continue  # the system's: visible already
            paths.append(real)
            site = os.path.dirname(real)
            if os.path.isdir(os.path.join(site, name + ".libs")):  # a wheel's own libraries
                paths.append(os.path.join(site, name + ".libs"))
            if site not in folders:
                folders.append(site)
    return paths, folders
