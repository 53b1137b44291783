"""The golden vectors of tests/vectors/hsu.json, in both engines and in
both of Hsu's forms (prolog/tests/hsu.plt reads the same table)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hsu_common import FORMS, both

import pyab

TABLE = json.loads((Path(__file__).parents[1] / "vectors" / "hsu.json").read_text(encoding="utf-8"))


def _bound(x):
    return {"inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x


@pytest.mark.parametrize("v", TABLE["vectors"], ids=lambda v: v["name"])
def test_vector(v):
    tree = pyab.parse(f"{v['side']} {v['tree']}")
    for name in (v["algorithm"], FORMS[v["algorithm"]]):
        for r in both(tree, name, _bound(v["alpha"]), _bound(v["beta"]), v.get("depth")):
            assert (r.best, r.value, list(r.leaves)) == (v["best"], v["value"], v["leaves"]), name
