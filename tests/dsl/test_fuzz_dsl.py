"""Fuzzing the DSL: every input gives a Tree or a DSLError with a place,
never another exception, and never takes long.

Four sources of input: strings generated from the project's own grammar
(``hypothesis.extra.lark.from_lark``), valid files with random edits, random
text and random bytes, and the corpus of nasty cases in ``tests/corpus/``.
``PYAB_FUZZ_EXAMPLES`` scales the number of examples (default 150 per
fuzzer, which keeps this file to a few seconds).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

import pyab
from pyab.dsl import reader as dsl
from pyab.dsl import dump, load, parse
from pyab.prolog.facts import facts

HERE = Path(__file__).resolve().parents[1]  # tests/
CORPUS = sorted((HERE / "corpus").glob("*.tree"))
EXAMPLES = sorted((HERE.parent / "examples").glob("*.tree"))
N = int(os.environ.get("PYAB_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck))
SECOND = 1.0  # the bound for one input of up to about 10 KB, in CPU seconds (a loaded
# machine stretches wall time; what the bound guards against is a blow-up, such as
# an exponential regex on an unclosed quote)


def same_tree(a: pyab.Tree, b: pyab.Tree) -> bool:
    return (a.names, a.kids, a.values, a.root_side) == (b.names, b.kids, b.values, b.root_side)


def outcome(text: str, source: str = "fuzz.tree") -> pyab.Tree | pyab.DSLError:
    """Parse ``text``; check the contract on whichever way it goes."""
    try:
        tree = parse(text, source)
    except pyab.DSLError as err:
        check_error(err, text, source)
        return err
    # Anything else raised propagates and fails the test.
    for form in ("nested", "flat"):
        assert same_tree(parse(dump(tree, form)), tree), form
    facts(tree)
    return tree


def check_error(err: pyab.DSLError, text: str, source: str) -> None:
    assert isinstance(err, ValueError) and err.message
    assert err.source == source
    assert str(err).startswith(f"{source}:")
    if err.message.startswith("empty file"):
        assert not any(line.strip() and not line.lstrip().startswith(("#", "%"))
                       for line in text.split("\n"))
        return
    assert err.line >= 1 and err.column >= 1, f"no place in {err!r}"
    assert err.line <= text.count("\n") + 1
    line_text = text.split("\n")[err.line - 1]
    assert err.column <= len(line_text) + 1, (err.line, err.column, line_text[:80])


# -- 1. strings from the grammar ----------------------------------------------

GRAMMAR = Lark.open("grammar.lark", rel_to=dsl.__file__, parser="lalr")
# Names and numbers built to hit the edges: escapes, quotes inside quotes,
# keywords, digits that overflow or lose precision.
explicit = {
    "QUOTED": st.builds(
        lambda parts: "'" + "".join(parts) + "'",
        st.lists(st.one_of(
            st.sampled_from(["''", "\\\\", "\\'", "\\n", "\\x41\\", "\\x0\\", "\\101\\", "\\u00e9",
                             "\\uD800", "\\x110000\\", "\\q", "\\", "\\\n", "%", "#", "\\s"]),
            st.text(st.characters(blacklist_characters="'\\\n"), max_size=3)), max_size=6)),
    "NUMBER": st.one_of(
        st.from_regex(r"[+-]?[0-9]{1,3}(\.[0-9]{1,3})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
        st.sampled_from(["9007199254740993", "0.5", "1e309", "-1e-400", "-0.0",
                         "1" + "0" * 320, "179769313486231570000000000000" + "0" * 280])),
}
grammar_texts = from_lark(GRAMMAR, explicit=explicit)


@FUZZ
@given(grammar_texts)
def test_texts_from_the_grammar(text):
    outcome(text)


@FUZZ
@given(grammar_texts, st.sampled_from(["\r\n", "\n\n", " ", "\t", "\x0c", "# c\n", " % c\n"]))
def test_grammar_texts_with_spacing(text, gap):
    """from_lark glues tokens together; spread them out so that more of
    its strings get past the lexer to the tree checks."""
    for sep in ("(", ")", ",", "=", "->", "[", "]"):
        text = text.replace(sep, f"{gap}{sep}{gap}")
    outcome(text)


# -- 2. valid files, edited at random -----------------------------------------

SEEDS = [p.read_text(encoding="utf-8") for p in EXAMPLES] + [
    "a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))\n",
    "min [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n",
    "a -> b, c\nb -> d, e\nc = 5\nd = -1.5\ne = 2e3\n",
    "max 'King e1'('it''s' = 1, '\\x41\\' = 2, 'a\\nb' = 3.5)\n",
    "b = 5 (e=3, f=12)\n",
]
SNIPPETS = ["(", ")", ",", "=", "->", "'", "''", "\\", "[", "]", "max", "min", "#", "%", "\n",
            "\r", "1e999", "-", "+", ".", "0.", "9" * 30, "a", "X", "_", "é", "\0", "\ufeff",
            "a(", "x=1", "\\x41\\", "\\x", "[[", "]]", " -> ", "= 1 (", "()"]


@st.composite
def edited(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 8)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "swap"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(SNIPPETS)) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=2))) + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] * draw(st.integers(1, 50)) + text[j:]
        else:
            text = text[j:] + text[:i] + text[i:j]
    return text


@FUZZ
@given(edited())
@example("a(b=1, c=2")
@example("a -> b\nb -> a\n")
def test_edited_valid_files(text):
    outcome(text)


# -- 2b. the flat form's fast path against lark -----------------------------------
# pyab.dsl.flatscan and pyab.dsl.treescan read texts with regular expressions and
# leave everything they are not sure of to lark.  With the fast paths switched
# off (dsl._fast) every text goes to lark, so the two readings can be compared.

FLAT_TOKENS = ["a", "b", "c", "d", "max", "min", "maxa", "x1", "A", "_", "->", "=", ",", "1",
               "-2", "+3", "0.5", "1e3", "1E-2", "2.", ".5", "1e", "\u0663", "9" * 30, " ", "\n",
               "\r\n", "\t", "\f", "\x0b", "\u00a0", "\u2028", "# c\n", "% c\n", "#", "(", "["]


@st.composite
def flat_texts(draw):
    tokens = draw(st.lists(st.sampled_from(FLAT_TOKENS), min_size=1, max_size=25))
    sep = draw(st.sampled_from([" ", "", "\n"]))
    if draw(st.booleans()):
        return sep.join(tokens)
    # A real flat tree, re-spaced and with a few tokens swapped in.
    import random
    from pyab.trees.randomtrees import Shape, random_tree
    tree = random_tree(random.Random(draw(st.integers(0, 10**6))),
                       Shape(depth=(1, 3), branching=(1, 3), decimals=draw(st.booleans())))
    words = dump(tree, "flat").split()
    for _ in range(draw(st.integers(0, 3))):
        words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(FLAT_TOKENS)))
    gaps = st.sampled_from([" ", "\n", "\t", "  ", "\r\n", "\f", " # note\n"])
    return "".join(w + draw(gaps) for w in words)


@FUZZ
@given(flat_texts())
@example("max -> b\nb = 1")
@example("a -> b, c\nb = 1 c = 2")
@example("min\na -> b\nb = 1")
def test_fast_path_agrees_with_lark(text):
    fast = outcome(text)
    real = dsl._fast
    dsl._fast = lambda _text: None
    try:
        slow = outcome(text)
    finally:
        dsl._fast = real
    if isinstance(fast, pyab.Tree):
        assert isinstance(slow, pyab.Tree) and same_tree(fast, slow)
    else:
        assert isinstance(slow, pyab.DSLError), slow
        assert (fast.message, fast.line, fast.column) == (slow.message, slow.line, slow.column)


# -- 3. random text and bytes -----------------------------------------------------

@FUZZ
@given(st.text(max_size=200))
def test_random_text(text):
    outcome(text)


@FUZZ
@given(st.text(alphabet="abcxyz019()[],=->'\\ .eE+-\n#%maxin", max_size=300))
def test_random_text_over_the_dsl_alphabet(text):
    outcome(text)


@settings(max_examples=max(N // 3, 20), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=300))
def test_random_bytes_from_a_file(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.tree"
        path.write_bytes(data)
        try:
            tree = load(path)
        except pyab.DSLError as err:
            assert err.source == str(path) and err.message
            if err.message.startswith("not UTF-8"):
                assert err.line == 0  # no line to point at; the byte is named
                assert "at byte" in err.message
            else:
                text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
                check_error(err, text, str(path))  # load() reads with universal newlines
        else:
            assert same_tree(parse(dump(tree)), tree)


# -- 4. the corpus -----------------------------------------------------------------

@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus(path):
    parse("a(b = 1)")  # the grammar is compiled once per process; do not time that
    start = time.process_time()
    try:
        tree = load(path)
    except pyab.DSLError as err:
        elapsed = time.process_time() - start
        assert path.stem.startswith("err-"), f"{path.name} should parse: {err}"
        check_error(err, path.read_text(encoding="utf-8-sig"), str(path))
    else:
        elapsed = time.process_time() - start
        assert path.stem.startswith("ok-"), f"{path.name} should be refused"
        assert same_tree(parse(dump(tree)), tree)
    assert elapsed < SECOND, f"{path.name}: {elapsed:.2f} s"


def test_corpus_is_there():
    assert len(CORPUS) >= 40
    assert max(p.stat().st_size for p in CORPUS) >= 10_000


def test_the_cli_turns_garbage_into_one_error_line(tmp_path):
    from conftest import pyab_cli
    path = tmp_path / "garbage.tree"
    path.write_bytes(b"\xff\xfe(a\x00")
    out = pyab_cli("solve", str(path))
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and "Traceback" not in out.stderr
    assert str(path) in out.stderr
