"""One kernel budget per confined child: a ``memory`` and a ``pids``
control group of its own (cgroup v1, the hierarchies Debian and most CI
runners mount under ``/sys/fs/cgroup``).

A :class:`Budget` is made below the cgroup pyab itself is in (so any limit
pyab runs under still holds), entered by the child between fork and exec,
and removed when the child is closed.  The memory limit covers every
process of the child *and* the pages of its tmpfs mounts (the kernel
charges a tmpfs page to the cgroup of the process that first writes it);
the pids limit counts the child's own processes and threads only, never
another program of the same user (``RLIMIT_NPROC`` counts those).

Where no budget can be made (not root, cgroup v2 only, hierarchies not
mounted or read-only), :func:`available` says why and the child keeps the
rlimits alone: address space per process (``RLIMIT_AS``) and processes per
user (``RLIMIT_NPROC``).
"""

from __future__ import annotations

import itertools
import os
import signal
import time

__all__ = ["Budget", "available"]

ROOT = "/sys/fs/cgroup"
CONTROLLERS = ("memory", "pids")
_COUNT = itertools.count()
_WHY: list[str] = []  # why no budget can be made here (cached), "" when one can


def _own(controller: str) -> str | None:
    """The folder of the cgroup this process is in, for a v1 controller."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as f:
            for line in f:
                _, names, path = line.rstrip("\n").split(":", 2)
                if controller in names.split(","):
                    return os.path.join(ROOT, controller, path.lstrip("/"))
    except (OSError, ValueError):
        pass
    return None


def available() -> str:
    """"" when a :class:`Budget` can be made here, else why not (cached)."""
    if not _WHY:
        why = ""
        for c in CONTROLLERS:
            folder = _own(c)
            if folder is None or not os.path.isdir(folder):
                why = f"no cgroup v1 {c} hierarchy under {ROOT}"
                break
            if os.geteuid() != 0 or not os.access(folder, os.W_OK):
                why = f"cannot make a {c} cgroup in {folder} (needs root)"
                break
        _WHY.append(why)
    return _WHY[0]


class Budget:
    """A child's own ``memory`` (``memory_mb``, swap included) and ``pids``
    (``pids``) cgroups.  :meth:`opened` lets ``uid`` move itself in (the
    child writes its pid after it changed user); :meth:`enter` is run by
    the child; :meth:`remove` kills whatever is still inside and removes
    the groups."""

    def __init__(self, memory_mb: int | None, pids: int | None, uid: int | None = None):
        name = f"pyab-{os.getpid()}-{next(_COUNT)}"
        self.folders: list[str] = []
        try:
            for c in CONTROLLERS:
                parent = _own(c)
                assert parent is not None  # available() said so
                folder = os.path.join(parent, name)
                os.mkdir(folder)
                self.folders.append(folder)
                if c == "memory" and memory_mb is not None:
                    limit = str(memory_mb * 1024 * 1024)
                    _write(folder, "memory.limit_in_bytes", limit)
                    if os.path.exists(os.path.join(folder, "memory.memsw.limit_in_bytes")):
                        _write(folder, "memory.memsw.limit_in_bytes", limit)  # no swap around it
                if c == "pids" and pids is not None:
                    _write(folder, "pids.max", str(pids))
                if uid is not None:
                    os.chown(os.path.join(folder, "cgroup.procs"), uid, -1)
        except BaseException:
            self.remove()
            raise
        self._procs = [os.path.join(f, "cgroup.procs") for f in self.folders]

    def enter(self) -> None:
        """Move the calling process in (between fork and exec: everything it
        starts is inside too)."""
        for p in self._procs:
            fd = os.open(p, os.O_WRONLY)
            try:
                os.write(fd, b"0")  # 0: the writer itself
            finally:
                os.close(fd)

    def oom_killed(self) -> bool:
        """Whether the kernel ended a process of the child for memory."""
        for f in self.folders:
            try:
                with open(os.path.join(f, "memory.oom_control"), encoding="ascii") as fh:
                    for line in fh:
                        if line.startswith("oom_kill ") and int(line.split()[1]) > 0:
                            return True
            except (OSError, ValueError):
                pass
        return False

    def remove(self) -> None:
        """Kill what is left inside (all of it the child's) and remove the
        groups; a group the kernel still holds is tried again for a second."""
        deadline = time.monotonic() + 1.0
        for folder in reversed(self.folders):
            while True:
                _kill_inside(folder)
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)
        self.folders = []


def _write(folder: str, name: str, value: str) -> None:
    with open(os.path.join(folder, name), "w", encoding="ascii") as f:
        f.write(value)


def _kill_inside(folder: str) -> None:
    try:
        with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as f:
            pids = [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
