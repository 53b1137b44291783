"""Facts: quoting reads back in a separate SWI-Prolog, and parse -> facts ->
consult -> the same tree."""

from __future__ import annotations

import json

import pytest

import pyab
from pyab.prolog.facts import number, quote

from conftest import EXAMPLES, PROLOG, swipl

AWKWARD = ["b", "X", "_", "_x", "[]", "{}", "'", "\\", "it's", "a\\'b", "'),halt,('",
           ":- shell(touch)", "King e1", "Zürich", "名前", "é", "1", "-3", "2.5", "a\nb", "tab\there",
           "\x01ctl", "is", "mod", "dynamic", "max", "", " ", "[a]", "f(x)", "a.b", "end_of_file",
           "\u00a0nbsp", "emoji\U0001F600"]


def test_quote_reads_back_as_the_same_atom_in_swipl(tmp_path):
    # One fact per name, read by a separate swipl with read_term: each must
    # come back as exactly the same atom (compared via its code list).
    src = tmp_path / "names.pl"
    src.write_text(":- encoding(utf8).\n" + "".join(f"n({quote(n)}).\n" for n in AWKWARD),
                   encoding="utf-8")
    goal = ("set_stream(user_output, encoding(utf8)), "
            f"load_files('{src}', [module(user)]), "
            "forall(n(A), (atom(A) -> atom_codes(A, C), format('~w~n', [C]) ; format('NOT-AN-ATOM~n')))")
    out = swipl("-g", goal, "-t", "halt")
    assert out.returncode == 0, out.stderr
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert got == [[ord(c) for c in n] for n in AWKWARD]


def test_plain_names_stay_bare_and_others_are_quoted():
    assert quote("b") == "b" and quote("r_1_2") == "r_1_2" and quote("aB9") == "aB9"
    assert quote("X") == "'X'" and quote("_") == "'_'" and quote("[]") == "'[]'"
    assert quote("it's") == "'it\\'s'" and quote("a\\b") == "'a\\\\b'"
    assert quote("is") == "'is'"
    with pytest.raises(ValueError, match="NUL"):
        quote("a\0b")


def test_number_text():
    assert [number(x) for x in (3, -2, 2.5, -0.0, 1e300, 1e-7, float("inf"), float("-inf"))] == \
        ["3", "-2", "2.5", "-0.0", "1.0e+300", "1.0e-07", "1.0Inf", "-1.0Inf"]
    assert number(2**100) == str(2**100)


def test_facts_of_the_slides_tree_are_the_slides_facts(slides):
    text = pyab.facts(slides)
    assert "tree(a, [b, c, d])." in text and "staticval(j, 20)." in text
    assert "min_to_move(b)." in text and "max_to_move(m)." in text
    assert text.rstrip().endswith("moves(Pos, Moves) :- tree(Pos, Moves).")


def test_examples_slides_pl_is_in_sync_with_pyab_facts():
    tree = pyab.load(EXAMPLES / "slides.tree")
    assert (EXAMPLES / "slides.pl").read_text(encoding="utf-8") == pyab.facts(tree)


ROUND_TRIP = """
    set_stream(user_output, encoding(utf8)),
    findall(P-K, tree(P, K), Ts), findall(P-V, staticval(P, V), Vs),
    findall(P, min_to_move(P), Mins), findall(P, max_to_move(P), Maxs),
    json_write_dict(current_output, _{trees: Ts2, values: Vs2, mins: Mins, maxs: Maxs}, [width(0)])
"""


def consult_back(tmp_path, tree):
    """Write `pyab facts`, consult them in a separate swipl next to the
    program, and read tree/2, staticval/2 and the sides back as JSON."""
    path = tmp_path / "t.pl"
    path.write_text(pyab.facts(tree), encoding="utf-8")
    goal = (f"consult('{PROLOG / 'alphabeta.pl'}'), consult('{path}'), "
            "use_module(library(http/json)), set_stream(user_output, encoding(utf8)), "
            "findall([P, K], tree(P, K), Ts), "
            "findall([P, V], (staticval(P, V0), format(string(V), '~q', [V0])), Vs), "
            "findall(P, min_to_move(P), Mins), findall(P, max_to_move(P), Maxs), "
            "json_write(current_output, json([trees=Ts, values=Vs, mins=Mins, maxs=Maxs]), [width(0)])")
    out = swipl("-g", goal, "-t", "halt")
    assert out.returncode == 0 and "Warning" not in out.stderr, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.tree")))
def test_facts_round_trip_through_a_separate_swipl(tmp_path, example):
    tree = pyab.load(EXAMPLES / example)
    back = consult_back(tmp_path, tree)
    assert {p: tuple(k) for p, k in back["trees"]} == \
        {n: tree.children(n) for n in tree.names if not tree.is_leaf(n)}
    assert {p: v for p, v in back["values"]} == \
        {n: number(tree.value(n)) for n in tree.names if tree.value(n) is not None}
    assert set(back["mins"]) == {n for n in tree.names if tree.side(n) == "min"}
    assert set(back["maxs"]) == {n for n in tree.names if tree.side(n) == "max"}


def test_awkward_names_round_trip_as_a_tree(tmp_path):
    names = [n for n in AWKWARD if n]
    tree = pyab.parse("root(" + ", ".join(f"{quote(n)} = {i}" for i, n in enumerate(names)) + ")")
    back = consult_back(tmp_path, tree)
    assert back["trees"] == [["root", names]]


def test_no_warning_when_loaded_with_the_program():
    out = swipl(str(PROLOG / "alphabeta.pl"), str(EXAMPLES / "slides.pl"),
                stdin="alphabeta(a, -1000, 1000, GoodPos, Val).\n")
    assert "GoodPos = b" in out.stdout and "Val = 3" in out.stdout
    assert "Warning" not in out.stderr and "ERROR" not in out.stderr, out.stderr


def test_leaf_only_tree_facts_declare_empty_predicates(tmp_path):
    tree = pyab.parse("a = 7")
    text = pyab.facts(tree)
    assert ":- dynamic(tree/2)." in text and ":- dynamic(min_to_move/1)." in text
    path = tmp_path / "leaf.pl"
    path.write_text(text)
    out = swipl(str(PROLOG / "alphabeta.pl"), str(path), stdin="alphabeta(a, -1000, 1000, G, V).\n")
    assert "V = 7" in out.stdout, out.stdout + out.stderr
