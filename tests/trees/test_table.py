"""A big tree file's table (pyab/trees/table.py, pyab/prolog/_ctable.c):
the same answers as the parsed tree in both engines, every damaged table
refused before it is read, and `pyab solve` reading a file once."""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import pyab
from pyab.errors import PrologError
from pyab.resources import compiled
from pyab.search import ALGORITHMS
from pyab.trees import table as tables
from pyab.trees.randomtrees import Shape, random_tree
from pyab.trees.table import TableTree, load_cached

from conftest import ROOT
from strategies import trees

LOADER = compiled("prolog._cload")
pytestmark = pytest.mark.skipif(LOADER is None, reason="the compiled extension was not built")

# Hsu's and Module 22's programs read the range of the stored values from
# staticval/2's facts, which a table (rules) has not: the registry says so.
RANGE_FREE = [a for a, row in ALGORITHMS.items() if not row.value_range]


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(tables.ENV, raising=False)
    return tmp_path / "cache" / "pyab" / "trees"


def table_of(tree, folder: Path) -> TableTree:
    path = folder / "t.table"
    tables._write(LOADER, tree, path)
    return TableTree(path, "t")


def answers(tree, algorithm: str, engine: str, alpha=-float("inf"), beta=float("inf")):
    try:
        return pyab.solve(tree, engine=engine, algorithm=algorithm, alpha=alpha, beta=beta).to_json()
    except pyab.Error as err:  # the same refusal from both
        return type(err).__name__, str(err)


SAMPLES = [
    "a(b(d=3, e=5), c(f=2, g=9.5), 'h x'=7)",
    "min a(b(d=-3, e=5, f=5), c=5, g(h=1.5, i=-2))",
    "a(max b(d=3, e=5), c(min f(g=1, h=2)), i=4)",          # sides that do not alternate
    "'ä ß'(x(y=1, 'z\\'q'=2), w=9007199254740993)",           # names to quote; an int beyond 2**53
    "r=4",                                                   # a root that is a leaf
    "a = 4(b = 7(c=1), d=2)",                                # a value on an inner node
    "a(''=1, b=2)",                                          # an empty name
]


@pytest.mark.parametrize("text", SAMPLES)
def test_a_table_answers_as_its_tree_for_every_algorithm_in_both_engines(text, tmp_path):
    tree = pyab.parse(text)
    table = table_of(tree, tmp_path)
    for i in range(len(tree)):
        assert (table.kids_of(i), table.value_of(i), table.is_max(i), table.name_of(i),
                table.depth_of(i)) == (tree.kids_of(i), tree.value_of(i), tree.is_max(i),
                                       tree.name_of(i), tree.depth_of(i))
    assert (table.root, table.root_side, table.alternating, table.repeated_side()) == \
        (tree.root, tree.root_side, tree.alternating, tree.repeated_side())
    for algorithm in RANGE_FREE:
        for engine in ("prolog", "python"):
            assert answers(table, algorithm, engine) == answers(tree, algorithm, engine), \
                (algorithm, engine)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=trees())
def test_random_trees_answer_alike_from_their_tables(tree, tmp_path):
    table = table_of(tree, tmp_path)
    for algorithm in ("bratko", "strict-cut", "cpw-failsoft", "aima"):
        assert answers(table, algorithm, "prolog") == answers(tree, algorithm, "prolog"), algorithm
    assert answers(table, "bratko", "python") == answers(tree, "bratko", "python")


def test_a_finite_window_is_checked_against_a_tables_values(tmp_path):
    tree = pyab.parse("a(b=9007199254740993, c=1)")
    table = table_of(tree, tmp_path)
    assert answers(table, "bratko", "prolog", 0.5, 3) == answers(tree, "bratko", "prolog", 0.5, 3)
    assert answers(table, "bratko", "prolog", 0.5, 3)[0] == "TreeError"


def test_the_value_range_algorithms_are_why_the_registry_row_exists(tmp_path):
    """Without staticval/2 facts Hsu's direct cut-offs never fire: on this
    tree hsu-f1 reads more leaves from a table than from the tree, so the
    table must not answer for it (pyab solve parses the file then)."""
    tree = random_tree(random.Random(5), Shape())
    table = table_of(tree, tmp_path)
    assert ALGORITHMS["hsu-f1"].value_range and not ALGORITHMS["bratko"].value_range
    assert answers(table, "hsu-f1", "prolog") != answers(tree, "hsu-f1", "prolog")


