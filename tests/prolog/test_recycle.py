"""Recycled tree modules: when a fact tree's ``Tree`` object is gone, its
SWI-Prolog module is emptied and the next tree loads into it (see
``recycle/1`` in prolog/bridge/store.pl).  Nothing of the previous tree may
show through: not a fact, not an event, not a trace, not a program's state.

Each test first makes sure the module really was reused (else it would
prove nothing), then holds the Prolog answer against the Python mirror,
which never sees a module.  ``spy.pl`` below is a "search program" that
reads the tree module's whole contents with clause/2 from inside SWI-Prolog
and hands them back as the best move, so the facts are observed directly.
"""

from __future__ import annotations

import gc
import os
import random
import threading

import pytest

import pyab
from pyab.prolog import bridge as prolog
from pyab.trees.randomtrees import Shape, random_tree, random_window
from pyab.render.trace import trace

FIELDS = ("best", "value", "leaves", "visited", "pruned")

SPY = """\
% Not a search: answers with the tree module's whole contents, read with
% clause/2 (no wrapper runs), as the text of a sorted list.
alphabeta(_, _, _, Best, 0) :-
    findall(F, contents(F), Fs0),
    msort(Fs0, Fs),
    format(atom(Best), '~q', [Fs]).

contents(tree(P, L)) :- clause(tree(P, L), true).
contents(staticval(P, V)) :- clause(staticval(P, V), true).
contents(min_to_move(P)) :- clause(min_to_move(P), true).
contents(max_to_move(P)) :- clause(max_to_move(P), true).
contents(moves(B)) :- clause(moves(_, _), B0), copy_term(B0, B), numbervars(B, 0, _).
"""


def same(a: pyab.Result, b: pyab.Result) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in FIELDS)


def module_of(tree) -> str:
    return prolog.engine()._modules[tree]


def gone(*trees) -> None:
    """Let the trees' modules go back to the free list (the next call
    recycles them), last on it, so that the next tree takes them."""
    gc.collect()
    prolog.live_modules()  # releases the trees already collected first
    for t in trees:
        prolog.drop(t)


@pytest.fixture
def spy(tmp_path):
    path = tmp_path / "spy.pl"
    path.write_text(SPY)
    return path


def contents(tree, spy) -> str:
    return prolog.solve(tree, program=spy).best


def test_a_module_is_reused_and_counts_only_while_in_use():
    gc.collect()
    before = prolog.resource_counts()
    a = pyab.parse("a(b=1, c=2)")
    pyab.solve(a)
    m = module_of(a)
    assert prolog.live_modules() == before["modules"] + 2  # the tree and its program copy
    gone(a)
    after = prolog.resource_counts()
    assert m in prolog.engine()._free
    eng = prolog.engine()  # rules modules wait on lists of their own (per rules file)
    free = len(eng._free) + sum(map(len, eng._free_rules.values()))
    assert (after["modules"], after["free"]) == (before["modules"], free)
    b = pyab.parse("x(y=3)")
    pyab.solve(b)
    assert module_of(b) == m and m not in prolog.engine()._free
    assert prolog.live_modules() == before["modules"] + 2
    assert prolog.resource_counts()["closures"] == after["closures"]  # no new wrappers


def test_same_names_different_facts(spy):
    a = pyab.parse("max a(b(c=1, d=9), e(f=4))")
    want_a = contents(a, spy)
    assert "tree(a,[b,e])" in want_a and "staticval(d,9)" in want_a
    m = module_of(a)
    gone(a)
    b = pyab.parse("min a(e(f=2), b(d=3, c=8))")  # same names, other shape, values and sides
    got = contents(b, spy)
    assert module_of(b) == m
    fresh = pyab.parse("min a(e(f=2), b(d=3, c=8))")
    held = prolog.engine()._free[:]
    prolog.engine()._free.clear()  # force a module of its own, made from nothing
    try:
        assert contents(fresh, spy) == got
    finally:
        prolog.engine()._free.extend(held)
    assert module_of(fresh) != m
    for t in (b, fresh):
        assert same(pyab.solve(t), pyab.solve(t, engine="python"))


def test_fewer_nodes_after_more(spy):
    big = pyab.parse("a(b(c(d=1, e=2), f(g=3, h=4)), i(j(k=5, l=6), m(n=7, o=8)))")
    pyab.solve(big)
    m = module_of(big)
    gone(big)
    small = pyab.parse("a(b=2, i=1)")  # b and i were inner nodes
    r = pyab.solve(small)
    assert module_of(small) == m
    assert same(r, pyab.solve(small, engine="python"))
    assert (r.visited, r.leaves) == (("a", "b", "i"), ("b", "i"))
    assert contents(small, spy) == ("[max_to_move(a),min_to_move(b),min_to_move(i),"
                                    "moves(tree(A,B)),staticval(b,2),staticval(i,1),tree(a,[b,i])]")


