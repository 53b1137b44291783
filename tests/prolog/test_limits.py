"""Depth, size and resource limits.

* A 100,000-deep chain solves in both engines (in make test, marked slow).
* A 1,000,000-node flat tree solves in both engines; it takes about 25 s of
  CPU (Prolog ~10 s, the Python mirror ~13 s, building ~2 s), so it runs
  only with ``PYAB_BIG=1``.
* A Prolog resource error (a tiny stack limit set on purpose with
  ``pyab.prolog.solve(stack_limit=...)``) becomes ``pyab.PrologError`` and
  the very next solve in the same process succeeds.
* ``--timeout`` / ``timeout=`` stops a long search cleanly.
"""

from __future__ import annotations

import os
import time

import pytest

import pyab
from pyab.prolog import bridge as prolog
from pyab.tree import build

from conftest import pyab_cli

FIELDS = ("best", "value", "leaves", "visited", "pruned")


def chain(n: int, value: int = 7) -> pyab.Tree:
    """n0 -> n1 -> ... -> n<n>, one leaf at the bottom."""
    edges = [(f"n{i}", (0, 0), [(f"n{i + 1}", (0, 0))]) for i in range(n)]
    return build(edges, [(f"n{n}", value, (0, 0))])


def flat(n: int) -> pyab.Tree:
    """A root with n - 1 leaves; values spread so that MAX must look at all."""
    kids = [(f"c{i}", (0, 0)) for i in range(n - 1)]
    return build([("r", (0, 0), kids)], [(f"c{i}", (i * 7919) % 1000003, (0, 0)) for i in range(n - 1)])


def same(a: pyab.Result, b: pyab.Result) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in FIELDS)


@pytest.fixture(scope="module")
def deep():
    return chain(100_000)


@pytest.mark.slow
def test_100000_deep_chain_in_both_engines(deep):
    r = pyab.solve(deep, engine="prolog")
    assert (r.best, r.value, r.leaves) == ("n1", 7, ("n100000",))
    assert len(r.visited) == 100_001 and r.pruned == ()
    assert same(r, pyab.solve(deep, engine="python"))


@pytest.mark.skipif(not os.environ.get("PYAB_BIG"), reason="about 25 s; set PYAB_BIG=1")
def test_1000000_node_flat_tree_in_both_engines():
    t = flat(1_000_000)
    r = pyab.solve(t, engine="prolog")  # needs more than SWI's default 1 Gb stack
    assert r.value == max(v for v in t.values if v is not None)
    assert len(r.leaves) == 999_999
    assert same(r, pyab.solve(t, engine="python"))


# -- resource errors ------------------------------------------------------------

def test_stack_overflow_becomes_prolog_error_and_the_next_solve_works(deep):
    with pytest.raises(pyab.PrologError) as info:
        prolog.solve(deep, stack_limit=1_000_000)
    err = info.value
    assert not isinstance(err, pyab.SearchTimeout)
    assert "resource_error" in err.term and "Stack limit" in err.message
    # The very next solve, same tree, same process: the limit is back.
    assert prolog.solve(deep).value == 7
    small = pyab.parse("a(b(c=1, d=2), e(f=0))")
    assert prolog.solve(small, stack_limit=1_000_000).best == "b"


def test_resource_error_in_a_runaway_program(tmp_path):
    """A program that recurses forever runs out of a small stack quickly."""
    prog = tmp_path / "loop.pl"
    prog.write_text("alphabeta(P, A, B, G, V) :- alphabeta(P, A, B, G, V), true.\n")
    t = pyab.parse("a(b=1, c=2)")
    start = time.perf_counter()
    with pytest.raises(pyab.PrologError, match="Stack limit"):
        prolog.solve(t, program=prog, stack_limit=8_000_000)
    assert time.perf_counter() - start < 10
    assert prolog.solve(t).value == 2


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "1M"])
def test_stack_limit_must_be_a_positive_int(bad):
    with pytest.raises(ValueError, match="stack_limit"):
        prolog.solve(pyab.parse("a(b=1)"), stack_limit=bad)


# -- time limits ----------------------------------------------------------------

def test_timeout_stops_the_search_and_the_engine_goes_on(deep):
    with pytest.raises(pyab.SearchTimeout) as info:
        pyab.solve(deep, timeout=0.01)
    assert "time limit of 0.01 s" in str(info.value)
    assert isinstance(info.value, pyab.PrologError)
    assert pyab.solve(deep).value == 7


@pytest.mark.slow
def test_cli_timeout_is_one_clear_line(tmp_path, deep):
    path = tmp_path / "deep.tree"
    path.write_text(pyab.dump(deep, "flat"))
    start = time.perf_counter()
    out = pyab_cli("solve", str(path), "--timeout", "0.01")
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert "time limit of 0.01 s" in lines[0] and "Traceback" not in out.stderr
    assert out.stdout == ""
    assert time.perf_counter() - start < 60
    ok = pyab_cli("solve", str(path), "--timeout", "600", "--json")
    assert ok.returncode == 0 and '"value": 7' in ok.stdout
