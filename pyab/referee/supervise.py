"""Supervising pyab's own processes: a program's child and the ``--jobs``
workers die with pyab (``PR_SET_PDEATHSIG``), SIGTERM ends them cleanly,
and orphans handed back to pyab are killed and reaped.

:class:`Pool` is the one process pool of pyab (``check --jobs``, ``grade
--jobs``): spawned workers that die with pyab, close their programs'
children on SIGTERM (each child's sandbox copy removed), and are ended
(SIGTERM, then SIGKILL) however the pool's block is left.  A worker that
dies breaks the pool: the calls it lost are run again on a new one (once,
by default), so one submission that kills its worker costs no other its
result."""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time
import weakref
from typing import Any

__all__ = ["CLEANUPS", "MARK", "Pool", "Terminated", "WORKER_ROUTE", "critical", "descendants",
           "die_with_parent", "on_sigterm", "raise_on_sigterm", "reap_orphans", "worker_start",
           "workers_die_with_us"]


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except Exception:  # pragma: no cover - no libc prctl
        return False


def die_with_parent() -> None:
    """This process gets SIGKILL when the one that started it dies, even by
    SIGKILL (Linux ``PR_SET_PDEATHSIG``): a program's child, a --jobs worker."""
    _prctl(1, signal.SIGKILL)


