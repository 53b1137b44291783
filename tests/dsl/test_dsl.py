"""The DSL: every form of README.md's "Trees", and every refusal with its place."""

from __future__ import annotations

import pytest

import pyab
from pyab import DSLError, dump, parse


def shape(tree):
    """A comparable picture of a tree: side, and per node (name, children, value)."""
    return tree.root_side, [(n, tree.children(n), tree.value(n)) for n in tree.names]


def test_nested_form_is_the_slides_tree():
    t = parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))")
    assert t.root == "a" and t.root_side == "max"
    assert t.children("a") == ("b", "c", "d")
    assert t.children("c") == ("h", "i", "j")
    assert t.value("j") == 20 and t.value("a") is None
    assert [t.side(n) for n in ("a", "b", "e")] == ["max", "min", "max"]


def test_list_form_gets_dewey_names():
    t = parse("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    assert t.root == "r"
    assert t.children("r") == ("r_1", "r_2", "r_3")
    assert t.children("r_2") == ("r_2_1", "r_2_2", "r_2_3")
    assert t.value("r_3_1") == 14


def test_list_form_ragged_and_nested_deeper():
    t = parse("[1, [2, [3, 4]], 5]")
    assert t.children("r") == ("r_1", "r_2", "r_3")
    assert t.children("r_2_2") == ("r_2_2_1", "r_2_2_2")
    assert t.value("r_2_2_2") == 4


def test_flat_form_any_order_and_whitespace_free():
    text = "e = 3\nb -> e, f\n  a -> b, c   f = -1 c=2.5"
    t = parse(text)
    assert t.root == "a"
    assert t.children("a") == ("b", "c") and t.children("b") == ("e", "f")
    assert t.value("c") == 2.5 and t.value("f") == -1


def test_three_forms_give_the_same_tree():
    nested = parse("r(r_1(r_1_1=3, r_1_2=1), r_2=5)")
    listed = parse("[[3, 1], 5]")
    flat = parse("r -> r_1, r_2\nr_1 -> r_1_1, r_1_2\nr_1_1 = 3\nr_1_2 = 1\nr_2 = 5")
    assert shape(nested) == shape(listed) == shape(flat)


@pytest.mark.parametrize("text, side", [("max a(b=1)", "max"), ("min a(b=1)", "min"),
                                        ("min [1, 2]", "min"), ("min a -> b  b = 1", "min"),
                                        ("a(b=1)", "max")])
def test_root_side_keyword(text, side):
    assert parse(text).root_side == side


def test_max_and_min_are_names_away_from_the_root():
    t = parse("max max(min = 1, max2 = 2)")
    assert t.root == "max" and t.children("max") == ("min", "max2")
    t = parse("min -> max, x\nmax = 1\nx = 2")
    assert t.root == "min" and t.root_side == "max"


def test_comments_both_kinds():
    t = parse("# hash\n% percent\na(b = 1, # after\n  c = 2) % end")
    assert t.children("a") == ("b", "c")


def test_quoted_names_and_escapes():
    t = parse(r"'King e1'('it\'s' = 1, 'back\\slash' = 2, 'it''s too' = 3, 'tab\there' = 4)")
    assert t.children("King e1") == ("it's", "back\\slash", "it's too", "tab\there")


def test_numbers():
    t = parse("a(b = -3, c = +7, d = 2.5, e = -0.0, f = 1e3)")
    assert [t.value(x) for x in "bcdef"] == [-3, 7, 2.5, -0.0, 1000.0]
    big = parse("a(g = 123456789012345678901234567890, h = -1)")
    assert big.value("g") == 123456789012345678901234567890
    assert isinstance(t.value("b"), int) and isinstance(t.value("d"), float)


def test_single_leaf_tree():
    t = parse("a = 7")
    assert len(t) == 1 and t.value("a") == 7


def test_inner_node_may_carry_a_value():
    t = parse("a = 1 (b = 5 (c = 2), d = 3)")
    assert t.value("a") == 1 and t.value("b") == 5 and t.children("b") == ("c",)
    flat = parse("a -> b\na = 4\nb = 2")
    assert flat.value("a") == 4


@pytest.mark.parametrize("text, line, column, words", [
    ("a(b=1,, c=2)", 1, 7, "unexpected ','"),
    ("a(b=1, c=2", 1, 11, "unexpected end of file"),
    ("", 0, 0, "empty file"),
    ("# only a comment\n", 0, 0, "empty file"),
    ("a(b=1, c=$)", 1, 10, "unexpected character '$'"),
    ("a(b(e=3), c(b=2))", 1, 13, "duplicate name 'b'"),
    ("a -> b, c\nd -> b\nb = 1\nc = 2", 2, 6, "already has the parent 'a'"),
    ("a -> b\nb -> a", 1, 1, "cycle"),
    ("r -> a\na -> b\nb -> c\nc -> b\nr = 1", 0, 0, "has two parents"),
    ("a -> b\nb = 1\nc -> d\nd = 2", 3, 1, "two roots, 'a' and 'c'"),
    ("a(b=1, c())", 1, 8, "inner node 'c' has no children"),
    ("[[1, 2], []]", 1, 1, "inner node 'r_2' has no children"),
    ("a(b=1, c)", 1, 8, "leaf 'c' has no value"),
    ("a -> b, c\nb = 1", 1, 9, "leaf 'c' has no value"),
    ("a(b=1, c=1e999)", 1, 8, "not finite"),
    ("a(b=1, b2=1, b=3)", 1, 14, "duplicate name 'b'"),
    ("a -> b\na -> c\nb = 1\nc = 1", 2, 1, "children listed twice"),
    ("a -> b\nb = 1\nb = 2", 3, 1, "two values"),
    ("a('x\\q' = 1)", 1, 3, "unknown escape"),
    ("a('x\\0\\' = 1)", 1, 3, "NUL"),
    ("a(B = 1)", 1, 3, "unexpected character 'B'"),
    ("A(B=1)", 1, 1, "quote it ('A') or write it in lower case (a)"),      # AIMA's capital names
    ("a(Max2=1)", 1, 3, "quote it ('Max2') or write it in lower case (max2)"),
    ("a('unclosed = 1)", 1, 3, "unexpected character"),
])
def test_errors_name_the_place(text, line, column, words):
    with pytest.raises(DSLError) as info:
        parse(text, "t.tree")
    err = info.value
    if "two parents" in words:  # a cycle below the root shows as two parents
        assert "already has the parent" in err.message
    else:
        assert words in err.message
    if line:
        assert (err.line, err.column) == (line, column), str(err)
        assert str(err).startswith(f"t.tree:{line}:{column}: ")
        caret_line = str(err).splitlines()[-1]
        assert caret_line.index("^") == column + 1  # two spaces of indent, 1-based column
    assert isinstance(err, ValueError) and isinstance(err, pyab.Error)


def test_error_excerpt_shows_the_offending_line():
    with pytest.raises(DSLError) as info:
        parse("a(b = 1,\n  c = 2,\n  d = ?)", "f.tree")
    lines = str(info.value).splitlines()
    assert lines[0] == "f.tree:3:7: unexpected character '?'"
    assert lines[1] == "    d = ?)"
    assert lines[2] == "        ^"


def test_load_reads_utf8_files_and_names_the_file(tmp_path):
    p = tmp_path / "u.tree"
    p.write_text("'Zürich'('ä' = 1, 'ß' = 2)", encoding="utf-8")
    assert pyab.load(p).children("Zürich") == ("ä", "ß")
    bad = tmp_path / "bad.tree"
    bad.write_bytes(b"a(b = \xff)")
    with pytest.raises(DSLError, match="not UTF-8"):
        pyab.load(bad)
    with pytest.raises(DSLError, match="cannot read"):
        pyab.load(tmp_path / "missing.tree")


@pytest.mark.parametrize("form", ["nested", "flat"])
def test_dump_round_trips(form):
    for text in ["min a(b(e=3, f=-1.5), 'c d'(h=2, 'X' = 0))", "[[1, 2], 3, [4, [5, 6]]]",
                 "a = 1 (b = 2 (c = 3), d = 4)", "a = 7", "'it''s\\n'(x = 1)"]:
        t = parse(text)
        assert shape(parse(dump(t, form))) == shape(t), (text, dump(t, form))
