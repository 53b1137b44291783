"""The compiled scanner (pyab/_cscan.c) agrees with the pure-Python fast
paths and with lark, and is built and used.

For every text three readers answer: ``_cscan.scan`` (the Tree's arrays, or
None when it is not sure), ``dsl._fast_python`` (pyab.dsl.flatscan and
pyab.dsl.treescan, or None) and lark alone (a Tree, or a DSLError naming
FILE:LINE:COL).  Whatever the compiled scanner returns must be lark's tree,
field for field and value type for value type; when lark refuses a text the
compiled scanner must return None, so that the error still comes from lark.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyab
from pyab.dsl import reader as dsl
from pyab.dsl.flatscan import QUOTED
from pyab.dsl.quoted import unquote
from pyab.trees.randomtrees import Shape, random_tree
from pyab.tree import Tree, with_sides

from conftest import ROOT

def _compiled():
    # Not importorskip: in the checkout's venv (make setup) the extension must
    # be there, and a missing one is a failure, not a skip.
    from pyab.dsl import _cscan
    return _cscan


def _fields(t: Tree):
    """Everything that makes a Tree, with the type of every value (1 == 1.0
    in Python, but not in the DSL)."""
    return ("tree", tuple(t.names), t.kids, tuple((type(v).__name__, repr(v)) for v in t.values),
            t.root_side, t.sides, t.depth, dict(t.index))


def _lark(text: str):
    real = dsl._fast
    dsl._fast = lambda _text: None
    try:
        return _fields(dsl.parse(text, "t.tree"))
    except pyab.DSLError as err:
        return ("error", str(err))
    finally:
        dsl._fast = real


def _c(text: str):
    arrays = _compiled().scan(text)
    return None if arrays is None else _fields(dsl._from_arrays(arrays))


def _py(text: str):
    t = dsl._fast_python(text)
    return None if t is None else _fields(t)


def _agree(text: str, must_take: bool = False) -> None:
    lark = _lark(text)
    c, py = _c(text), _py(text)
    if must_take:
        assert c is not None, text
    if c is not None:
        assert c == lark, text
    if py is not None:
        assert py == lark, text
    # and through pyab.parse, with the compiled scanner in front
    try:
        whole = _fields(dsl.parse(text, "t.tree"))
    except pyab.DSLError as err:
        whole = ("error", str(err))
    assert whole == lark, text


# -- it is built, and pyab.parse uses it --------------------------------------

def test_the_extension_is_built_and_used():
    """``make setup`` builds pyab/_cscan.c (setup.py, optional=True): in the
    checkout's venv it must be there, and pyab.dsl must take it."""
    module = _compiled()
    assert module.__file__.endswith((".so", ".pyd")), module.__file__
    if os.environ.get("PYAB_PURE_PYTHON", "") not in ("", "0"):
        assert dsl._cscan is None
        return
    assert dsl._cscan is module
    real = dsl._fast_python
    dsl._fast_python = lambda _text: pytest.fail("the pure-Python path ran")
    try:
        tree = pyab.parse("a(b(e = 3, f = 12), 'c d' = 1 (h = 2.5))")
    finally:
        dsl._fast_python = real
    assert tree.names == ("a", "b", "e", "f", "c d", "h") and tree.values[-1] == 2.5


def test_the_environment_variable_forces_the_python_path():
    code = "from pyab.dsl import reader as dsl; print(dsl._cscan is None)"
    for value, pure in (("1", "True"), ("0", "False"), ("", "False")):
        env = {**os.environ, "PYAB_PURE_PYTHON": value}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                             cwd=ROOT, timeout=60)
        assert out.stdout.strip() == pure, (value, out.stdout, out.stderr)


def test_the_benchmark_shapes_take_the_compiled_scanner():
    from benchmarks import shapes
    for text in (shapes.dfs(3, 3), shapes.quoted(3, 3), shapes.ragged(300), shapes.nested(3, 3),
                 shapes.listform(3, 3), "a(min b(min c(d = 3)), e = 1)", "min [[1, 2], 3.5]"):
        _agree(text, must_take=True)