# -- damaged tables ------------------------------------------------------------

def _damaged(good: bytes, how: str) -> bytes:
    b = bytearray(good)
    n = struct.unpack_from("Q", b, 16)[0]
    at = tables._layout(n)
    if how == "truncated":
        return bytes(b[:-1])
    if how == "magic":
        b[0:8] = b"pyabtab9"
    elif how == "flags":
        b[12] ^= 1  # alternating said of a tree that is not, or the other way round
    elif how == "child before its parent":
        struct.pack_into("I", b, at[1], 0)
    elif how == "two parents":
        first, second = struct.unpack_from("II", b, at[1])
        struct.pack_into("I", b, at[1] + 4, first)
    elif how == "leaf without a value":
        leaf = n - 1
        b[at[3] + leaf] &= ~3
    elif how == "not finite":
        leaf = n - 1
        b[at[3] + leaf] = (b[at[3] + leaf] & 4) | 2
        struct.pack_into("d", b, at[4] + 8 * leaf, float("nan"))
    elif how == "wrong depth":
        struct.pack_into("I", b, at[2] + 4 * (n - 1), 7)
    elif how == "bad UTF-8":
        b[at[6]] = 0xFF
    elif how == "UTF-8 split across names":  # "é" is C3 A9: the first name ends in C3
        name_at = struct.unpack_from("QQ", b, at[5] + 8)
        b[at[6] + name_at[0] - 1] = 0xC3
        b[at[6] + name_at[0]] = 0xA9
    elif how == "kind":
        b[at[3]] = 3
    return bytes(b)


DAMAGE = ["truncated", "magic", "flags", "child before its parent", "two parents",
          "leaf without a value", "not finite", "wrong depth", "bad UTF-8",
          "UTF-8 split across names", "kind"]


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_table_is_refused_before_it_is_read(how, tmp_path):
    tree = pyab.parse("a(b(d=3, e=5), c(f=2, g=9))")
    path = tmp_path / "t.table"
    tables._write(LOADER, tree, path)
    good = path.read_bytes()
    LOADER.table_check(good)
    path.write_bytes(_damaged(good, how))
    with pytest.raises(ValueError):
        LOADER.table_check(path.read_bytes())
    with pytest.raises(ValueError):
        TableTree(path)


def test_prolog_refuses_a_table_damaged_after_python_read_it(tmp_path):
    tree = pyab.parse("a(b(d=3, e=5), c(f=2, g=9))")
    table = table_of(tree, tmp_path)
    Path(table.path).write_bytes(_damaged(Path(table.path).read_bytes(), "two parents"))
    with pytest.raises(PrologError, match="pyab_table"):
        pyab.solve(table, engine="prolog")
    assert pyab.solve(tree, engine="prolog").value == 3  # the engine goes on


# -- the cache -----------------------------------------------------------------

def _big_file(tmp_path: Path, nodes: int = 3000) -> Path:
    tree = random_tree(random.Random(nodes), Shape(depth=(4, 6), branching=(2, 5)))
    path = tmp_path / "big.tree"
    path.write_text(pyab.dump(tree), encoding="utf-8")
    return path


def test_load_cached_parses_first_then_reads_the_table(tmp_path, cache):
    path = _big_file(tmp_path)
    first = load_cached(path, min_bytes=0)
    assert isinstance(first, pyab.Tree) and len(list(cache.glob("*.table"))) == 1
    second = load_cached(path, min_bytes=0)
    assert isinstance(second, TableTree) and len(second) == len(first)
    assert pyab.solve(second).to_json() == pyab.solve(first).to_json()
    path.write_text(path.read_text(encoding="utf-8").replace("= ", "= 1", 1), encoding="utf-8")
    assert isinstance(load_cached(path, min_bytes=0), pyab.Tree)  # other bytes, another table
    assert len(list(cache.glob("*.table"))) == 2


