"""The operating-system sandbox of --untrusted (pyab/referee/sandbox.py), on
every route: the hostile probes of tests/hostile_programs.py are contained
(exit 3 with pyab's own verdict, one JSON object, no LEAK, nothing left
running, nothing changed outside), the same probes do leak without
--untrusted (so the probes are real), honest programs still agree, and a
machine without isolation is refused rather than run unconfined.

Bounded and local: at most 64 forks, the default memory limit (1 GB), each
probe ends by itself (the longest sleeps 6 s), network only to a listener
this test starts on 127.0.0.1; the only process signalled or traced is the
pyab this test started.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, PROLOG, ROOT
from tests.hostile_programs import PROBES, probe_text

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux namespaces")

SLIDES = str(EXAMPLES / "slides.tree")
SECRET = "PYAB_TEST_SECRET"
ROUTES = ("python", "exec")


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.got: list[bytes] = []
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            conn.settimeout(1)
            try:
                self.got.append(conn.recv(100) or b"(connected)")
            except OSError:
                self.got.append(b"(connected)")
            conn.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


@pytest.fixture
def place(tmp_path):
    """A submission folder, another student's folder beside it, a listener."""
    student, other = tmp_path / "student", tmp_path / "other"
    student.mkdir()
    other.mkdir()
    (other / "secret.txt").write_text("other student's answer", encoding="utf-8")
    listener = Listener()
    yield student, other, listener
    listener.close()


def run(route: str, prog: Path, *opts: str, cwd: Path, sandbox: str = "",
        timeout: float = 60) -> subprocess.CompletedProcess:
    """pyab check on the slides' tree with ``prog`` on ``route``, from ``cwd``
    (``python -P``: the current folder is not on pyab's own path, as when
    it runs as the ``pyab`` command)."""
    spec = {"python": ["--python", f"{prog}:alphabeta"],
            "exec": ["--exec", f"python3 {prog.name}"],
            "program": ["--program", str(prog)]}[route]
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{SECRET: "hunter2"})
    env.pop("PYAB_SANDBOX", None)
    if sandbox:
        env["PYAB_SANDBOX"] = sandbox
    return subprocess.run([sys.executable, "-P", "-m", "pyab", "check", SLIDES, *spec, *opts, "--json"],
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout,
                          cwd=cwd, env=env)


def write_probe(name: str, student: Path, other: Path, listener: Listener, token: str) -> Path:
    prog = student / "student.py"
    prog.write_text(probe_text(name, OTHER=str(other), PORT=str(listener.port), SECRET=SECRET,
                               TOKEN=token, PPID_MARK="-m pyab check", PYAB=str(ROOT / "pyab")),
                    encoding="utf-8")
    return prog


def left_running(token: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if token.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def contained(done: subprocess.CompletedProcess, *, probe_ran: bool = True) -> dict:
    """pyab's own verdict: exit 3, exactly one JSON object, no LEAK anywhere."""
    assert done.returncode == 3, (done.stdout, done.stderr)
    obj = json.loads(done.stdout)  # exactly one object: loads refuses anything after it
    assert obj["exit"] == 3 and obj["error"]["kind"] == "ProgramError"
    assert "agree" not in obj and '"agree"' not in done.stderr
    assert "LEAK" not in done.stdout and "LEAK" not in done.stderr
    assert "Traceback" not in done.stderr
    if probe_ran:
        assert "PROBE" in obj["error"]["message"], obj
    return obj


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", [n for n in PROBES if n not in (
    "flood questions, never read", "plant textwrap.py and json.py for later students")])
def test_probe_is_contained(name, route, place):
    student, other, listener = place
    token = f"pyab-left-behind-{os.getpid()}-{route}"
    prog = write_probe(name, student, other, listener, token)
    start = time.monotonic()
    done = run(route, prog, "--untrusted", "--timeout", "10", cwd=student)
    obj = contained(done, probe_ran=True)
    assert time.monotonic() - start < 30
    assert not listener.got
    assert (other / "secret.txt").read_text(encoding="utf-8") == "other student's answer"
    assert sorted(p.name for p in student.iterdir()) == ["student.py"]  # the copy was private
    assert left_running(token) == []  # gone before the verdict: no waiting here
    for ch in ("\x9b", "\u202e", "\u2066", "\x1b", "\x07"):
        assert ch not in done.stdout and ch not in done.stderr
    if name == "fork bomb (64 forks)":
        assert "blocked forked" in obj["error"]["message"]
    if name == "C1 and bidi characters":
        assert "\\u009b31m \\u202e \\u2066" in done.stdout


