"""A facts file read back into a tree (pyab.dsl.factsfile): `pyab facts`
output round-trips, pyab.load and `pyab solve` take a .pl file, and the
file is read, never run: anything but the facts' subset is refused with
its place."""

from __future__ import annotations

import json

import pytest

import pyab
from conftest import EXAMPLES, ROOT, pyab_cli
from pyab.dsl import factsfile
from pyab.prolog.facts import facts

TREES = sorted(EXAMPLES.rglob("*.tree")) + sorted((ROOT / "tests" / "corpus").glob("ok-*.tree"))


@pytest.mark.parametrize("path", TREES, ids=[p.stem for p in TREES])
def test_facts_read_back_the_same_tree(path):
    tree = pyab.load(str(path))
    again = factsfile.parse(facts(tree), "x.pl")
    assert again == tree
    assert (again.names, again.kids, again.values, again.root_side, again.sides) == \
        (tree.names, tree.kids, tree.values, tree.root_side, tree.sides)


def test_load_and_solve_a_facts_file(tmp_path):
    tree = pyab.load(str(EXAMPLES / "slides.pl"))
    assert tree == pyab.load(str(EXAMPLES / "slides.tree"))
    out = pyab_cli("solve", str(EXAMPLES / "slides.pl"), "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert (answer["best"], answer["value"], answer["pruned"]) == ("b", 3, ["i", "j"])


def test_sides_come_from_the_side_facts():
    text = ("tree(a, [g, b]).\ntree(b, [c, f]).\ntree(c, [d, e]).\n"
            "staticval(g, 2).\nstaticval(d, 1).\nstaticval(e, 5).\nstaticval(f, 9).\n"
            "min_to_move(b).\nmin_to_move(c).\nmax_to_move(a).\n")
    tree = factsfile.parse(text, "x.pl")
    assert [tree.side(n) for n in "abcdefg"] == ["max", "min", "min", "max", "max", "max", "min"]
    assert tree == pyab.parse("a(g = 2, min b(min c(d = 1, e = 5), f = 9))")


@pytest.mark.parametrize("text, line, column, says", [
    ("tree(a, [b]).\nstaticval(b, 1).\n:- initialization(shell('touch HACKED')).\n", 3, 4,
     "only tree/2"),
    ("tree(a, [b]).\nstaticval(b, 1).\nfoo :- halt.\n", 3, 1, "only tree/2"),
    ("tree(a, [b]).\nmoves(P, M) :- shell(rm).\n", 2, 16, "expected 'tree'"),
    ("tree(a, [b]).\nmoves(P, M) :- tree(M, P).\n", 2, 10, "bridge"),
    ("tree(a, [b]).\nstaticval(b, 1.0Inf).\n", 2, 11, "not finite"),
    ("tree(a, [b]).\nstaticval(b, X).\n", 2, 14, "expected a number"),
    ("tree(a, [b, c]).\nstaticval(b, 1).\nstaticval(c, 2).\ntree(d, [b]).\nstaticval(d, 0).\n",
     4, 10, "already has the parent"),
    ("tree(a, [b]).\nstaticval(b, 1).\nmin_to_move(b).\nmax_to_move(b).\n", 4, 13, "marked min"),
    ("tree(a, [b]).\nstaticval(b, 1)\n", 3, 1, "expected '.'"),
    ("tree('a\\q', [b]).\n", 1, 6, "unknown escape"),
    (":- dynamic(foo/1).\ntree(a, [b]).\nstaticval(b, 1).\n", 1, 12, "dynamic(foo/1)"),
])
def test_anything_else_is_refused_with_its_place(tmp_path, text, line, column, says):
    path = tmp_path / "bad.pl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(pyab.DSLError) as caught:
        pyab.load(str(path))
    err = caught.value
    assert (err.source, err.line, err.column) == (str(path), line, column), str(err)
    assert says in err.message
    assert not (tmp_path / "HACKED").exists()


def test_the_cli_refuses_with_exit_2_and_a_caret(tmp_path):
    path = tmp_path / "bad.pl"
    path.write_text("tree(a, [b]).\n:- initialization(halt).\n", encoding="utf-8")
    out = pyab_cli("solve", str(path))
    assert out.returncode == 2
    assert out.stderr.startswith(f"error: {path}:2:4: only tree/2") and "^" in out.stderr
