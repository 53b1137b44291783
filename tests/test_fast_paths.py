"""The fast paths agree with the definitions they stand in for.

``pyab.flatscan`` (regular expressions for plain flat files) must give the
same tree as the lark grammar, and every text it takes must be one the
grammar takes; ``tree._build_quick`` (bulk checks) must give the same tree
as :func:`pyab.tree.build`'s step-by-step walk, or leave the refusal to it.
Each test runs both paths on the same input: valid trees, and trees broken
on purpose by random edits.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyab
from pyab import dsl, flatscan
from pyab import tree as tree_mod
from pyab.randomtrees import Shape, random_tree


def _outcome(fn, *args):
    try:
        t = fn(*args)
    except (pyab.DSLError, pyab.TreeError) as err:
        return ("error", type(err).__name__, str(err))
    return ("tree", t.names, t.kids, t.values, t.root_side, t.depth, dict(t.index))


def _lark_only(text: str):
    real = dsl.scan
    dsl.scan = lambda _text: None
    try:
        return _outcome(dsl.parse, text, "t.tree")
    finally:
        dsl.scan = real


def _walk_only(*args):
    real = tree_mod._build_quick
    tree_mod._build_quick = lambda *a: None
    try:
        return _outcome(tree_mod.build, *args)
    finally:
        tree_mod._build_quick = real


# Pieces that random edits insert: tokens of every kind, and troublemakers.
_PIECES = ["a", "b", "n1", "max", "min", "maxa", "->", "=", ",", "3", "-2", "+7", "2.5",
           "1e3", "1e999", "9" * 400, "1.", ".5", "#c\n", "% c\n", "\n", " ", "\t", "\r\n",
           "'q'", "(", ")", "[", "]", "\u00a0", "\v", "é", "n1 = 4\n", "a -> n1\n",
           "x -> r\n", "r = 1\n", "r_1 -> r\n", "True"]


def _mutate(text: str, rng: random.Random, edits: int) -> str:
    for _ in range(edits):
        i = rng.randint(0, len(text))
        op = rng.random()
        if op < 0.5:
            text = text[:i] + rng.choice(_PIECES) + text[i:]
        elif op < 0.8:
            text = text[:i] + text[i + rng.randint(1, 4):]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                text += rng.choice(lines)  # a repeated declaration
    return text


def _flat_text(rng: random.Random) -> str:
    shape = Shape(depth=(1, 4), branching=(1, 4), values=(-5, 5), decimals=rng.random() < 0.3)
    text = pyab.dump(random_tree(rng, shape), "flat")
    if rng.random() < 0.3:
        text = text.replace("\n", rng.choice(["  ", "\n\n", " # note\n", "\t%x\n", "\r\n"]))
    if rng.random() < 0.3:
        text = text.replace(" -> ", "->").replace(", ", " ,")
    return text


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 3))
def test_flat_fast_path_agrees_with_lark(rng, edits):
    text = _mutate(_flat_text(rng), rng, edits)
    assert _outcome(dsl.parse, text, "t.tree") == _lark_only(text)


@pytest.mark.parametrize("text", [
    "max -> b\nb = 1", "max = 3", "max a -> b\nb=1", "min max -> b\nb = 1", "maxa -> b\nb = 1",
    "a -> b, c\nb=3c=4", "a -> xy = 3", "a -> b\nb = 1e999", "a -> b\nb = 1.", "a -> b,\nb = 1",
    "a -> b\nb = " + "9" * 5000, "a -> b\nb = 9007199254740993\nc = 0.5\na -> c", "max",
    "a -> b\nb = 1\nb = 2", "a -> b\nb -> a", "a -> b\nc -> d\nb = 1\nd = 2", "a -> b",
    "a -> b, c\nb = 0.5\nc = 1" + "0" * 400, "a = 1 # comment\n", "# only a comment\n", "", "a -> 'b'\n'b' = 1",
])
def test_flat_fast_path_edge_cases(text):
    assert _outcome(dsl.parse, text, "t.tree") == _lark_only(text)


def test_flat_fast_path_is_taken_only_for_plain_flat_text():
    assert flatscan.scan("a -> b\nb = 1") is not None
    for text in ("a(b=1)", "[1, 2]", "a -> 'b'\n'b' = 1", "a -> b b"):
        assert flatscan.scan(text) is None


def _declarations(rng: random.Random):
    """Random build() input, often broken: shared children, cycles, repeated
    values, missing values, odd numbers and names."""
    tree = random_tree(rng, Shape(depth=(0, 3), branching=(1, 3), values=(-3, 3)))
    edges = [(tree.names[i], (1, i), [(tree.names[k], (2, k)) for k in ks])
             for i, ks in enumerate(tree.kids) if ks]
    values = [(tree.names[i], v, (3, i)) for i, v in enumerate(tree.values) if v is not None]
    defined = [(n, (4, i)) for i, n in enumerate(tree.names)] if rng.random() < 0.3 else []
    odd = [True, 0.5, float("inf"), float("nan"), 2**53 + 1, 2**1030, -2**1030, "3", None]
    for _ in range(rng.randint(0, 3)):
        r = rng.random()
        if r < 0.15 and edges:
            name, pos, ks = rng.choice(edges)
            edges.append((name, pos, ks[:1]))
        elif r < 0.3 and edges:
            _, _, ks = rng.choice(edges)
            ks.append(rng.choice([(n, (5, 0)) for n in tree.names]))
        elif r < 0.45 and values:
            values.append(rng.choice(values))
        elif r < 0.6 and values:
            i = rng.randrange(len(values))
            values[i] = (values[i][0], rng.choice(odd), values[i][2])
        elif r < 0.7 and values:
            values.pop(rng.randrange(len(values)))
        elif r < 0.8:
            edges.append((rng.choice(["z", tree.names[0]]), (6, 0), [(rng.choice(tree.names), (6, 1))]))
        elif r < 0.9 and edges:
            name, pos, ks = edges[0]
            edges[0] = (name, pos, [(rng.choice(["x\0y", "\ud800", "ok"]), (7, 0))] + ks)
        elif defined:
            defined.append(rng.choice(defined))
    side = rng.choice(["max", "min", "max", "up"])
    return edges, values, side, defined


@settings(max_examples=500, deadline=None)
@given(st.randoms(use_true_random=False))
def test_quick_build_agrees_with_the_walk(rng):
    args = _declarations(rng)
    assert _outcome(tree_mod.build, *args) == _walk_only(*args)


_SAME_CLAUSES = r"""
same_clauses(Dir, N) :-
    forall(between(1, N, I),
           ( format(atom(F), '~w/~w.pl', [Dir, I]),
             format(atom(Nm), '~w/~w.names', [Dir, I]),
             format(atom(Sh), '~w/~w.shape', [Dir, I]),
             read_file_to_string(F, Facts, [encoding(utf8)]),
             read_file_to_string(Nm, Names, [encoding(utf8)]),
             read_file_to_string(Sh, Shape, [encoding(utf8)]),
             format(atom(A), 'text~w', [I]), format(atom(B), 'packed~w', [I]),
             pyab_bridge:load_tree(A, Facts),
             pyab_bridge:load_packed(B, Names, Shape),
             clauses_(A, CA), clauses_(B, CB),
             (   CA == CB
             ->  true
             ;   format("tree ~w differs~n~q~n~q~n", [I, CA, CB]), halt(1)
             ) )).

