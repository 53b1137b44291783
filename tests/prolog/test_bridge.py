"""The pyswip bridge: observed runs, module isolation, errors, windows."""

from __future__ import annotations

import gc
import math

import pytest

import pyab
from pyab.prolog import bridge as prolog



def test_slides_observed_in_prolog(slides):
    r = pyab.solve(slides)
    assert (r.best, r.value) == ("b", 3)
    assert r.leaves == tuple("efghklm")
    assert r.pruned == ("i", "j")
    assert r.visited == ("a", "b", "e", "f", "g", "c", "h", "d", "k", "l", "m")
    assert (r.engine, r.algorithm) == ("prolog", "bratko")


def test_slides_query_window_as_on_the_slides(slides):
    r = pyab.solve(slides, alpha=-1000, beta=1000)
    assert (r.best, r.value) == ("b", 3)


def test_float_window_reaches_prolog_as_floats(slides):
    # 2.5 < 3 must stay a float: as an integer 2 or 3 the cut pattern would differ.
    # Window 2.5..2.9: b's 3 > 2.9 cuts c and d at once.
    r = pyab.solve(slides, alpha=2.5, beta=2.9)
    assert r.leaves == ("e", "f", "g") and r.pruned == ("c", "d") and r.value == 3
    # Window 3.5..100: e's 3 < 3.5 cuts f and g.
    r = pyab.solve(slides, alpha=3.5, beta=100.0)
    assert r.leaves[:1] == ("e",) and "f" in r.pruned and "g" in r.pruned


def test_decimal_values_come_back_exact():
    t = pyab.parse("a(b = 0.1, c = -2.5e-5)")
    r = pyab.solve(t)
    assert r.value == 0.1 and isinstance(r.value, float) and r.best == "b"
    t = pyab.parse("min a(b = 0.1, c = -2.5e-5)")
    assert pyab.solve(t).value == -2.5e-5


def test_big_integers_are_carried_exactly():
    big = 2**70 + 1
    t = pyab.parse(f"a(b = {big}, c = {-big})")
    assert pyab.solve(t).value == big
    assert pyab.solve(t, "python").value == big


def test_two_trees_answer_for_themselves(slides):
    other = pyab.parse("a(b(e=30, f=1), c(h=2))")  # same names, other facts
    r1, r2 = pyab.solve(slides), pyab.solve(other)
    assert (r1.best, r1.value) == ("b", 3)
    assert (r2.best, r2.value) == ("c", 2)
    assert pyab.solve(slides).value == 3  # still itself after the other loaded


def test_user_facts_are_not_seen_by_tree_modules(slides):
    # The slides loaded into `user` (as the REPL does) must not leak into a tree
    # that shares the names: the program's moves/2 must come from the tree.
    eng = prolog.engine()
    eng.call("consult", [("atom", str(prolog.PROLOG_DIR.parent / "examples" / "slides.pl"))], module="user")
    try:
        t = pyab.parse("a(b = 1, c = 2)")
        r = pyab.solve(t)
        assert (r.best, r.value, r.leaves) == ("c", 2, ("b", "c"))
    finally:
        eng.call("unload_file", [("atom", str(prolog.PROLOG_DIR.parent / "examples" / "slides.pl"))],
                 module="user")


def test_module_is_dropped_when_the_tree_is_gone():
    before = prolog.live_modules()
    t = pyab.parse("x(y = 1, z = 2)")
    pyab.solve(t)
    assert prolog.live_modules() >= before + 2  # the tree and its program copy
    del t
    gc.collect()
    assert prolog.live_modules() <= before


def test_prolog_errors_become_prolog_error(tmp_path, slides):
    broken = tmp_path / "broken.pl"
    broken.write_text("alphabeta(_, _, _, _, _) :- X is foo + 1, X > 0.\n")
    with pytest.raises(pyab.PrologError) as info:
        pyab.solve(slides, program=str(broken))
    assert "foo" in info.value.term and "type_error" in info.value.term


def test_a_failing_program_is_reported(tmp_path, slides):
    failing = tmp_path / "failing.pl"
    failing.write_text("alphabeta(_, _, _, _, _) :- fail.\n")
    with pytest.raises(pyab.PrologError, match="failed"):
        pyab.solve(slides, program=str(failing))


def test_missing_program_is_reported(slides, tmp_path):
    with pytest.raises(pyab.PrologError, match="no Prolog program"):
        pyab.solve(slides, program=str(tmp_path / "nope.pl"))


def test_nan_window_is_refused(slides):
    with pytest.raises(ValueError):
        pyab.solve(slides, alpha=math.nan)


def test_timeout_stops_a_long_search(tmp_path, slides):
    slow = tmp_path / "slow.pl"
    slow.write_text("alphabeta(_, _, _, _, _) :- repeat, fail.\n")
    with pytest.raises(pyab.SearchTimeout):
        pyab.solve(slides, program=str(slow), timeout=0.2)
    assert pyab.solve(slides).value == 3  # the engine is fine afterwards


def test_check_raises_mismatch_with_a_diff(tmp_path, slides):
    mutant = tmp_path / "mutant.pl"
    src = (prolog.PROLOG_DIR / "alphabeta.pl").read_text()
    mutant.write_text(src.replace("max_to_move(Pos), Val < Alpha, !.", "max_to_move(Pos), Val =< Alpha, !."))
    with pytest.raises(pyab.Mismatch) as info:
        pyab.check(pyab.parse("[[3, 12, 8], [3, 4, 6], [14, 5, 2]]"), program=str(mutant))
    assert "leaves" in info.value.diff and "first difference at step" in info.value.diff
    assert pyab.check(slides).best == "b"


def test_unknown_engine_and_algorithm(slides):
    with pytest.raises(ValueError, match="unknown engine"):
        pyab.solve(slides, engine="java")
    with pytest.raises(ValueError, match="unknown algorithm"):
        pyab.solve(slides, algorithm="nope")
