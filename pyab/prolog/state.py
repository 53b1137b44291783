"""SWI-Prolog started with pyab's bridge already in it: a saved state.

Loading the bridge from source (``prolog/pyab_bridge.pl``, its modules
under ``prolog/bridge/``, the libraries they use and the registry
``algorithms.json``) took about 0.03 s CPU at every start of the engine.  A
saved state (``qsave_program/2``) of a ``swipl`` that loaded it, given to
``PL_initialise`` as ``-x STATE``, brings all of it in about 0.006 s.

:func:`state` returns such a state, made on first use by a ``swipl`` child
(about 0.2 s, once) and kept in the user's cache directory
(``$XDG_CACHE_HOME/pyab``, else ``~/.cache/pyab``) as ``bridge-KEY.state``
with a manifest ``bridge-KEY.json`` beside it.  KEY names the SWI-Prolog
(version, home, library) and the bridge file; the manifest holds the
size, modification time and path of everything the state was made from:
the SWI-Prolog library and boot file, every file of the bridge the child
loaded, and the registry.  A state is used only while all of these are
unchanged, so an edited ``.pl`` file or an upgraded SWI-Prolog is never
answered from a stale state: the state is made again.

SWI-Prolog aborts the whole process when it cannot read a state, so no
file is handed to it unchecked: its size and CRC-32 must be the manifest's,
else it is made again.  When the cache directory cannot be written, or no
``swipl`` can be run, :func:`state` returns None and the bridge is loaded
from source, as before.  ``PYAB_SWI_STATE=0`` in the environment turns the
state off.

:func:`child_state` does the same for the referee's Prolog child
(``prolog/referee/child.pl``, a ``swipl`` process a submission): started
from its state it is ready in about 10 ms of CPU instead of 70, most of a
Prolog submission's start-up when a class is graded.  Its key names the
``swipl`` executable (real path, size, modification time) instead of a
library; its manifest also holds that SWI-Prolog's boot file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from .home import cache_dir

__all__ = ["ENV", "child_state", "state"]

#: Set to 0 to load the bridge from source at every start.
ENV = "PYAB_SWI_STATE"

# The child's goal: constant text, the paths come as arguments after `--`.
# It prints SWI-Prolog's version and the bridge's own source files (all
# loaded files outside SWI-Prolog's home), separated by NUL, then saves the
# state: a development state (autoloading stays on, as in a plain start),
# without autoloading everything first (what a plain start does not load
# is not loaded from the state either), with no goal of its own.
_SAVE = (
    "current_prolog_flag(argv, Argv), append(_, [Bridge, Out], Argv), "
    "user:ensure_loaded(Bridge), "
    "current_prolog_flag(version, V), format('~w~c', [V, 0]), "
    "current_prolog_flag(home, Home), "
    "forall((source_file(F), \\+ sub_atom(F, 0, _, _, Home)), format('~w~c', [F, 0])), "
    "qsave_program(Out, [class(development), autoload(false), goal(true), toplevel(prolog)])"
)


def _stamp(path: str | Path) -> list | None:
    """[path, size, mtime in ns] of a file, or None when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [str(path), st.st_size, st.st_mtime_ns]


def _crc(data: bytes) -> int:
    from zlib import crc32
    return crc32(data)


def state(home: str, lib: str, version: int, bridge: Path) -> str | None:
    """The path of a checked saved state of ``bridge`` for the SWI-Prolog
    whose home is ``home``, shared library ``lib`` and version ``version``
    (``PL_version_info``), made now when there is none; None when there
    cannot be one (see the module docstring)."""
    if os.environ.get(ENV, "1") == "0":
        return None
    key = {"version": version, "home": home, "lib": _stamp(lib),
           "boot": _stamp(os.path.join(home, "boot.prc")), "bridge": str(bridge)}

    def command() -> list[str] | None:
        exe = _swipl(home)
        return None if exe is None else [exe, f"--home={home}"]
    return _cached("bridge", key, command, bridge, str(version))


# Checked in full once a process: (swipl, source) -> (state, its stamp) or None.
_CHILD: dict[tuple, tuple[str, list] | None] = {}


