"""pyab as a user gets it from pip: the sdist and the wheel built from it
(with no warning from the build), installed in a fresh virtualenv far from
this checkout, answer from their own files (the Prolog programs, examples,
plunit tests and docs ship inside the package); and the SWI-Prolog pack
installs in a throwaway pack folder, lists itself, reads .tree files and
passes its own tests."""

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


# A user's shell: PYTHONDONTWRITEBYTECODE (set where these tests run) makes
# setuptools print "byte-compiling is disabled" warnings of its own.
UNSET = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")
# What setuptools prints when the packaging is going wrong: "Package would be
# ignored" blocks, deprecations, "WARNING ..." lines.
WARNING = re.compile(r"warning|deprecat|would be ignored", re.I)
# The plunit files the wheel carries (setup.py); the pack carries the same
# .plt files (the Makefile's PACK_TESTS).
INSTALLED_TESTS = sorted(json.loads(re.search(r"^INSTALLED_TESTS = (\[.*?\])", (ROOT / "setup.py").read_text(),
                                              re.M).group(1)))


def run(cmd: list[str], cwd: Path, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
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
    warned = [line for line in (built.stdout + built.stderr).splitlines() if WARNING.search(line)]
    assert warned == [], "\n".join(warned[:20])
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


def test_an_isolated_build_warns_of_nothing(tmp_path):
    """What a user's `python -m build` does: a fresh build environment with
    the newest setuptools [build-system] allows (the shared test venv's may
    be older; newer ones warn "Package would be ignored" of every data folder
    not listed as a package)."""
    built = run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"),
                 str(ROOT)], tmp_path, timeout=600)
    output = built.stdout + built.stderr
    if built.returncode != 0 and re.search(r"No matching distribution|Could not (find|fetch)|"
                                           r"Failed to establish", output):
        pytest.skip("no package index to fetch setuptools from")
    assert built.returncode == 0, output[-3000:]
    warned = [line for line in output.splitlines() if WARNING.search(line)]
    assert warned == [], "\n".join(warned[:20])


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


def test_the_wheel_carries_the_pages_scripts_and_styles(installed):
    """The HTML pages' CSS and JavaScript (pyab/render/assets/) ship as
    package data and are put inline, the same text as in the checkout."""
    bin_, work = installed
    code = ("import pyab.render.assets as a, pyab.render.practice as p\n"
            "print(a.__file__)\n"
            "page = p.page(seed=1)\n"
            "print(a.text('practice.js') in page and a.text('practice.css') in page)\n"
            "print(len(a.text('stepper.js')), len(a.text('stepper.css')))\n")
    out = run([str(bin_ / "python"), "-c", code], work)
    assert out.returncode == 0, out.stderr
    path, inline, sizes = out.stdout.splitlines()
    assert path.startswith(str(bin_.parent)), path
    assets = ROOT / "pyab" / "render" / "assets"
    assert inline == "True"
    assert sizes.split() == [str(len((assets / name).read_text(encoding="utf-8")))
                             for name in ("stepper.js", "stepper.css")]


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


def test_the_wheel_runs_its_plunit_tests(installed):
    """The wheel carries the plunit files that run outside a checkout, and
    all.pl runs them from where pip put them."""
    bin_, work = installed
    where = run([str(bin_ / "pyab"), "where", "--json"], work)
    assert where.returncode == 0, where.stderr
    found = json.loads(where.stdout)
    venv = str(bin_.parent)
    for key in ("prolog", "examples", "docs", "tests", "tree_dsl"):
        assert found[key].startswith(venv) and Path(found[key]).exists(), (key, found[key])
    shipped = sorted(p.name for p in Path(found["tests"]).parent.iterdir() if p.suffix in (".pl", ".plt"))
    assert shipped == INSTALLED_TESTS
    tests = swipl("-g", "run_tests", "-t", "halt", found["tests"], timeout=300)
    assert tests.returncode == 0, tests.stderr[-3000:]
    passed = re.search(r"All (\d+) tests passed", tests.stderr)
    assert passed and int(passed.group(1)) >= 50, tests.stderr[-3000:]
    for unit in ("alphabeta", "tree_dsl", "aima"):
        assert f"PL-Unit: {unit} " in tests.stderr, unit


def test_the_wheel_reads_facts_files_and_carries_the_docs(installed):
    bin_, work = installed
    pyab = str(bin_ / "pyab")
    assert run([pyab, "examples", "--copy", "ex"], work).returncode == 0
    solved = run([pyab, "solve", "ex/slides.pl", "--json"], work)
    assert solved.returncode == 0, solved.stderr
    assert (json.loads(solved.stdout)["best"], json.loads(solved.stdout)["value"]) == ("b", 3)
    page = run([pyab, "docs", "prolog"], work)
    assert page.returncode == 0 and page.stdout == (ROOT / "docs" / "prolog.md").read_text(encoding="utf-8")


def test_the_swi_prolog_pack_installs_and_answers(tmp_path):
    """The pack in a throwaway pack folder (attach_packs/2 with
    replace(true): the user's own packs are neither read nor touched)."""
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
    # pyab's own: the bridge, the referee's child, the table rules over the C extension
    for own in ("pyab_bridge.pl", "referee", "trees/table.pl", "bridge"):
        assert not (packs / "pyab" / "prolog" / "pyab" / own).exists(), own
    attach = f"attach_packs('{packs}', [replace(true)])"

    # SWI-Prolog's own listing reads every installed pack's metadata
    listed = swipl("-g", f"{attach}, pack_list_installed, pack_info(pyab), halt", timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert "pyab@0.2.0" in listed.stdout and "Author:" in listed.stdout, listed.stdout
    assert re.search(r"Author:\s+pyab developers <https://", listed.stdout), listed.stdout
    assert "Home page:" in listed.stdout and "Download URL:" in listed.stdout

    # the examples as a library, the slides' program
    query = (f"{attach}, [library(pyab/alphabeta)], [library(pyab/examples/slides)], "
             "alphabeta(a, -inf, inf, G, V), format('~w ~w~n', [G, V]), halt")
    answer = swipl("-q", "-g", query)
    assert answer.stdout.split() == ["b", "3"], answer.stdout + answer.stderr

    # a .tree file read in plain swipl, from the current folder, as the README says
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(ROOT / "examples" / "slides.tree", work / "slides.tree")
    query = (f"{attach}, use_module(library(pyab/tree_dsl)), load_tree('slides.tree'), "
             "[library(pyab/alphabeta)], alphabeta(a, -inf, inf, GoodPos, Val), "
             "format('~w ~w~n', [GoodPos, Val]), halt")
    read = subprocess.run(["swipl", "-q", "-g", query], cwd=work, capture_output=True, text=True,
                          timeout=60)
    assert read.stdout.split() == ["b", "3"], read.stdout + read.stderr

    # the pack's own tests: the same files as the wheel's
    shipped = sorted(p.name for p in (packs / "pyab" / "prolog" / "pyab" / "tests").iterdir())
    assert shipped == [name for name in INSTALLED_TESTS if name.endswith(".plt")]
    tests = swipl("-g", f"{attach}, use_module(library(pyab/pyab_test)), pyab_test, halt",
                  "-t", "halt(1)", timeout=300)
    assert tests.returncode == 0, tests.stderr[-3000:]
    passed = re.search(r"All (\d+) tests passed", tests.stderr)
    assert passed and int(passed.group(1)) >= 50, tests.stderr[-3000:]
