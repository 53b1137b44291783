"""pyab as a user gets it from pip: the sdist and the wheel built from it,
installed in a fresh virtualenv far from this checkout, answer from their own
files (the Prolog programs and examples ship inside the package); and the
SWI-Prolog pack installs and loads the slides' program."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, swipl

pytestmark = pytest.mark.slow


def run(cmd: list[str], cwd: Path, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the venv's bin folder, an empty working folder), with pyab installed
    from a wheel that `python -m build` made from the sdist."""
    base = tmp_path_factory.mktemp("pip")
    dist = base / "dist"
    built = run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)], base)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheels = list(dist.glob("pyab-*.whl"))
    assert len(wheels) == 1 and list(dist.glob("pyab-*.tar.gz")), sorted(p.name for p in dist.iterdir())
    venv = base / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], base)
    assert made.returncode == 0, made.stderr
    pip = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheels[0])], base)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-2000:]
    work = base / "work"
    work.mkdir()
    return venv / "bin", work


def test_the_wheel_holds_the_programs_and_examples(installed):
    bin_, work = installed
    out = run([str(bin_ / "python"), "-c",
               "import pyab, pyab.resources as r; print(pyab.__file__); "
               "print(r.prolog_dir()); print(r.examples_dir())"], work)
    assert out.returncode == 0, out.stderr
    module, prolog, examples = out.stdout.split()
    venv = str(bin_.parent)
    for path in (module, prolog, examples):
        assert path.startswith(venv) and not path.startswith(str(ROOT)), path
    assert (Path(prolog) / "alphabeta.pl").read_text() == (ROOT / "prolog" / "alphabeta.pl").read_text()
    assert (Path(module).parent / "py.typed").is_file()


def test_the_wheel_carries_the_compiled_scanner(installed):
    """setup.py builds pyab/dsl/_cscan.c into the wheel (this machine has a
    compiler), and the installed pyab reads trees with it."""
    bin_, work = installed
    code = ("import pyab, pyab.dsl._cscan as c, pyab.dsl.reader as d\n"
            "print(c.__file__)\n"
            "print(d._cscan is c)\n"
            "t = pyab.parse(\"min a(b(e = 3, 'f g' = 12.5), c = 1 (h = 2))\")\n"
            "print(t.names[3], t.values[3], t.root_side)\n")
    out = run([str(bin_ / "python"), "-c", code], work)
    assert out.returncode == 0, out.stderr
    path, used, tree = out.stdout.splitlines()
    assert path.startswith(str(bin_.parent)) and path.endswith(".so"), path
    assert used == "True" and tree == "f g 12.5 min", out.stdout


def test_the_wheel_carries_the_compiled_loader(installed):
    """setup.py builds pyab/prolog/_cload.c into the wheel too, and the installed
    pyab loads trees into SWI-Prolog with it (load_packed/3's packer never
    runs)."""
    bin_, work = installed
    code = ("import pyab, pyab.prolog._cload as c, pyab.prolog.bridge as p\n"
            "print(c.__file__)\n"
            "print(p._cload is c)\n"
            "p._packed = None\n"
            "r = pyab.solve(pyab.parse(\"a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), 'é'(k=14, l=5, m=2))\"))\n"
            "print(r.best, r.value, ' '.join(r.pruned))\n")
    out = run([str(bin_ / "python"), "-c", code], work)
    assert out.returncode == 0, out.stderr
    path, used, answer = out.stdout.splitlines()
    assert path.startswith(str(bin_.parent)) and path.endswith(".so"), path
    assert used == "True" and answer == "b 3 i j", out.stdout


def test_solve_check_facts_repl_from_the_wheel(installed):
    bin_, work = installed
    pyab = str(bin_ / "pyab")
    copied = run([pyab, "examples", "--copy", "ex"], work)
    assert copied.returncode == 0 and (work / "ex" / "slides.tree").is_file(), copied.stderr
    solved = run([pyab, "solve", "ex/slides.tree", "--json"], work)
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert (answer["best"], answer["value"], answer["pruned"], answer["engine"]) == ("b", 3, ["i", "j"], "prolog")
    checked = run([pyab, "check", "--random", "100", "--seed", "1"], work)
    assert checked.returncode == 0, checked.stdout[-1000:] + checked.stderr[-1000:]
    facts = run([pyab, "facts", "ex/slides.tree"], work)
    assert facts.returncode == 0 and "staticval(e, 3)." in facts.stdout, facts.stdout
    repl = run([pyab, "repl", "ex/slides.tree"], work, stdin="alphabeta(a, -inf, inf, G, V).\n", timeout=60)
    assert "G = b" in repl.stdout and "V = 3" in repl.stdout, repl.stdout + repl.stderr


def test_api_and_rule_trees_from_the_wheel(installed):
    bin_, work = installed
    code = ("import pyab\n"
            "t = pyab.parse('a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))')\n"
            "r = pyab.solve(t)\n"
            "print(r.best, r.value, ' '.join(r.pruned))\n")
    out = run([str(bin_ / "python"), "-c", code], work)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["b", "3", "i", "j"]
    km = run([str(bin_ / "pyab"), "experiment", "knuth-moore", "--branching", "3", "--depth", "0-3",
              "--json"], work)  # trees given as rules: prolog/trees/uniform.pl from the wheel
    assert km.returncode == 0, km.stderr
    rows = json.loads(km.stdout)["rows"]
    assert [row["best"] for row in rows] == [1, 3, 5, 11]  # b^ceil(d/2) + b^floor(d/2) - 1


def test_one_version_string(installed):
    bin_, work = installed
    import pyab
    meta = run([str(bin_ / "python"), "-c", "import importlib.metadata as m; print(m.version('pyab'))"], work)
    assert meta.stdout.strip() == pyab.__version__
    pack = re.search(r"^version\('([^']+)'\)\.", (ROOT / "pack.pl").read_text(), re.M)
    assert pack and pack.group(1) == pyab.__version__


def test_the_swi_prolog_pack_installs_and_answers(tmp_path):
    make = shutil.which("make")
    assert make
    built = run([make, "-s", "pack", f"PACK_DIR={tmp_path / 'src' / 'pyab'}"], ROOT)
    assert built.returncode == 0, built.stderr
    packs = tmp_path / "packs"
    packs.mkdir()
    url = (tmp_path / "src" / "pyab").as_uri()
    goal = (f"pack_install('{url}', [package_directory('{packs}'), interactive(false), "
            "inquiry(false)]), halt")
    installed = swipl("-q", "-g", goal)
    assert installed.returncode == 0, installed.stderr
    assert (packs / "pyab" / "prolog" / "pyab" / "alphabeta.pl").is_file()
    query = (f"attach_packs('{packs}'), [library(pyab/alphabeta)], "
             f"['{packs}/pyab/examples/slides.pl'], alphabeta(a, -inf, inf, G, V), "
             "format('~w ~w~n', [G, V]), halt")
    answer = swipl("-q", "-g", query)
    assert answer.stdout.split() == ["b", "3"], answer.stdout + answer.stderr
