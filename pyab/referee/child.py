"""A program under test, run as a child process that speaks JSON lines.

:class:`Child` starts the child in its own session (so its whole process
group can be killed, and a Ctrl-C on the terminal reaches pyab only), with
resource limits set between fork and exec (address space for ``memory_mb``,
CPU seconds, processes, file size), reads its stdout one JSON object a line
with a watchdog (``timeout`` seconds a search: the clock restarts at each
job, i.e. at each sent object with a ``"root"`` key, or at
:meth:`Child.restart_clock`), and captures its stderr in a capped buffer.

Every way out kills the whole process group: :meth:`Child.close`, garbage
collection, normal interpreter exit (``atexit``) and SIGTERM (a handler that
kills every live child, then lets the default action end pyab).  On Linux
the child also gets ``PR_SET_PDEATHSIG`` so it dies with the process that
started it, even if that process is killed with SIGKILL (a ``--jobs``
worker), and pyab makes itself a *child subreaper* so that a grandchild
that double-forks and calls ``setsid`` to leave the group is handed back to
pyab, which kills it at close.

With a :class:`~pyab.referee.sandbox.Sandbox` (``--untrusted``) the child
runs confined by the operating system, and the child cannot attack pyab:
every write to it has a deadline (pyab never blocks on a full pipe: the
pipe is non-blocking and waited on with ``select``), the watchdog is pyab's
own loop and the child, in a pid namespace of its own, can neither see,
signal nor trace pyab; pyab makes itself non-dumpable (``PR_SET_DUMPABLE``
0) while such a child lives, so that no process of its user can attach to
it or open its ``/proc`` files; the child inherits no descriptor but the
three pipes; and a wall-clock limit bounds the whole run, not just a search.

The supervision that serves pyab's other processes as well (the death
signal, SIGTERM, orphans, the ``--jobs`` workers) is in
:mod:`~pyab.referee.supervise`.

Everything the child does wrong ends as :class:`pyab.errors.ProgramError`
(exit code 3) with a one-line reason and the captured output.
"""

from __future__ import annotations

import json
import math
import os
import select
import signal
import subprocess
import sys
import time
from typing import Any

from ..errors import ProgramError
from . import placement
from .supervise import MARK as _MARK, critical, descendants, die_with_parent, on_sigterm, reap_orphans
from .supervise import (_LIVE, _LIVE_LOCK, _confined, _install_handlers, _killpg, _limits, _live_pids,
                        _tasks_of, close_all, kill_all)

__all__ = ["CAP", "Child", "close_all", "die_with_parent", "escape", "kill_all", "on_sigterm"]

CAP = 64 * 1024          # bytes of stderr / junk stdout kept (the rest counted, not kept)
MAX_LINE = 16 * 1024 * 1024  # a single protocol line longer than this is junk
WRITE_GRACE = 30.0           # seconds a child may leave its input unread when no clock runs


def escape(text: str, limit: int = 2000) -> str:
    """``text`` safe for a terminal (:func:`pyab.text.printable_lines`),
    at most ``limit`` characters."""
    from ..text import capped, printable_lines
    return printable_lines(capped(text, limit))


