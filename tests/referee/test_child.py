"""pyab.referee.child.Child: the supervised child process, on small
Python children (no Prolog), and the entry-goal table of the Prolog route."""

from __future__ import annotations

import sys
import time

import pytest

from pyab.errors import ProgramError
from pyab.referee.child import CAP, Child, escape


def child(code: str, **kw) -> Child:
    kw.setdefault("timeout", 5)
    kw.setdefault("memory_mb", None)
    return Child([sys.executable, "-c", code], **kw)


ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line); sys.stdout.flush()\n"


def test_send_and_receive_json_lines():
    with child(ECHO) as c:
        c.send({"root": "a", "alpha": "-inf"})
        assert c.receive() == {"root": "a", "alpha": "-inf"}
        c.send(["b", "c"])
        assert c.receive() == ["b", "c"]


def test_junk_is_a_protocol_error_with_the_junk_kept():
    with child("print('hello'); import time; time.sleep(5)") as c:
        with pytest.raises(ProgramError) as err:
            c.receive()
    assert err.value.kind == "protocol" and "hello" in err.value.stdout


def test_nan_is_not_json():
    with child("print('{\"value\": NaN}'); import time; time.sleep(5)") as c:
        with pytest.raises(ProgramError) as err:
            c.receive()
    assert err.value.kind == "protocol"


def test_the_watchdog_restarts_at_each_job():
    with child("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.3); print(line, end='', flush=True)\n",
               timeout=0.5) as c:
        for _ in range(3):  # 0.9 s in all, under 0.5 s a job
            c.send({"root": "a"})
            assert c.receive() == {"root": "a"}
        start = time.monotonic()
        c.restart_clock()
        with pytest.raises(ProgramError) as err:
            c.receive()  # nothing sent: it never answers
    assert err.value.kind == "timeout" and time.monotonic() - start < 1.5


def test_stderr_is_captured_and_capped():
    with child(f"import sys; sys.stderr.write('x' * {3 * CAP}); sys.stderr.flush(); sys.exit(1)") as c:
        with pytest.raises(ProgramError) as err:
            c.receive()
    assert err.value.kind == "crash" and "exit 1" in err.value.reason
    assert err.value.stderr.startswith("x" * CAP) and f"{2 * CAP} more bytes" in err.value.stderr


def test_exit_0_is_not_success():
    with child("pass") as c:
        with pytest.raises(ProgramError) as err:
            c.receive()
    assert "ended the child (exit 0)" in err.value.reason


def test_memory_limit():
    with child("x = bytearray(400 * 1024 * 1024)", memory_mb=200) as c:
        with pytest.raises(ProgramError) as err:
            c.receive()
    assert err.value.kind == "limit"


def test_file_size_limit(tmp_path):
    big = tmp_path / "big"
    with Child(["sh", "-c", f"exec head -c 3000000 /dev/zero > {big}"], timeout=5, memory_mb=None,
               fsize_mb=1) as c:
        with pytest.raises(ProgramError) as err:
            c.receive()
    assert err.value.kind == "limit" and "SIGXFSZ" in err.value.reason
    assert big.stat().st_size <= 1024 * 1024


def test_close_kills_the_whole_group(tmp_path):
    mark = tmp_path / "late"
    code = (f"import subprocess; subprocess.Popen(['sh', '-c', 'sleep 1; touch {mark}']); "
            "import time; time.sleep(30)")
    with child(code):
        time.sleep(0.3)
    time.sleep(1.5)
    assert not mark.exists()


def test_a_grandchild_that_leaves_the_group_is_killed_too(tmp_path):
    mark = tmp_path / "late"
    code = (f"import subprocess; subprocess.Popen(['setsid', 'sh', '-c', 'sleep 1; touch {mark}']); "
            "import time; time.sleep(30)")
    with child(code):
        time.sleep(0.3)
    time.sleep(1.5)
    assert not mark.exists()


def test_escape():
    assert escape("a\x1b[2Jb\x00\n") == "a\\x1b[2Jb\\x00\n"
    assert escape("\u202eevil") == "\\u202eevil"
    assert escape("x" * 10, 4) == "xxxx... (6 more characters)"


def test_program_error_travels_between_processes():
    import pickle
    err = pickle.loads(pickle.dumps(ProgramError("too slow", "timeout", stdout="o", stderr="e")))
    assert (err.reason, err.kind, err.stdout, err.stderr) == ("too slow", "timeout", "o", "e")


def test_a_child_that_closes_stderr_is_waited_for_without_spinning():
    code = "import os, time; os.close(2); time.sleep(1); print('[1]', flush=True)"
    with child(code) as c:
        start = time.process_time()
        assert c.receive() == [1]
        assert time.process_time() - start < 0.05  # select slept, it did not spin


def test_closing_a_child_that_left_nothing_behind_does_not_wait(monkeypatch):
    """No orphan can come once the child's group is reaped and one look
    found none: close returns at once (it slept 30 ms a close before)."""
    from pyab.referee import supervise
    slept = []
    real = time.sleep

    def sleep(s: float) -> None:
        if sys._getframe(1).f_code is supervise.reap_orphans.__code__:
            slept.append(s)
        real(s)
    monkeypatch.setattr(supervise.time, "sleep", sleep)
    c = child("import time; time.sleep(30)")
    c.close()
    assert slept == []


def test_a_group_that_outlives_its_leader_is_still_waited_for(tmp_path, monkeypatch):
    """A process left in the group (a zombie the group leader's death
    handed back) keeps close looking, and it is reaped."""
    from pyab.referee import supervise
    looks = []
    real = supervise._group_left
    monkeypatch.setattr(supervise, "_group_left", lambda g: looks.append(real(g)) or looks[-1])
    code = ("import subprocess, time; subprocess.Popen(['sh', '-c', 'sleep 30']); "
            "print('[1]', flush=True); time.sleep(30)")
    with child(code) as c:
        assert c.receive() == [1]
        kids = supervise.descendants(c.proc.pid)
    assert kids and not any(supervise.os.path.exists(f"/proc/{p}") for p in kids)
    assert looks[-1] is False