def test_deep_list_trees_are_read_without_spelling_their_names():
    """Dewey names longer than eight characters per character of input are
    not made: the compiled scanner gives the arrays with the parent links
    instead, and the Tree spells a name when asked (treescan's DeweyNames,
    linear memory), as the pure-Python path does."""
    deep = "[" * 2000 + "[7, 8]" + "]" * 2000
    names, kids, values, links, depth, side, marks = _compiled().scan(deep)
    assert names is None and links[0][:3] == [-1, 0, 1] and links[1][:3] == [0, 1, 1]
    assert len(kids) == 2003 and values[-2:] == (7, 8) and depth[-1] == 2001 and side == "max"
    real = dsl._fast_python
    dsl._fast_python = lambda _text: pytest.fail("the pure-Python path ran")
    try:
        tree = pyab.parse(deep)
    finally:
        dsl._fast_python = real
    assert type(tree.names).__name__ == "DeweyNames" and len(tree) == 2003
    assert tree.names[-1] == "r" + "_1" * 2000 + "_2" and tree.index[tree.names[-1]] == 2002
    assert _fields(tree) == _lark(deep)
    shallow = "[" * 100 + "[7, 8]" + "]" * 100
    _agree(shallow, must_take=True)


def _no_python_path(text: str):
    """pyab.parse with the compiled scanner in front and the pure-Python
    scanners made to fail the test if they run."""
    real = dsl._fast_python
    dsl._fast_python = lambda _text: pytest.fail("the pure-Python path ran")
    try:
        return _fields(dsl.parse(text, "t.tree"))
    except pyab.DSLError as err:
        return ("error", str(err))
    finally:
        dsl._fast_python = real


@pytest.mark.parametrize("text", [
    "a -> b\nb = " + "9" * 309,                          # an int the scanner leaves to lark: too large
    "a -> b\nb = 1" + "0" * 308,                         # ... and one build() takes
    "a -> '\\q'\n'\\q' = 1",                            # an escape it leaves to lark
    "[" * 3000 + "1" + "]" * 3000,                        # Dewey names too long to spell
    "a(b = 1, b = 2)", "a -> b\nb -> a", "",              # errors
    "min [[3, 12, 8], [2, 4, 6]]", "a(b(e=3, f=12), c = 4 (h=2))", "a -> b, c\nb = 1\nc = 2",
])
def test_one_reader_a_form(text):
    """With the compiled scanner built, a text is read by it or by lark (for
    what it declines, and for every error), never by the pure-Python
    scanners; the tree or the error is the pure-Python form's own."""
    if dsl._cscan is None:
        pytest.skip("PYAB_PURE_PYTHON=1: the pure-Python form")
    with_c = _no_python_path(text)
    real = dsl._cscan
    dsl._cscan = None
    try:
        pure = _fields(dsl.parse(text, "t.tree"))
    except pyab.DSLError as err:
        pure = ("error", str(err))
    finally:
        dsl._cscan = real
    assert with_c == pure == _lark(text)


# -- random trees in every form, hostile names --------------------------------

_NAME_CHARS = st.sampled_from(list("abcxyzAZ09_ ',#%()[]=->\\\"`\t\né€😀ß\x01\x7f") + ["''", "ö"])
_names = st.one_of(st.from_regex(r"[a-z][A-Za-z0-9_]{0,6}", fullmatch=True),
                   st.sampled_from(["max", "min", "maxa", "r_1", "it's", "#%", "a b", "", "n1"]),
                   st.lists(_NAME_CHARS, min_size=1, max_size=8).map("".join))
_values = st.one_of(st.integers(-50, 50), st.integers(-2**70, 2**70), st.integers(-2**53 - 9, 2**53 + 9),
                    st.floats(allow_nan=False, allow_infinity=False, width=64),
                    st.sampled_from([0.5, -0.0, 1e300, 2.5e-300, 10**300, -(10**307)]))


