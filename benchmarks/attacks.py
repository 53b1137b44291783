"""Run every hostile program of tests/hostile_programs.py through
``pyab check examples/slides.tree --program ...`` and print a table: exit
code, whether the attack's file appeared (now, and 3 s later), whether
stdout is one valid JSON object (with --json), the first line of stderr.

    python benchmarks/attacks.py            # this checkout's pyab
    PYAB_SRC=/path/to/old/checkout python benchmarks/attacks.py   # another one's
    python benchmarks/attacks.py --probes   # the --python/--exec probes, both ways

The "before" column of docs/sandbox.md is this table for the code before
the child-process referee; the "after" column is this checkout's.  With
``--probes``, each probe of ``PROBES`` runs on ``--python`` and ``--exec``
without and with ``--untrusted`` (bounded: the probes end by themselves;
pyab is killed after 20 s, e.g. when a probe stopped it with SIGSTOP; the
only processes signalled or traced are the pyab runs started here), and a
listener on 127.0.0.1 reports connections.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from tests.hostile_programs import ATTACKS, PROBES, probe_text, program_text  # noqa: E402

SRC = Path(os.environ.get("PYAB_SRC", HERE))
SLIDES = HERE / "examples" / "slides.tree"


def run(name: str, tmp: Path) -> dict:
    mark = tmp / f"mark-{abs(hash(name))}"
    prog = tmp / f"prog-{abs(hash(name))}.pl"
    prog.write_text(program_text(name, mark), encoding="utf-8")
    _, opts, _ = ATTACKS[name]
    if SRC != HERE:  # old code has none of the new options
        opts = [o for o in opts if o in ("--json",)]
    env = dict(os.environ, PYTHONPATH=str(SRC))
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "pyab", "check", str(SLIDES), "--program",
                               str(prog), *opts], capture_output=True, timeout=60, env=env,
                              cwd=tmp)
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as t:
        code, out, err = "hung (60 s)", t.stdout or b"", t.stderr or b""
    took = time.monotonic() - start
    written_now = mark.exists()
    time.sleep(3 if "background" in name else 0)
    valid = ""
    if "--json" in opts:
        try:
            json.loads(out.decode("utf-8"))
            valid = "one JSON object"
        except ValueError:
            valid = "INVALID JSON"
    first = next((ln for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()), "")
    return {"attack": name, "exit": code, "written": written_now or mark.exists(),
            "json": valid, "seconds": round(took, 1),
            "stderr": first.encode("unicode_escape").decode("ascii")[:110]}


def probe(name: str, route: str, untrusted: bool, tmp: Path) -> dict:
    import shutil
    import socket
    import threading
    student, other = tmp / "student", tmp / "other"
    for d in (student, other):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
    (other / "secret.txt").write_text("answer", encoding="utf-8")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.settimeout(0.2)
    got: list[bytes] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
                got.append(conn.recv(100))
                conn.close()
            except OSError:
                pass
    threading.Thread(target=accept, daemon=True).start()
    token = f"pyab-attacks-{os.getpid()}-{abs(hash((name, route, untrusted)))}"
    prog = student / "student.py"
    prog.write_text(probe_text(name, OTHER=str(other), PORT=str(listener.getsockname()[1]),
                               SECRET="PYAB_ATTACK_SECRET", TOKEN=token,
                               PPID_MARK="-m pyab check", PYAB=str(SRC / "pyab")), encoding="utf-8")
    spec = (["--python", f"{prog}:alphabeta"] if route == "python"
            else ["--exec", "python3 student.py"])
    cmd = [sys.executable, "-P", "-m", "pyab", "check", str(SLIDES), *spec, "--timeout", "5",
           "--json", *(["--untrusted"] if untrusted else [])]
    env = dict(os.environ, PYTHONPATH=str(SRC), PYAB_ATTACK_SECRET="hunter2")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=student, env=env)
    try:
        out, err = proc.communicate(timeout=20)
        code: Any = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()  # a probe stopped it (SIGSTOP): this script started it
        out, err = proc.communicate()
        code = "hung"
    time.sleep(0.2)
    left = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            left += token.encode() in open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            pass
    stop.set()
    listener.close()
    text = out.decode("utf-8", "replace")
    try:
        obj = json.loads(text)
        what = obj.get("error", {}).get("message", obj.get("verdict", ""))
        shape = "one JSON object"
    except ValueError:
        what, shape = text[:80], f"NOT one JSON object ({text.count(chr(10))} lines)"
    raw = [f"U+{ord(c):04X}" for c in ("\x9b", "\u202e") if c in text]
    changed = (other / "secret.txt").read_text(encoding="utf-8") != "answer"
    planted = [p.name for p in student.iterdir() if p.name != "student.py"]
    what = what.split("PROBE ", 1)[-1]
    return {"probe": name, "route": route, "untrusted": untrusted, "exit": code, "json": shape,
            "result": what[:100], "connections": len(got), "left running": left,
            "other folder changed": changed, "planted": planted, "raw C1/bidi": raw}


def probes() -> None:
    with tempfile.TemporaryDirectory() as d:
        for name in PROBES:
            for route in ("python", "exec"):
                for untrusted in (False, True):
                    r = probe(name, route, untrusted, Path(d))
                    flags = [k for k in ("connections", "left running", "other folder changed",
                                         "planted", "raw C1/bidi") if r[k]]
                    print(f"{name[:40]:40} {route:6} {'untrusted' if untrusted else 'plain':9} "
                          f"exit {r['exit']!s:4} {r['json']:16} {r['result'][:70]:70} "
                          + " ".join(f"{k}={r[k]}" for k in flags), flush=True)


def main() -> None:
    if sys.argv[1:] == ["--probes"]:
        probes()
        return
    names = sys.argv[1:] or list(ATTACKS)
    with tempfile.TemporaryDirectory() as d:
        for name in names:
            r = run(name, Path(d))
            print(f"{r['attack']:42} exit {r['exit']!s:4} file written: {str(r['written']):5} "
                  f"{r['seconds']:5.1f}s {r['json']:15} {r['stderr']}")


if __name__ == "__main__":
    main()
