"""Run every hostile program of tests/hostile_programs.py through
``pyab check examples/slides.tree --program ...`` and print a table: exit
code, whether the attack's file appeared (now, and 3 s later), whether
stdout is one valid JSON object (with --json), the first line of stderr.

    python benchmarks/attacks.py            # this checkout's pyab
    PYAB_SRC=/path/to/old/checkout python benchmarks/attacks.py   # another one's

The "before" column of docs/grading.md is this table for the code before
the child-process referee; the "after" column is this checkout's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from tests.hostile_programs import ATTACKS, program_text  # noqa: E402

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


def main() -> None:
    names = sys.argv[1:] or list(ATTACKS)
    with tempfile.TemporaryDirectory() as d:
        for name in names:
            r = run(name, Path(d))
            print(f"{r['attack']:42} exit {r['exit']!s:4} file written: {str(r['written']):5} "
                  f"{r['seconds']:5.1f}s {r['json']:15} {r['stderr']}")


if __name__ == "__main__":
    main()
