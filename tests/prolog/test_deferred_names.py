"""The Prolog engine names its observed nodes when they are first read
(solve_deferred/10 keeps the search's record in SWI-Prolog until then): the
same observation as names built at once (``eager=True``), read after the
tree object is otherwise dropped, after ``Engine.close`` (unread names are
read first), from several threads; and a record whose Result goes unread
is freed in SWI-Prolog."""

from __future__ import annotations

import gc
import pickle
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

import pyab
from pyab.prolog import bridge as prolog
from pyab.errors import PrologError
from pyab.trees.randomtrees import Shape, random_tree, random_window
from pyab.search import ALGORITHMS
from pyab.trees import Uniform

SHAPE = Shape(depth=(1, 4), branching=(1, 4), values=(0, 5))
FIELDS = ("best", "value", "leaves", "visited", "pruned", "horizon", "bound")


def same(a, b) -> None:
    assert {f: getattr(a, f) for f in FIELDS} == {f: getattr(b, f) for f in FIELDS}


def kept(eng: prolog.Engine, key: str) -> bool:
    """Whether SWI-Prolog still holds the record under ``key``."""
    try:
        eng.call("deferred_kept", [("string", key)], module="pyab_run")
    except PrologError:  # the goal failed
        return False
    return True


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), alg=st.sampled_from(sorted(ALGORITHMS)))
def test_deferred_equals_eager(seed, alg):
    import random
    rng = random.Random(seed)
    tree = random_tree(rng, SHAPE)
    alpha, beta = random_window(rng, tree, "random")
    lazy = prolog.solve(tree, alg, alpha, beta)
    assert "leaves" in lazy.__dict__.get("_pending", {})  # really deferred
    same(lazy, prolog.solve(tree, alg, alpha, beta, eager=True))


def test_deferred_on_a_rules_tree():
    tree = Uniform(3, 3, "random(7)")
    same(prolog.solve(tree), prolog.solve(tree, eager=True))


def test_read_after_the_tree_is_dropped():
    eng = prolog.Engine()
    try:
        r = eng.solve(pyab.parse("a(b(d=3, e=5), c(f=2, g=9))"))
        gc.collect()
        eng.solve(pyab.parse("x(y=1, z=2)"))  # would reuse a recycled module
        assert (r.leaves, r.visited, r.pruned) == (("d", "e", "f"), ("a", "b", "d", "e", "c", "f"), ("g",))
    finally:
        eng.close()


def test_unread_records_are_freed():
    eng = prolog.Engine()
    try:
        tree = pyab.parse("a(b(d=3, e=5), c(f=2, g=9))")
        r = eng.solve(tree)
        key = next(iter(eng._pending))
        assert kept(eng, key)
        del r
        gc.collect()
        for _ in range(50):  # many unread results: each record freed by the next call
            eng.solve(tree)
        gc.collect()
        eng.solve(tree, eager=True)
        assert not kept(eng, key)
        assert not eng._pending and not eng._unread
        read = eng.solve(tree)
        key = next(iter(eng._pending))
        assert read.visited and not kept(eng, key)  # read: freed at once
    finally:
        eng.close()


def test_close_reads_unread_names_first():
    eng = prolog.Engine()
    r = eng.solve(pyab.parse("a(b=1, c=2)"))
    eng.close()
    assert r.visited == ("a", "b", "c") and r.leaves == ("b", "c")


def test_drop_reads_the_names_before_the_module_goes():
    eng = prolog.Engine()
    try:
        tree = pyab.parse("a(b=1, c=2)")
        r = eng.solve(tree)
        eng.drop(tree)
        assert r.leaves == ("b", "c")
    finally:
        eng.close()


def test_pickling_reads_the_names():
    r = prolog.solve(pyab.parse("a(b=1, c=2)"))
    same(pickle.loads(pickle.dumps(r)), r)


def test_read_from_threads():
    eng = prolog.Engine()
    try:
        trees = [pyab.parse(f"a(b(d={i}, e=5), c(f=2, g=9))") for i in range(6)]
        results = [eng.solve(t) for t in trees]
        want = [eng.solve(t, eager=True) for t in trees]
        errors: list[BaseException] = []

        def read(r, w):
            try:
                same(r, w)
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=read, args=p) for p in zip(results * 2, want * 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
    finally:
        eng.close()
