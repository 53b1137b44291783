"""``--program`` sends the searches the loop announces to the Prolog child
a batch a write (pyab/referee/program.py): each search is still judged on
its own tree, with its own clock, and whatever the program prints is
never taken for the child's record."""

from __future__ import annotations

import math
import shlex
import time

import pytest

from pyab import parse
from pyab.errors import ProgramError
from pyab.referee import PrologRoute
from pyab.referee.program import PrologProgram
from pyab.referee.protocol import SearchBug
from pyab.referee.verdict import Settings, judge
from pyab.search import solve_python
from tests.conftest import PROLOG, pyab_cli
from tests.hostile_programs import honest_with

ALPHABETA = PROLOG / "alphabeta.pl"
TREES = [parse(t) for t in ("a(b = 1, c = 2)", "a(b(d = 4, e = 6), c = 5)", "a(b = 3)",
                            "a(b(d = 1, e = 9), c(f = 2, g = 0))")]


def _batch(p: PrologProgram, first, rest) -> None:
    """The loop's way: ``rest`` announced, ``first`` asked (alone), then
    the next asked goes with the rest in one write."""
    for t in rest:
        p.ahead(t)
    p.solve(first)


def _wrong_at_r(body: str, tmp_path) -> str:
    """The slides' program, but at a root named r it runs ``body``."""
    program = tmp_path / "wrong_at_r.pl"
    program.write_text(honest_with("", f"(P == r -> {body} ; true)"), encoding="utf-8")
    return str(program)


@pytest.mark.parametrize("body, kind", [("staticval(P, _)", "inner-static-value"),
                                        ("moves(zz, _)", "not-a-child"),
                                        ("catch(moves(d, _), _, true)", "not-a-child")])
def test_a_wrong_search_in_a_batch_is_found_on_its_own_tree(tmp_path, body, kind):
    bad = parse("r(s = 1, t = 2)")
    with PrologProgram(_wrong_at_r(body, tmp_path)) as p:
        want = [p.solve(t) for t in TREES]
        _batch(p, TREES[0], [TREES[1], bad, TREES[2], TREES[3]])
        assert p.solve(TREES[1]) == want[1] and len(p._sent) == 3  # in the child: bad and after
        with pytest.raises(SearchBug) as bug:
            p.solve(bad)
        assert bug.value.kind == kind
        assert p._child is None and not p._sent  # the ones after it: to a fresh child
        assert [p.solve(t) for t in TREES[2:]] == want[2:]


def test_a_crash_in_a_batch_fails_its_own_tree(tmp_path):
    bad = parse("r(s = 1, t = 2)")
    with PrologProgram(_wrong_at_r("throw(oops)", tmp_path)) as p:
        _batch(p, TREES[0], [TREES[1], bad, TREES[2]])
        assert p.solve(TREES[1]).best == "c"
        with pytest.raises(ProgramError) as err:
            p.solve(bad)
        assert err.value.kind == "crash" and "oops" in err.value.reason
        assert p.solve(TREES[2]).best == "b"


def test_a_timeout_in_a_batch_costs_one_search(tmp_path):
    """Each search has its own clock: five searches of 0.3 s each in the
    batch before it (1.5 s together, over the 1 s limit) are answered, the
    search that never ends costs its timeout, not the batch's, and the
    searches after it are answered."""
    bad = parse("r(s = 1, t = 2)")
    slow = [parse(f"q(b = {i}, c = 2)") for i in range(5)]
    program = tmp_path / "slow.pl"
    program.write_text(honest_with("", "(P == r -> repeat, fail ; P == q -> sleep(0.3) ; true)"),
                       encoding="utf-8")
    after = [parse(f"a(b = {i}, c(d = 2, e = {i % 5}))") for i in range(20)]
    with PrologProgram(program, timeout=1.0) as p:
        _batch(p, TREES[0], [*slow, bad, *after])
        assert [p.solve(t).value for t in slow] == [2, 2, 2, 3, 4]
        start = time.monotonic()
        with pytest.raises(ProgramError) as err:
            p.solve(bad)
        took = time.monotonic() - start
        assert err.value.kind == "timeout" and 0.9 < took < 2.5, took
        assert [p.solve(t).value for t in after] == [solve_python(t).value for t in after]


def test_the_mutant_is_caught_on_the_batched_path_and_replays(tmp_path):
    """The slides' program with Val > Beta made Val >= Beta disagrees on
    random trees, the run stops there, and the printed replay command,
    run as printed, disagrees again."""
    mutant = tmp_path / "mutant.pl"
    text = ALPHABETA.read_text(encoding="utf-8")
    mutant.write_text(text.replace("Val > Beta, !", "Val >= Beta, !"), encoding="utf-8")
    assert mutant.read_text() != text
    done = pyab_cli("check", "--random", "300", "--seed", "4", "--program", str(mutant),
                    "--save-dir", str(tmp_path))
    assert done.returncode == 1, done.stderr
    assert "DISAGREE on random tree 14" in done.stdout
    replay = done.stdout.strip().splitlines()[-1].strip()
    words = shlex.split(replay)
    assert words[:2] == ["pyab", "check"]
    again = pyab_cli(*words[1:])
    assert again.returncode == 1 and "DISAGREE" in again.stdout, again.stdout + again.stderr


RECORD = '{"asked":[0,3,5,4,6,8],"best":2,"value":2}'  # the honest search's, on a(b = 1, c = 2)


@pytest.mark.parametrize("untrusted", [False, True], ids=["trusted", "untrusted"])
def test_a_printed_record_is_not_taken(tmp_path, untrusted):
    """A program that prints the record of the honest search and answers
    without searching is judged on what it asked: nothing.  (Under
    --untrusted only the current output is its to write on.)"""
    forge = f"format('{RECORD}~n'), write('{RECORD}'), nl, flush_output"
    if not untrusted:
        forge += f", format(user_output, '{RECORD}~n', []), flush_output(user_output)"
    program = tmp_path / "forger.pl"
    program.write_text(f"alphabeta(_, _, _, c, 2) :- {forge}.\n", encoding="utf-8")
    with PrologRoute(str(program), "bratko", untrusted=untrusted) as route:
        for t in TREES[1:]:
            route.ahead(t)
        verdict = judge(route, TREES[0], -math.inf, math.inf, Settings())
        assert verdict.status == "disagree", verdict.lines
        assert verdict.yours is not None and verdict.yours.visited == () and verdict.yours.leaves == ()
        assert RECORD in route._program.stderr  # it went to standard error
        assert judge(route, TREES[1], -math.inf, math.inf, Settings()).status == "disagree"


def test_an_untrusted_program_cannot_write_on_standard_output(tmp_path):
    """Under --untrusted, writing on user_output (the protocol channel's
    alias outside the sandbox) is refused before the search runs."""
    program = tmp_path / "writer.pl"
    program.write_text(f"alphabeta(_, _, _, c, 2) :- format(user_output, '{RECORD}~n', []).\n",
                       encoding="utf-8")
    with PrologRoute(str(program), "bratko", untrusted=True) as route:
        verdict = judge(route, TREES[0], -math.inf, math.inf, Settings())
        assert verdict.status == "error" and verdict.kind == "refused", verdict.lines
