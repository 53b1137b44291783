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
