"""The fast paths agree with the definitions they stand in for.

``pyab.dsl.flatscan`` (regular expressions for plain flat files) must give the
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
from pyab.dsl import flatscan
from pyab.dsl import reader as dsl
from pyab.tree import builder as tree_mod
from pyab.trees.randomtrees import Shape, random_tree


def _outcome(fn, *args):
    try:
        t = fn(*args)
    except (pyab.DSLError, pyab.TreeError) as err:
        return ("error", type(err).__name__, str(err))
    return ("tree", t.names, t.kids, t.values, t.root_side, t.sides, t.depth, dict(t.index))


def _lark_only(text: str):
    real = dsl._fast
    dsl._fast = lambda _text: None
    try:
        return _outcome(dsl.parse, text, "t.tree")
    finally:
        dsl._fast = real


def _fast_taken(text: str):
    """The tree the fast paths read, with lark out of reach (fails if they
    leave the text to it)."""
    real = dsl._parser
    dsl._parser = None  # type: ignore[assignment]
    try:
        return _outcome(dsl.parse, text, "t.tree")
    finally:
        dsl._parser = real


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


def test_flat_fast_path_is_taken_only_for_flat_text():
    assert flatscan.scan("a -> b\nb = 1") is not None
    assert flatscan.scan("a -> 'b'\n'b' = 1") is not None
    for text in ("a(b=1)", "[1, 2]", "a -> b b", "a -> 'b\\q'\n'b\\q' = 1"):
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
    from pyab.prolog.facts import facts
    from pyab.prolog.bridge import PROLOG_DIR, _packed
    from tests.conftest import swipl

    rng = random.Random(7)
    trees = [pyab.parse("min a(b(e=3, f=12.5), 'c d' = 4('x\\'y'=-2, 'é'=1e300))"),
             pyab.parse("n = 5"), pyab.parse("'' -> '0', '1'\n'0' = 1\n'1' = -0.5"),
             pyab.parse("a(min b(min c(d = 3)), e = 1)"),                 # sides per node
             pyab.parse(f"a(b = {2 ** 70}, c = -{2 ** 65}, d = 0)"),      # ints only, big ones
             pyab.parse("a = 7(b(c = 1, d = 2), e = 3)")]                 # a value on an inner node
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


# -- the nested and list forms, quoted names, comments (pyab.dsl.treescan) -------

_NESTED_PIECES = _PIECES + ["a(", "b = 2 (", "))", "(c=1)", "# ) , (\n", "% 'x\n", "'it''s'",
                            "'a\\\\x41\\\\b'", "'\\\\q'", "'\\\\x0\\\\'", "'\\\\uD800'", "'#%'", "max ",
                            "min(", "[1]", "= 5", "a = 1"]


def _list_text(tree: pyab.Tree) -> str:
    """``tree`` in the list form (its names are dropped)."""
    def one(i: int) -> str:
        ks = tree.kids[i]
        return "[" + ", ".join(one(k) for k in ks) + "]" if ks else pyab.dump(
            pyab.Tree(("x",), ((),), (tree.values[i],)), "nested").split("= ")[1].strip()
    return ("min " if tree.root_side == "min" else "") + one(0) + "\n"


def _quoted(text: str, rng: random.Random) -> str:
    """Some bare names turned into quoted ones, with quotes and escapes."""
    for n in sorted(set(__import__("re").findall(r"\bn\d+\b", text)), key=len, reverse=True):
        if rng.random() < 0.5:
            text = __import__("re").sub(rf"\b{n}\b", rng.choice(
                [f"'{n} it''s'", f"'{n}#%,()'", f"'\\\\x41\\\\{n}'", f"'{n}\\\\n'", f"'{n}'"]), text)
    return text


def _respace(text: str, rng: random.Random) -> str:
    if rng.random() < 0.4:
        gap = rng.choice(["  ", "\n", " # it's ) a, comment\n", "\t% ( ] [\n", "\r\n", "\f"])
        for sep in ("(", ")", ",", "[", "]") if rng.random() < 0.5 else (",",):
            text = text.replace(sep, sep + gap)
    return text


def _any_text(rng: random.Random) -> str:
    shape = Shape(depth=(1, 4), branching=(1, 4), values=(-5, 5), decimals=rng.random() < 0.3)
    tree = random_tree(rng, shape)
    form = rng.choice(["nested", "list", "flat"])
    text = _list_text(tree) if form == "list" else pyab.dump(tree, form)
    if form != "list" and rng.random() < 0.5:
        text = _quoted(text, rng)
    return _respace(text, rng)


@settings(max_examples=400, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 3))
def test_every_fast_path_agrees_with_lark(rng, edits):
    """Nested, list and flat texts (quoted names, comments with quotes and
    brackets), valid and edited at random: the same tree or the same error."""
    text = _any_text(rng)
    for _ in range(edits):
        i = rng.randint(0, len(text))
        r = rng.random()
        if r < 0.6:
            text = text[:i] + rng.choice(_NESTED_PIECES) + text[i:]
        else:
            text = text[:i] + text[i + rng.randint(1, 4):]
    assert _outcome(dsl.parse, text, "t.tree") == _lark_only(text)


@pytest.mark.parametrize("text", [
    "a(b=1)", "min a(b(e=3, f=12), c = 4 (h=2))", "max max(min=1, maxa=2)", "min max(b=1)",
    "a(b=1,)", "a()", "a(b)", "a(b=1) c", "a(b=1), c(d=2)", "a(b=1))", "a((b=1)", "a = 3",
    "a(b=1, b=2)", "a(a=1)", "a('b c' = 1, 'b c' = 2)", "a('it''s' = 1, 'x\\\\y' = 2)",
    "a('\\\\x41\\\\' = 1, 'A' = 2)", "a('\\\\x0\\\\' = 1)", "a('\\\\uD800' = 1)", "a(b = 1e999)",
    "a(b = 1.)", "a(b = 9007199254740993, c = 0.5)", "a(b = " + "9" * 5000 + ")", "a(b=1 # ) x\n)",
    "a(b=1 % ,\n, c=2)", "a(b=1, # 'q\n c=2)", "a('#' = 1, '%' = 2) # it's", "a(\n\fb=1\r\n)",
    "[1, 2]", "min [[3, 12, 8], [2, 4, 6]]", "[]", "[[]]", "[1,]", "[1 2]", "[[1], 2]]", "[1]]",
    "[[1]", "[1] [2]", "[1, [2, [3, [4]]]]", "[1e999]", "[0.5, 9007199254740993]", "[1, # ]\n 2]",
    "max [1]", "max[1]", "[1] # it's", "['a']", "1", "[-1, +2, 3.5e2]", "a -> b\nb = 1 # it's",
    "'a b' -> 'c'\n'c' = 1", "a -> 'b', # ' c\n c\n'b' = 1\nc = 2", "'a' -> b\na = 1\nb = 2",
    "a -> b, 'c''d'\nb = 1\n'c''d' = 2", "a -> 'b\\\\x41\\\\'\n'bA' = 1", "'max' -> b\nb = 1",
    # sides per node (`max`/`min` before a name)
    "a(min b(min c(d = 3)), e = 1)", "min a(max b = 1, c = 2)", "min min a(b=1)", "max a(max b(c=1))",
    "a(max = 3, min b = 2)", "a(max'b' = 1)", "a(maxb = 1)", "a(min min = 1)", "a(min max(min = 1))",
    "max [1]", "min b -> c, d\nmax d = 3\nc = 1\nb = 0", "a -> b\nmax b = 1", "min b = 3\nmin a -> b",
    "a(b = 1, min)", "a(min, b = 1)", "a(min (b = 1))",
])
def test_fast_paths_edge_cases(text):
    assert _outcome(dsl.parse, text, "t.tree") == _lark_only(text)


def test_the_benchmark_shapes_take_the_fast_paths():
    """Each shape and name style the benchmark measures is read without lark
    (small versions), and the same as lark reads it."""
    from benchmarks import shapes
    texts = [shapes.dfs(3, 3), shapes.quoted(3, 3), shapes.ragged(300), shapes.nested(3, 3),
             shapes.listform(3, 3), shapes.deep_list(300), "a(min b(min c(d = 3)), e = 1)"]
    for text in texts:
        fast = _fast_taken(text)
        assert fast[0] == "tree", fast
        assert fast == _lark_only(text)


def test_deep_list_form_has_lazy_names_that_agree():
    text = "[" * 2000 + "[7, 8]" + "]" * 2000
    fast = dsl.parse(text)
    real = dsl._fast
    dsl._fast = lambda _t: None
    try:
        slow = dsl.parse(text)
    finally:
        dsl._fast = real
    assert type(fast.names).__name__ == "DeweyNames"  # too long to spell them all
    assert len(fast) == len(slow) and fast.names == slow.names
    for name in (slow.names[0], slow.names[1500], slow.names[-1], slow.names[-2]):
        assert fast.index[name] == slow.index[name] and name in fast
    for bad in ("r_2", "r_1_1_0", "r_01", "r_", "x", "r_1_1_1_3"):
        assert bad not in fast
    assert (fast.kids, fast.values, fast.depth) == (slow.kids, slow.values, slow.depth)


_CAPPED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GB of address space
import pyab
t = pyab.parse("[" * 50_000 + "1" + "]" * 50_000)
assert len(t) == 50_001 and t.values[-1] == 1 and t.kids[-1] == () and t.depth[-1] == 50_000
assert t.names[-1] == "r" + "_1" * 50_000 and t.index[t.names[-1]] == 50_000
print("ok")
"""


