"""The Prolog child answers from the tree shipped with each job and sends
the record of the questions with its answer (prolog/referee/child.pl): the
record is replayed through the same Observer as every other route, so a
wrong search is found where it went wrong, and no other child's report of
its questions is ever taken."""

from __future__ import annotations

import json
import math
import sys

import pytest

from pyab import parse
from pyab.referee import ExecRoute, FunctionRoute, PrologRoute
from pyab.referee.program import PrologProgram, job_text
from pyab.referee.protocol import SearchBug
from pyab.referee.verdict import Settings, judge
from conftest import EXAMPLES, ROOT

SLIDES = EXAMPLES / "slides.tree"
ALPHABETA = ROOT / "prolog" / "alphabeta.pl"

# Each asks one question only a wrong search asks; "catch" tries to go on.
WRONG = {
    "unknown": ("alphabeta(_, _, _, b, 1) :- moves('42', _).",
                "not-a-child", "asked moves of '42', not a node of the tree"),
    "unbound": ("alphabeta(_, _, _, b, 1) :- moves(_, _).",
                "not-a-child", "not a node of the tree"),
    "grandchild": ("alphabeta(_, _, _, b, V) :- staticval(d, V).",
                   "not-a-child", "asked staticval of 'd', a node the search was not given"),
    "inner": ("alphabeta(P, _, _, b, V) :- staticval(P, V).",
              "inner-static-value", "asked the static value of 'a', an inner node"),
    "catch": ("alphabeta(P, _, _, b, V) :- catch(staticval(P, V), _, true), V = 1.",
              "inner-static-value", "asked the static value of 'a', an inner node"),
}


@pytest.mark.parametrize("untrusted", [False, True], ids=["trusted", "untrusted"])
@pytest.mark.parametrize("name", list(WRONG))
def test_a_wrong_prolog_search_is_found_where_it_went_wrong(tmp_path, name, untrusted):
    text, kind, says = WRONG[name]
    program = tmp_path / "wrong.pl"
    program.write_text(text + "\n")
    tree = parse(SLIDES.read_text())
    with PrologProgram(program, untrusted=untrusted) as p:
        with pytest.raises(SearchBug) as bug:
            p.solve(tree)
        assert bug.value.kind == kind and says in bug.value.reason, bug.value.reason
        assert p._child is None  # a fresh child for the next tree


