"""The golden vectors of tests/vectors/, in both engines (plunit reads them too:
prolog/tests/vectors.plt)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import pyab

TABLE = json.loads((Path(__file__).parent / "vectors" / "bratko.json").read_text(encoding="utf-8"))


def bound(x):
    return {"inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x


@pytest.mark.parametrize("engine", ["prolog", "python"])
@pytest.mark.parametrize("v", TABLE["vectors"], ids=lambda v: v["name"])
def test_vector(v, engine):
    tree = pyab.parse(("min " if v["side"] == "min" else "") + v["tree"])
    r = pyab.solve(tree, engine, alpha=bound(v["alpha"]), beta=bound(v["beta"]))
    assert (r.best, r.value, list(r.leaves)) == (v["best"], v["value"], v["leaves"])
    assert type(r.value) is type(v["value"])


def test_the_table_holds_the_literature_cases():
    names = {v["name"] for v in TABLE["vectors"]}
    assert {"slides", "aima-fig-5.2", "aima-fig-5.2-tie"} <= names