def test_list_form_memory_is_linear():
    """A 100 KB list-form file 50,000 deep (its Dewey names together would be
    2.5 GB) parses in 1 GB of address space."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", _CAPPED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


# -- the compiled loader (pyab/_cload.c) --------------------------------------

_COMPARE = r"""
:- module(test_clauses_pyab, [same_clauses/3]).
same_clauses(A, B, Out) :-
    clauses_(A, CA), clauses_(B, CB),
    (   CA == CB
    ->  length(CA, N), format(string(Out), "same ~d", [N])
    ;   format(string(Out), "differ~n~q~n~q", [CA, CB])
    ).
clauses_(M, Cs) :-
    findall(H-B, ( member(H, [tree(_, _), staticval(_, _), min_to_move(_), max_to_move(_)]),
                   clause(M:H, B) ), Cs).
"""


def _loader_trees() -> list[pyab.Tree]:
    """The trees of the packed loader's comparison, and what only the
    compiled loader could get wrong: 64-bit limits, -0.0, names beyond
    Latin-1 (UTF-8 of 2, 3 and 4 bytes), lazy Dewey names, a MIN root."""
    rng = random.Random(7)
    trees = [pyab.parse("min a(b(e=3, f=12.5), 'c d' = 4('x\\'y'=-2, 'é'=1e300))"),
             pyab.parse("n = 5"), pyab.parse("'' -> '0', '1'\n'0' = 1\n'1' = -0.5"),
             pyab.parse("a(min b(min c(d = 3)), e = 1)"),
             pyab.parse(f"a(b = {2 ** 70}, c = -{2 ** 65}, d = 0)"),
             pyab.parse("a = 7(b(c = 1, d = 2), e = 3)")]
    trees += [random_tree(rng, Shape(depth=(0, 4), branching=(1, 4), decimals=True)) for _ in range(40)]
    trees += [pyab.parse(f"a(b = {2 ** 63 - 1}, c = -{2 ** 63}, d = {2 ** 62}, e = -{2 ** 62 + 1})"),
              pyab.parse(f"a(b = {2 ** 63}, c = 1)"),                       # one past 64 bits
              pyab.parse("min a('日本' = -0.0, 'ß' = 0.0, '😀 x' = 2.5e-310, 'Ω' = -1.5)"),
              pyab.parse("min [[3, 12, 8], [2, 4, 6], [14, 5, 2]]"),
              pyab.parse("[" * 300 + "[7, 8]" + "]" * 300),                 # DeweyNames
              pyab.parse("max a(max b(c = 1), min d(max e = 2))")]
    return trees


def test_compiled_load_gives_the_clauses_of_the_fact_text(tmp_path):
    """The compiled loader asserts what reading pyab.facts() asserts, clause
    for clause and in the same order, in this process's SWI-Prolog; a tree
    with a value it does not take (an int beyond 64 bits) is left to
    load_packed/3 whole."""
    from pyab.prolog import bridge as prolog
    from pyab.prolog.facts import facts

    loader = prolog._cload
    if loader is None:
        pytest.skip("the compiled loader is not built or PYAB_PURE_PYTHON is set (tests/prolog/test_cload.py)")
    helper = tmp_path / "compare.pl"
    helper.write_text(_COMPARE, encoding="utf-8")
    eng = prolog.engine()
    rt = eng._rt
    rt.call("use_module", [("atom", str(helper))], module="user")
    taken = 0
    for i, t in enumerate(_loader_trees(), 1):
        text, compiled = f"pyab_cmp_text{i}", f"pyab_cmp_c{i}"
        with eng.lock:
            try:
                rt.call("load_tree", [("atom", text), ("string", facts(t))])
                if loader.fits(t.values):
                    rt.load_compiled(loader, compiled, t)
                    taken += 1
                else:
                    assert any(type(v) is int and not -2 ** 63 <= v < 2 ** 63 for v in t.values)
                    names, shape = prolog._packed(t)
                    rt.call("load_packed", [("atom", compiled), ("string", names), ("string", shape)])
                out = rt.call("same_clauses", [("atom", text), ("atom", compiled), None],
                              module="test_clauses_pyab")[2]
            finally:
                rt.call("drop", [("atom", text)])
                rt.call("drop", [("atom", compiled)])
        clauses = len(t) + sum(1 for ks in t.kids if ks) + sum(v is not None for v in t.values)
        assert out == f"same {clauses}", (i, out)
    assert taken == len(_loader_trees()) - 2  # all but the two with ints beyond 64 bits


@pytest.mark.parametrize("text", [
    "min a -> b, 'c d'\nb = 3  'c d' = 2.5  # it's a comment",
    "a(b(e=3, f=12), 'c d' = 1 (h=2))",
    "max [[3, 12], 8]",
])
def test_without_the_regular_expressions_as_on_python_310(monkeypatch, text):
    """Python 3.10's `re` has no possessive quantifiers: there the scanners
    of flatscan and treescan stand aside (FAST is false) and the compiled
    scanner or lark reads every text, to the same tree."""
    from pyab.dsl import treescan
    want = _outcome(dsl.parse, text, "t.tree")
    monkeypatch.setattr(flatscan, "FAST", False)
    monkeypatch.setattr(treescan, "FAST", False)
    monkeypatch.setattr(dsl, "FAST", False)
    assert flatscan.scan(text) is None and treescan.scan_nested(text) is None
    assert treescan.scan_list(text) is None and dsl._fast_python(text) is None
    assert _outcome(dsl.parse, text, "t.tree") == want
    monkeypatch.setattr(dsl, "_cscan", None)
    assert _outcome(dsl.parse, text, "t.tree") == want