def test_a_leaf_only_tree_after_an_inner_tree(spy):
    inner = pyab.parse("a(b=1, c=2)")
    pyab.solve(inner)
    m = module_of(inner)
    gone(inner)
    leaf = pyab.parse("a = 7")
    r = pyab.solve(leaf)
    assert module_of(leaf) == m
    assert (r.best, r.value, r.leaves, r.visited, r.pruned) == (None, 7, ("a",), ("a",), ())
    assert contents(leaf, spy) == "[max_to_move(a),moves(tree(A,B)),staticval(a,7)]"


def test_the_moves_bridge_is_there_once():
    """The moves/2 bridge clause is retracted with the facts and asserted
    again: never missing, never twice (each child would come twice)."""
    a = pyab.parse("a(b=1, c=2)")
    pyab.solve(a)
    m = module_of(a)
    for _ in range(3):
        gone(a)
        a = pyab.parse("a(b(d=4, e=1), c=2)")
        r = pyab.solve(a)
        assert module_of(a) == m
        assert r.visited == ("a", "b", "d", "e", "c") and r.leaves == ("d", "e", "c")


def test_traced_then_untraced_then_traced():
    rng = random.Random(5)
    shape = Shape(depth=(3, 3), branching=(2, 3), leaf_chance=0.0)
    t1 = random_tree(rng, shape)
    p = trace(t1, "prolog")
    assert p.steps == trace(t1, "python").steps
    m = module_of(t1)
    gone(t1)
    closures = prolog.resource_counts()["closures"]
    t2 = random_tree(rng, shape)
    r = pyab.solve(t2)
    assert module_of(t2) == m
    assert same(r, pyab.solve(t2, engine="python"))
    gone(t2)
    t3 = random_tree(rng, shape)
    p3 = trace(t3, "prolog")
    assert module_of(t3) == m
    assert p3.steps == trace(t3, "python").steps  # no call, leaf or cut of t1 or t2
    assert prolog.resource_counts()["closures"] == closures  # the traced copy was kept, wrappers and all


def test_a_timed_out_search_then_reuse():
    big = random_tree(random.Random(1), Shape(depth=(9, 9), branching=(4, 4), leaf_chance=0.0))
    with pytest.raises(pyab.SearchTimeout):
        prolog.solve(big, algorithm="minimax", timeout=0.01)
    m = module_of(big)
    gone(big)
    small = pyab.parse("a(b(c=1, d=5), e(f=3))")
    for algorithm in ("minimax", "bratko"):
        r = prolog.solve(small, algorithm=algorithm)
        assert module_of(small) == m
        assert same(r, pyab.solve(small, algorithm=algorithm, engine="python"))


def test_a_program_with_state_does_not_carry_it_over(tmp_path):
    prog = tmp_path / "counter.pl"
    prog.write_text(":- dynamic seen/1.\n"
                    "alphabeta(Pos, _, _, _, N) :- assertz(seen(Pos)), aggregate_all(count, seen(_), N).\n")
    values = []
    for _ in range(3):
        t = pyab.parse("a(b=1)")
        values.append(prolog.solve(t, program=prog).value)
        assert prolog.solve(t, program=prog).value == values[-1] + 1  # the state is the tree's own
        gone(t)
    assert values == [1, 1, 1]


def test_a_tabled_program_forgets_the_last_tree(tmp_path):
    prog = tmp_path / "tabled.pl"
    prog.write_text(":- table val/2.\n"
                    "val(P, V) :- staticval(P, V).\n"
                    "val(P, V) :- moves(P, [K|_]), val(K, V).\n"
                    "alphabeta(P, _, _, _, V) :- val(P, V).\n")
    for v in (1, 2, 3):
        t = pyab.parse(f"a(b={v})")
        assert prolog.solve(t, program=prog).value == v
        gone(t)