MARK = "PYAB_CHILD_OF"  # in the environment of every program under test: its parent pyab


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (children of children ...)."""
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = set().union(*(_children(p) for p in frontier)) - found
        found |= frontier
    return found


REAP_WAIT = 2.0  # seconds close() waits for a dying child's descendants to come back


def reap_orphans(pgid: int, known: set[int], expect: frozenset[int] | set[int] = frozenset()) -> None:
    """Kill and reap processes handed back to pyab as orphans (see
    :func:`pyab.referee.child._become_subreaper`) that came from a program under test: those
    still in the child's process group ``pgid`` (killed with it, now
    zombies), and those that left it (``setsid``) but carry the environment
    mark every child passes on.  pyab's other subprocesses are left alone,
    and so are ``known`` (live children).  ``expect``: the child's
    descendants before it was killed (a sandbox's inner processes): waited
    for (at most :data:`REAP_WAIT`) until each is gone or reaped, so that
    none is left defunct however slowly it dies.  It returns as soon as
    the group is gone, the expected are gone and one look finds no
    orphan; else it looks until three looks in a row find none."""
    if not sys.platform.startswith("linux"):
        return
    me, my_sid = os.getpid(), os.getsid(0)
    mark = f"{MARK}={me}".encode()
    quiet = 0
    waiting = set(expect)
    deadline = time.monotonic() + REAP_WAIT
    # orphans arrive as their parents die: look a few times, and until the expected are gone
    while quiet < 3 or (waiting and time.monotonic() < deadline):
        waiting = {p for p in waiting if os.path.exists(f"/proc/{p}")}
        found = False
        for pid in _children(me) - known:
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                state, group, session = fields[0], int(fields[2]), int(fields[3])
                if group != pgid and not (state == b"Z" and session != my_sid):
                    # A zombie of another session was handed back (the sandbox's inner
                    # bwrap, after setsid): its environment is gone, reap it anyway.
                    if session == my_sid:
                        continue  # pyab's own helpers (e.g. --jobs workers)
                    with open(f"/proc/{pid}/environ", "rb") as f:
                        if mark not in f.read().split(b"\0"):
                            continue  # not started by a program under test
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                found = True
            except (OSError, ValueError, IndexError):
                pass
        if not found and not waiting and not _group_left(pgid):
            # Every process of the group has been reaped, so every child it
            # had was handed back before that (the kernel reparents at exit),
            # and this look found none: no orphan can come any more.
            return
        quiet = 0 if found else quiet + 1
        time.sleep(0.005 if quiet < 3 else 0.02)


def _group_left(pgid: int) -> bool:
    """Is any process (a zombie too) left in the process group ``pgid``?"""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's now (a reused id): say yes, and keep looking
        return True
    return True


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out.update(map(int, f.read().split()))
        except OSError:
            pass
    return out


def on_sigterm(cleanup: Any) -> Any:
    """A SIGTERM handler that runs ``cleanup()`` and then lets the default
    action end the process (its exit status says SIGTERM, as without it)."""
    def handler(signum: int, frame: Any) -> None:
        cleanup()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
    return handler



class workers_die_with_us:
    """Whatever ends the --jobs run (an answer, an error, Ctrl-C, SIGTERM to
    pyab), the workers end with it, each killing its program's child: they
    are sent SIGTERM, then SIGKILL, and none is left behind."""

    def __init__(self, pool, die_on_sigterm: bool = True) -> None:
        self.pool, self.die_on_sigterm = pool, die_on_sigterm

    def __enter__(self):
        import signal
        import threading

        self.old = None
        if self.die_on_sigterm and threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGTERM, on_sigterm(self.stop))
        return self

    def stop(self) -> None:
        procs = list(getattr(self.pool, "_processes", {}).values())
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=3.0)  # each closes its child and removes its sandbox copy
            if p.is_alive():
                p.kill()
                p.join(timeout=1.0)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def __exit__(self, exc_type, *rest) -> None:
        import signal
        if exc_type is None:
            self.pool.shutdown(wait=True)
        else:
            self.stop()
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)


def worker_start(parent: int) -> None:
    """In a --jobs worker: die with the parent (Linux), and end the
    program's child cleanly on SIGTERM."""
    import os
    import signal

    die_with_parent()
    if os.getppid() != parent:  # the parent died before we asked
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends us

    def on_term(signum: int, frame: Any) -> None:
        if _CRITICAL[0]:  # a child being started or closed: once that is done
            _CRITICAL[1] = on_term
        elif _IN_CALL:  # unwind the call (its children closed on the way), then end
            raise Terminated()
        else:
            _end_worker()
    signal.signal(signal.SIGTERM, on_term)


def _end_worker() -> None:
    if WORKER_ROUTE:
        WORKER_ROUTE[0].close()  # the program's child ends with us
    for cleanup in CLEANUPS:
        cleanup()  # every child closed, its sandbox copy removed
    os._exit(143)


_IN_CALL: list = []  # in a worker: non-empty while a Pool call runs
_CRITICAL: list = [0, None]  # [depth, the SIGTERM handler to run after it]


class critical:
    """A block SIGTERM does not cut short in a worker (a child and its
    sandbox being started or closed): the signal takes effect after it."""

    def __enter__(self) -> None:
        _CRITICAL[0] += 1

    def __exit__(self, *exc: Any) -> None:
        _CRITICAL[0] -= 1
        if _CRITICAL[0] == 0 and _CRITICAL[1] is not None:
            handler, _CRITICAL[1] = _CRITICAL[1], None
            handler(signal.SIGTERM, None)


def _call(fn: Any, *args: Any) -> Any:
    """In a worker: ``fn(*args)``; SIGTERM during it unwinds it, then the worker ends."""
    _IN_CALL.append(True)
    try:
        return fn(*args)
    except Terminated:
        _end_worker()
    finally:
        _IN_CALL.clear()


WORKER_ROUTE: list = []  # in a --jobs worker: its program under test, if any
CLEANUPS: list = []  # what a worker runs on SIGTERM (child.py adds: close every child)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread (:func:`raise_on_sigterm`) so that
    a run unwinds like Ctrl-C: children closed, finished work kept."""


def raise_on_sigterm(signum: int, frame: Any) -> None:
    """The main process's SIGTERM handler while it grades (after a
    :class:`critical` block, when one runs)."""
    if _CRITICAL[0]:
        _CRITICAL[1] = raise_on_sigterm
    else:
        raise Terminated()


class Pool:
    """``jobs`` supervised worker processes (see the module docstring).

        with Pool(2) as pool:
            for i, result, error in pool.each(fn, [(a,), (b,)]):
                ...

    ``die_on_sigterm`` True: SIGTERM to pyab ends the workers, then pyab
    (check); False: the caller handles SIGTERM (grade raises
    :class:`Terminated`), and the pool's block ends the workers."""

    def __init__(self, jobs: int, die_on_sigterm: bool = True, retries: int = 1) -> None:
        # retries 0: every call a dead worker lost ends with the error (check: no verdict)
        self.jobs, self.die_on_sigterm, self.retries = jobs, die_on_sigterm, retries
        self._guard: Any = None

    def _start(self, workers: int | None = None) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        ctx = multiprocessing.get_context("spawn")  # a fresh engine, nothing shared
        executor = ProcessPoolExecutor(max_workers=workers or self.jobs, mp_context=ctx,
                                       initializer=worker_start, initargs=(os.getpid(),))
        self._guard = workers_die_with_us(executor, self.die_on_sigterm).__enter__()

    @property
    def executor(self) -> Any:
        return self._guard.pool

    def __enter__(self) -> "Pool":
        self._start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._guard.__exit__(*exc)

    def each(self, fn: Any, calls: list[tuple]) -> Any:
        """``(i, fn(*calls[i]), None)`` or ``(i, None, error)`` as each call
        ends.  When a worker dies, the calls that may have been running
        (the first ``jobs + 1`` lost, in order: the executor feeds them in
        order) are run again one at a time, so that a call that kills its
        worker again is known and ends with the error, and the others lost
        go on in parallel."""
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool
        queue: list[int] = list(range(len(calls)))
        alone: list[int] = []
        workers = self.jobs
        while queue or alone:
            batch, size = (alone, 1) if alone else (queue, self.jobs)
            if size != workers:
                self._guard.stop()
                self._start(size)
                workers = size
            futures = {self.executor.submit(_call, fn, *calls[i]): i for i in batch}
            lost: list[int] = []
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    i = futures[f]
                    try:
                        yield i, f.result(), None
                    except BrokenProcessPool as err:
                        lost.append(i)
                        broken = err
                    except Exception as err:
                        yield i, None, err
            lost.sort(key=batch.index)
            if batch is alone:
                alone = []
                if lost:  # alone, the first lost was the one running: it killed its worker
                    yield lost[0], None, broken
                    alone = lost[1:]
            else:
                queue = []
                if lost and self.retries == 0:
                    for i in lost:
                        yield i, None, broken
                elif lost:
                    alone, queue = lost[:self.jobs + 1], lost[self.jobs + 1:]
            if lost:  # a new pool for what is left; the dead one is ended
                self._guard.stop()
                self._start(workers)