def _respell(quoted: str, rng: random.Random) -> str:
    """A quoted name written with other escapes for the same characters."""
    out = []
    for ch in unquote(quoted):
        r = rng.random()
        if ch == "'":
            out.append(rng.choice(["''", "\\'"]))
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append(rng.choice(["\\n", "\\xa\\", "\\12\\"]))
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or r < 0.15:
            code = ord(ch)
            forms = [f"\\x{code:x}\\", f"\\{code:o}\\"]
            if code <= 0xFFFF:
                forms.append(f"\\u{code:04x}")
            forms.append(f"\\U{code:08X}")
            if ch == " ":
                forms.append("\\s")
            if ch == "\t":
                forms.append("\\t")
            out.append(rng.choice(forms))
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def _list_text(tree: Tree) -> str:
    from pyab.prolog.facts import number

    def one(i: int) -> str:
        ks = tree.kids[i]
        return "[" + ", ".join(one(k) for k in ks) + "]" if ks else number(tree.values[i])
    return ("min " if tree.root_side == "min" else "") + one(0) + "\n"


def _decorate(text: str, rng: random.Random) -> str:
    """Comments with apostrophes and brackets, odd white space, re-spelled
    escapes inside quoted names."""
    if rng.random() < 0.5:
        text = re.sub(QUOTED, lambda m: _respell(m.group(0), rng), text)
    if rng.random() < 0.4:
        gap = rng.choice(["  ", "\n", " # it's ) a, comment\n", "\t% ( ] [ '\n", "\r\n", "\f", "\n\n"])
        for sep in ("(", ")", ",", "[", "]", "->", "=") if rng.random() < 0.5 else (",",):
            text = text.replace(sep + " ", sep + gap) if sep in ("->", "=") else text.replace(sep, sep + gap)
    if rng.random() < 0.3:
        text = "# a tree, it's 'quoted'\n% and [this] too\n" + text + "% the end's here"
    return text


@st.composite
def _texts(draw):
    rng = draw(st.randoms(use_true_random=False))
    tree = random_tree(rng, Shape(depth=(1, 4), branching=(1, 4), values=(-5, 5),
                                  decimals=rng.random() < 0.3))
    n = len(tree)
    names = draw(st.lists(_names, min_size=n, max_size=n, unique=True)) if draw(st.booleans()) else tree.names
    values = tuple(draw(_values) if v is not None and draw(st.booleans()) else v for v in tree.values)
    tree = Tree(names=tuple(names), kids=tree.kids, values=values, root_side=tree.root_side)
    if draw(st.booleans()):  # sides per node: `max`/`min` marks in the text
        marks = [(tree.names[i], rng.choice(["max", "min"]), (0, 0)) for i in range(n) if rng.random() < 0.3]
        tree = with_sides(tree, marks)
    form = draw(st.sampled_from(["flat", "nested", "list"]))
    if form == "list":
        text = _list_text(tree)
    else:
        text = pyab.dump(tree, form)
        if form == "flat" and rng.random() < 0.5:
            lines = text.splitlines()
            head, rest = lines[:1], lines[1:]
            rng.shuffle(rest)  # any order after the first (it carries the root's side)
            text = "\n".join(head + rest) + "\n"
    return _decorate(text, rng)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts())
def test_compiled_python_and_lark_read_the_same_trees(text):
    _agree(text)


_PIECES = ["a", "b", "n1", "max", "min", "maxa", "->", "=", ",", "3", "-2", "+7", "2.5", "1e3", "1e999",
           "9" * 400, "1.", ".5", "#c\n", "% c\n", "\n", " ", "\t", "\r\n", "'q'", "(", ")", "[", "]",
           "\u00a0", "\v", "é", "'it''s'", "'\\x41\\'", "'\\q'", "'\\x0\\'", "'\\uD800'", "'\\1'", "'a\\'",
           "''", "'''", "\\", "\0", "'\0'", "a(", "b = 2 (", "))", "[1]", "= 5", "min ", "max(",
           "2" * 19, "9007199254740993", "0.5"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts(), st.randoms(use_true_random=False), st.integers(1, 3))
