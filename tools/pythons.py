"""pyab on every Python it supports that this machine has (3.10 to 3.13).

`make test` runs this (its `pythons` target); the full test suite runs on
one Python only.  One sdist is built from the checkout; for each Python
found, a fresh virtualenv far from the checkout gets it from pip (which
builds the wheel, with the C extensions where a compiler is present, else
on the pure-Python paths), and the installed `pyab` runs, in turn:

- ``solve`` on the shipped slides tree (best move b, value 3);
- ``check --random 200`` (both engines agree);
- ``grade`` of the shipped example class (alice full marks, bob not);
- the shipped plunit tests, from where pip put them.

One line a Python; an absent Python is named.  Exit 1 if any step fails
on any Python found (its output is shown), else 0.

    python tools/pythons.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINORS = (10, 11, 12, 13)
# A user's shell, not the one `make` or pytest runs in.
UNSET = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE", "PYTHONHOME")


class Failed(Exception):
    """A step that did not do what it should; the message says what and shows why."""


def find(minor: int) -> str | None:
    """A working ``python3.MINOR``: on PATH, else under pyenv's versions
    (pyenv's shims answer only for the versions made global)."""
    candidates = [shutil.which(f"python3.{minor}")]
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates += sorted(glob.glob(os.path.join(pyenv, "versions", f"3.{minor}.*", "bin", f"python3.{minor}")),
                         reverse=True)
    for exe in candidates:
        if exe and _works(exe, minor):
            return exe
    return None


def _works(exe: str, minor: int) -> bool:
    try:
        out = subprocess.run([exe, "-c", "import sys, venv; print(sys.version_info[1])"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip() == str(minor)


def run(cmd: list[str], cwd: Path, what: str, timeout: float = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise Failed(f"{what}: no answer in {timeout:g} s") from None
    if p.returncode != 0:
        raise Failed(f"{what}: exit {p.returncode}\n{(p.stdout + p.stderr)[-3000:]}")
    return p.stdout + p.stderr


def sdist(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out), str(ROOT)],
        out, "python -m build --sdist")
    (made,) = out.glob("pyab-*.tar.gz")
    return made


def smoke(python: str, archive: Path, base: Path) -> str:
    """The four runs on one Python; what was built, or :class:`Failed`."""
    venv = base / "venv"
    run([python, "-m", "venv", str(venv)], base, "python -m venv")
    bin_ = venv / "bin"
    run([str(bin_ / "python"), "-m", "pip", "install", "-q", str(archive)], base, "pip install the sdist")
    pyab = str(bin_ / "pyab")
    where = json.loads(run([pyab, "where", "--json"], base, "pyab where"))
    examples = Path(where["examples"])
    if not examples.is_relative_to(venv):
        raise Failed(f"pyab where: the examples are at {examples}, not in the virtualenv")
    solved = json.loads(run([pyab, "solve", str(examples / "slides.tree"), "--json"], base, "pyab solve"))
    if (solved["best"], solved["value"], solved["pruned"]) != ("b", 3, ["i", "j"]):
        raise Failed(f"pyab solve: {solved}")
    checked = run([pyab, "check", "--random", "200"], base, "pyab check --random 200")
    if "agree on every one" not in checked:
        raise Failed(f"pyab check --random 200:\n{checked}")
    grading = examples / "grading"
    graded = json.loads(run([pyab, "grade", str(grading / "suite.toml"), str(grading / "class" / "alice"),
                             str(grading / "class" / "bob"), "--out", str(base / "grades"), "--json"],
                            base, "pyab grade"))
    rows = {row["submission"]: row for row in graded["rows"]}
    if not (rows["alice"]["score"] == graded["max"] > rows["bob"]["score"]):
        raise Failed(f"pyab grade: alice and bob scored {graded['rows']} of {graded['max']}")
    tests = run(["swipl", "-g", "run_tests", "-t", "halt", where["tests"]], base, "the shipped plunit tests")
    if "tests passed" not in tests:
        raise Failed(f"the shipped plunit tests:\n{tests[-2000:]}")
    compiled = run([str(bin_ / "python"), "-c", "import pyab.resources as r; "
                    "print(r.compiled('dsl._cscan') is not None)"], base, "python -c")
    return "compiled scanner and loader" if compiled.strip() == "True" else "pure-Python paths (no compiler)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and leave it (default: a temporary folder)")
    args = parser.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pyab-pythons-"))
    work.mkdir(parents=True, exist_ok=True)
    failed = []
    try:
        archive = sdist(work / "dist")
        print(f"pythons: {archive.name}, on every Python 3.10-3.13 found", flush=True)
        for minor in MINORS:
            python = find(minor)
            if python is None:
                print(f"python 3.{minor}: absent (no python3.{minor} on PATH or under pyenv)", flush=True)
                continue
            start = time.monotonic()
            try:
                built = smoke(python, archive, Path(tempfile.mkdtemp(prefix=f"py3{minor}-", dir=work)))
            except Failed as err:
                failed.append(minor)
                print(f"python 3.{minor}: FAILED ({python})\n  {str(err).replace(chr(10), chr(10) + '  ')}",
                      flush=True)
                continue
            print(f"python 3.{minor}: ok: sdist installed ({built}), solve, check --random 200, grade, "
                  f"plunit in {time.monotonic() - start:.0f} s ({python})", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
