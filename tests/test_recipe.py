"""docs/adding-an-algorithm.md, followed to the letter on a copy of pyab:
one Prolog file, one Python file, one registry row, one vector row.  The
new algorithm then runs in both engines, SWI-Prolog lists it, and both the
pytest and the plunit vector runners check it, with nothing else touched.
The files added are in tests/recipe/."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, swipl

RECIPE = Path(__file__).resolve().parent / "recipe"


def changed_files(old: Path, new: Path) -> list[str]:
    """Files added or changed under new (compared with old)."""
    out = []
    for p in sorted(new.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            rel = p.relative_to(new)
            if not (old / rel).is_file() or not filecmp.cmp(old / rel, p, shallow=False):
                out.append(str(rel))
    return out


def test_adding_an_algorithm_touches_four_files(tmp_path):
    copy = tmp_path / "copy"
    for part in ("pyab", "prolog", "tests/vectors"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    before = tmp_path / "before"
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

    assert changed_files(before, copy) == [
        "prolog/algorithms.json", "prolog/lastmax.pl", "pyab/search/lastmax.py",
        "tests/vectors/algorithms.json"]

    check = r"""
import json, pyab
from pyab.prolog import bridge as prolog
from pyab.search import ALGORITHMS
assert pyab.__file__.startswith(%r), pyab.__file__
assert "lastmax" in ALGORITHMS and prolog.engine().algorithms() == list(ALGORITHMS)
tree = pyab.parse("[[3, 12, 8], [3, 4, 6], [14, 5, 2]]")
pair = pyab.check(tree, "lastmax")        # both engines, compared
print(json.dumps([pair.best, pair.value, len(pair.leaves)]))
""" % str(copy)
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          cwd=copy, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == ["r_2", 3, 9]

    # The plunit runner picks the new row up, through the registry.
    plunit = swipl("-g", "run_tests", "-t", "halt", str(copy / "prolog" / "tests" / "vectors.plt"))
    assert plunit.returncode == 0, plunit.stdout + plunit.stderr
    assert "lastmax" not in plunit.stdout + plunit.stderr  # no failure names it
    runs = swipl("-g", "use_module(library(http/json))", "-g",
                 f"use_module('{copy / 'prolog' / 'pyab_bridge.pl'}')", "-g",
                 "(pyab_bridge:algorithm(lastmax, F, E), writeq(F-E), nl)", "-t", "halt")
    assert runs.stdout.strip() == "'lastmax.pl'-\"lastmax(Root, Best, Val)\""
