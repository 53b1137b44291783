"""The verdict compares two searches' records of node ids and names
nothing when they agree (``record_ids``); a difference is still said by
name, and a `>` turned into `>=` still disagrees.  A Result's copy
(``_replace``) keeps its lists unnamed; the loop skips the window checks
only for the windows they take without a look (``plain_search``)."""

from __future__ import annotations

import math
import random

import pytest

from pyab.engines import plain_search
from pyab.referee import FunctionRoute, open_route
from pyab.referee.checking import CheckOptions, random_cases, run
from pyab.referee.protocol import MOVES_SIDES, Observer
from pyab.referee.verdict import References, Settings, judge, sharing
from pyab.result import Result
from pyab.search import solve_python
from pyab.search.common import record_ids
from pyab.trees.randomtrees import Shape, random_tree
from tests.conftest import EXAMPLES, PROLOG


def _trees(n: int, seed: int = 1) -> list:
    rng = random.Random(seed)
    return [random_tree(rng, Shape(depth=(2, 4), branching=(2, 3))) for _ in range(n)]


def test_record_ids_are_the_named_lists_ids_until_they_are_named():
    for tree in _trees(20):
        r = solve_python(tree, "bratko", -math.inf, math.inf)
        visited, leaves = record_ids(r)
        assert [tree.names[i] for i in visited] == list(r.visited)
        assert [tree.names[i] for i in leaves] == list(r.leaves)
        assert record_ids(r) is None  # named now: a caller compares the names
    named = Result("a", 1, (), ("r",), (), "python", "bratko")
    assert record_ids(named) is None


def test_a_copy_keeps_the_lists_unnamed_and_equal():
    tree = _trees(1)[0]
    r = solve_python(tree, "bratko", -math.inf, math.inf)
    c = r._replace(engine="elsewhere", window=(1, 2))
    assert "_pending" in c.__dict__ and c.engine == "elsewhere" and c.window == (1, 2)
    assert c.leaves == r.leaves and c.visited == r.visited and c.pruned == r.pruned
    assert record_ids(r) is None and c == r._replace(engine="elsewhere")
    with pytest.raises(TypeError):
        solve_python(tree, "bratko")._replace(nonsense=1)


def _slides(flip: bool):
    """The slides' search (examples/referee/slides_alphabeta.py); ``flip``:
    its cut test ``>`` turned into ``>=`` (the mutant every route catches)."""
    text = (EXAMPLES / "referee" / "slides_alphabeta.py").read_text()
    assert "val > beta)" in text
    space: dict = {}
    exec(compile(text.replace("val > beta)", "val >= beta)") if flip else text, "slides", "exec"),
         space)
    return space["alphabeta"]


def test_an_agreement_names_nothing_and_the_mutant_still_disagrees_by_name():
    settings = Settings()
    good, bad = FunctionRoute(_slides(False)), FunctionRoute(_slides(True))
    cases = list(random_cases(CheckOptions(random=300, seed=0, save_dir=None)))
    for case in cases:
        v = judge(good, case.tree, case.alpha, case.beta, settings)
        assert v.status == "agree", v.lines
        assert "_pending" in v.yours.__dict__  # its lists were compared as ids
    found = [judge(bad, c.tree, c.alpha, c.beta, settings) for c in cases]
    differ = [v for v in found if v.status == "disagree"]
    assert differ, "the >= mutant agrees on every tree"
    assert all(v.kind == "differs" and v.lines and v.keys for v in differ)
    assert any("leaves:" in line or "visited:" in line for v in differ for line in v.lines)


def test_moves_sides_are_booleans_of_each_childs_side():
    tree = _trees(1, seed=3)[0]
    o = Observer(tree, "yours")
    names, sides = o.ask(MOVES_SIDES, tree.names[0])
    assert names == [tree.names[k] for k in tree.kids[0]]
    assert sides == [tree.is_max(k) for k in tree.kids[0]]
    assert all(s is True or s is False for s in sides)


def test_plain_search_is_what_the_checks_take_without_a_look():
    tree = _trees(1)[0]
    assert plain_search(tree, "bratko", -math.inf, math.inf)
    assert plain_search(tree, "bratko", 3, 7)
    assert not plain_search(tree, "bratko", 7, 3)        # inverted: check_search says why
    assert not plain_search(tree, "bratko", 0.5, 7.0)    # a decimal bound: check_window looks
    assert not plain_search(tree, "bratko", 3, 2 ** 60)  # beyond a double's integers
    assert not plain_search(tree, "no-such", 3, 7)       # check_search names the algorithm


def test_the_program_route_agrees_against_a_reference_named_already():
    """A class's shared reference may be named already (another
    submission's disagreement read it): compared by name, the same verdict."""
    cases = list(random_cases(CheckOptions(random=40, seed=2, save_dir=None)))
    refs = References([c.tree for c in cases])
    with sharing(refs):
        for c in cases:
            judge(FunctionRoute(_slides(False)), c.tree, c.alpha, c.beta, Settings())
        for c in cases:  # every shared reference named now
            for r in refs.of(c.tree).values():
                r.leaves, r.visited
        good = open_route(program=str(PROLOG / "alphabeta.pl"))
        try:
            verdicts = [judge(good, c.tree, c.alpha, c.beta, Settings()) for c in cases]
        finally:
            good.close()
    assert [v.status for v in verdicts] == ["agree"] * len(cases)


def test_the_program_route_still_catches_its_mutant(tmp_path):
    text = (PROLOG / "alphabeta.pl").read_text()
    assert "Val > Beta, !" in text
    mutant = tmp_path / "mutant.pl"
    mutant.write_text(text.replace("Val > Beta, !", "Val >= Beta, !", 1))
    report = run(open_route(program=str(mutant)), CheckOptions(random=200, seed=0, save_dir=None,
                                                                 shrink="none"))
    assert report.exit == 1 and report.first is not None and report.first.lines