class _Capped:
    """A byte buffer that keeps the first ``CAP`` bytes and counts the rest."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = CAP - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        s = self.data.decode("utf-8", "replace")
        return s + (f"\n[... {self.dropped} more bytes not kept]" if self.dropped else "")


class Child:
    """One program under test in a child process (see the module docstring).

    ``argv`` is the command; ``timeout`` seconds a search (None: no limit);
    ``memory_mb`` the address-space limit (None: none); ``cpu_seconds``,
    ``nproc`` and ``fsize_mb`` further rlimits (None: unchanged); ``cwd`` and
    ``env`` as for :class:`subprocess.Popen`; ``exit_codes`` what the
    child's exit codes mean, when it is one of pyab's own children
    (:data:`PROLOG_CHILD_EXIT`); a user's ``--exec`` program's are its own.
    ``sandbox`` (a :class:`~pyab.referee.sandbox.Sandbox`) confines the
    child, which the Child then owns (removed at :meth:`close`); ``nproc``
    is then an allowance on top of what the sandbox's user runs already.
    ``nofile`` limits open files; ``wall_seconds`` the whole life of the
    child, from start to the last answer.  ``share_cpu`` False leaves the
    child's CPU to the system (:mod:`~pyab.referee.placement`).  ``startup``
    seconds are added to the first search's time (the child starting and
    its program loading are not the search).
    """

    def __init__(self, argv: list[str], *, timeout: float | None, memory_mb: int | None,
                 cwd: str | None = None, env: dict | None = None,
                 cpu_seconds: int | None = None, nproc: int | None = None,
                 fsize_mb: int | None = None, exit_codes: dict[int, tuple[str, str]] | None = None,
                 sandbox: Any = None, nofile: int | None = None,
                 wall_seconds: float | None = None, share_cpu: bool = True,
                 startup: float = 0.0):
        self.exit_codes = exit_codes or {}  # what the child's own exit codes mean (PROLOG_CHILD_EXIT)
        if timeout is not None and not (timeout > 0 and math.isfinite(timeout)):
            raise ValueError(f"a timeout must be a positive number of seconds, not {timeout!r}")
        if memory_mb is not None and memory_mb < 1:
            raise ValueError(f"a memory limit must be at least 1 MB, not {memory_mb!r}")
        self.argv, self.timeout, self.memory_mb = list(argv), timeout, memory_mb
        self._stdout_junk = _Capped()
        self._stderr = _Capped()
        self._buf = b""
        self._deadline: float | None = None
        self._startup = self._startup_given = startup  # seconds the first search gets on top: the child's start-up
        self._starting = False   # the first job sent, not yet read by the child
        self._closed = False
        self._stderr_open = True
        self.sandbox = sandbox
        self.wall_seconds = wall_seconds
        self._wall = None if wall_seconds is None else time.monotonic() + wall_seconds
        _install_handlers()
        extra: dict[str, Any] = {}
        argv = self.argv
        if sandbox is not None:
            argv, env, extra = sandbox.command(argv, cwd), sandbox.env(), sandbox.popen_args()
            cwd = None
            if nproc is not None and sys.platform.startswith("linux"):
                nproc += _tasks_of(extra.get("user", os.getuid()))
        env = dict(os.environ if env is None else env)
        env[_MARK] = str(os.getpid())  # inherited by what the child starts: see supervise.reap_orphans
        # The child inherits this thread's CPU (placement.py); a child asked
        # once a search (pyab's Prolog child) works best beside pyab instead.
        self._placed = placement.share_cpu(self) if share_cpu else placement.Placement(None, None)
        try:
            if sandbox is not None:
                _confined(+1)
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=env, start_new_session=True, close_fds=True,
                preexec_fn=_limits(memory_mb, cpu_seconds, nproc, fsize_mb, nofile, sandbox), **extra)
        except OSError as err:
            self._placed.release()
            if sandbox is not None:
                _confined(-1)
                sandbox.cleanup()
            raise ProgramError(f"cannot start {self.argv[0]}: {err.strerror or err}", "crash") from None
        self.pgid = self.proc.pid  # start_new_session: the child leads its own group
        stdin, stdout, stderr = self.proc.stdin, self.proc.stdout, self.proc.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all PIPE
        self._pipes = (stdin, stdout, stderr)
        for f in self._pipes:
            os.set_blocking(f.fileno(), False)
        with _LIVE_LOCK:
            _LIVE.add(self)

    # -- captured output -------------------------------------------------
    @property
    def stdout_junk(self) -> str:
        """What the child wrote on stdout that was not protocol (capped)."""
        return self._stdout_junk.text()

    @property
    def stderr(self) -> str:
        """What the child wrote on stderr (capped)."""
        self._drain_stderr()
        return self._stderr.text()

    # -- protocol ----------------------------------------------------------
    def restart_clock(self) -> None:
        """Start a new search's time limit now (the first search's: once the
        child has read its job, within ``startup`` seconds)."""
        extra, self._startup = self._startup, 0.0
        self._starting = extra > 0 and self.timeout is not None
        self._deadline = None if self.timeout is None else time.monotonic() + self.timeout + extra

    def clock_from(self, since: float) -> None:
        """The time limit of a search that started at ``since`` (a
        ``time.monotonic()``): with several in flight, the oldest one's."""
        if self.timeout is not None and not self._starting:
            self._deadline = since + self.timeout

    def _check_started(self) -> None:
        """The child has read its first job: its search's clock starts now."""
        if _unread(self._pipes[0].fileno()) == 0:
            self._starting = False
            self._deadline = time.monotonic() + (self.timeout or 0)

    def send(self, obj: Any) -> None:
        """Write one JSON value (a job, or an answer) as a line to the child.
        A job (an object with a ``"root"`` key) restarts the search clock."""
        if isinstance(obj, dict) and "root" in obj:
            self.restart_clock()
        data = _ANSWERS.get(obj) if obj.__class__ is bool else None
        if data is None:
            data = (_ENCODER.encode(obj) + "\n").encode("ascii")
        self._write(data)

    def send_job(self, line: str) -> None:
        """Write one job already written as text (pyab's Prolog child takes
        Prolog text) and restart the search clock."""
        self.restart_clock()
        self._write((line + "\n").encode("utf-8"))

    def _write(self, data: bytes) -> None:
        fd = self._pipes[0].fileno()
        deadline: float | None = None
        while True:  # never blocks: a child that stops reading meets a deadline
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                pass
            except OSError:
                raise self._ended("while pyab was writing to it") from None
            if not data:
                return
            if deadline is None:
                deadline, why = self._next_deadline()
                if deadline is None:
                    deadline, why = time.monotonic() + WRITE_GRACE, "write"
            wait = deadline - time.monotonic()
            if wait <= 0:
                raise self._overdue(why, writing=True)
            select.select([], [fd], [], wait)

    def _next_deadline(self) -> tuple[float | None, str]:
        """The nearer of the search's and the whole run's deadlines."""
        if self._wall is not None and (self._deadline is None or self._wall < self._deadline):
            return self._wall, "wall"
        return self._deadline, "search"

    def _overdue(self, why: str, writing: bool = False) -> ProgramError:
        self.close()
        if why == "wall":
            return self._error(f"timeout: the whole run took longer than {self.wall_seconds:g} s "
                               "(its wall-clock limit)", "timeout")
        if why == "write":
            return self._error(f"timeout: it left its input unread for {WRITE_GRACE:g} s",
                               "timeout")
        if self._starting:
            return self._error(f"timeout: it did not start: its first job was still unread after "
                               f"{self.timeout:g} s and {self._startup_given:g} s for its start-up",
                               "timeout")
        tail = " (it stopped reading its input)" if writing else ""
        return self._error(f"timeout: a search took longer than {self.timeout:g} s{tail}", "timeout")

    def receive(self) -> Any:
        """The next JSON value the child writes on a line of its own.
        :raises ProgramError: on timeout, end of output, or a line that is
            not JSON (protocol)."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line, self._buf = self._buf[:nl], self._buf[nl + 1:]
                return self._decode(line)
            if len(self._buf) > MAX_LINE:
                self._stdout_junk.add(self._buf)
                self._buf = b""
                raise self._error(f"a protocol line longer than {MAX_LINE} bytes", "protocol")
            self._read_some()

    def _decode(self, line: bytes) -> Any:
        def bad(why: str) -> ProgramError:
            self._stdout_junk.add(line + b"\n" + self._buf)
            return self._error(f"it wrote {why} on the protocol channel (stdout): "
                               f"{escape(line[:80].decode('utf-8', 'replace'), 80)!r}", "protocol")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise bad("bytes that are not UTF-8") from None
        try:
            return _DECODER.decode(text)
        except (ValueError, RecursionError):
            raise bad("a line that is not JSON") from None

    def _read_some(self) -> None:
        out, err = self._pipes[1].fileno(), self._pipes[2].fileno()
        # Read before select(): a child on our CPU has mostly answered by
        # now, and select() would be a system call for nothing.  It is asked
        # when nothing is there (it also drains stderr).  The time limit is
        # checked first either way: a child that asks question after
        # question never waits in select().
        ready: Any = (out,)
        while True:
            if self._starting:
                self._check_started()
            wait = None
            deadline, why = self._next_deadline()
            if deadline is not None:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    raise self._overdue(why)
                if self._starting:
                    wait = min(wait, 0.02)  # look again whether it has read its job
            if out in ready:
                chunk = _read(out)
                if chunk:
                    self._buf += chunk
                    return
                if chunk == b"":
                    raise self._ended("before it answered")
            ready, _, _ = select.select([out, err] if self._stderr_open else [out], [], [], wait)
            if err in ready:
                self._drain_stderr()

    def _drain_stderr(self) -> None:
        if not self._stderr_open or self.proc.stderr is None or self.proc.stderr.closed:
            return
        while True:
            chunk = _read(self.proc.stderr.fileno())
            if chunk is None:
                return
            if not chunk:  # end of file: stop watching it (select would say "ready" forever)
                self._stderr_open = False
                return
            self._stderr.add(chunk)

    # -- ending ------------------------------------------------------------
    def _ended(self, when: str) -> ProgramError:
        """The child's stdout ended: say how it ended."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self._drain_stderr()
        self.close()
        if code is None:
            return self._error(f"it closed its output {when}", "protocol")
        if code < 0:
            sig = -code
            name = _signame(sig)
            if sig == signal.SIGXCPU:
                return self._error(f"limit: it used up its CPU time ({name})", "limit")
            if sig == signal.SIGXFSZ:
                return self._error(f"limit: it wrote a file bigger than allowed ({name})", "limit")
            if self.memory_mb is not None and sig in (signal.SIGKILL, signal.SIGABRT,
                                                      signal.SIGSEGV, signal.SIGBUS):
                return self._error(f"limit: it ran out of memory (limit {self.memory_mb} MB; "
                                   f"killed by {name} {when})", "limit")
            return self._error(f"it was killed by {name} {when}", "crash")
        reason = self.exit_codes.get(code)
        if reason:
            kind, text = reason
            detail = self._last_stderr_line()
            for prefix in ("pyab: ", "refused: "):
                detail = detail[len(prefix):] if detail.startswith(prefix) else detail
            return self._error(f"{text}{': ' + detail if detail else ''}", kind)
        if _out_of_memory(self._stderr.text()):
            return self._error(f"limit: it ran out of memory (exit {code})", "limit")
        if "No space left on device" in self._stderr.text():
            return self._error(f"limit: it filled its writable space (exit {code})", "limit")
        return self._error(f"program ended the child (exit {code}) {when}", "crash")

    def _last_stderr_line(self) -> str:
        lines = [ln for ln in self._stderr.text().splitlines() if ln.strip()]
        return escape(lines[-1].strip(), 200) if lines else ""

    def _error(self, reason: str, kind: str) -> ProgramError:
        return ProgramError(reason, kind, stdout=self.stdout_junk, stderr=self.stderr)

    def close(self, again: bool = False) -> None:
        """Kill the child's whole process group (and any descendant that left
        it and came back to pyab as an orphan), and reap.  ``again``: even
        when a close began already (SIGTERM may have cut it short)."""
        if self._closed and not (again and self in _LIVE):
            return
        with critical():
            self._close()

    def _close(self) -> None:
        self._closed = True
        below = descendants(self.proc.pid)  # a sandbox's inner processes, reaped below
        _killpg(self.pgid)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
            pass
        self._drain_stderr()
        for f in self._pipes:
            try:
                f.close()
            except OSError:
                pass
        _killpg(self.pgid)  # anything the group started while we reaped
        reap_orphans(self.pgid, _live_pids(), below)  # a sandbox's namespace ends with its first process, reaped here
        self._placed.release()  # the parent thread's CPU mask back, once no child holds it
        if self.sandbox is not None:
            self.sandbox.cleanup()
        with _LIVE_LOCK:  # last: a close cut short by SIGTERM is finished by close_all
            was = self in _LIVE
            _LIVE.discard(self)
        if was and self.sandbox is not None:
            _confined(-1)

    @property
    def alive(self) -> bool:
        return not self._closed and self.proc.poll() is None

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if not getattr(self, "_closed", True) and hasattr(self, "pgid"):  # no pgid: it never started
            _killpg(self.pgid)


# Exit codes of prolog/referee/child.pl (documented there).
PROLOG_CHILD_EXIT = {
    3: ("crash", "the program raised an error"),
    4: ("limit", "limit: the program ran out of a resource"),
    5: ("refused", "refused"),
    6: ("crash", "the program could not be loaded"),
    7: ("crash", "the program failed: no answer"),
}


def _out_of_memory(text: str) -> bool:
    return any(s in text for s in ("Out of memory", "out of memory", "Cannot allocate memory",
                                   "resource_error", "MemoryError"))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Made once: json.dumps and json.loads with options build a new encoder or
# decoder at every call (about 2.5 us of a question's 27 us on pyab's side).
_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False)
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_ANSWERS = {True: b"true\n", False: b"false\n"}  # max_to_move's answers, encoded already


def _unread(fd: int) -> int:
    """Bytes written to the pipe ``fd`` and not yet read by the other end."""
    import array
    import fcntl
    import termios
    buf = array.array("i", [0])
    try:
        fcntl.ioctl(fd, termios.FIONREAD, buf, True)
    except OSError:
        return 0
    return buf[0]


def _read(fd: int) -> bytes | None:
    """Up to 64 KB from ``fd``; b"" at end of file, None when nothing is there yet."""
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _signame(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