clauses_(M, Cs) :-
    findall(H-B, ( member(H, [tree(_, _), staticval(_, _), min_to_move(_), max_to_move(_)]),
                   clause(M:H, B) ), Cs).
"""


def test_packed_load_gives_the_clauses_of_the_fact_text(tmp_path):
    """The bridge's packed loader asserts what reading pyab.facts() asserts,
    clause for clause and in the same order (checked in a separate swipl)."""
    from pyab.facts import facts
    from pyab.prolog import PROLOG_DIR, _packed
    from tests.conftest import swipl

    rng = random.Random(7)
    trees = [pyab.parse("min a(b(e=3, f=12.5), 'c d' = 4('x\\'y'=-2, 'é'=1e300))"),
             pyab.parse("n = 5"), pyab.parse("'' -> '0', '1'\n'0' = 1\n'1' = -0.5")]
    trees += [random_tree(rng, Shape(depth=(0, 4), branching=(1, 4), decimals=True)) for _ in range(40)]
    for i, t in enumerate(trees, 1):
        names, shape = _packed(t)
        (tmp_path / f"{i}.pl").write_text(facts(t), encoding="utf-8")
        (tmp_path / f"{i}.names").write_text(names, encoding="utf-8")
        (tmp_path / f"{i}.shape").write_text(shape, encoding="utf-8")
    prog = tmp_path / "same.pl"
    prog.write_text(_SAME_CLAUSES, encoding="utf-8")
    done = swipl("-g", f"use_module('{PROLOG_DIR / 'pyab_bridge.pl'}')",
                 "-g", f"same_clauses('{tmp_path}', {len(trees)})", "-t", "halt", str(prog))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stderr, done.stderr