def test_the_record_is_the_questions_asked_in_order():
    """The slides' program in SWI-Prolog asks moves/2 and staticval/2 in the
    order its Python transliteration asks them in-process."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("slides_ab", EXAMPLES / "referee" / "slides_alphabeta.py")
    slides = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(slides)
    tree = parse(SLIDES.read_text())
    prolog_log: list = []
    python_log: list = []
    with PrologRoute(str(ALPHABETA), "bratko") as route:
        r = route.search(tree, log=prolog_log)
    FunctionRoute(slides.alphabeta).search(tree, log=python_log)

    def asked(log):
        return [(q, n) for q, n, _ in log if q != "max_to_move"]
    assert asked(prolog_log) == asked(python_log) and len(asked(prolog_log)) >= 10
    assert prolog_log[0] == ("moves", "a", ["b", "c", "d"])
    sides = [n for q, n, _ in prolog_log if q == "max_to_move"]
    assert sides and len(sides) == len(set(sides))  # a node's side is recorded once
    assert r.visited == tuple(dict.fromkeys(n for _, n in asked(prolog_log)))
    assert r.leaves == tuple(n for q, n in asked(prolog_log) if q == "staticval")


def test_a_mutated_prolog_program_disagrees(tmp_path):
    """The check can fail: the slides' program with one > made >= in
    goodenough/4 cuts on a tie, and the record shows it on random trees."""
    import random
    from pyab.trees.randomtrees import Shape, random_tree, random_window
    text = ALPHABETA.read_text()
    mutant = text.replace("Val > Beta", "Val >= Beta", 1)
    assert mutant != text
    (tmp_path / "mutant.pl").write_text(mutant)
    rng = random.Random(1)
    cases = [(t, *random_window(rng, t, "random")) for t in (random_tree(rng, Shape()) for _ in range(200))]
    verdicts = {}
    for name, path in (("slides", ALPHABETA), ("mutant", tmp_path / "mutant.pl")):
        with PrologRoute(str(path), "bratko") as route:
            verdicts[name] = [judge(route, *case, Settings()).status for case in cases]
    assert set(verdicts["slides"]) == {"agree"}
    assert "disagree" in verdicts["mutant"]


def test_only_pyabs_prolog_child_is_taken_at_its_record(tmp_path):
    """An --exec program that sends a record of questions it never asked is
    judged on what pyab observed: nothing asked, nothing visited."""
    client = tmp_path / "liar.py"
    client.write_text(
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'asked': [0, 3, 5], 'best': 'b', 'value': 3}), flush=True)\n")
    tree = parse(SLIDES.read_text())
    with ExecRoute(f"{sys.executable} {client}") as route:
        r = route.search(tree)
        assert r.visited == () and r.leaves == ()
        assert judge(route, tree, -math.inf, math.inf, Settings()).status == "disagree"


def test_the_job_quotes_every_name_and_number():
    tree = parse("'it\\'s'(b = 1.5, 'C' = -2)")
    text = job_text(tree, -math.inf, 3, 2, "alphabeta(Root, Alpha, Beta, Best, Val)")
    assert text == ("j('it\\'s',-1.0Inf,3,2,'alphabeta(Root, Alpha, Beta, Best, Val)',"
                    "n('it\\'s',b,'C'),k([1, 2], [], []),v(n,1.5,-2),\"xnn\").")
    with PrologProgram(ALPHABETA) as p:
        r = p.solve(tree)
    assert (r.best, r.value) == ("b", 1.5)
    json.dumps(r.to_json())


def test_a_search_announced_ahead_is_answered_as_one_asked_after():
    """The searches announced after the one asked go to the child with it,
    in one write; a solve of the next announced search takes its answer, a
    solve of another drops them."""
    one, two, three = (parse("a(b = 1, c = 2)"), parse("r(s(t = 4, u = 6), v = 5)"),
                       parse("x(y = 3)"))
    with PrologProgram(ALPHABETA) as p:
        alone = [p.solve(t) for t in (one, two, three)]
        p.ahead(two)
        p.ahead(three)
        assert p.solve(one) == alone[0] and not p._sent  # one was not announced: sent alone
        assert p.solve(two) == alone[1] and len(p._sent) == 1  # two and three in one write
        assert p.solve(three) == alone[2] and not p._sent and not p._ahead
        p.ahead(two)
        p.ahead(three)
        p.solve(two)
        assert p.solve(one) == alone[0]  # not the one announced: three's answer dropped
        assert not p._sent and not p._ahead
        p.ahead(two, alpha=4, beta=5)
        p.ahead(three)
        assert p.solve(two) == alone[1]  # another window: another search
        assert p.solve(three) == alone[2]
def test_a_search_announced_ahead_that_fails_fails_its_own_tree(tmp_path):
    """A crash on an announced tree is that tree's verdict when it is
    asked for, and no other's: the searches sent with it after it go to a
    fresh child (a dropped search's crash is forgotten)."""
    from pyab.errors import ProgramError
    program = tmp_path / "picky.pl"  # the slides' program, but it halts at the root r
    program.write_text("alphabeta(r, _, _, _, _) :- !, halt(9).\n" + ALPHABETA.read_text())
    good, bad, after = parse("a(b = 1, c = 2)"), parse("r(s = 1)"), parse("x(y = 3, z = 4)")
    with PrologProgram(program) as p:
        p.ahead(bad)
        p.ahead(after)
        assert p.solve(good).best == "c"
        first = p._child
        with pytest.raises(ProgramError) as err:
            p.solve(bad)  # sent with after behind it
        assert "exit 9" in err.value.reason
        assert list(p._ahead) == [p.search_of(after)]  # to be sent again
        assert p.solve(after).best == "z" and p._child is not first
        p.ahead(bad)
        assert p.solve(good).best == "c"
        assert p.solve(good).best == "c"


def test_a_search_announced_ahead_that_never_ends_is_not_waited_for(tmp_path):
    """The loop stopped before an announced tree that was sent (a
    disagreement): the next, other search does not wait for it, even with
    no time limit."""
    import signal
    program = tmp_path / "loops.pl"  # the slides' program, but it loops at the root r
    program.write_text("alphabeta(r, _, _, _, _) :- !, repeat, fail.\n" + ALPHABETA.read_text())
    one, good, bad = parse("a(b = 1, c = 2)"), parse("a(b = 1, c = 3)"), parse("r(s = 1)")
    old = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("waited for a search that never ends"))
    signal.alarm(30)
    try:
        with PrologProgram(program) as p:
            p.ahead(good)
            p.ahead(bad)
            assert p.solve(one).best == "c"
            assert p.solve(good).best == "c"  # sent with bad behind it
            assert p._sent
            assert p.solve(one).best == "c"  # the looping child was replaced
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
