"""Names chosen to break quoting: each one survives the DSL (dump/parse), the
fact file (read back by a separate ``swipl``), the Prolog run and the JSON
output unchanged, in both engines, and nothing but the search runs.

Several names would create the file ``PWNED`` in the working directory if
any part of them were ever executed as Prolog; the tests run in a temporary
directory and check that the file never appears.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pyab
from pyab.dsl import dump, parse
from pyab.prolog.facts import facts, quote
from pyab.tree import build

ROOT = Path(__file__).resolve().parents[2]
SWIPL = shutil.which("swipl")

TOUCH = "shell('touch PWNED')"
HOSTILE = [
    "it's", "'", "''", "\\", "\\\\'", "a\\nb", "'),halt,('", "x'), shell('touch PWNED'), ('",
    f":- {TOUCH}.", f"a). :- {TOUCH}. b(", f"'\n:- initialization({TOUCH}).\n",
    f"\n:- {TOUCH}.\n", f"end_of_file. :- {TOUCH}.", "X", "_", "_G123", "Var", "[]", "'[]'",
    "{}", "[a]", "a,b", "|", ";", "!", "-", "+", "*", ":-", "-->", "=..", "\\+", "is", "mod",
    "rem", "xor", "dynamic", "discontiguous", "table", "max", "min", "end_of_file", "halt",
    "0", "12", "-3", "1.5e3", "0x1F", "0'a", "1r3", "inf", "nan", "1.0Inf", "1.5NaN",
    "", " ", "a b", "\t", "new\nline", "cr\rlf", "\x7f", "\x01ctrl", "%comment", "/* c */",
    "#", "\"double\"", "`back`", "é", "日本語", "😀", "\u200b", "\u00a0", "Ω≈ç√",
    "a" * 5000, "'" * 300, "\\" * 301,
]


def hostile_tree(names: list[str]) -> pyab.Tree:
    """MAX root, then one MIN node per group of three names, each with three
    leaf children.  The values make the search prune some groups, so names
    show up as leaves, visited and pruned."""
    root, *rest = names
    edges, values = [], []
    groups = [rest[i:i + 4] for i in range(0, len(rest) - 3, 4)]
    edges.append((root, (1, 1), [(g[0], (1, 1)) for g in groups]))
    for k, (inner, *leaves) in enumerate(groups):
        edges.append((inner, (1, 1), [(leaf, (1, 1)) for leaf in leaves]))
        for j, leaf in enumerate(leaves):
            values.append((leaf, (k * 7 + j * 5) % 11 - 5, (1, 1)))
    return build(edges, values)


@pytest.fixture(scope="module")
def tree() -> pyab.Tree:
    names = list(HOSTILE)
    while (len(names) - 1) % 4:
        names.append(f"pad{len(names)}")
    return hostile_tree(names)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    assert not (tmp_path / "PWNED").exists(), "a name was executed as Prolog"


def test_every_hostile_name_is_in_the_tree(tree):
    assert set(HOSTILE) <= set(tree.names)


@pytest.mark.parametrize("form", ["nested", "flat"])
def test_dsl_round_trip(tree, form):
    back = parse(dump(tree, form))
    assert back.names == tree.names
    assert back.kids == tree.kids
    assert back.values == tree.values


@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_single_name_round_trip(name):
    """A name alone as the root, a leaf and an inner node."""
    t = build([(name + "!root", (1, 1), [(name, (1, 1))]), (name, (1, 1), [(name + "?", (1, 1))])],
              [(name + "?", 1, (1, 1))])
    for form in ("nested", "flat"):
        assert parse(dump(t, form)).names == t.names


def _swipl_read_back(path: Path) -> dict:
    """Consult ``path`` in a fresh swipl next to the slides' program and
    print every name (as code lists, which survive any character), the
    edges, the values and the answer of alphabeta/5, as JSON-like lists."""
    goal = (
        f"consult('{path.name}'), "
        "findall(Cs, ((tree(N, _) ; staticval(N, _) ; min_to_move(N) ; max_to_move(N)), "
        "atom_codes(N, Cs)), All), sort(All, Names), "
        "findall([Cs, Ks], (tree(N, Kids), atom_codes(N, Cs), maplist(atom_codes, Kids, Ks)), Edges), "
        "findall([Cs, V], (staticval(N, V), atom_codes(N, Cs)), Vals), "
        "findall(N, (max_to_move(N), \\+ (tree(_, L), memberchk(N, L))), [Root]), "
        "alphabeta(Root, -1000, 1000, G, Val), atom_codes(G, GCs), "
        "format('~w~n', [[Names, Edges, Vals, GCs, Val]])"
    )
    out = subprocess.run(
        [SWIPL, "-q", "--on-error=status", "-g", goal, "-t", "halt",
         str(ROOT / "prolog" / "alphabeta.pl")],  # options before the file: after it they are argv
        capture_output=True, text=True, timeout=60, cwd=path.parent)
    assert out.returncode == 0, out.stderr
    names, edges, vals, best, val = json.loads(out.stdout)
    return {"names": names, "edges": edges, "vals": vals, "best": best, "val": val}


def _codes(s: str) -> list[int]:
    return [ord(c) for c in s]


@pytest.mark.skipif(SWIPL is None, reason="swipl not installed")
def test_fact_file_reads_back_in_separate_swipl(tree, in_tmp):
    path = in_tmp / "hostile.pl"
    path.write_text(facts(tree), encoding="utf-8")
    got = _swipl_read_back(path)
    assert sorted(got["names"]) == sorted(_codes(n) for n in tree.names)
    assert got["edges"] == [[_codes(tree.names[i]), [_codes(tree.names[k]) for k in ks]]
                            for i, ks in enumerate(tree.kids) if ks]
    assert got["vals"] == [[_codes(tree.names[i]), v] for i, v in enumerate(tree.values) if v is not None]
    py = pyab.solve(tree, engine="python", alpha=-1000, beta=1000)
    assert got["best"] == _codes(py.best)
    assert got["val"] == py.value


@pytest.mark.parametrize("engine", ["prolog", "python"])
def test_search_reports_the_names_unchanged(tree, engine):
    r = pyab.solve(tree, engine=engine)
    assert set(r.visited) <= set(tree.names)
    assert set(r.leaves) <= set(tree.names)
    assert set(r.pruned) <= set(tree.names)
    # Hostile names occur in every role.
    assert set(r.leaves) & set(HOSTILE) and set(r.pruned) & set(HOSTILE)
    assert len(r.visited) + sum(1 for _ in r.pruned) > 10


def test_both_engines_agree_on_hostile_names(tree):
    assert pyab.check(tree).best in tree.names


@pytest.mark.parametrize("engine", ["prolog", "python"])
def test_json_output_of_the_cli_keeps_the_names(tree, engine, in_tmp):
    path = in_tmp / "hostile.tree"
    path.write_text(dump(tree, "flat"), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "pyab", "solve", str(path), "--engine", engine, "--json"],
        capture_output=True, text=True, encoding="utf-8", timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    want = pyab.solve(tree, engine=engine).to_json()
    for key in ("best", "value", "leaves", "visited", "pruned"):
        assert got[key] == want[key], key
    assert set(got["leaves"]) & set(HOSTILE)


def test_names_that_look_like_variables_stay_atoms(tree):
    """``X`` and ``_`` become quoted atoms; a variable would unify with
    anything and make tree/2 answer for every node."""
    text = facts(tree)
    for name in ("X", "_", "_G123", "Var"):
        assert f"{quote(name)}" == f"'{name}'"
        assert f"({name}," not in text and f" {name}]" not in text


@pytest.mark.parametrize("engine", ["prolog", "python"])
def test_name_variable_root(engine):
    """A tree whose every name is a would-be variable still searches right."""
    t = parse("'X'('_'('A'=3, 'B'=5), 'Z'('C'=1, 'D'=9))")
    r = pyab.solve(t, engine=engine)
    assert (r.best, r.value, r.pruned) == ("_", 3, ("D",))
