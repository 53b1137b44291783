"""The golden vectors of tests/vectors/, in both engines (plunit reads the
same files: prolog/tests/vectors.plt).  hsu.json has its own runner
(test_hsu_vectors.py: both of Hsu's forms); this one runs bratko.json and
algorithms.json, and checks that every registered algorithm has vectors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import pyab
from pyab.search import ALGORITHMS

VECTORS = Path(__file__).parents[1] / "vectors"
TABLES = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(VECTORS.glob("*.json"))}
ROWS = [v for name in ("bratko", "algorithms") for v in TABLES[name]["vectors"]]


def bound(x):
    return {"inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x


@pytest.mark.parametrize("engine", ["prolog", "python"])
@pytest.mark.parametrize("v", ROWS, ids=lambda v: v["name"])
def test_vector(v, engine):
    tree = pyab.parse(("min " if v["side"] == "min" else "") + v["tree"])
    r = pyab.solve(tree, engine, v.get("algorithm", "bratko"), bound(v["alpha"]), bound(v["beta"]),
                   depth=v.get("depth"))
    assert (r.best, r.value, list(r.leaves)) == (v["best"], v["value"], v["leaves"])
    assert type(r.value) is type(v["value"])


def test_the_table_holds_the_literature_cases():
    names = {v["name"] for v in TABLES["bratko"]["vectors"]}
    assert {"slides", "aima-fig-5.2", "aima-fig-5.2-tie"} <= names


def test_every_algorithm_has_vectors():
    covered = {v.get("algorithm", "bratko") for t in TABLES.values() for v in t["vectors"]}
    assert set(ALGORITHMS) <= covered, set(ALGORITHMS) - covered


def test_every_row_says_where_it_comes_from():
    for t in TABLES.values():
        for v in t["vectors"]:
            assert v.get("source"), v["name"]
