"""A suite packed for the platforms courses grade on.

:func:`gradescope_zip` writes the zip Gradescope takes
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): at its
top level ``setup.sh`` (run once, as root, when Gradescope builds the
image: Ubuntu 22.04's Python 3.10, SWI-Prolog 9 from the SWI-Prolog PPA,
bubblewrap, pyab from its sdist in a virtualenv) and ``run_autograder``
(each submission: ``pyab grade --gradescope``), pyab's sdist, and under
``suite/`` the suite with the files its groups name.  Gradescope unpacks
it in ``/autograder/source``.

A container without user namespaces cannot give pyab its sandbox: there
``run_autograder`` grades with ``suite/NAME.unconfined.toml`` (the same
suite with ``untrusted = false``, written here) and says so; the
container is then the only boundary.

:func:`github_classroom` writes the same bundle into a repository's
``.autograder/`` and a workflow that grades each push and reports to
GitHub Classroom (:func:`classroom_result`).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from ..errors import Error
from .suite import Suite, load_suite

__all__ = ["AutograderError", "classroom_result", "github_classroom", "gradescope_zip", "sandbox",
           "sdist_of_checkout", "suite_files"]

BUNDLE = "suite"  # the suite's folder inside the zip


class AutograderError(Error):
    """An autograder that cannot be built as asked."""


def suite_files(suite: Suite) -> tuple[Path, list[Path]]:
    """(the folder all of them are under, the suite and every file its
    groups read: ``trees`` files and ``cs188`` folders' files)."""
    files = [Path(suite.path).resolve()]
    for g in suite.tests:
        files += [Path(t).resolve() for t in g.trees]
        if g.cs188:
            files += sorted(p.resolve() for p in Path(g.cs188).iterdir() if p.is_file())
    base = Path(os.path.commonpath([str(f.parent) for f in files]))
    return base, files


def unconfined(text: str) -> str | None:
    """The suite's text with ``untrusted = true`` in ``[grader]`` turned
    false, or None when it does not ask for the sandbox."""
    table = re.search(r"^\s*\[grader\]\s*(?:#[^\n]*)?$(.*?)(?=^\s*\[|\Z)", text, re.M | re.S)
    if table is None:
        return None
    line = re.compile(r"^(\s*untrusted\s*=\s*)true\b", re.M)
    if not line.search(table.group(1)):
        return None
    body = line.sub(r"\1false  # written by pyab autograder: no sandbox in this container",
                    table.group(1), count=1)
    return text[:table.start(1)] + body + text[table.end(1):]


def sdist_of_checkout(dest: Path) -> Path:
    """pyab's sdist, built from the checkout this pyab runs from.

    :raises AutograderError: when it is not a checkout or cannot build."""
    root = Path(__file__).resolve().parent.parent.parent
    if not ((root / "pyproject.toml").is_file() and (root / "setup.py").is_file()):
        raise AutograderError("pyab runs from an installed package, not a checkout: give its "
                              "source archive with --sdist FILE (python -m build --sdist in a checkout)")
    dest.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
                            str(dest), str(root)], capture_output=True, text=True, env=env)
    made = sorted(dest.glob("pyab-*.tar.gz"))
    if built.returncode != 0 or len(made) != 1:
        raise AutograderError("could not build pyab's sdist (pip install build; or give --sdist FILE):\n"
                              + (built.stdout + built.stderr)[-2000:])
    return made[0]


def _stage(suite_path: str | Path, sdist: str | Path | None, dest: Path) -> tuple[str, str, bool]:
    """The suite, its files and the sdist copied under ``dest``: (the
    suite's path under dest, the sdist's name, whether an unconfined twin
    was written)."""
    suite = load_suite(suite_path)
    base, files = suite_files(suite)
    for f in files:
        target = dest / BUNDLE / f.relative_to(base)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
    inner = (dest / BUNDLE / Path(suite.path).resolve().relative_to(base))
    text = inner.read_text(encoding="utf-8")
    twin = unconfined(text)
    if twin is None and suite.grader.untrusted:
        raise AutograderError(f"{suite.path}: untrusted = true not found as a plain line of [grader]; "
                              "write it so (`untrusted = true`) for pyab autograder")
    if twin is not None:
        twin_path = inner.with_name(inner.stem + ".unconfined.toml")
        twin_path.write_text(twin, encoding="utf-8")
        other = load_suite(twin_path)  # the same suite but for the sandbox
        if other.grader.untrusted or [vars(g) for g in other.tests] != [vars(g) for g in load_suite(inner).tests]:
            raise AutograderError(f"{suite.path}: could not write it without untrusted = true")
    archive = Path(sdist) if sdist is not None else sdist_of_checkout(dest / "build")
    if not (archive.is_file() and archive.name.startswith("pyab-") and archive.name.endswith(".tar.gz")):
        raise AutograderError(f"--sdist {archive}: not pyab's source archive (pyab-VERSION.tar.gz)")
    shutil.copyfile(archive, dest / archive.name)
    return inner.relative_to(dest).as_posix(), archive.name, twin is not None