def test_broken_texts_are_left_to_lark(text, rng, edits):
    """Texts broken on purpose: the compiled scanner returns lark's tree or
    None, never a tree lark would refuse, and the error is lark's."""
    for _ in range(edits):
        i = rng.randint(0, len(text))
        if rng.random() < 0.6:
            text = text[:i] + rng.choice(_PIECES) + text[i:]
        else:
            text = text[:i] + text[i + rng.randint(1, 4):]
    _agree(text)


@pytest.mark.parametrize("text", [
    "a -> b\nb = 1", "min a -> b, c\nb = 3c = 4", "a = 12b = 3\na -> b", "max -> b\nb = 1", "max = 3",
    "max a -> max\nmax = 1", "a -> b\nb -> a", "a -> b\nc -> d\nb = 1\nd = 2", "a -> b, b\nb = 1",
    "a -> b\nb = 1\nb = 2", "a -> b\na -> c\nb = 1\nc = 2", "a -> b", "a -> b\nb = 1e999",
    "a -> b, c\nb = 0.5\nc = 9007199254740993", "a -> b, c\nb = 0.5\nc = 9007199254740992",
    "a -> b\nb = " + "9" * 308, "a -> b\nb = " + "9" * 309, "a -> b\nb = " + "9" * 5000,
    "a -> b\nb = 1.", "a -> b\nb = -0.0", "a -> b\nb = +7", "a -> b\nb = 007", "a -> b\nb = 1E+3",
    "'a' -> b\na = 1\nb = 2", "'a b' -> 'c'\n'c' = 1", "a -> 'b\\x41\\'\n'bA' = 1",
    "a -> '\\101\\'\n'A' = 1", "a -> '\\1'\n'\\x1\\' = 1", "a -> '\\0'\n'\\0' = 1", "a -> 'x\\u00e9'\n'xé' = 1",
    "a -> '\\U0001F600'\n'😀' = 1", "a -> '\\uD800'\n'\\uD800' = 1", "a -> '\\x110000\\'\n'q' = 1",
    "a -> '\\q'\n'\\q' = 1", "a -> '\\s\\e\\a\\`\\\"'\n'\\s\\e\\a\\`\\\"' = 1", "a -> 'it''s'\n'it\\'s' = 1",
    "a -> '#%'\n'#%' = 1 # it's", "a(b=1)", "min a(b(e=3, f=12), c = 4 (h=2))", "max max(min=1, maxa=2)",
    "a(b=1,)", "a()", "a(b)", "a(b=1) c", "a(b=1))", "a(b=1, b=2)", "a('b' = 1, b = 2)", "a = 3",
    "a = 3 (b = 1)", "a(max b = 1, c = 2)", "a(min min = 1)", "a(min max(min = 1))", "a(max = 3, min b = 2)",
    "min min a(b=1)", "a(b = 1, min)", "[1, 2]", "min [[3, 12, 8], [2, 4, 6]]", "[]", "[[]]", "[1,]",
    "[1 2]", "[[1], 2]]", "[1]]", "[[1]", "[1] [2]", "1", "max[1]", "[1, # ]\n 2]", "[0.5, 9007199254740993]",
    "[1e999]", "a(b = 1e999)", "a(b = 2.5, c = " + "1" * 19 + ")", "a(b = " + "1" * 19 + ")",
    "a -> b\u00a0\nb = 1", "a -> b\vb = 1", "a -> b\x00\nb = 1", "\ufeffa -> b\nb = 1", "a -> b\nb = 1\n\u2028",
    "a -> 'b\ud800'\n'b\ud800' = 1", "a(b = 1) # \ud800", "",
])
def test_edge_cases(text):
    _agree(text)