@pytest.mark.parametrize("route", ROUTES)
def test_flooding_questions_meets_the_timeout(route, place):
    """A program that writes questions and never reads the answers: pyab
    never blocks on the full pipe, the search deadline ends it."""
    student, other, listener = place
    prog = write_probe("flood questions, never read", student, other, listener, "x")
    start = time.monotonic()
    done = run(route, prog, "--untrusted", "--timeout", "2", cwd=student)
    assert time.monotonic() - start < 8  # the flood itself lasts 8 s
    obj = contained(done, probe_ran=False)
    # pyab's Python child speaks protocol 2: a protocol 1 line is refused at once
    assert obj["error"]["program_kind"] == ("protocol" if route == "python" else "timeout"), obj


def test_flooding_is_bounded_without_the_sandbox_too(place):
    """The write deadline is the Child's, not the sandbox's."""
    student, other, listener = place
    prog = write_probe("flood questions, never read", student, other, listener, "x")
    start = time.monotonic()
    done = run("exec", prog, "--timeout", "2", cwd=student)
    assert time.monotonic() - start < 8
    assert json.loads(done.stdout)["error"]["program_kind"] == "timeout"


@pytest.mark.parametrize("route", ROUTES)
def test_planted_modules_reach_no_later_student(route, place, tmp_path):
    student, other, listener = place
    prog = write_probe("plant textwrap.py and json.py for later students", student, other,
                       listener, "x")
    contained(run(route, prog, "--untrusted", cwd=student))
    assert sorted(p.name for p in student.iterdir()) == ["student.py"]
    # planted in the grader's folder by hand (as without the sandbox): a later
    # honest student's child is unharmed
    for name in ("textwrap.py", "json.py"):
        (student / name).write_text("raise SystemExit('PLANTED')\n", encoding="utf-8")
    honest = tmp_path / "honest"
    honest.mkdir()
    shutil.copy(EXAMPLES / "referee" / "slides_alphabeta.py", honest)
    done = run("python", honest / "slides_alphabeta.py", "--untrusted", cwd=student)
    assert done.returncode == 0 and json.loads(done.stdout)["verdict"] == "agree", done.stderr


PLAIN_LEAKS = ["read /etc/passwd", "environment secret", "network to 127.0.0.1",
               "import pyab.search", "read pyab's command line", "change pyab's own files",
               "read and change another student's folder"]


@pytest.mark.parametrize("name", PLAIN_LEAKS)
def test_the_probes_are_real_without_the_sandbox(name, place):
    student, other, listener = place
    prog = write_probe(name, student, other, listener, "x")
    done = run("python", prog, cwd=student)
    assert done.returncode == 3
    assert "PROBE LEAK" in json.loads(done.stdout)["error"]["message"]


def test_a_planted_module_is_real_without_the_sandbox(place, tmp_path):
    student, _, _ = place
    (student / "json.py").write_text("raise SystemExit('PLANTED')\n", encoding="utf-8")
    honest = tmp_path / "honest"
    honest.mkdir()
    shutil.copy(EXAMPLES / "referee" / "slides_alphabeta.py", honest)
    done = run("python", honest / "slides_alphabeta.py", cwd=student)
    assert done.returncode == 3 and "PLANTED" in done.stdout + done.stderr


@pytest.mark.parametrize("name", ["read /etc/passwd", "import pyab.search", "network to 127.0.0.1",
                                  "environment secret", "fork bomb (64 forks)",
                                  "double fork and setsid", "read and change another student's folder"])
def test_the_unshare_fallback_contains_too(name, place):
    if shutil.which("unshare") is None or shutil.which("setpriv") is None:
        pytest.skip("no util-linux unshare/setpriv")
    student, other, listener = place
    token = f"pyab-left-behind-{os.getpid()}-unshare"
    prog = write_probe(name, student, other, listener, token)
    contained(run("python", prog, "--untrusted", cwd=student, sandbox="unshare"))
    assert not listener.got and left_running(token) == []
    assert (other / "secret.txt").read_text(encoding="utf-8") == "other student's answer"


HONEST = [("python", EXAMPLES / "referee" / "slides_alphabeta.py"),
          ("exec", EXAMPLES / "referee" / "client.py"),
          ("program", PROLOG / "alphabeta.pl")]


