"""The pack as a Prolog user meets it: every `?-` line of README.md and
docs/prolog.md typed into a fresh `swipl` toplevel, one after another,
with the pack freshly installed (as the docs say, into the user's own pack
folder: here a throwaway HOME) and the example trees in the current folder;
`pyab_test` leaves the user's tree alone; `load_tree/1` finds the shipped
examples by name and warns about trees the slides' program cannot search."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")

# Anything the toplevel says when a query goes wrong.
TROUBLE = re.compile(r"^(ERROR|Warning):|^false\.$|Unknown procedure|DWIM", re.M)


def _lines(doc: Path) -> list[str]:
    """The queries of ``doc``: each `?-` line from the first column, as typed."""
    return [line[3:] for line in doc.read_text(encoding="utf-8").splitlines() if line.startswith("?- ")]


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("pack") / "pyab"
    built = subprocess.run(["make", "-s", "pack", f"PACK_DIR={where}"], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    return where


def _session(tmp_path: Path, pack: Path, queries: list[str], install: bool = False, trees: bool = True) -> str:
    """What the toplevel prints when ``queries`` are typed into it, in a
    folder holding the example trees, HOME a fresh folder (the pack installed
    there first unless ``install``: the queries do it)."""
    home = tmp_path / "home"
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    for tree in (ROOT / "examples").glob("*.tree") if trees else ():
        shutil.copy(tree, work / tree.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "share"), XDG_CONFIG_HOME=str(home / "config"))
    url = pack.as_uri()
    if not home.exists():
        home.mkdir()
        if not install:
            queries = [f"pack_install('{url}', [interactive(false), inquiry(false)])."] + queries
    text = "".join(q.replace("file:///ABSOLUTE/PATH/TO/build/pack/pyab", url) + "\n" for q in queries)
    out = subprocess.run(["swipl", "--no-tty"], input=text, cwd=work, env=env, capture_output=True,
                         text=True, timeout=300)
    return out.stdout + out.stderr


@pytest.mark.parametrize("doc", ["README.md", "docs/prolog.md"])
def test_every_query_of_the_docs_works_as_typed(tmp_path, pack, doc):
    queries = _lines(ROOT / doc)
    assert any(q.startswith("pack_install(") for q in queries)
    said = _session(tmp_path, pack, queries, install=True)
    assert not TROUBLE.search(said), said[-4000:]
    answers = said.count("true.") + len(re.findall(r"^\w+ = .*\.$", said, re.M))
    assert answers >= len(queries) - 1, said[-4000:]  # an answer to each (the last may be a binding)


def test_pyab_test_leaves_the_users_tree_alone(tmp_path, pack):
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "mine.tree").write_text("a(b(c = 1, d = 7), e(f = 4, g = 2))\n", encoding="utf-8")
    said = _session(tmp_path, pack, [
        "[library(pyab/alphabeta)].", "use_module(library(pyab/tree_dsl)).", "load_tree('mine.tree').",
        "use_module(library(pyab/pyab_test)).", "pyab_test.",
        "alphabeta(a, -inf, inf, GoodPos, Val), write(answer(GoodPos, Val)), nl.",
        "predicate_property(user:alphabeta(_, _, _, _, _), file(F)), write(program(F)), nl.",
        "aggregate_all(count, user:tree(_, _), N), write(inner(N)), nl."])
    assert re.search(r"All \d+ tests passed", said), said[-3000:]
    assert "answer(e,2)" in said and "inner(3)" in said, said[-3000:]
    assert re.search(r"program\(.*/alphabeta\.pl\)", said) and "#" not in said.split("program(")[1].split(")")[0]
    assert "Redefined" not in said and not TROUBLE.search(said), said[-3000:]


def test_the_shipped_examples_load_by_name(tmp_path, pack):
    said = _session(tmp_path, pack, [
        "use_module(library(pyab/tree_dsl)).", "[library(pyab/alphabeta)].",
        "load_tree(aima), alphabeta(r, -inf, inf, G, V), write(aima(G, V)), nl.",
        "load_tree(library(pyab/examples/slides)), alphabeta(a, -inf, inf, G, V), write(slides(G, V)), nl.",
        "catch(load_tree(nothing_of_that_name), error(E, _), (write(E), nl))."], trees=False)
    assert "aima(r_1,3)" in said and "slides(b,3)" in said, said[-3000:]
    assert "existence_error(source_sink,nothing_of_that_name)" in said, said[-3000:]


def test_load_tree_warns_when_the_slides_program_cannot_search_the_tree(tmp_path, pack):
    said = _session(tmp_path, pack, ["use_module(library(pyab/tree_dsl)).", "load_tree(slides).",
                                     "write(quiet), nl.", "load_tree(library('pyab/examples/courses/two-ghosts'))."])
    quiet, ghosts = said.split("quiet", 1)
    assert "Warning" not in quiet, quiet
    assert re.search(r"Warning: .*cannot search this tree: c has MIN to move like its parent b", ghosts), ghosts
    assert "strict_cut(a, -inf, inf, inf, Move, Val)" in ghosts, ghosts
    said = _session(tmp_path, pack, ["use_module(library(pyab/tree_dsl)).", "load_tree('depth-limited')."])
    assert re.search(r"Warning: .*a has a static value of its own", said), said
    assert "strict_cut(a, -inf, inf, 1, Move, Val)" in said, said