SETUP_SH = """\
#!/usr/bin/env bash
# Written by `pyab autograder`.  Gradescope runs it once, as root, when it
# builds the autograder's image (Ubuntu 22.04): SWI-Prolog 9 from the
# SWI-Prolog PPA (Ubuntu's own is 8.4), Python with a C compiler (pyab's
# compiled scanner and loader), bubblewrap (the sandbox of untrusted = true),
# then pyab from its sdist in a virtualenv, linked onto PATH.
# PYAB_SETUP_APT=0 skips the packages, PYAB_VENV and PYAB_BIN move the
# virtualenv and the link (to try it elsewhere).
set -euo pipefail
cd "$(dirname "$0")"
venv="${{PYAB_VENV:-/opt/pyab}}"
bin="${{PYAB_BIN:-/usr/local/bin}}"
if [ "${{PYAB_SETUP_APT:-1}}" != 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq software-properties-common python3 python3-venv python3-dev python3-greenlet gcc bubblewrap
  add-apt-repository -y ppa:swi-prolog/stable
  apt-get update -qq
  apt-get install -y -qq swi-prolog-nox
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q {sdist}
mkdir -p "$bin"
ln -sf "$venv/bin/pyab" "$bin/pyab"
"$bin/pyab" --version
swipl --version
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Written by `pyab autograder`.  Gradescope runs it for each submission:
# $ROOT/submission is graded into $ROOT/results/results.json ($ROOT is
# $PYAB_AUTOGRADER_ROOT, default /autograder; this zip is in $ROOT/source).
set -uo pipefail
root="${{PYAB_AUTOGRADER_ROOT:-/autograder}}"
export PYAB_AUTOGRADER_ROOT="$root"
suite="$root/source/{suite}"
if {untrusted}; then
  if sandbox=$(pyab autograder --sandbox); then
    echo "pyab: grading in pyab's sandbox ($sandbox)"
  else
    echo "pyab: this container gives no operating-system sandbox ($sandbox)"
    echo "pyab: grading without pyab's sandbox; the container is the boundary"
    suite="$root/source/{twin}"
  fi
fi
cd "$root"
pyab grade --gradescope "$suite"
"""


def _scripts(inner: str, sdist: str, twin: bool) -> dict[str, str]:
    twin_path = inner[:-len(".toml")] + ".unconfined.toml" if twin else inner
    return {"setup.sh": SETUP_SH.format(sdist=shlex.quote(sdist)),
            "run_autograder": RUN_AUTOGRADER.format(suite=inner, twin=twin_path,
                                                    untrusted="true" if twin else "false")}


def gradescope_zip(suite_path: str | Path, out: str | Path, sdist: str | Path | None = None) -> list[str]:
    """Write Gradescope's autograder zip for ``suite_path`` to ``out``; the
    names it holds.

    :raises SuiteError: a suite that cannot be used; :raises
        AutograderError: no sdist to ship."""
    with tempfile.TemporaryDirectory(prefix="pyab-autograder-") as tmp:
        stage = Path(tmp) / "zip"
        stage.mkdir()
        inner, archive, twin = _stage(suite_path, sdist, stage)
        for name, text in _scripts(inner, archive, twin).items():
            (stage / name).write_text(text, encoding="utf-8")
        names = ["setup.sh", "run_autograder", archive] + sorted(
            p.relative_to(stage).as_posix() for p in (stage / BUNDLE).rglob("*") if p.is_file())
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for name in names:
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if name in ("setup.sh", "run_autograder") else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, (stage / name).read_bytes())
    return names


WORKFLOW = """\
# Written by `pyab autograder --github`: GitHub Classroom grades each push
# with pyab and the suite in .autograder/ (the reporter step sends the
# points to Classroom).
name: Autograding Tests
"on":
  - push
  - workflow_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Python
        uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: SWI-Prolog, bubblewrap and pyab
        run: |
          sudo apt-get update -qq
          sudo apt-get install -y -qq swi-prolog-nox bubblewrap python3-greenlet
          pip install -q .autograder/{sdist}
      - name: pyab grade
        id: pyab
        run: |
          pyab grade .autograder/{suite} "$GITHUB_WORKSPACE" --out "$RUNNER_TEMP/grades"
          echo "result=$(pyab autograder --classroom-result "$RUNNER_TEMP/grades"/*/results.json)" >> "$GITHUB_OUTPUT"
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          PYAB_RESULTS: "${{{{ steps.pyab.outputs.result }}}}"
        with:
          runners: pyab
"""


def github_classroom(suite_path: str | Path, repo: str | Path, sdist: str | Path | None = None) -> list[Path]:
    """Write ``.github/workflows/classroom.yml`` and ``.autograder/`` (the
    suite, its files, pyab's sdist) into the repository folder ``repo``;
    the files written."""
    repo = Path(repo)
    bundle = repo / ".autograder"
    if bundle.exists():
        shutil.rmtree(bundle)
    bundle.mkdir(parents=True)
    inner, archive, _ = _stage(suite_path, sdist, bundle)
    shutil.rmtree(bundle / "build", ignore_errors=True)
    flow = repo / ".github" / "workflows" / "classroom.yml"
    flow.parent.mkdir(parents=True, exist_ok=True)
    flow.write_text(WORKFLOW.format(sdist=archive, suite=inner), encoding="utf-8")
    return [flow] + sorted(p for p in bundle.rglob("*") if p.is_file())


def classroom_result(results: dict[str, Any]) -> str:
    """A Gradescope results.json object as the payload GitHub Classroom's
    grading reporter reads (base64 of JSON: ``max_score`` and each test's
    ``score``)."""
    tests = [{"name": t["name"], "status": "pass" if t.get("status", "passed") == "passed" else "fail",
              "score": t["score"], "message": t.get("output", "")} for t in results["tests"]]
    payload = {"version": 1, "status": "pass" if all(t["status"] == "pass" for t in tests) else "fail",
               "max_score": sum(t["max_score"] for t in results["tests"]), "tests": tests}
    return base64.b64encode(json.dumps(payload).encode("utf-8")).decode("ascii")


def sandbox() -> str:
    """The sandbox pyab would use here ("bwrap" or "unshare").

    :raises SandboxUnavailable: when none works."""
    from ..referee.sandbox import backend
    return backend()