def test_errors_name_the_place_with_the_compiled_scanner_in_front():
    for text, place in (("a(b = 1,\n  c)", "t.tree:2:3"), ("a -> b\nb = x", "t.tree:2:5"),
                        ("[1, [2,, 3]]", "t.tree:1:8"), ("a -> b\nb = 1\nb = 2", "t.tree:3:1")):
        with pytest.raises(pyab.DSLError) as err:
            dsl.parse(text, "t.tree")
        assert place in str(err.value), str(err.value)
        assert str(err.value) == _lark(text)[1]


# -- the flat form's name table -------------------------------------------------

# Two names the scanner's table cannot tell apart by their slot: the same
# length (16), the same first 8 bytes, and hash_bytes() of both with the
# same top 31 bits and the same low 12 (so the same first slot in a table of
# 4,096).  Found by brute force over "position" + 8 characters (a few
# seconds in C with a copy of hash_bytes); if hash_bytes changes, the
# assertions below that the scanner gives up fail: find a new pair.
_TWIN_A, _TWIN_B = "positionvfnqbaaa", "positionls1sdaaa"


def test_names_that_share_a_slot_tag_are_compared():
    """A hit of a name longer than 8 bytes is taken on its slot and compared
    after the batch (check_hits): the two names must stay two nodes.  Taken
    as one, ``r -> A`` with ``B = 1`` would read as a valid tree (A with the
    value 1); lark says B is a second root."""
    wrong = f"r -> {_TWIN_A}\n{_TWIN_B} = 1\n"
    assert _compiled().scan(wrong) is None, "the twins no longer collide: find a new pair"
    assert _lark(wrong)[0] == "error"
    _agree(wrong)
    right = f"r -> {_TWIN_A}, {_TWIN_B}\n{_TWIN_A} = 1\n{_TWIN_B} = 2\n"
    assert _compiled().scan(right) is None, "the twins no longer collide: find a new pair"
    _agree(right)
    tree = pyab.parse(right)
    assert tree.names == ("r", _TWIN_A, _TWIN_B) and tree.values == (None, 1, 2)
    # long names that differ in their first 8 bytes or hash are read by it
    _agree(f"r -> {_TWIN_A}, {_TWIN_A[::-1]}\n{_TWIN_A} = 1\n{_TWIN_A[::-1]} = 2\n", must_take=True)


def test_the_result_is_not_left_to_the_cyclic_collector():
    """The Tree's tuples hold only str, numbers and tuples of ints: the
    scanner untracks them (the first collection after a parse visited a
    million of them), as the collector would itself; the Tree is the same."""
    import gc
    from benchmarks import shapes
    for text in (shapes.ragged(500), shapes.nested(3, 3), "[[1, 2.5], 3]"):
        names, kids, values, index, depth, _side, _marks = _compiled().scan(text)
        for part in (names, kids, values, depth, index, *kids):
            assert not gc.is_tracked(part)
        _agree(text, must_take=True)


def test_small_leaf_values_are_shared():
    """Leaf ints in -1024..1023 are made once per parse (a million leaves of
    -999..999 are a million references, not a million objects); larger ones
    and decimals are made one by one; the values are lark's, type for type."""
    text = "r -> a, b, c, d, e, f\na = 700\nb = 700\nc = -1024\nd = -1024\ne = 1024\nf = 1024\n"
    values = _compiled().scan(text)[2]
    assert values == (None, 700, 700, -1024, -1024, 1024, 1024)
    assert values[1] is values[2] and values[3] is values[4]
    assert values[5] is not values[6]
    _agree(text, must_take=True)
    _agree("a(b = 5, c = 5.0, d = -0, e = 0.0)", must_take=True)


@pytest.mark.parametrize("name", ["''''", "'''b'", "'b'''", "'é''x'''", "'a''''b'", "'it''s #1 at 50%'", "'😀'''"])
def test_doubled_quotes_are_read_in_runs(name):
    """A quoted name whose only escapes are doubled quotes is copied in runs
    (undouble): the same name as lark's, wherever the pairs stand."""
    _agree(f"r -> {name}, x\n{name} = 1\nx = 2\n", must_take=True)
    _agree(f"r({name} = 1, x = 2)", must_take=True)