def child_state(swipl: str, child: Path) -> str | None:
    """The path of a checked saved state of the referee's Prolog child
    ``child`` (``prolog/referee/child.pl``) for the executable ``swipl``,
    made now when there is none; None when there cannot be one (then the
    child loads from source).  Checked in full once a process, then by
    its size and modification time (a state is replaced only whole, by
    ``os.replace``, never written in place)."""
    if os.environ.get(ENV, "1") == "0":
        return None
    import shutil
    exe = shutil.which(swipl) or swipl
    real = os.path.realpath(exe)
    where = (real, str(child))
    if where in _CHILD:
        known = _CHILD[where]
        if known is None or _stamp(known[0]) == known[1]:
            return None if known is None else known[0]
    key = {"swipl": _stamp(real), "child": str(child)}
    made = None if key["swipl"] is None else _cached("child", key, lambda: [real, "--no-packs"],
                                                     child, None)
    stamp = None if made is None else _stamp(made)
    _CHILD[where] = None if made is None or stamp is None else (made, stamp)
    return made


def _cached(kind: str, key: dict, command: Callable[[], list[str] | None], source: Path,
            version: str | None) -> str | None:
    """The checked state of ``source`` under ``key`` in the cache, else
    made by ``command()`` (a ``swipl`` and its options; None: there is
    none) and kept."""
    import json
    name = f"{kind}-{_crc(json.dumps(key, sort_keys=True).encode()):08x}"
    folder = cache_dir()
    saved, manifest = folder / f"{name}.state", folder / f"{name}.json"
    try:
        known = json.loads(manifest.read_text(encoding="utf-8"))
        if known["key"] == key and all(_stamp(f[0]) == f for f in known["files"]):
            if known["size"] is None:  # this swipl cannot make a state for this library
                return None
            data = saved.read_bytes()
            if len(data) == known["size"] and _crc(data) == known["crc32"]:
                return str(saved)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        pass  # missing, stale or damaged: made again
    made = command()
    return None if made is None else _make(made, source, version, key, folder, saved, manifest)


def _swipl(home: str) -> str | None:
    """The ``swipl`` of ``home`` (HOME/bin/ARCH/swipl), else the one on PATH."""
    try:
        for arch in sorted(os.listdir(os.path.join(home, "bin"))):
            exe = os.path.join(home, "bin", arch, "swipl")
            if os.access(exe, os.X_OK) and os.path.isfile(exe):
                return exe
    except OSError:
        pass
    import shutil
    return shutil.which("swipl")


def _make(command: list[str], source: Path, version: str | None, key: dict, folder: Path,
          saved: Path, manifest: Path) -> str | None:
    """Run ``command`` (a ``swipl``) to load ``source`` and save the
    state; keep it with its manifest.  ``version``: the SWI-Prolog the
    state must come from (else it is not used).  None when that cannot
    be done."""
    import json
    import subprocess
    import tempfile
    tmp = saved.with_name(f"{saved.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        open(tmp, "xb").close()  # fails early in a folder that cannot be written
    except OSError:
        return None
    try:
        with tempfile.TemporaryDirectory() as bare:
            # No user init file, packs or config reach the state: the child
            # sees an empty home.  (The engine started from the state still
            # loads the user's init file, as a plain start does.)
            env = {**os.environ, "HOME": bare, "XDG_CONFIG_HOME": bare, "XDG_DATA_HOME": bare}
            done = subprocess.run(
                [*command, "-q", "-g", _SAVE, "-t", "halt", "--", str(source),
                 str(tmp)], capture_output=True, timeout=120, env=env)
        out = done.stdout.decode("utf-8", "replace").split("\0")
        data = tmp.read_bytes()
        if done.returncode != 0 or len(out) < 2 or not data:
            return None
        files = [_stamp(f) for f in out[1:-1]]
        # Read by the bridge (not loaded); the boot file of the child's swipl.
        files.append(_stamp(source.parent / "algorithms.json") if version is not None else
                     _stamp(Path(command[0]).parents[2] / "boot.prc"))
        if None in files:
            return None
        usable = version is None or out[0] == version  # else a swipl other than the library's made it
        if usable:
            os.replace(tmp, saved)
        record = {"key": key, "files": files, "size": len(data) if usable else None,
                  "crc32": _crc(data) if usable else None}
        written = manifest.with_name(f"{manifest.name}.{os.getpid()}.tmp")
        written.write_text(json.dumps(record), encoding="utf-8")
        os.replace(written, manifest)
        return str(saved) if usable else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    finally:
        for leftover in (tmp, manifest.with_name(f"{manifest.name}.{os.getpid()}.tmp")):
            try:
                os.unlink(leftover)
            except OSError:
                pass
