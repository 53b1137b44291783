"""docs/algorithms.md is generated: regenerate it and compare."""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT
from pyab.tree import from_nested

sys.path.insert(0, str(ROOT))  # tools/ is the checkout's, not the package's
from tools import algorithms_doc as differences  # noqa: E402

DOC = ROOT / "docs" / "algorithms.md"


@pytest.fixture(scope="module")
def found():
    return differences.find()


@pytest.mark.slow
def test_doc_is_up_to_date(found):
    fresh = differences.render(*found)
    assert DOC.read_text(encoding="utf-8") == fresh, (
        "docs/algorithms.md is stale: run "
        "`python -m tools.algorithms_doc > docs/algorithms.md`")


@pytest.mark.slow
def test_the_known_differences_are_found(found):
    examples, count = found
    assert count > 10000

    def ex(a, b, aspect):
        e = examples[(a, b, aspect)]
        return differences.list_text(e.nested), e.window

    inf = float("inf")
    # tie-breaking: the slides keep the later child, AIMA the first
    assert ex("bratko", "aima", "best") == ("[1, 1]", (-inf, inf))
    # strict vs non-strict cut tests, under the full window
    assert ex("bratko", "aima", "leaves, full window") == ("[1, [1, 1]]", (-inf, inf))
    # fail-hard vs fail-soft returned values need a window
    assert ex("aima", "cpw-minmax", "value")[1] != (-inf, inf)
    # module22 starts from the tree's extremes: it stops at the largest value
    assert ex("aima", "module22", "leaves, full window") == ("[2, 1]", (-inf, inf))
    # one-sided bounds: Hsu's F2 misses the deep cut-off worked out by hand
    if "hsu-f2" in differences.ALGORITHMS:
        assert ex("hsu-f1", "hsu-f2", "leaves, full window") == ("[3, [[[2, 4]]], 1]", (-inf, inf))
    # the same search in two forms never differs
    for a, b in (("cpw-minmax", "cpw-negamax"), ("aima", "cpw-failsoft")):
        assert not any((a, b, aspect) in examples for aspect in differences.ASPECTS)


def test_tree_of_names_like_the_list_form():
    import pyab
    nested = [[3, 12, 8], [2, [4, 6]], 5]
    a = from_nested(nested)
    b = pyab.parse(differences.list_text(nested))
    assert (a.names, a.kids, a.values) == (b.names, b.kids, b.values)


def test_every_small_shape_once():
    # Catalan numbers: ordered trees with n nodes
    assert [len(differences._shapes(n)) for n in range(1, 8)] == [1, 1, 2, 5, 14, 42, 132]
    assert len(set(differences._shapes(6))) == 42
