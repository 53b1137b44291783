"""The compiled recorder (pyab/_cload.c, observe.pl's `names` mode in C)
records what observe.pl's own recorder records.

A search under a stack limit is recorded by observe.pl's Prolog recorder
(run.pl passes compiled(false)), any other one in C when the extension is
built: so the same search, with and without a (roomy) stack limit, compares
the two in one process.  The deadline and the recorder's state after an
exception are tested on recording/6 itself.
"""

from __future__ import annotations

import os

import pytest

import pyab
from pyab.prolog import bridge as prolog
from pyab.trees import Uniform


ROOMY = 1 << 30  # a stack limit no search here comes near: only the recorder differs

HELPERS = """
:- module(pyab_crec_test, [deadline_hit/3, compiled_recorder/0, fresh_atoms/1]).
:- use_module(library(lists)).
compiled_recorder :- current_predicate(pyab_observe:'$crec_begin'/2).
% Record 5,000 calls on integer positions with a deadline long past; Hit is the
% exception (or none) and Record the record of a second recording after it.
deadline_hit(Compiled, Hit, Calls) :-
    ( Compiled == true -> Opts = [] ; Opts = [compiled(false)] ),
    catch(( pyab_observe:recording(names, 16, 0.0, pyab_crec_test:calls_(5000), _, Opts), Hit = none ),
          E, Hit = E),
    pyab_observe:recording(names, 16, inf, pyab_crec_test:calls_(3), R, Opts),
    R = names(_, N, Store),
    findall(X, (between(1, N, I), arg(I, Store, X)), Calls0),
    format(string(Calls), "~q", [Calls0]).
% Positions that are atoms made during the search and dropped again, the atom
% garbage collector run after each: the record must still name them.
fresh_atoms(Text) :-
    pyab_observe:recording(names, 16, inf, pyab_crec_test:fresh_(40), R),
    R = names(_, N, Store),
    forall(between(1, N, I), ( arg(I, Store, X), atom_concat(pos_crec_, I, X) )),
    format(string(Text), "~w", [N]).
fresh_(K) :-
    forall(between(1, K, I),
           ( atom_concat(pos_crec_, I, A),
             ( compiled_recorder, pyab_observe:'$crec_moves'(A) -> true
             ; nb_getval(pyab_record, R), pyab_observe:moves_(R, R, A) ),
             garbage_collect_atoms )).
calls_(K) :-
    forall(between(1, K, I),
           ( ( compiled_recorder, pyab_observe:'$crec_moves'(I) -> true
             ; nb_getval(pyab_record, R), pyab_observe:moves_(R, R, I) ),
             ( compiled_recorder, pyab_observe:'$crec_staticval'(I) -> true
             ; nb_getval(pyab_record, R2), pyab_observe:staticval_(R2, R2, I) ) )).
"""


def _pure() -> bool:
    return os.environ.get("PYAB_PURE_PYTHON", "") not in ("", "0")


@pytest.fixture(scope="module")
def helpers(tmp_path_factory):
    path = tmp_path_factory.mktemp("crec") / "crec_test.pl"
    path.write_text(HELPERS)
    eng = prolog.engine()
    with eng.lock:
        eng.call("use_module", [("atom", str(path))], module="user")
    return eng


def _lists(r: pyab.Result):
    return (r.best, r.value, r.leaves, r.visited, r.pruned)


def test_the_compiled_recorder_is_defined_unless_pure(helpers):
    with helpers.lock:
        if _pure():
            with pytest.raises(pyab.PrologError):
                helpers.call("compiled_recorder", [], module="pyab_crec_test")
        else:
            helpers.call("compiled_recorder", [], module="pyab_crec_test")


@pytest.mark.parametrize("b,d,ordering", [(1, 1, "perfect"), (3, 3, "worst"), (5, 4, "random(1)"),
                                          (7, 3, "perfect"), (10, 3, "random(2)")])
def test_rules_tree_same_lists_both_recorders(b, d, ordering):
    tree = Uniform(b, d, ordering)  # positions n(D, I, V): compounds, copied by PL_record()
    for eager in (True, False):
        a = prolog.solve(tree, eager=eager)
        p = prolog.solve(tree, eager=eager, stack_limit=ROOMY)
        assert _lists(a) == _lists(p)
    counts = prolog.solve(tree, names=False), prolog.solve(tree, names=False, stack_limit=ROOMY)
    assert counts[0].extra == counts[1].extra


@pytest.mark.parametrize("text", [
    "a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))",
    "r=5",
    "a(b(c(d=1, e=2), f=3), g(h=4, i(j=5, k=6)))",
])
def test_fact_tree_same_lists_both_recorders(text):
    tree = pyab.parse(text)  # positions are atoms: kept as handles
    a, p = prolog.solve(tree), prolog.solve(tree, stack_limit=ROOMY)
    assert _lists(a) == _lists(p)


@pytest.mark.parametrize("compiled", [True, False])
def test_deadline_and_the_state_after_it(helpers, compiled):
    if compiled and (_pure() or prolog._cload is None):
        pytest.skip("no compiled recorder")
    with helpers.lock:
        _, hit, calls = helpers.call("deadline_hit", [("atom", str(compiled).lower()), None, None],
                                  module="pyab_crec_test")
    assert hit == "time_limit_exceeded"
    # moves(1), staticval(1) on the same position, ... as the Prolog recorder stores them
    assert calls == "[m(1),[],m(2),[],m(3),[]]"


def test_atoms_made_and_dropped_during_the_search_keep_their_names(helpers):
    with helpers.lock:
        n, = helpers.call("fresh_atoms", [None], module="pyab_crec_test")
    assert n == "40"