@pytest.mark.parametrize("route, source", HONEST, ids=[r for r, _ in HONEST])
@pytest.mark.parametrize("sandbox", ["bwrap", "unshare"])
def test_honest_programs_agree_untrusted(route, source, sandbox, tmp_path):
    if shutil.which(sandbox) is None:
        pytest.skip(f"no {sandbox}")
    shutil.copy(source, tmp_path)
    prog = tmp_path / source.name
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYAB_SANDBOX=sandbox)
    spec = {"python": ["--python", f"{prog.name}:alphabeta"], "exec": ["--exec", f"python3 {prog.name}"],
            "program": ["--program", str(prog)]}[route]
    done = subprocess.run([sys.executable, "-m", "pyab", "check", "--random", "100", "--seed", "5",
                           *spec, "--untrusted", "--json"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    assert obj.get("agree", obj.get("verdict") == "agree") and obj["checked"] == 100


def test_a_mutant_is_still_caught_in_the_sandbox(tmp_path):
    """The confined --exec route still sees a `>` turned into `>=`."""
    shutil.copy(EXAMPLES / "referee" / "client.py", tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "pyab", "check", "--random", "300", "--seed", "4",
                           "--exec", "python3 client.py --mutant", "--untrusted", "--json"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["verdict"] == "disagree"


def test_no_isolation_is_refused(monkeypatch, tmp_path):
    """Neither bubblewrap nor unshare: refused, never run unconfined."""
    from pyab.referee import PythonRoute, sandbox
    monkeypatch.setattr(sandbox, "TOOLS", {"bwrap": "/nonexistent/bwrap",
                                           "unshare": "/nonexistent/unshare"})
    monkeypatch.setattr(sandbox, "_BACKEND", {})
    monkeypatch.delenv("PYAB_SANDBOX", raising=False)
    shutil.copy(EXAMPLES / "referee" / "slides_alphabeta.py", tmp_path)
    import pyab
    with PythonRoute(f"{tmp_path}/slides_alphabeta.py:alphabeta", untrusted=True) as route:
        with pytest.raises(sandbox.SandboxUnavailable, match="apt-get install bubblewrap"):
            route.search(pyab.parse("a(b=1, c=2)"))


def test_the_prolog_child_runs_confined(tmp_path):
    """--program --untrusted: swipl in its own pid namespace, as nobody when
    pyab is root, with neither the reference programs nor pyab in sight."""
    import pyab
    from pyab.referee.program import PrologProgram
    prog = tmp_path / "ab.pl"
    prog.write_text((PROLOG / "alphabeta.pl").read_text(encoding="utf-8"), encoding="utf-8")
    with PrologProgram(prog, untrusted=True) as p:
        assert p.solve(pyab.parse("a(b=1, c=2)")).best == "c"
        pids = [int(x) for x in open(f"/proc/{p._child.proc.pid}/task/{p._child.proc.pid}/children")
                .read().split()]
        inner = set()
        while pids:
            pid = pids.pop()
            inner.add(pid)
            try:
                pids += map(int, open(f"/proc/{pid}/task/{pid}/children").read().split())
            except OSError:
                pass
        swipl = [q for q in inner if b"swipl" in open(f"/proc/{q}/cmdline", "rb").read()]
        assert swipl
        assert os.readlink(f"/proc/{swipl[0]}/ns/pid") != os.readlink("/proc/self/ns/pid")
        assert os.readlink(f"/proc/{swipl[0]}/ns/net") != os.readlink("/proc/self/ns/net")
        if os.geteuid() == 0:
            assert os.stat(f"/proc/{swipl[0]}").st_uid == 65534


def test_pyab_is_not_dumpable_while_a_confined_child_lives(tmp_path):
    import ctypes

    from pyab.referee.child import Child
    from pyab.referee.sandbox import Sandbox
    libc = ctypes.CDLL(None)
    assert libc.prctl(3, 0, 0, 0, 0) == 1  # PR_GET_DUMPABLE
    with Child(["python3", "-c", "import time; time.sleep(5)"], timeout=5, memory_mb=None,
               sandbox=Sandbox(tmp_path)):
        assert libc.prctl(3, 0, 0, 0, 0) == 0
    assert libc.prctl(3, 0, 0, 0, 0) == 1


def test_the_whole_run_has_a_wall_clock_limit(tmp_path):
    """Each search within its timeout, the run as a whole beyond its limit."""
    from pyab.errors import ProgramError
    from pyab.referee.child import Child
    script = "import sys, time\nfor line in sys.stdin:\n    time.sleep(0.4)\n    print('{}', flush=True)\n"
    with Child([sys.executable, "-c", script], timeout=1, memory_mb=None, wall_seconds=1.5) as c:
        with pytest.raises(ProgramError, match="wall-clock") as err:
            for _ in range(10):
                c.send({"root": "a"})
                c.receive()
        assert err.value.kind == "timeout"


def _split_program(folder: Path, how: str) -> Path:
    """The slides' program in two files: alphabeta/5 in main.pl, the rest in
    helpers.pl, joined by ``how`` (include or consult)."""
    text = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    cut = text.index("\nboundedbest(") + 1  # the first clause, not the header comment
    (folder / "helpers.pl").write_text(text[cut:], encoding="utf-8")
    main = folder / "main.pl"
    main.write_text(f":- {how}(helpers).\n" + text[:cut], encoding="utf-8")
    return main


@pytest.mark.parametrize("how", ["include", "consult", "ensure_loaded"])
def test_a_multi_file_prolog_program_agrees_untrusted(how, tmp_path):
    main = _split_program(tmp_path, how)
    done = run("program", main, "--untrusted", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agree"] is True


def test_an_include_outside_the_folder_is_refused(tmp_path):
    inner = tmp_path / "student"
    inner.mkdir()
    main = _split_program(tmp_path, "include")
    (inner / "main.pl").write_text(main.read_text(encoding="utf-8").replace(
        "include(helpers)", "include('../helpers')"), encoding="utf-8")
    done = run("program", inner / "main.pl", "--untrusted", cwd=inner)
    assert done.returncode == 3
    assert "refused" in json.loads(done.stdout)["error"]["message"]


def test_tracing_output_is_allowed_untrusted(tmp_path):
    """write/1, writeln/1, print/1, writef/2, nl/0 and format/2 in an honest
    program under --untrusted: it agrees, its lines go to stderr (kept)."""
    text = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8").replace("alphabeta(", "honest_ab(")
    prog = tmp_path / "trace.pl"
    prog.write_text(text + "\nalphabeta(P, A, B, G, V) :-\n"
                    "    write(at(P)), nl, writeln(w), print(p), nl, writef('%w and %d\\n', [P, 3]),\n"
                    "    format(\"f ~w~n\", [P]),\n"
                    "    print_message(informational, format(\"plain ~w\", [P])),\n"
                    "    honest_ab(P, A, B, G, V).\n", encoding="utf-8")
    done = run("program", prog, "--untrusted", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agree"] is True


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_everything_the_child_started_is_gone_when_close_returns(kind, tmp_path):
    """Close ends the namespace: a double-forked, setsid'd sleeper that left
    the child's process group is gone by the time close() returns."""
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    from pyab.referee.child import Child
    from pyab.referee.sandbox import Sandbox
    token = f"pyab-close-{os.getpid()}-{kind}"
    script = ("import os, sys, time\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    if os.fork() == 0:\n"
              f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(6)', '{token}'])\n"
              "    os._exit(0)\n"
              "os.wait()\n"
              "print('{}', flush=True)\n"
              "time.sleep(6)\n")
    with Child(["python3", "-c", script], timeout=5, memory_mb=None,
               sandbox=Sandbox(tmp_path, kind=kind)) as child:
        child.restart_clock()
        child.receive()
        assert left_running(token)  # the sleeper runs
    assert left_running(token) == []


@pytest.mark.parametrize("untrusted", [[], ["--untrusted"]])
def test_a_programs_own_kind_is_not_trusted(untrusted, tmp_path):
    """An --exec program's {"error": ..., "kind": "weird"}: an invalid
    answer, exit 3 (a usage error, exit 2, before)."""
    prog = tmp_path / "kind.py"
    prog.write_text("import json, sys\nsys.stdin.readline()\n"
                    "print(json.dumps({'error': 'I give up', 'kind': 'weird'}), flush=True)\n"
                    "sys.stdin.read()\n", encoding="utf-8")
    done = run("exec", prog, *untrusted, cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    err = json.loads(done.stdout)["error"]
    assert err["program_kind"] == "invalid" and "I give up" in err["message"]


@pytest.mark.parametrize("untrusted", [[], ["--untrusted"]])
def test_a_raising_python_program_keeps_its_traceback(untrusted, place):
    student, other, listener = place
    prog = write_probe("C1 and bidi characters", student, other, listener, "x")
    done = run("python", prog, *untrusted, cwd=student)
    err = json.loads(done.stdout)["error"]
    assert "Traceback (most recent call last)" in err["program_stderr"]
    assert 'raise RuntimeError("PROBE " + str(probe()))' in err["program_stderr"]
    assert "\\u009b" in done.stdout and "\x9b" not in done.stdout


def test_json_escapes_every_control_and_bidi_character():
    from pyab.commands._common import json_text
    odd = "".join(map(chr, [*range(0, 32), 0x7f, *range(0x80, 0xa0), 0x2028, 0x2029,
                            *range(0x202a, 0x202f), *range(0x2066, 0x206a)]))
    text = json_text({"s": odd + "é ü 漢"})
    assert all(ord(c) >= 0x20 and not (0x7f <= ord(c) < 0xa0) and c not in "\u2028\u2029"
               and not (0x202a <= ord(c) <= 0x202e) and not (0x2066 <= ord(c) <= 0x2069)
               for c in text)
    assert json.loads(text) == {"s": odd + "é ü 漢"} and "é ü 漢" in text


def test_nothing_is_left_in_the_temporary_folder(tmp_path):
    """The copy and the shipped files go when the run ends (here TMPDIR is
    a folder of the test's; as root, where nobody cannot pass through it,
    pyab uses /tmp).  Only this run's own folder is looked at: other pyab
    runs may sandbox on the same machine meanwhile."""
    (tmp_path / "tmp").mkdir()  # 0700 under pytest's root-only folders
    tmp = Path("/tmp") if os.geteuid() == 0 else tmp_path / "tmp"
    shutil.copy(EXAMPLES / "referee" / "slides_alphabeta.py", tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path / "tmp"))
    with subprocess.Popen([sys.executable, "-m", "pyab", "check", "--random", "5", "--python",
                           "slides_alphabeta.py:alphabeta", "--untrusted"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env) as proc:
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert list(tmp.glob(f"pyab-run-{proc.pid}-*")) == [] and not list((tmp_path / "tmp").iterdir())


def test_every_sandbox_of_a_run_is_in_the_runs_own_folder(tmp_path):
    """Sandboxes live in one folder of this process's (named by its pid),
    removed with the last of them; another run's folder is never touched."""
    from pyab.referee import sandbox
    other = Path(sandbox._base()) / f"pyab-run-{os.getpid() + 1}-not-mine"
    other.mkdir(exist_ok=True)
    try:
        first, second = sandbox.Sandbox(tmp_path), sandbox.Sandbox(tmp_path)
        root = first.root.parent
        assert second.root.parent == root and root.name.startswith(f"pyab-run-{os.getpid()}-")
        assert sorted(p.name for p in root.iterdir()) == sorted([first.root.name, second.root.name])
        first.cleanup()
        assert root.is_dir() and not first.root.exists()
        second.cleanup()
        assert not root.exists() and other.is_dir()
    finally:
        other.rmdir()


FILL = '''import os
def alphabeta(game, node, alpha, beta):
    where = {"tmp": "/tmp", "shm": "/dev/shm", "folder": os.path.dirname(os.path.abspath(__file__))}
    chunk = b"x" * (1 << 20)
    for i in range(400):  # 8 MB a file (16 MB is a file's limit), 3.2 GB at most
        with open(os.path.join(where["PLACE"], "fill%d" % i), "wb") as f:
            for _ in range(8):
                f.write(chunk)
    return None, 0
'''


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
@pytest.mark.parametrize("where", ["tmp", "shm", "folder"])
def test_filling_a_writable_place_is_stopped_at_the_disk_budget(kind, where, tmp_path):
    """/tmp, /dev/shm and the folder's copy are tmpfs of --disk MB each: a
    program filling one gets a `limit` verdict, and nothing it wrote is on
    the host (its folder, the host's /dev/shm)."""
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    prog = tmp_path / "fill.py"
    prog.write_text(FILL.replace("PLACE", where), encoding="utf-8")
    shm_before = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    done = run("python", prog, "--untrusted", "--disk", "24", cwd=tmp_path, sandbox=kind)
    assert done.returncode == 3, done.stderr
    err = json.loads(done.stdout)["error"]
    assert err["program_kind"] == "limit" and "No space left on device" in err["message"], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fill.py"]
    if os.path.isdir("/dev/shm"):
        assert not any(n.startswith("fill") for n in set(os.listdir("/dev/shm")) - shm_before)


def test_disk_needs_untrusted(tmp_path):
    prog = tmp_path / "fill.py"
    prog.write_text(FILL, encoding="utf-8")
    done = run("python", prog, "--disk", "24", cwd=tmp_path)
    assert done.returncode == 2 and "--disk" in done.stderr


def _budgeted(kind: str, script: str, tmp_path: Path, memory_mb: int | None = 200):
    """A confined python3 running ``script``: its first line of output, or
    the ProgramError it ended with."""
    from pyab.errors import ProgramError
    from pyab.referee.child import Child
    from pyab.referee.sandbox import Sandbox, limits
    lim = limits(20, memory_mb)
    try:
        with Child(["python3", "-c", script], sandbox=Sandbox(tmp_path, kind=kind, disk_mb=16),
                   **lim) as child:
            child.restart_clock()
            return child.receive()
    except ProgramError as err:
        return err


def _cgroups_here() -> bool:
    from pyab.referee import cgroup
    return cgroup.available() == ""


@pytest.mark.skipif(not _cgroups_here(), reason="no cgroup v1 memory/pids to make here")
@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_memory_is_one_budget_for_all_the_childs_processes(kind, tmp_path):
    """Four processes of 150 MB each stay under a 200 MB address-space limit
    each, but not under one 200 MB (+16 MB disk) budget: the kernel stops
    them, a `limit`; and the child's cgroups are gone after close."""
    from pyab.referee import cgroup
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    folders = [cgroup._own(c) for c in cgroup.CONTROLLERS]

    def ours() -> list[str]:  # this process's cgroups only: other runs may make theirs
        return [n for f in folders for n in os.listdir(f) if n.startswith(f"pyab-{os.getpid()}-")]
    script = ("import os, time\n"
              "kids = []\n"
              "for i in range(4):\n"
              "    pid = os.fork()\n"
              "    if pid == 0:\n"
              "        b = bytearray(150 << 20)\n"
              "        for j in range(0, len(b), 4096): b[j] = 1\n"
              "        time.sleep(5); os._exit(0)\n"
              "    kids.append(pid)\n"
              "for pid in kids:\n"
              "    _, st = os.waitpid(pid, 0)\n"
              "    if st != 0: raise MemoryError('a process was stopped: %d' % st)\n"
              "print('{\"all\": \"fine\"}', flush=True)\n")
    out = _budgeted(kind, script, tmp_path)
    assert not isinstance(out, dict), out
    assert out.kind == "limit", out
    assert ours() == []


@pytest.mark.skipif(not _cgroups_here(), reason="no cgroup v1 memory/pids to make here")
@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_processes_are_counted_for_the_child_alone(kind, tmp_path):
    """The pids cgroup stops the child's 41st process (32 + the tools'),
    whatever else its user runs; at most 60 forks are tried."""
    script = ("import os, time, json\n"
              "n = 0\n"
              "for i in range(60):\n"
              "    try:\n"
              "        pid = os.fork()\n"
              "    except OSError:\n"
              "        break\n"
              "    if pid == 0:\n"
              "        time.sleep(3); os._exit(0)\n"
              "    n += 1\n"
              "print(json.dumps({'forks': n}), flush=True)\n")
    out = _budgeted(kind, script, tmp_path, memory_mb=None)
    assert isinstance(out, dict), out
    assert 20 <= out["forks"] < 40, out


PROBE_CALLS = r'''
import ctypes, json, os, platform
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": dict(ptrace=101, process_vm_readv=310, keyctl=250, add_key=248, bpf=321,
                     perf_event_open=298, userfaultfd=323, io_uring_setup=425, mount=165,
                     umount2=166, unshare=272, setns=308, clone=56, clone3=435, kexec_load=246,
                     init_module=175, finit_module=313, reboot=169, swapon=167),
      "aarch64": dict(ptrace=117, process_vm_readv=270, keyctl=219, add_key=217, bpf=280,
                      perf_event_open=241, userfaultfd=282, io_uring_setup=425, mount=40,
                      umount2=39, unshare=97, setns=268, clone=220, clone3=435, kexec_load=104,
                      init_module=105, finit_module=273, reboot=142, swapon=224)}[platform.machine()]
ARGS = {"clone": (0x10000000 | 17, 0, 0, 0, 0), "unshare": (0x10000000,), "setns": (0, 0),
        "userfaultfd": (0,), "ptrace": (0, 0, 0, 0)}
out = {}
for name, nr in NR.items():
    r = libc.syscall(nr, *[ctypes.c_long(a) for a in ARGS.get(name, (0, 0, 0, 0))])
    out[name] = ctypes.get_errno() if r == -1 else "returned %d" % r
out["Seccomp"] = [l.split()[1] for l in open("/proc/self/status") if l.startswith("Seccomp:")][0]
print(json.dumps(out), flush=True)
'''
FAMILIES = {"ptrace": ["ptrace", "process_vm_readv"], "keys": ["keyctl", "add_key"],
            "bpf": ["bpf"], "perf": ["perf_event_open"], "userfaultfd": ["userfaultfd"],
            "io_uring": ["io_uring_setup"], "mount": ["mount", "umount2"],
            "namespaces": ["unshare", "setns", "clone"], "kexec": ["kexec_load"],
            "modules": ["init_module", "finit_module"], "reboot": ["reboot"], "swap": ["swapon"]}


@pytest.fixture(scope="module")
def calls_inside(tmp_path_factory):
    """What each probed call gave inside a child, per backend (one child each)."""
    out = {}
    for kind in ("bwrap", "unshare"):
        if shutil.which(kind):
            out[kind] = _budgeted(kind, PROBE_CALLS, tmp_path_factory.mktemp(kind), memory_mb=None)
    return out


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_the_filter_denies_each_family_inside_a_child(family, kind, calls_inside):
    if kind not in calls_inside:
        pytest.skip(f"no {kind}")
    got = calls_inside[kind]
    assert isinstance(got, dict), got
    assert got["Seccomp"] == "2"  # filtered
    for name in FAMILIES[family]:
        assert got[name] == 1, (name, got[name])  # EPERM
    assert got["clone3"] == 38  # ENOSYS: the C library falls back to clone


def test_the_filter_catches_each_call_it_lists(tmp_path):
    """Installed in a plain process with an errno of its own (131), every
    listed call gets that errno (so each number is right, not refused by
    the kernel for lack of rights), while fork and threads still work."""
    from pyab.referee import seccomp
    code = ("import sys; sys.path.insert(0, %r)\n" % str(ROOT)
            + "from pyab.referee import seccomp\n"
            + "seccomp.install(seccomp.program(errno=131))\n"
            + PROBE_CALLS
            + "import threading, subprocess\n"
            + "t = threading.Thread(target=print, args=('thread',)); t.start(); t.join()\n"
            + "print(subprocess.run(['true']).returncode)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    got = json.loads(lines[0])
    assert {k: v for k, v in got.items() if k not in ("Seccomp", "clone3")} == \
        {k: 131 for k in got if k not in ("Seccomp", "clone3")}
    assert got["clone3"] == 38 and lines[1:] == ["thread", "0"]
    assert seccomp.program("aarch64") != seccomp.program("x86_64")


def test_links_leaving_the_folder_are_never_copied(tmp_path):
    """A link out of the submission (to another student's file, to /etc) is
    neither followed nor copied; a link inside it stays a link."""
    from pyab.referee.sandbox import Sandbox
    student, other = tmp_path / "student", tmp_path / "other"
    (student / "sub").mkdir(parents=True)
    other.mkdir()
    (other / "secret.txt").write_text("answer", encoding="utf-8")
    (student / "prog.py").write_text("x = 1\n", encoding="utf-8")
    (student / "theirs.txt").symlink_to(other / "secret.txt")
    (student / "up").symlink_to("../other")
    (student / "sub" / "etc").symlink_to("/etc")
    (student / "mine.py").symlink_to("prog.py")
    box = Sandbox(student, kind="unshare" if shutil.which("bwrap") is None else "bwrap")
    try:
        names = sorted(str(p.relative_to(box.work)) for p in box.work.rglob("*"))
        assert names == ["mine.py", "prog.py", "sub"]
        assert os.readlink(box.work / "mine.py") == "prog.py"
    finally:
        box.cleanup()


def _system_python_is_pyabs_minor() -> bool:
    done = subprocess.run(["/usr/bin/python3", "-c", "import sys; print(sys.version_info[:2])"],
                          capture_output=True, text=True) if os.path.exists("/usr/bin/python3") else None
    return done is not None and done.stdout.strip() == str(sys.version_info[:2])


@pytest.mark.skipif(not _system_python_is_pyabs_minor(),
                    reason="the confined child's python3 is not pyab's Python version")
@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_an_allowed_module_is_importable_and_others_are_not(kind, tmp_path):
    """--allow-module numpy binds numpy from pyab's environment (the test
    extra installs it); without it the same program cannot import it."""
    pytest.importorskip("numpy")
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    prog = tmp_path / "np_ab.py"
    prog.write_text("import numpy\n" + (EXAMPLES / "referee" / "slides_alphabeta.py").read_text(
        encoding="utf-8"), encoding="utf-8")
    done = run("python", prog, "--untrusted", "--allow-module", "numpy", cwd=tmp_path, sandbox=kind)
    assert done.returncode == 0 and json.loads(done.stdout)["agree"] is True, done.stderr
    done = run("python", prog, "--untrusted", cwd=tmp_path, sandbox=kind)
    assert done.returncode == 3 and "No module named 'numpy'" in done.stdout


@pytest.mark.parametrize("name", ["pyab", "no_such_module_here", "os.path"])
def test_pyab_and_unknown_modules_are_not_allowed(name, tmp_path):
    prog = tmp_path / "p.py"
    shutil.copy(EXAMPLES / "referee" / "slides_alphabeta.py", prog)
    done = run("python", prog, "--untrusted", "--allow-module", name, cwd=tmp_path)
    assert done.returncode == 2 and f"--allow-module {name}" in done.stderr


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_an_exec_client_in_another_folder_runs_confined(kind, tmp_path, monkeypatch):
    """exec_child with the client's folder: the client is found and agrees,
    run from a folder that is not its own."""
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    from pyab.referee import ExecRoute
    from pyab.referee.sandbox import exec_child
    import pyab
    client = tmp_path / "elsewhere" / "client.py"
    client.parent.mkdir()
    shutil.copy(EXAMPLES / "referee" / "client.py", client)
    monkeypatch.setenv("PYAB_SANDBOX", kind)
    monkeypatch.chdir(tmp_path)
    route = ExecRoute(f"python3 {client}", untrusted=True)
    route._confine = lambda: exec_child(route.argv, folder=client.parent)
    try:
        result = route.search(pyab.parse(Path(SLIDES).read_text(encoding="utf-8")))
    finally:
        route.close()
    assert (result.best, result.value) == ("b", 3)


@pytest.mark.skipif(not _system_python_is_pyabs_minor(),
                    reason="the confined child's python3 is not pyab's Python version")
def test_a_grade_suite_allows_modules_and_sets_the_disk(tmp_path):
    """modules = ["numpy"] in [grader]: a submission importing numpy is
    graded in full; without the key it gets nothing; pyab is refused by
    line.  disk = N is accepted (the budget itself: the tests above)."""
    pytest.importorskip("numpy")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "np_ab.py").write_text("import numpy\n" + (EXAMPLES / "referee" / "slides_alphabeta.py")
                                  .read_text(encoding="utf-8"), encoding="utf-8")
    suite = tmp_path / "suite.toml"
    scores = {}
    for modules in ('modules = ["numpy"]\n', ""):
        suite.write_text('[grader]\nroute = "python"\nentry = "alphabeta"\nuntrusted = true\n'
                         + modules + 'disk = 32\n\n[[tests]]\nname = "random"\npoints = 10\n'
                         'random = 3\n', encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "pyab", "grade", str(suite), str(sub),
                               "--out", str(tmp_path / "out"), "--json"], capture_output=True,
                              text=True, timeout=120, cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert done.returncode == 0, done.stderr
        rows = (tmp_path / "out" / "gradebook.csv").read_text(encoding="utf-8").splitlines()
        scores[bool(modules)] = rows[1].split(",")[1]
    assert scores == {True: "10", False: "0"}
    suite.write_text(suite.read_text(encoding="utf-8").replace("disk = 32", 'modules = ["pyab"]'),
                     encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pyab", "grade", str(suite), str(sub)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 2 and "suite.toml:5: modules: pyab" in done.stderr


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_an_exec_program_named_by_its_path_under_tmp_runs_confined(kind, tmp_path):
    """--exec /tmp/.../client.py (a grader-side client, executable, under
    the temporary folder) from another folder: bound read-only where it is,
    after the sandbox's own /tmp (which hid it under bwrap)."""
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    import tempfile
    clients = Path(tempfile.mkdtemp(prefix="pyab-test-clients-", dir="/tmp"))
    try:  # pytest's own folders are root's alone: nobody could not reach the client there
        clients.chmod(0o755)
        client = clients / "client.py"
        shutil.copy(EXAMPLES / "referee" / "client.py", client)
        client.chmod(0o755)
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYAB_SANDBOX=kind)
        done = subprocess.run([sys.executable, "-P", "-m", "pyab", "check", SLIDES, "--exec",
                               str(client), "--untrusted", "--json"], capture_output=True,
                              text=True, timeout=60, cwd=tmp_path, env=env)
    finally:
        shutil.rmtree(clients)
    assert done.returncode == 0 and json.loads(done.stdout)["agree"] is True, done.stderr


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_sys_and_the_cgroup_tree_are_not_visible(kind, tmp_path):
    """No /sys (bwrap) or an empty read-only cover (unshare): the child
    cannot see or move between cgroups; /dev/shm is its own, empty."""
    if shutil.which(kind) is None:
        pytest.skip(f"no {kind}")
    planted = f"pyab-test-planted-{os.getpid()}-{kind}"
    script = ("import os, json\n"
              "ls = lambda p: sorted(os.listdir(p)) if os.path.isdir(p) else None\n"
              f"open('/dev/shm/{planted}', 'w').write('x')\n"
              "print(json.dumps({'sys': ls('/sys'), 'cgroup': ls('/sys/fs/cgroup'),\n"
              "                  'shm': ls('/dev/shm')}), flush=True)\n")
    out = _budgeted(kind, script, tmp_path, memory_mb=None)
    leaked = os.path.exists(f"/dev/shm/{planted}")
    if leaked:  # the host's /dev/shm: the test's own file, removed
        os.unlink(f"/dev/shm/{planted}")
    assert isinstance(out, dict), out
    assert out["sys"] in (None, []) and out["cgroup"] is None and out["shm"] == [planted]
    assert not leaked