def test_a_program_file_changed_between_trees_is_loaded_again(tmp_path):
    prog = tmp_path / "const.pl"
    prog.write_text("alphabeta(_, _, _, _, 1).\n")
    t = pyab.parse("a(b=1)")
    assert prolog.solve(t, program=prog).value == 1
    m = module_of(t)
    gone(t)
    prog.write_text("alphabeta(_, _, _, _, 22).\n")
    st = os.stat(prog)
    os.utime(prog, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # even on a coarse clock
    t = pyab.parse("a(b=1)")
    assert prolog.solve(t, program=prog).value == 22
    assert module_of(t) == m


def test_rules_trees_recycle_apart_and_failed_loads_are_not_recycled(monkeypatch):
    from pyab.trees import Uniform
    u = Uniform(2, 2)
    pyab.solve(u)
    m = module_of(u)
    gone(u)
    assert m not in prolog.engine()._free  # a rules tree's module waits for the same rules
    assert m in prolog.engine()._free_rules[u.prolog_source()[0]]
    t = pyab.parse("a(b=1, c=2)")
    pyab.solve(t)
    assert module_of(t) != m  # a fact tree never loads into a rules module
    m = module_of(t)
    gone(t)
    assert prolog.engine()._free[-1] == m
    real = prolog._packed
    monkeypatch.setattr(prolog, "_cload", None)  # load_packed/3, given a broken shape
    monkeypatch.setattr(prolog, "_packed", lambda tree: (real(tree)[0], "shape("))
    bad = pyab.parse("a(b=1, c=2)")
    with pytest.raises(pyab.PrologError):
        pyab.solve(bad)
    assert m not in prolog.engine()._free  # taken, failed, destroyed
    monkeypatch.undo()
    again = pyab.parse("a(b=3, c=2)")
    assert pyab.solve(again).value == 3 and module_of(again) != m


def test_random_sequences_against_the_mirror():
    """Many trees with the same Dewey names (r, r_1, r_1_2, ...) through few
    modules, some alive together, released in random order."""
    gc.collect()
    before = prolog.live_modules()
    spare = len(prolog.engine()._free)
    rng = random.Random(11)
    shape = Shape(depth=(1, 4), branching=(1, 4), leaf_chance=0.3)
    alive: list = []
    used: set[str] = set()
    for i in range(400):
        t = random_tree(rng, shape)
        a, b = random_window(rng, t, "random")
        algorithm = rng.choice(("bratko", "minimax", "hsu-f1", "cpw-failsoft"))
        r = pyab.solve(t, algorithm=algorithm, alpha=a, beta=b)
        assert same(r, pyab.solve(t, algorithm=algorithm, alpha=a, beta=b, engine="python")), i
        used.add(module_of(t))
        alive.append(t)
        while len(alive) > rng.randint(0, 4):
            alive.pop(rng.randrange(len(alive)))  # gone when the finalizer runs
        gc.collect()  # the hsu mirror leaves the tree in a reference cycle
    del alive, t, r  # an unread Result holds its tree (its names are built when read)
    gc.collect()
    assert len(used) <= spare + 6  # 400 trees, at most 5 alive at once, and the spares
    assert prolog.live_modules() == before


def test_threads_share_the_free_list():
    errors: list[str] = []
    used: set[str] = set()
    barrier = threading.Barrier(6)

    def work(k: int) -> None:
        rng = random.Random(k)
        try:
            barrier.wait()
            for j in range(60):
                t = random_tree(rng, Shape(depth=(1, 3), branching=(1, 3)))
                r = pyab.solve(t)
                used.add(module_of(t))
                assert same(r, pyab.solve(t, engine="python")), (k, j)
                if j % 3 == 0:
                    prolog.drop(t)  # sometimes at once, else when t is replaced
                gc.collect()  # the mirror leaves the tree in a reference cycle
        except BaseException as err:  # reported below
            errors.append(f"{k}: {err!r}")

    gc.collect()
    before = prolog.live_modules()
    spare = len(prolog.engine()._free)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    gc.collect()
    assert prolog.live_modules() == before
    assert len(set(prolog.engine()._free)) == len(prolog.engine()._free)  # never listed twice
    assert not set(prolog.engine()._free) & set(prolog.engine()._modules.values())  # never free and in use
    # 360 trees; a thread holds one or two, and a tree released by one thread
    # may wait in _GONE while the others load, the longer the busier the
    # machine (98 modules were seen at load average 7): a third
    # of 360 all the same, where no recycling would use 360.
    assert len(used) <= spare + 360 // 3


def test_fact_text_bringing_its_own_moves_clause_into_a_recycled_module(spy):
    """load_tree/2 (fact text, the slides' file form) may bring the moves/2
    bridge itself: in a recycled module it must not end up there twice."""
    import weakref

    from pyab.prolog.facts import facts
    a = pyab.parse("a(b=1, c=2)")
    pyab.solve(a)
    m = module_of(a)
    gone(a)
    assert prolog.engine()._free[-1] == m
    t = pyab.parse("a(b(d=4, e=1), c=2)")
    eng = prolog.engine()
    with eng.lock:
        eng._free.remove(m)
        eng.call("load_tree", [("atom", m), ("string", facts(t))])
        eng._modules[t] = m
        eng._finalizers[m] = weakref.finalize(t, eng._gone.append, (m, None))
    assert contents(t, spy).count("moves(") == 1
    r = pyab.solve(t)
    assert module_of(t) == m
    assert same(r, pyab.solve(t, engine="python"))
