"""The compiled loader (pyab/_cload.c) is built, is used whichever way
SWI-Prolog was started, and leaks no atoms.

That it asserts the clauses load_packed/3 and the fact text assert is
tests/dsl/test_fast_paths.py (``test_compiled_load_gives_the_clauses_of_the_fact_text``);
that a load it stops half-way leaves no module is tests/prolog/test_isolation.py.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap

import pytest

import pyab
from pyab.prolog import bridge as prolog

from conftest import ROOT


def _compiled():
    # Not importorskip: in the checkout's venv (make setup) the extension must
    # be there, and a missing one is a failure, not a skip.
    from pyab.prolog import _cload
    return _cload


def _pure() -> bool:
    return os.environ.get("PYAB_PURE_PYTHON", "") not in ("", "0")


def test_the_extension_is_built_and_used(monkeypatch):
    """``make setup`` builds pyab/_cload.c (setup.py, optional=True): in the
    checkout's venv it must be there, and the engine must load with it
    (load_packed/3's packer never runs)."""
    module = _compiled()
    assert module.__file__.endswith((".so", ".pyd")), module.__file__
    if _pure():
        assert prolog._cload is None
        return
    assert prolog._cload is module
    monkeypatch.setattr(prolog, "_packed", lambda tree: pytest.fail("load_packed/3's packer ran"))
    r = pyab.solve(pyab.parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))"))
    assert (r.best, r.value, r.pruned) == ("b", 3, ("i", "j"))


def test_a_value_beyond_64_bits_takes_load_packed(monkeypatch):
    if prolog._cload is None:
        pytest.skip("the compiled loader is not built or PYAB_PURE_PYTHON is set")
    packed = []
    real = prolog._packed
    monkeypatch.setattr(prolog, "_packed", lambda tree: packed.append(tree) or real(tree))
    big = pyab.parse(f"a(b = {2 ** 64}, c = 1)")
    assert pyab.solve(big).value == 2 ** 64 and packed == [big]
    small = pyab.parse(f"a(b = {2 ** 63 - 1}, c = 1)")
    assert pyab.solve(small).value == 2 ** 63 - 1 and packed == [big]


def test_the_environment_variable_forces_load_packed():
    code = "from pyab.prolog import bridge as prolog; print(prolog._cload is None)"
    for value, pure in (("1", "True"), ("0", "False"), ("", "False")):
        env = {**os.environ, "PYAB_PURE_PYTHON": value}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                             cwd=ROOT, timeout=60)
        assert out.stdout.strip() == pure, (value, out.stdout, out.stderr)


# Every way SWI-Prolog starts in a process (pyab/prolog.py _start): the
# loader takes its functions from the library that runs, and asserts from a
# thread SWI-Prolog has not met as well.
_EVERY_START = """
    import sys, threading
    {first}
    import pyab
    from pyab.prolog import bridge as prolog
    assert prolog._cload is not None
    prolog._packed = None  # the packer would raise: the compiled loader must load
    r = pyab.solve(pyab.parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d('é'=14, l=5, m=2))"))
    assert (r.best, r.value, r.pruned) == ("b", 3, ("i", "j")), r
    out = []
    t = threading.Thread(target=lambda: out.append(pyab.solve(pyab.parse("min a(b=1, c=2.5)")).value))
    t.start(); t.join()
    assert out == [1], out
    print("pyswip" if "pyswip.core" in sys.modules else "own",
          prolog.engine().call("current_prolog_flag", [("atom", "resource_database"), None],
                               module="system")[1])
"""


@pytest.mark.parametrize("start", ["state", "source", "pyswip"])
def test_every_start_of_swi_prolog_loads_with_it(start, tmp_path):
    if _pure():
        pytest.skip("PYAB_PURE_PYTHON is set")
    first = "import pyswip.prolog" if start == "pyswip" else ""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYAB_SWI_STATE": "0" if start == "source" else "1"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_EVERY_START.format(first=first))],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    how, db = done.stdout.split()
    assert how == ("pyswip" if start == "pyswip" else "own")
    assert db.endswith(".state") == (start == "state"), db


def test_load_and_drop_cycles_leak_no_atoms():
    """Each cycle loads a tree of 301 names never seen before and drops it:
    the atoms the loader makes are given back (the clauses held them), so
    9,000 new names leave the atom table where it was (less than 100 more)."""
    if prolog._cload is None:
        pytest.skip("the compiled loader is not built or PYAB_PURE_PYTHON is set")
    eng = prolog.engine()

    def cycle(i: int) -> None:
        leaves = [f"leaf {i} é {j}" for j in range(300)]
        text = f"'root {i}' -> " + ", ".join(f"'{n}'" for n in leaves) + "\n"
        text += "".join(f"'{n}' = {j}\n" for j, n in enumerate(leaves))
        t = pyab.parse(text)
        with eng.lock:
            eng._module(t)
        eng.drop(t)

    def counts() -> dict[str, int]:
        # Retracted clauses keep their atoms until SWI-Prolog reclaims them
        # (clause garbage collection runs when it sees fit): now, then count.
        gc.collect()
        with eng.lock:
            eng.call("garbage_collect_clauses", [], module="system")
        return prolog.resource_counts()

    for i in range(5):  # warm up
        cycle(i)
    start = counts()
    for i in range(5, 35):
        cycle(i)
    end = counts()
    assert end["atoms"] - start["atoms"] < 100, (start, end)
    assert end["text_atoms"] - start["text_atoms"] < 100, (start, end)
    assert end["modules"] == start["modules"], (start, end)
