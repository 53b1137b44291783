"""Find SWI-Prolog's home and shared library without starting ``swipl``.

pyswip 0.3.3 runs ``swipl --dump-runtime-variables`` when it is imported
(tens of milliseconds, most of a small command's start-up) unless both
``SWI_HOME_DIR`` and ``LIBSWIPL_PATH`` are set.  :func:`configure` sets
them before pyswip is imported, found in this order:

1. already set by the user: left alone;
2. beside the ``swipl`` on ``PATH``: its real path is
   ``HOME/bin/ARCH/swipl``, the library ``HOME/lib/ARCH/libswipl.so*`` or
   in the system's library directories (as Debian installs it), and HOME
   holds ``boot.prc``;
3. a cache file (``$XDG_CACHE_HOME/pyab/swipl.json``, else
   ``~/.cache/pyab/swipl.json``) holding what ``swipl
   --dump-runtime-variables`` said once, for that ``swipl`` (its real path
   and modification time; another or a reinstalled ``swipl`` asks again).

When nothing is found, nothing is set, and pyswip looks as it always does.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

__all__ = ["cache_dir", "configure", "find", "locate"]

HOME_VAR, LIB_VAR = "SWI_HOME_DIR", "LIBSWIPL_PATH"
_SYSTEM_LIBS = ("/usr/lib/{multiarch}", "/lib/{multiarch}", "/usr/lib64", "/usr/lib",
                "/usr/local/lib")


def configure() -> tuple[str, str] | None:
    """Set ``SWI_HOME_DIR`` and ``LIBSWIPL_PATH`` for pyswip when both can
    be found; (home, library), or None when they were left as they were."""
    if os.environ.get(HOME_VAR) and os.environ.get(LIB_VAR):
        return None
    found = find()
    if found is None:
        return None
    os.environ[HOME_VAR], os.environ[LIB_VAR] = found
    return found


def locate() -> tuple[str, str] | None:
    """(home, shared library) as pyswip will use them: both from the
    environment when the user set both, else found (and set) by
    :func:`configure`; None when they are not known."""
    found = configure()
    if found is None and os.environ.get(HOME_VAR) and os.environ.get(LIB_VAR):
        found = os.environ[HOME_VAR], os.environ[LIB_VAR]
    return found


def find(swipl: str | None = None) -> tuple[str, str] | None:
    """(home, shared library) of ``swipl`` (default: the one on PATH)."""
    exe = swipl or shutil.which("swipl")
    if exe is None:
        return None
    real = Path(exe).resolve()
    return _beside(real) or _cached(real)


def _beside(real: Path) -> tuple[str, str] | None:
    """The layout of SWI-Prolog's own installs: HOME/bin/ARCH/swipl."""
    if real.parent.parent.name != "bin":
        return None
    arch, home = real.parent.name, real.parent.parent.parent
    if not (home / "boot.prc").is_file():
        return None
    multiarch = arch.replace("-linux", "-linux-gnu")
    dirs = [str(home / "lib" / arch), str(home / "lib"),
            *(d.format(multiarch=multiarch) for d in _SYSTEM_LIBS)]
    ext = "dylib" if sys.platform == "darwin" else "so"
    for d in dirs:
        exact = os.path.join(d, f"libswipl.{ext}")
        if os.path.exists(exact):
            return str(home), exact
        import glob
        candidates = sorted(glob.glob(exact + ".*"))
        if candidates:
            return str(home), candidates[0]
    return None


def cache_dir() -> Path:
    """pyab's folder in the user's cache: ``$XDG_CACHE_HOME/pyab``, else
    ``~/.cache/pyab``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pyab"


def _cache_file() -> Path:
    return cache_dir() / "swipl.json"


def _cached(real: Path) -> tuple[str, str] | None:
    """What ``swipl --dump-runtime-variables`` said, asked once per swipl."""
    import json
    import subprocess
    try:
        key = {"swipl": str(real), "mtime": real.stat().st_mtime}
    except OSError:
        return None
    cache = _cache_file()
    try:
        saved = json.loads(cache.read_text(encoding="utf-8"))
        if saved.get("key") == key and os.path.exists(saved["lib"]):
            return saved["home"], saved["lib"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    try:
        out = subprocess.run([str(real), "--dump-runtime-variables"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = dict(line.rstrip(";").split("=", 1) for line in out.splitlines() if "=" in line)
    home, lib = found.get("PLBASE", "").strip('"'), found.get("PLLIBSWIPL", "").strip('"')
    if not (home and lib and os.path.isdir(home) and os.path.exists(lib)):
        return None
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "home": home, "lib": lib}), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass  # no cache: the next start asks again
    return home, lib