_LIVE: "weakref.WeakSet[Any]" = weakref.WeakSet()  # the live Child objects
_LIVE_LOCK = threading.Lock()


def _limits(memory_mb: int | None, cpu_seconds: int | None, nproc: int | None,
            fsize_mb: int | None, nofile: int | None = None, sandbox: Any = None):
    """The preexec function: runs in the child between fork and exec (after
    it changed user, when it did: the death signal survives that).  A
    sandbox's cgroups (:meth:`~pyab.referee.sandbox.Sandbox.budget`) are
    made here, in the parent, and entered first thing in the child; the
    pids cgroup then replaces ``RLIMIT_NPROC``, which counts every process
    of the user, not this child's."""
    import resource
    enter = sandbox.budget(memory_mb) if sandbox is not None else None
    if enter is not None:
        nproc = None

    def setup() -> None:
        if enter is not None:
            enter()
        die_with_parent()
        for res, value in ((resource.RLIMIT_AS, memory_mb and memory_mb * 1024 * 1024),
                           (resource.RLIMIT_CPU, cpu_seconds),
                           (resource.RLIMIT_NPROC, nproc),
                           (resource.RLIMIT_FSIZE, fsize_mb and fsize_mb * 1024 * 1024),
                           (resource.RLIMIT_NOFILE, nofile)):
            if value is not None:
                soft, hard = resource.getrlimit(res)
                if hard != resource.RLIM_INFINITY:
                    value = min(value, hard)
                resource.setrlimit(res, (value, value if hard == resource.RLIM_INFINITY else hard))
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is pyab's to handle
    return setup


def _become_subreaper() -> None:
    """Orphaned descendants of pyab's children come back to pyab, not init
    (Linux ``PR_SET_CHILD_SUBREAPER``), so :meth:`Child.close` finds them."""
    _prctl(36, 1)


def _tasks_of(uid: int) -> int:
    """How many tasks (processes and threads) ``uid`` runs now: the
    process limit counts them all, so a confined child gets its allowance
    on top of them."""
    n = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    n += len(os.listdir(f"/proc/{pid}/task"))
            except OSError:
                pass
    return n


_CONFINED = 0  # sandboxed children alive: pyab stays non-dumpable while > 0


def _confined(delta: int) -> None:
    global _CONFINED
    with _LIVE_LOCK:
        _CONFINED += delta
        _prctl(4, 0 if _CONFINED > 0 else 1)  # PR_SET_DUMPABLE


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _live_pids() -> set[int]:
    with _LIVE_LOCK:
        return {c.proc.pid for c in _LIVE}


def close_all() -> None:
    """Close every live child (killed, reaped, its sandbox copy removed)."""
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        child.close(again=True)


def kill_all() -> None:
    """Kill every live child's process group (at exit, on SIGTERM)."""
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        if not child._closed:
            _killpg(child.pgid)


_INSTALLED = False


def _install_handlers() -> None:
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    _become_subreaper()
    atexit.register(kill_all)
    if threading.current_thread() is threading.main_thread():
        old = signal.getsignal(signal.SIGTERM)
        if old in (signal.SIG_DFL, None):
            signal.signal(signal.SIGTERM, _on_sigterm)


_on_sigterm = on_sigterm(kill_all)
CLEANUPS.append(close_all)
