"""The limits and settings of ``--untrusted`` children: their defaults,
the disk budget and allowed modules a run sets, and which limits the
kernel enforces here."""

from __future__ import annotations

import os
from typing import Callable

from .allowed import allowed_modules


# What an --untrusted child gets unless told otherwise: seconds a search,
# MB of address space, CPU seconds, processes (on top of those running),
# MB a written file, open files, and seconds of wall clock for the whole run.
LIMITS = {"timeout": 10.0, "memory_mb": 1024, "cpu_seconds": 600, "nproc": 32, "fsize_mb": 16,
          "nofile": 64, "wall_seconds": 1800.0}


DISK_MB = 256                   # MB of writable space (tmpfs) a child gets unless told


def settings(disk_mb: int | None = None, modules: list[str] | tuple[str, ...] | None = None
             ) -> Callable[[], None]:
    """Set the disk budget and allowed modules of every sandbox made from
    now on (a grade suite's ``disk`` and ``modules``); returns the function
    that sets them back.  They are kept in the environment, so that worker
    processes have them too; a value already set there (``--disk``,
    ``--allow-module``: the command line's) wins.
    :raises ValueError: a module that cannot be allowed."""
    new = {}
    if disk_mb is not None and "PYAB_DISK_MB" not in os.environ:
        new["PYAB_DISK_MB"] = str(disk_mb)
    if modules and "PYAB_ALLOW_MODULES" not in os.environ:
        allowed_modules(tuple(modules))  # refused now, by name
        new["PYAB_ALLOW_MODULES"] = ",".join(modules)
    os.environ.update(new)

    def restore() -> None:
        for k in new:
            os.environ.pop(k, None)
    return restore


def positive_int(text: str) -> int | None:
    return int(text) if text.isdigit() and int(text) > 0 else None


FALLBACK_WHY: list[str] = []


def fallback() -> str:
    """One line for diagnostics: which limits the kernel enforces per child
    here, and which fall back to rlimits (and why)."""
    from . import cgroup
    why = FALLBACK_WHY[0] if FALLBACK_WHY else cgroup.available()
    if not why:
        return ("per child: a memory cgroup (its processes and tmpfs pages) and a pids cgroup; "
                f"--disk on each tmpfs; {LIMITS['fsize_mb']} MB a file")
    return (f"no cgroup ({why}): memory is limited per process (RLIMIT_AS), processes per "
            "user (RLIMIT_NPROC), tmpfs pages by --disk on each writable place only")


def limits(timeout: float | None, memory_mb: int | None) -> dict:
    """:class:`~pyab.referee.child.Child` limits under ``--untrusted``:
    :data:`LIMITS`, with the timeout and memory the user gave."""
    out = dict(LIMITS)
    if timeout is not None:
        out["timeout"] = timeout
    if memory_mb is not None:
        out["memory_mb"] = memory_mb
    return out
