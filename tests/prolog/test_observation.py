"""The bridge's record of a search (prolog/pyab_bridge.pl: event_/1,
leaf_event_/2, collect/4) against the definition of the observed lists.

Every program shipped queries the nodes in depth-first tree order, so
collect/4 takes its one-pass walk for them (the other tests compare those
runs with the mirror).  The programs here query in other orders, which the
walk must notice and hand to the general path: the expected lists are
worked out from the definition, on the calls the program makes.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

import pyab

from strategies import trees

# Searches every node, children right to left: no node twice, but not in
# depth-first tree order either.
RIGHT_TO_LEFT = """\
alphabeta(Pos, _, _, _, Val) :- rl_(Pos, Val).
rl_(Pos, 0) :- moves(Pos, Kids), !, rev_(Kids, [], Rev), all_(Rev).
rl_(Pos, Val) :- staticval(Pos, Val).
all_([]).
all_([K|Ks]) :- rl_(K, _), all_(Ks).
rev_([], R, R).
rev_([X|Xs], R0, R) :- rev_(Xs, [X|R0], R).
"""

# Goes down the rightmost children, then asks the root again: a position
# queried twice, with other calls between.
RIGHTMOST_THEN_ROOT = """\
alphabeta(Pos, _, _, _, Val) :- down_(Pos, Val), moves(Pos, _).
down_(Pos, Val) :- moves(Pos, Kids), !, last_(Kids, K), down_(K, Val).
down_(Pos, Val) :- staticval(Pos, Val).
last_([X], X) :- !.
last_([_|Xs], X) :- last_(Xs, X).
"""


def calls_right_to_left(tree, n, out):
    out.append(("m", n))
    kids = tree.kids_of(n)
    if kids:
        for k in reversed(kids):
            calls_right_to_left(tree, k, out)
    else:
        out.append(("s", n))


def calls_rightmost_then_root(tree, root, out):
    n = root
    while True:
        out.append(("m", n))
        kids = tree.kids_of(n)
        if not kids:
            out.append(("s", n))
            break
        n = kids[-1]
    out.append(("m", root))


def expected(tree, calls):
    """leaves, visited, pruned by the definition (README.md, `--json`)."""
    leaves = [tree.name_of(n) for k, n in calls if k == "s"]
    seen: list[int] = []
    for _, n in calls:
        if n not in seen:
            seen.append(n)
    visited = set(seen)
    pruned: list[str] = []

    def walk(n):
        for k in tree.kids_of(n):
            if k in visited:
                walk(k)
            else:
                pruned.append(tree.name_of(k))

    if seen:
        walk(seen[0])
    return tuple(leaves), tuple(tree.name_of(n) for n in seen), tuple(pruned)


# The slides' program, except that a leaf's value is read twice: in depth-first
# order, but leaves are not one per visited node, so the answer lists them.
READ_TWICE = """\
alphabeta(Pos, _, _, _, Val) :- tw_(Pos, Val).
tw_(Pos, 0) :- moves(Pos, Kids), !, all_(Kids).
tw_(Pos, Val) :- staticval(Pos, Val), staticval(Pos, Val).
all_([]).
all_([K|Ks]) :- tw_(K, _), all_(Ks).
"""


def calls_read_twice(tree, n, out):
    out.append(("m", n))
    kids = tree.kids_of(n)
    if kids:
        for k in kids:
            calls_read_twice(tree, k, out)
    else:
        out += [("s", n), ("s", n)]


@settings(max_examples=40, deadline=None)
@given(tree=trees())
def test_a_leaf_read_twice_is_listed_twice(tmp_path_factory, tree):
    program = tmp_path_factory.mktemp("twice") / "twice.pl"
    program.write_text(READ_TWICE)
    calls: list = []
    calls_read_twice(tree, tree.root_node, calls)
    res = pyab.solve(tree, program=str(program))
    assert observed(res) == expected(tree, calls)
    assert len(res.leaves) == 2 * sum(1 for n in range(len(tree)) if not tree.kids_of(n))


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    d = tmp_path_factory.mktemp("orders")
    (d / "rtl.pl").write_text(RIGHT_TO_LEFT)
    (d / "rmr.pl").write_text(RIGHTMOST_THEN_ROOT)
    return d / "rtl.pl", d / "rmr.pl"


def observed(res):
    return res.leaves, res.visited, res.pruned


@settings(max_examples=60, deadline=None)
@given(tree=trees())
def test_right_to_left_takes_the_general_path(programs, tree):
    calls: list = []
    calls_right_to_left(tree, tree.root_node, calls)
    res = pyab.solve(tree, program=str(programs[0]))
    assert observed(res) == expected(tree, calls)
    assert res.pruned == ()


@settings(max_examples=60, deadline=None)
@given(tree=trees())
def test_a_position_asked_twice_is_visited_once(programs, tree):
    calls: list = []
    calls_rightmost_then_root(tree, tree.root_node, calls)
    res = pyab.solve(tree, program=str(programs[1]))
    assert observed(res) == expected(tree, calls)
    assert res.visited.count(tree.root) == 1


def test_the_record_grows_past_its_first_size():
    """The store starts with room for 1,024 calls and doubles: minimax on
    a 3,000-node tree makes about 5,700 calls."""
    from benchmarks.bigtree import flat_text

    tree = pyab.parse(flat_text(3000))
    res = pyab.check(tree, algorithm="minimax")
    assert len(res.visited) == len(tree) == 3000
    assert len(res.leaves) == sum(1 for n in range(len(tree)) if not tree.kids_of(n))
    assert res.pruned == ()
    res = pyab.check(tree, "bratko", -math.inf, math.inf)
    assert res.visited[0] == tree.root


def test_a_search_cut_short_leaves_no_record_behind(tmp_path, slides):
    """A search stopped by its time limit leaves its record full of calls
    on the root; the next solve starts from an empty record and agrees
    with the mirror."""
    busy = tmp_path / "busy.pl"
    busy.write_text("alphabeta(Pos, _, _, _, _) :- repeat, moves(Pos, _), fail.\n")
    with pytest.raises(pyab.SearchTimeout):
        pyab.solve(slides, program=str(busy), timeout=0.2)
    again = pyab.check(slides)
    assert again.visited[0] == slides.root
    assert again.visited.count(slides.root) == 1
    assert observed(again) == observed(pyab.solve(slides))
