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
The thread gets its own mask back when its last child is closed.
``PYAB_PLACEMENT=0`` in the environment leaves every mask as it is.

pyab's Prolog child is the exception: it is asked once a search (the
questions are answered and recorded in the child), and the next search is
sent to it while pyab judges the last, so the two work best on two CPUs:
its :class:`~pyab.referee.child.Child` is started with ``share_cpu=False``.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

__all__ = ["ENV", "Placement", "share_cpu"]

#: Set to 0 to leave CPU affinity alone.
ENV = "PYAB_PLACEMENT"

# Per thread (native id): how many children hold it pinned, and the mask it
# had before the first.  A thread is unpinned when its last child is closed,
# so what the process starts later (another program, a --jobs pool) is not
# squeezed onto one CPU.
_LOCK = threading.Lock()
_HELD: dict[int, list[Any]] = {}  # tid -> [count, saved mask]


class Placement:
    """The pinning of one child's parent thread; :meth:`release` (at the
    latest when the owner is garbage-collected) gives the thread its mask
    back once no other child holds it."""

    def __init__(self, tid: int | None, cpu: int | None) -> None:
        self.tid, self.cpu = tid, cpu

    def release(self) -> None:
        tid, self.tid = self.tid, None
        if tid is not None:
            _release(tid)


def share_cpu(owner: object | None = None) -> Placement:
    """Pin the calling thread to one CPU, so that a child started next runs
    there too (it inherits the mask at fork).  ``owner`` (the child's
    object) releases the pinning when it is collected, if nothing did
    before.  ``.cpu`` is None when placement is off or impossible here."""
    if os.environ.get(ENV, "1") == "0" or not hasattr(os, "sched_setaffinity"):
        return Placement(None, None)
    tid = threading.get_native_id()
    try:
        with _LOCK:
            held = _HELD.get(tid)
            if held is not None:  # pinned already by a child still open
                held[0] += 1
                cpu = min(os.sched_getaffinity(0))
            else:
                saved = os.sched_getaffinity(0)
                cpu = _choose(sorted(saved))
                if len(saved) > 1:
                    os.sched_setaffinity(0, {cpu})  # 0: the calling thread (Linux)
                _HELD[tid] = [1, saved]
    except OSError:  # a container that forbids it: run unplaced
        return Placement(None, None)
    placed = Placement(tid, cpu)
    if owner is not None:
        weakref.finalize(owner, placed.release)
    return placed


def _choose(allowed: list[int]) -> int:
    if len(allowed) == 1:
        return allowed[0]
    worker = _worker_index()
    if worker is not None:
        return allowed[worker % len(allowed)]
    now = _current_cpu()
    return now if now in allowed else allowed[0]


def _release(tid: int) -> None:
    with _LOCK:
        held = _HELD.get(tid)
        if held is None:
            return
        held[0] -= 1
        if held[0] > 0:
            return
        del _HELD[tid]
        try:
            os.sched_setaffinity(tid, held[1])
        except OSError:  # the thread has ended, or a container forbids it
            pass


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
