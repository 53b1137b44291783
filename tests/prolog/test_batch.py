"""Many random trees in one call into SWI-Prolog (Engine.solve_batch) and
both engines compared on the records (engines.both_many), as `pyab check
--random` does: the same observations as one search at a time, and every
field still compared."""

from __future__ import annotations

import math
import random

import pytest

from pyab import engines
from pyab.cli import main
from pyab.prolog import engine
from pyab.result import Result
from pyab.trees.randomtrees import Shape, random_tree, random_window


def _cases(n: int, seed: int = 3, **shape) -> list:
    rng, out = random.Random(seed), []
    for _ in range(n):
        tree = random_tree(rng, Shape(**shape))
        out.append((tree, *random_window(rng, tree, "random")))
    return out


def test_a_batch_observes_what_one_search_at_a_time_observes():
    cases = _cases(150) + _cases(20, values=(0, 2), decimals=True, agents=3)
    cases = [c for c in cases if c[0].alternating]
    records = engine().solve_batch(cases)
    assert len(records) == len(cases)
    for (tree, a, b), rec in zip(cases, records):
        one = engine().solve(tree, "bratko", a, b, eager=True, once=True)
        assert rec == (one.best, one.value, one.leaves, one.visited, one.pruned)
        assert type(rec[1]) is type(one.value)


def test_names_that_need_quoting_travel_intact():
    from pyab.tree import build
    tree = build([("it's", (0, 0), [("a b", (0, 0)), ("\u00e9\n", (0, 0))])],
                 [("a b", 1, (0, 0)), ("\u00e9\n", 2, (0, 0))], "max")
    (rec,) = engine().solve_batch([(tree, -math.inf, math.inf)])
    assert rec[0] == "\u00e9\n" and rec[3] == ("it's", "a b", "\u00e9\n")


@pytest.mark.parametrize("field", ["best", "value", "leaves", "visited", "pruned"])
def test_a_mirror_that_differs_in_any_field_is_caught(monkeypatch, field):
    """The comparison on records misses nothing both() compares: a mirror
    wrong in one field of one tree makes exactly that tree disagree."""
    import pyab.search as search
    real = search.solve_python
    cases = [c for c in _cases(200) if c[0].alternating and len(c[0].names) > 3]
    target = cases[77][0]

    def wrong(tree, *a, **k) -> Result:
        r = real(tree, *a, **k)
        if tree is not target:
            return r
        changed = {"best": "nowhere", "value": float(r.value) if isinstance(r.value, int) else 0,
                   "leaves": r.leaves[:-1], "visited": r.visited + ("x",),
                   "pruned": r.pruned + ("x",)}[field]
        return r._replace(**{field: changed})
    monkeypatch.setattr(search, "solve_python", wrong)
    found = [item[0] for item, diff in engines.both_many(cases) if diff]
    assert found == [target]


def test_check_random_still_reports_a_disagreement(monkeypatch, capsys, tmp_path):
    """The command's loop over batches stops at the first disagreeing tree
    and reports it as before (exit 1, the tree's number)."""
    import pyab.search as search
    real = search.solve_python
    seen = {"n": 0}

    def wrong(tree, *a, **k) -> Result:
        seen["n"] += 1
        r = real(tree, *a, **k)
        return r._replace(leaves=r.leaves + r.leaves[:1]) if seen["n"] == 100 else r
    monkeypatch.setattr(search, "solve_python", wrong)
    code = main(["check", "--random", "300", "--seed", "0", "--save-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and "DISAGREE on random tree 100 " in out and "leaves:" in out


def test_closing_the_engine_drops_the_batch_module():
    from pyab.prolog import Engine, live_modules
    before = live_modules()
    with Engine() as eng:
        eng.solve_batch(_cases(5))
        eng.solve_batch(_cases(5, seed=4))  # the same module again
        assert live_modules() == before + 2  # the rules module and its program
    assert live_modules() == before


@pytest.mark.parametrize("algorithm", ["module22", "hsu-f1", "aima", "strict-cut"])
def test_every_algorithm_agrees_on_a_batch(algorithm):
    """The algorithms that read the stored values' range (module22, hsu)
    are judged one tree at a time, the others in batches: all agree."""
    from pyab.search import ALGORITHMS
    if algorithm not in ALGORITHMS:
        pytest.skip(f"no {algorithm} in the registry")
    cases = [c for c in _cases(80, seed=1) if c[0].alternating]
    assert [d for _, d in engines.both_many(cases, algorithm) if d] == []


def test_the_quick_window_check_passes_only_what_the_full_one_passes():
    """both_many skips _check for the plain windows of random trees: every
    window it skips, _check takes too (bounds of every kind, trees whose
    sides alternate or not, with whole or decimal values)."""
    import itertools
    import math

    from pyab import parse
    from pyab.engines import _check, _plain
    from pyab.trees.randomtrees import with_agents
    trees = [parse("a(b=1, c(d=2, e=3))"), parse("a(b=1.5, c=2)"),
             with_agents(parse("a(b(d=1), c=2)"), 3), parse(f"a(b={2 ** 60}, c=2)")]
    bounds = [-math.inf, math.inf, 0, 3, -2, 0.5, 2.0, 2 ** 53, -(2 ** 53), 2 ** 60, True,
              math.nan, "1"]
    skipped = 0
    for tree, alpha, beta, alg in itertools.product(trees, bounds, bounds, ("bratko", "strict-cut")):
        from pyab.search import algorithm
        if _plain(tree, alpha, beta, algorithm(alg).any_sides):
            skipped += 1
            _check(tree, alg, alpha, beta, None, None)  # raises if the skip were wrong
    assert skipped > 20
