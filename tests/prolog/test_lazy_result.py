"""A mirror's Result names its nodes when they are first read
(``Result.deferred``): the same observation as names computed at once, for
every consumer (equality, repr, JSON, replace, copy, pickling for --jobs
and Dask, ``finish``), in any reading order; and the slides' mirror, folded
into a loop for speed, still catches a `>` turned into `>=` (the mutants
below, each a changed copy of ``pyab/search/bratko.py``, run against the
observed SWI-Prolog program)."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import random
from pathlib import Path

import pytest

import pyab
from pyab.engines import differences
from pyab.trees.randomtrees import Shape, random_tree, random_window
from pyab.engines import finish
from pyab.result import LAZY, Result
from pyab.search import ALGORITHMS, python_search
from pyab.trees import Uniform

FIELDS = ("best", "value", "leaves", "visited", "pruned", "horizon", "engine", "algorithm")
SHAPE = Shape(depth=(1, 4), branching=(1, 4), values=(0, 3))


def eager(result: Result) -> Result:
    """The same result with every field read (and so named) now."""
    return Result(**{f.name: getattr(result, f.name) for f in dataclasses.fields(Result)})


def by_hand(tree, result: Result) -> dict:
    """leaves / visited / pruned named here from the tree, independently of
    the record's namer: visited first-seen, pruned = unvisited children of
    visited nodes in depth-first order."""
    seen = set(result.visited)
    pruned, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        name = tree.name_of(node)
        if name in seen:
            stack.extend(reversed(tree.kids_of(node)))
        elif node != tree.root_node:
            pruned.append(name)
    return {"pruned": tuple(pruned), "visited": tuple(dict.fromkeys(result.visited))}


def trees():
    rng = random.Random(7)
    yield from (random_tree(rng, SHAPE) for _ in range(40))
    yield Uniform(3, 4, "random(5)")
    yield Uniform(4, 3, "perfect")


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_deferred_names_are_the_observation(algorithm):
    search = python_search(algorithm)
    for tree in trees():
        r = search(tree, -math.inf, math.inf)
        assert "_pending" in r.__dict__  # nothing named yet
        for order in (LAZY, LAZY[::-1]):  # any reading order gives the same names
            s = search(tree, -math.inf, math.inf)
            got = {f: getattr(s, f) for f in order}
            assert all(isinstance(v, tuple) for v in got.values())
            assert "_pending" not in s.__dict__  # all named, nothing left behind
            assert got == {f: getattr(r, f) for f in order}
        assert len(set(r.visited)) == len(r.visited)  # each node once (a search with once=True too)
        hand = by_hand(tree, r)
        assert r.visited == hand["visited"] and r.pruned == hand["pruned"]
        if isinstance(tree, pyab.Tree):
            assert set(r.leaves) <= set(r.visited) and all(tree.is_leaf(n) or tree.value(n) is not None
                                                           for n in r.leaves)


def test_every_consumer_sees_the_same_result():
    tree = pyab.load(Path(__file__).parents[2] / "examples" / "aima.tree")
    for make in (lambda: python_search("bratko")(tree), lambda: python_search("aima")(tree)):
        reference = eager(make())
        assert "_pending" not in reference.__dict__
        assert make() == reference and reference == make()
        assert repr(make()) == repr(reference)
        assert make().to_json() == reference.to_json()
        assert dataclasses.replace(make(), engine="prolog") == dataclasses.replace(reference, engine="prolog")
        assert copy.copy(make()) == reference and copy.deepcopy(make()) == reference
        assert make() != dataclasses.replace(reference, leaves=reference.leaves[:-1])
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            fresh = make()
            data = pickle.dumps(fresh, protocol)  # the closures stay behind: names travel
            back = pickle.loads(data)
            assert back == reference and "_pending" not in back.__dict__
            assert b"_pending" not in data


def test_finish_stays_deferred_and_splits_the_horizon_when_read():
    tree = pyab.load(Path(__file__).parents[2] / "examples" / "depth-limited.tree")
    search = python_search("aima")
    for depth in (None, 1, 2):
        lazy = finish(search(tree, depth=depth), tree, -5, 5)
        assert "_pending" in lazy.__dict__ and lazy.window == (-5, 5)
        now = finish(eager(search(tree, depth=depth)), tree, -5, 5)
        assert lazy.horizon == now.horizon and lazy.pruned == now.pruned
        assert lazy == now and lazy.to_json() == now.to_json()
        if depth == 1:
            assert now.horizon  # the case the split is for
    uniform = Uniform(3, 3, "random(2)")
    r = python_search("bratko")(uniform)
    assert finish(r, uniform, -math.inf, math.inf) == eager(r)


def test_deferred_refuses_an_incomplete_record():
    with pytest.raises(TypeError):
        Result.deferred("b", 1, "python", "bratko", {"leaves": lambda: ()})
    with pytest.raises(TypeError):
        Result.deferred("b", 1, "python", "bratko", {}, leaves=(), visited=(), pruned=(), best=2)
    r = Result.deferred("b", 1, "python", "bratko", {"leaves": lambda: ["x"]}, visited=("a",), pruned=())
    with pytest.raises(AttributeError):
        r.no_such_field  # noqa: B018


# -- the folded mirror of the slides' program still bites ------------------------

BRATKO = Path(pyab.search.__file__).with_name("bratko.py")
# Each mutant: the edits made to the file (each text must occur once).  betterof/6
# is written twice: folded forward (siblings alike) and from the back (any sides).
MUTANTS = {
    "beta cut >=": [("if (val > beta) if min_pos else (val < alpha):",
                     "if (val >= beta) if min_pos else (val < alpha):")],
    "alpha cut <=": [("if (val > beta) if min_pos else (val < alpha):",
                      "if (val > beta) if min_pos else (val <= alpha):")],
    "betterof earlier on tie": [
        ("if (val > good_val) if min_pos else (val < good_val):",
         "if (val >= good_val) if min_pos else (val <= good_val):"),
        ("if not ((good_val > val) if min_pos else (good_val < val)):",
         "if not ((good_val >= val) if min_pos else (good_val <= val)):")],
    "newbounds keeps the window": [("new_alpha, new_beta = val, beta", "new_alpha, new_beta = alpha, beta")],
}


def mutant_search(edits):
    source = BRATKO.read_text(encoding="utf-8")
    for old, new in edits:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    namespace = {"__name__": "pyab.search.bratko_mutant", "__package__": "pyab.search"}
    exec(compile(source, str(BRATKO), "exec"), namespace)
    return namespace["search"]


def first_disagreement(search, trees: int = 300):
    rng = random.Random(1)
    for i in range(1, trees + 1):
        tree = random_tree(rng, SHAPE)
        alpha, beta = random_window(rng, tree, "random")
        prolog = pyab.solve(tree, "prolog", alpha=alpha, beta=beta)
        mirror = finish(search(tree, alpha, beta), tree, alpha, beta)
        if differences(prolog, mirror):
            return i
    return None


@pytest.mark.parametrize("name", MUTANTS)
def test_a_mutated_mirror_is_caught_by_the_prolog_run(name):
    assert first_disagreement(mutant_search(MUTANTS[name])) is not None, name


def test_the_real_mirror_agrees_on_the_same_trees():
    assert first_disagreement(python_search("bratko")) is None


class Opaque:
    """An explicit tree behind the bare node protocol, as an implicit tree
    (a game) offers it: the mirror cannot take it that siblings share a
    side (``siblings_alike``), so its betterof/6 runs from the back, as
    Prolog calls it."""

    def __init__(self, tree):
        self.root_node, self.root, self.root_side = tree.root_node, tree.root, tree.root_side
        self.kids_of, self.value_of, self.is_max = tree.kids_of, tree.value_of, tree.is_max
        self.name_of, self.depth_of = tree.name_of, tree.depth_of


def first_disagreement_opaque(search, trees: int = 300):
    from pyab.search.common import siblings_alike
    rng = random.Random(2)
    for i in range(1, trees + 1):
        tree = random_tree(rng, SHAPE)
        assert not siblings_alike(Opaque(tree))
        alpha, beta = random_window(rng, tree, "random")
        prolog = pyab.solve(tree, "prolog", alpha=alpha, beta=beta)
        mirror = finish(search(Opaque(tree), alpha, beta), tree, alpha, beta)
        if differences(prolog, mirror):
            return i
    return None


@pytest.mark.parametrize("name", MUTANTS)
def test_a_mutated_mirror_is_caught_on_opaque_trees(name):
    # only the edits of the clauses as written from the back (any sides)
    edits = [e for e in MUTANTS[name] if not e[0].startswith("if not ((good_val")]
    assert first_disagreement_opaque(mutant_search(edits)) is not None, name


def test_betterof_folded_forward_alone_is_caught():
    forward = [e for e in MUTANTS["betterof earlier on tie"] if e[0].startswith("if not ((good_val")]
    assert first_disagreement(mutant_search(forward)) is not None


def test_the_real_mirror_agrees_on_opaque_trees():
    assert first_disagreement_opaque(python_search("bratko")) is None
