"""A program under test in a child process, speaking JSON lines.

A minimal version: start the process with pipes, send a job, read one JSON
object per line (with a time limit per search), close.  Supervision
(process groups, resource limits, replacing a crashed child) is the job of
the full version; the API is the one both sides agreed on.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time
from typing import Any

from ..errors import ProgramError

__all__ = ["Child"]

CAP = 4000  # characters of stdout junk / stderr kept for a report


class Child:
    def __init__(self, argv: list[str], *, timeout: float | None = None,
                 memory_mb: int | None = None, cwd: str | None = None,
                 env: dict | None = None):
        self.argv, self.timeout = argv, timeout
        self._err = tempfile.TemporaryFile()  # never a pipe: a chatty child cannot block on it
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._err, cwd=cwd, env=env, bufsize=0)
        except OSError as err:
            raise ProgramError(f"cannot start {argv[0]}: {err.strerror or err}", "crash") from None
        self._buf = b""
        self._deadline: float | None = None
        self.stdout_junk = ""

    @property
    def stderr(self) -> str:
        self._err.seek(0)
        text = self._err.read(CAP + 1).decode("utf-8", "replace")
        return text[:CAP]

    def _fail(self, what: str, kind: str) -> ProgramError:
        tail = self.stderr.strip().splitlines()
        last = f" (stderr: {tail[-1][:200]})" if tail else ""
        return ProgramError(f"{what}{last}", kind,
                            stdout=self.stdout_junk, stderr=self.stderr)

    def send(self, obj: Any) -> None:
        """One JSON value on a line: a job (a dict with "root"), or an answer."""
        if isinstance(obj, dict) and "root" in obj:  # a new search: the clock starts again
            self._deadline = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            self.proc.stdin.write((json.dumps(obj, allow_nan=False) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.proc.wait()
            raise self._fail(f"exited (code {self.proc.returncode}) before the job was sent", "crash") from None

    def receive(self) -> Any:
        out = self.proc.stdout
        while b"\n" not in self._buf:
            wait = None if self._deadline is None else self._deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise self._fail(f"no answer within {self.timeout:g} s", "timeout")
            ready, _, _ = select.select([out], [], [], wait)
            if not ready:
                continue
            chunk = os.read(out.fileno(), 65536)
            if not chunk:
                code = self.proc.wait()
                what = (f"program ended the child (exit {code}) before it answered" if not self._buf
                        else f"program ended the child (exit {code}) after an unfinished line "
                             f"{self._buf[:80]!r}")
                raise self._fail(what, "crash")
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        try:
            return json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.stdout_junk = (self.stdout_junk + line.decode("utf-8", "replace") + "\n")[:CAP]
            raise self._fail("it wrote a line that is not JSON on the protocol channel (stdout): "
                             f"{line[:80].decode('utf-8', 'replace')!r}", "protocol") from None

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self._err.close()

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
