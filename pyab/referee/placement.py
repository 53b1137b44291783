"""Where a program under test runs: on the CPU of the pyab thread that talks
to it.

Every question is a round trip over a pipe: pyab writes, the child wakes,
answers, pyab wakes.  On one CPU a round trip costs about 22 us; when the
scheduler puts the two on different CPUs it is 26-30 us and spiky, and
whole runs were 2.4-3.2 times slower (issue 28's measurements).  So before
a child is started, the calling thread is pinned to one CPU and the child,
which inherits the mask at fork, shares it (so does everything it starts,
a sandbox's inner process too: nothing races the pinning).

Which CPU: the only one when the thread may use only one; the k-th
allowed CPU in the k-th worker of a process pool (``--jobs N``), so that
the workers spread over the CPUs and each shares its CPU with its own
child; else the CPU the thread is running on now (the scheduler's choice).
``PYAB_PLACEMENT=0`` in the environment leaves every mask as it is.
"""

from __future__ import annotations

import os

__all__ = ["ENV", "share_cpu"]

#: Set to 0 to leave CPU affinity alone.
ENV = "PYAB_PLACEMENT"


def share_cpu() -> int | None:
    """Pin the calling thread to one CPU, so that a child started next runs
    there too; that CPU, or None when placement is off or impossible here."""
    if os.environ.get(ENV, "1") == "0" or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        allowed = sorted(os.sched_getaffinity(0))
        if len(allowed) == 1:
            return allowed[0]
        worker = _worker_index()
        if worker is not None:
            cpu = allowed[worker % len(allowed)]
        else:
            now = _current_cpu()
            cpu = now if now in allowed else allowed[0]
        os.sched_setaffinity(0, {cpu})  # 0: the calling thread (Linux)
        return cpu
    except OSError:  # a container that forbids it: run unplaced
        return None


def _worker_index() -> int | None:
    """0, 1, ... in the workers of a multiprocessing pool, else None."""
    import sys
    mp = sys.modules.get("multiprocessing")
    if mp is None or mp.parent_process() is None:
        return None
    ident = getattr(mp.current_process(), "_identity", ())
    return ident[0] - 1 if ident else None


def _current_cpu() -> int | None:
    """The CPU this thread last ran on (field 39 of /proc/thread-self/stat)."""
    try:
        with open("/proc/thread-self/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces: count from after its ")".
    fields = stat[stat.rfind(b")") + 2:].split()
    try:
        return int(fields[36])
    except (IndexError, ValueError):
        return None