def test_small_files_and_the_switch_leave_the_cache_alone(tmp_path, cache, monkeypatch):
    path = _big_file(tmp_path)
    assert isinstance(load_cached(path), pyab.Tree) and not cache.exists()  # under MIN_BYTES
    monkeypatch.setenv(tables.ENV, "0")
    assert isinstance(load_cached(path, min_bytes=0), pyab.Tree) and not cache.exists()


def test_a_damaged_cached_table_is_made_again(tmp_path, cache):
    path = _big_file(tmp_path)
    load_cached(path, min_bytes=0)
    (table,) = cache.glob("*.table")
    table.write_bytes(table.read_bytes()[:-3])
    assert isinstance(load_cached(path, min_bytes=0), pyab.Tree)
    assert isinstance(load_cached(path, min_bytes=0), TableTree)


def test_the_cache_keeps_the_tables_used_last(tmp_path, cache, monkeypatch):
    import hashlib
    monkeypatch.setattr(tables, "KEEP", 2)
    made = []
    for i in range(3):
        p = tmp_path / f"t{i}.tree"
        p.write_text(f"a(b={i}, c=1)", encoding="utf-8")
        load_cached(p, min_bytes=0)
        made.append(cache / f"{hashlib.sha256(p.read_bytes()).hexdigest()}.table")
        if i < 2:
            os.utime(made[-1], (1000 + i, 1000 + i))
    load_cached(tmp_path / "t0.tree", min_bytes=0)  # gone: parsed, and its table made again
    assert sorted(cache.glob("*.table")) == sorted([made[0], made[2]])


def test_the_cache_keeps_no_more_than_its_bytes_but_always_the_newest(tmp_path, cache, monkeypatch):
    paths = []
    for i in range(3):
        p = tmp_path / f"t{i}.tree"
        p.write_text(f"a(b={i}, c=1)", encoding="utf-8")
        paths.append(p)
    load_cached(paths[0], min_bytes=0)
    (first,) = cache.glob("*.table")
    monkeypatch.setattr(tables, "KEEP_BYTES", first.stat().st_size)  # room for one
    os.utime(first, (1000, 1000))
    load_cached(paths[1], min_bytes=0)
    assert len(list(cache.glob("*.table"))) == 1 and not first.exists()
    monkeypatch.setattr(tables, "KEEP_BYTES", 1)  # room for none: the newest stays
    load_cached(paths[2], min_bytes=0)
    assert len(list(cache.glob("*.table"))) == 1


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path, monkeypatch):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    path = _big_file(tmp_path)
    assert isinstance(load_cached(path, min_bytes=0), pyab.Tree)
    assert isinstance(load_cached(path, min_bytes=0), pyab.Tree)


def test_a_value_no_table_holds_leaves_no_table(tmp_path, cache):
    path = tmp_path / "wide.tree"
    path.write_text("a(b=100000000000000000000, c=1)", encoding="utf-8")
    assert isinstance(load_cached(path, min_bytes=0), pyab.Tree)
    assert not list(cache.glob("*.table*"))


def test_pyab_solve_answers_the_same_from_the_table(tmp_path):
    """A file over the cache's size limit, solved by three fresh processes:
    the first writes the table, the second reads it, the third (hsu-f1,
    which reads the value range) parses the file again."""
    from benchmarks.bigtree import flat_text
    path = tmp_path / "big.tree"
    path.write_text(flat_text(60_000), encoding="utf-8")
    assert path.stat().st_size >= tables.MIN_BYTES
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop(tables.ENV, None)

    def run(*extra: str) -> str:
        out = subprocess.run([sys.executable, "-m", "pyab", "solve", str(path), *extra],
                             capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout

    def solve(*extra: str) -> dict:
        return json.loads(run("--json", *extra))

    first, text = solve(), run("--full")
    (table,) = (tmp_path / "cache" / "pyab" / "trees").glob("*.table")
    stamp = table.stat().st_mtime_ns
    assert solve() == first
    assert run("--full") == text and "best move    n" in text
    assert solve("--engine", "python") == {**first, "engine": "python"}
    assert table.stat().st_mtime_ns >= stamp
    table.unlink()
    solve("--algorithm", "hsu-f1")
    assert not table.exists()  # hsu-f1 never asks for the table
