"""docs/adding-an-algorithm.md, followed to the letter on a copy of pyab:
one Prolog file, one Python file, one registry row, one vector row, and
docs/algorithms.md regenerated with the command the page gives.  The new
algorithm then runs in both engines, SWI-Prolog lists it, both the pytest
and the plunit vector runners check it, its registry row alone says how
far its value can be trusted, and exactly the files of the page's table
changed, as many as the page says.  The files added are in tests/recipe/."""

from __future__ import annotations

import filecmp
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, swipl

RECIPE = Path(__file__).resolve().parent / "recipe"
PAGE = ROOT / "docs" / "adding-an-algorithm.md"
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def changed_files(old: Path, new: Path) -> list[str]:
    """Files added or changed under new (compared with old)."""
    out = []
    for p in sorted(new.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            rel = p.relative_to(new)
            if not (old / rel).is_file() or not filecmp.cmp(old / rel, p, shallow=False):
                out.append(str(rel))
    return out


def page_says() -> tuple[int, list[str], list[str]]:
    """The page's count of files (the number in words), the files of its
    table (NAME as the example's name), and the command that regenerates
    docs/algorithms.md (from its code block)."""
    text = PAGE.read_text(encoding="utf-8")
    count = re.search(r"touches \*\*(\w+) files\*\*", text)
    assert count, "the page no longer says how many files an algorithm touches"
    files = re.findall(r"^\| \d+ \| `([^`]+)`", text, re.M)
    regen = re.search(r"^(python -m \S+.*?) > docs/algorithms\.md$", text, re.M)
    assert regen, "the page no longer gives the command that regenerates docs/algorithms.md"
    files = [f.replace("NAME", "lastmax") for f in files]
    return NUMBERS[count.group(1)], files, shlex.split(regen.group(1))


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """pyab with the recipe followed, beside an untouched copy."""
    tmp = tmp_path_factory.mktemp("recipe")
    copy = tmp / "copy"
    for part in ("pyab", "prolog", "tests/vectors", "docs", "tools"):
        if (ROOT / part).is_dir():
            shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    before = tmp / "before"
    shutil.copytree(copy, before)

    # 1. the Prolog program, 2. its Python mirror
    shutil.copy(RECIPE / "lastmax.pl", copy / "prolog" / "lastmax.pl")
    shutil.copy(RECIPE / "lastmax.py", copy / "pyab" / "search" / "lastmax.py")
    # 3. one registry row
    registry = copy / "prolog" / "algorithms.json"
    table = json.loads(registry.read_text(encoding="utf-8"))
    table["algorithms"].append(json.loads((RECIPE / "row.json").read_text(encoding="utf-8")))
    registry.write_text(json.dumps(table, indent=2, ensure_ascii=False), encoding="utf-8")
    # 4. vectors
    vectors = copy / "tests" / "vectors" / "algorithms.json"
    table = json.loads(vectors.read_text(encoding="utf-8"))
    table["vectors"].append(json.loads((RECIPE / "vector.json").read_text(encoding="utf-8")))
    vectors.write_text(json.dumps(table, indent=2, ensure_ascii=False), encoding="utf-8")
    # 5. docs/algorithms.md, with the page's own command
    _, _, command = page_says()
    assert command[:2] == ["python", "-m"], command
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, *command[1:]], capture_output=True, text=True,
                          cwd=copy, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    (copy / "docs" / "algorithms.md").write_text(done.stdout, encoding="utf-8")
    return before, copy, env


def run_in(copy: Path, env: dict, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=copy, env=env, timeout=120)


def test_the_page_counts_the_files_the_recipe_changes(copy):
    before, after, _ = copy
    count, files, _ = page_says()
    changed = changed_files(before, after)
    assert count == len(files), f"the page says {count} files and its table lists {len(files)}"
    assert sorted(files) == changed, f"the page lists {sorted(files)}; the recipe changed {changed}"


def test_docs_algorithms_md_had_to_be_regenerated(copy):
    """Step 5 is needed: the page the copy had no longer matches."""
    before, after, _ = copy
    old = (before / "docs" / "algorithms.md").read_text(encoding="utf-8")
    new = (after / "docs" / "algorithms.md").read_text(encoding="utf-8")
    assert old != new and "`lastmax`" in new and "`lastmax`" not in old


def test_the_new_algorithm_runs_in_both_engines(copy):
    _, after, env = copy
    check = r"""
import json, pyab
from pyab.prolog import bridge as prolog
from pyab.search import ALGORITHMS
assert pyab.__file__.startswith(%r), pyab.__file__
assert "lastmax" in ALGORITHMS and prolog.engine().algorithms() == list(ALGORITHMS)
tree = pyab.parse("[[3, 12, 8], [3, 4, 6], [14, 5, 2]]")
pair = pyab.check(tree, "lastmax")        # both engines, compared
print(json.dumps([pair.best, pair.value, len(pair.leaves)]))
""" % str(after)
    done = run_in(after, env, check)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == ["r_2", 3, 9]

    # The plunit runner picks the new row up, through the registry.
    plunit = swipl("-g", "run_tests", "-t", "halt", str(after / "prolog" / "tests" / "vectors.plt"))
    assert plunit.returncode == 0, plunit.stdout + plunit.stderr
    assert "lastmax" not in plunit.stdout + plunit.stderr  # no failure names it
    runs = swipl("-g", "use_module(library(http/json))", "-g",
                 f"use_module('{after / 'prolog' / 'pyab_bridge.pl'}')", "-g",
                 "(pyab_bridge:algorithm(lastmax, F, E), writeq(F-E), nl)", "-t", "halt")
    assert runs.stdout.strip() == "'lastmax.pl'-\"lastmax(Root, Best, Val)\""


def test_the_registry_row_says_how_far_the_value_is_trusted(copy):
    """lastmax's row says "exact" (no pruning): a value outside the window
    is still exact, with no Python edit.  An "open" algorithm would call
    the same value an upper bound."""
    _, after, env = copy
    code = r"""
import json, pyab
tree = pyab.parse("[[3, 12, 8], [3, 4, 6], [14, 5, 2]]")
print(json.dumps([pyab.solve(tree, engine=e, algorithm=a, alpha=5, beta=10).bound
                  for a in ("lastmax", "aima") for e in ("prolog", "python")]))
"""
    done = run_in(after, env, code)
    assert done.returncode == 0, done.stdout + done.stderr
    bounds = json.loads(done.stdout)
    assert bounds[2:] == ["upper", "upper"]          # aima, open: 3 <= alpha
    assert bounds[:2] == ["exact", "exact"]          # lastmax, its row's "bound": exact
