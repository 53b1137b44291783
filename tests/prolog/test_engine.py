"""The Engine object (pyab.prolog.Engine) and what the bridge promises
around it: errors with their term, pyswip left as it was, no leak per
rules tree, time limits after a fork, one registry for both languages."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import pytest

import pyab
from pyab.prolog import bridge as prolog
from pyab.prolog import Engine
from pyab.search import ALGORITHMS

from tests.conftest import ROOT, SLIDES_TEXT


def run_python(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def test_a_prolog_exception_reaches_python_with_its_term(tmp_path):
    prog = tmp_path / "throws.pl"
    prog.write_text("alphabeta(_, _, _, _, _) :- throw(my_error(foo)).\n")
    with pytest.raises(pyab.PrologError) as err:
        prolog.solve(pyab.parse("a(b=1)"), program=prog)
    assert err.value.term == "my_error(foo)"
    assert "my_error(foo)" in str(err.value)


def test_a_builtin_error_brings_its_message_and_term(tmp_path):
    prog = tmp_path / "type.pl"
    prog.write_text("alphabeta(_, _, _, _, V) :- atom_length(V, x).\n")
    with pytest.raises(pyab.PrologError) as err:
        prolog.solve(pyab.parse("a(b=1)"), program=prog)
    assert err.value.term.startswith("error(instantiation_error")
    assert "Arguments are not sufficiently instantiated" in str(err.value)


def test_plain_pyswip_still_works_after_pyab_in_the_same_process():
    """pyab gives libswipl functions prototypes of their own: pyswip's (set
    on its shared ctypes library object) stay as they were."""
    done = run_python("""
        import pyswip.prolog
        from pyswip import core
        def protos():
            return {n: (f.restype, tuple(f.argtypes or ())) for n, f in vars(core._lib).items()
                    if n.startswith("PL_") and hasattr(f, "restype")}
        before = protos()
        import pyab
        r = pyab.solve(pyab.parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))"))
        assert (r.best, r.value, r.pruned) == ("b", 3, ("i", "j"))
        assert protos() == before, "pyab changed pyswip's prototypes"
        p = pyswip.Prolog()
        p.assertz("colour(red)")
        p.assertz("colour(green)")
        assert [s["X"] for s in p.query("colour(X)")] == ["red", "green"]
        assert list(p.query("atom_length(hello, N)"))[0]["N"] == 5
        assert pyab.solve(pyab.parse("a(b=1, c=2)")).best == "c"
        print("ok")
    """)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok"


def test_a_fork_after_a_timed_out_search_still_times_out():
    """call_with_time_limit/2's alarm thread is gone in a forked child; the
    recorder's own deadline check stops the search there all the same."""
    done = run_python("""
        import os, sys
        import pyab
        from pyab.prolog import bridge as prolog
        from pyab.trees import Uniform
        big = Uniform(8, 9)
        try:
            prolog.solve(big, "minimax", timeout=0.2, names=False)
            sys.exit("no timeout in the parent")
        except pyab.SearchTimeout:
            pass
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                prolog.solve(big, "minimax", timeout=0.3, names=False)
            except pyab.SearchTimeout:
                code = 0
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
    """, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "child 0"


def test_rules_tree_cycles_leak_no_wrapper_closures():
    from pyab.trees import Uniform

    def cycle() -> None:
        t = Uniform(2, 3)
        assert prolog.solve(t).value == prolog.solve(t, names=False).value
        del t
        gc.collect()

    cycle()
    before = prolog.resource_counts()
    for _ in range(5):
        cycle()
    after = prolog.resource_counts()
    assert after["closures"] == before["closures"]
    assert after["modules"] == before["modules"]


def test_engines_own_their_modules_and_close_them():
    gc.collect()
    start = prolog.live_modules()
    tree = pyab.parse(SLIDES_TEXT)
    with Engine() as one, Engine() as two:
        r1, r2 = one.solve(tree), two.solve(tree)
        assert (r1.best, r1.value, r1.pruned) == (r2.best, r2.value, r2.pruned) == ("b", 3, ("i", "j"))
        assert one._modules[tree] != two._modules[tree]  # a module each
        assert prolog.live_modules() == start + 4  # two trees, two program copies
        one.close()
        assert prolog.live_modules() == start + 2
        with pytest.raises(pyab.Error, match="closed"):
            one.solve(tree)
        assert two.solve(tree).value == 3
    assert prolog.live_modules() == start
    assert one.closed and two.closed


def test_recycling_is_an_engine_option():
    gc.collect()
    with Engine(recycle=False) as eng:
        for _ in range(3):
            t = pyab.parse("a(b=1, c=2)")
            eng.solve(t)
            del t
            gc.collect()
        eng.live_modules()  # releases what was collected
        assert eng._free == []
    with Engine() as eng:
        t = pyab.parse("a(b=1, c=2)")
        eng.solve(t)
        eng.drop(t)
        assert len(eng._free) == 1


def test_the_default_engine_comes_back_after_close():
    eng = prolog.engine()
    assert pyab.engine() is eng
    eng.close()
    assert prolog.engine() is not eng
    assert pyab.solve(pyab.parse("a(b=1, c=2)")).best == "c"


def test_both_languages_list_the_same_algorithms():
    """Asked of SWI-Prolog (the bridge reads the registry itself)."""
    assert prolog.engine().algorithms() == list(ALGORITHMS)


def test_every_registry_entry_runs_in_prolog_with_its_template():
    got = prolog.engine().call("algorithms_text", [None])[0]
    assert got is not None
    for name, alg in ALGORITHMS.items():
        assert alg.entry and "Root" in alg.entry and "Val" in alg.entry
        r = prolog.solve(pyab.parse(SLIDES_TEXT), name)
        assert r.value == 3, name


# -- one call per tree (Engine.solve(once=True), solve_packed/11) ------------

def test_one_call_per_tree_answers_as_the_ordinary_path():
    """The one-call path gives field for field what the load-then-solve path
    gives, on random trees with random windows (decimals and ties too), from
    real SWI-Prolog runs, and makes exactly one call into SWI-Prolog a tree."""
    import random

    from pyab.trees.randomtrees import Shape, random_tree, random_window
    rng = random.Random(7)
    shape = Shape(values=(-3, 3), decimals=True)
    with Engine() as once, Engine() as plain:
        calls = []
        real = once._rt.call
        once._rt.call = lambda name, *a, **k: calls.append(name) or real(name, *a, **k)
        try:
            for _ in range(150):
                tree = random_tree(rng, shape)
                a, b = random_window(rng, tree, "random")
                for alg in ("bratko", "aima"):
                    calls.clear()
                    r1 = once.solve(tree, alg, a, b, once=True)
                    assert calls == ["solve_packed"]
                    r2 = plain.solve(tree, alg, a, b, eager=True)
                    assert (r1.best, r1.value, r1.leaves, r1.visited, r1.pruned) == \
                           (r2.best, r2.value, r2.leaves, r2.visited, r2.pruned)
        finally:
            del once._rt.call
        assert once.live_modules() == plain.live_modules()  # nothing of `once` stays in use


def test_one_call_per_tree_keeps_hostile_names_exact():
    from pyab.tree import build_plain
    names = ["it's", "a\\b", "\n", "King e1", "Ω", "'", "r_1", "[]", "(", "max"]
    tree = build_plain({"a b": names}, dict(zip(names, range(10))))
    r = prolog.solve(tree, once=True)
    assert r.best == "max" and r.visited == ("a b", *names) and r.leaves == tuple(names)


def test_one_call_per_tree_catches_a_changed_comparison(tmp_path):
    """`>` made `>=` in the slides' goodenough/7 is caught through the
    one-call path (the Prolog side observed, the mirror beside it)."""
    from pyab.engines import both
    mutant = tmp_path / "mutant.pl"
    src = (prolog.PROLOG_DIR / "alphabeta.pl").read_text()
    changed = src.replace("min_to_move(Pos), Val > Beta, !", "min_to_move(Pos), Val >= Beta, !")
    assert changed != src
    mutant.write_text(changed)
    tree = pyab.parse("[[3, 12, 8], [3, 4, 6], [14, 5, 2]]")
    assert both(tree, program=str(mutant), alpha=-100, beta=3).differences
    assert not both(tree, alpha=-100, beta=3).differences


def test_one_call_per_tree_leaves_nothing_loaded_after_an_error(tmp_path):
    broken = tmp_path / "throws.pl"
    broken.write_text("alphabeta(_, _, _, _, _) :- throw(my_error(once)).\n")
    slow = tmp_path / "slow.pl"
    slow.write_text("alphabeta(_, _, _, _, _) :- repeat, fail.\n")
    with Engine() as eng:
        before = eng.live_modules()
        tree = pyab.parse("a(b=1, c(d=2, e=3))")
        with pytest.raises(pyab.PrologError) as err:
            eng.solve(tree, program=broken, once=True)
        assert err.value.term == "my_error(once)"
        with pytest.raises(pyab.SearchTimeout):
            eng.solve(tree, program=slow, timeout=0.2, once=True)
        assert eng.live_modules() == before
        assert eng.solve(tree, once=True).value == 2  # the module name is usable again
        assert eng.live_modules() == before


def test_a_loaded_or_big_tree_takes_the_ordinary_path():
    with Engine() as eng:
        calls = []
        real = eng._rt.call
        eng._rt.call = lambda name, *a, **k: calls.append(name) or real(name, *a, **k)
        try:
            tree = pyab.parse("a(b=1, c=2)")
            eng.solve(tree)  # loaded now, and kept while the tree lives
            calls.clear()
            assert eng.solve(tree, once=True).value == 2
            assert "solve_packed" not in calls
            big = pyab.parse("[" + ", ".join(str(i % 7) for i in range(prolog._ONCE_NODES + 1)) + "]")
            calls.clear()
            assert eng.solve(big, once=True).value == 6
            assert "solve_packed" not in calls
        finally:
            del eng._rt.call
