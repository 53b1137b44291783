"""The engine's start: SWI-Prolog from a saved state of the bridge
(pyab/swi_state.py), made once and cached, never used stale or damaged,
and pyab without pyswip's import (pyab/prolog.py ``_start``)."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pyab.prolog import state as swi_state
from pyab.prolog.home import locate

from tests.conftest import PROLOG, ROOT

FOUND = locate()
pytestmark = pytest.mark.skipif(FOUND is None, reason="SWI-Prolog's home and library not found")


def version() -> int:
    lib = ctypes.CDLL(FOUND[1])
    fn = lib["PL_version_info"]
    fn.restype, fn.argtypes = ctypes.c_uint, [ctypes.c_int]
    return fn(1)


@pytest.fixture
def bridge(tmp_path: Path) -> Path:
    """A copy of the bridge (with the registry beside it) to edit."""
    copy = tmp_path / "prolog"
    copy.mkdir()
    shutil.copytree(PROLOG / "bridge", copy / "bridge")
    shutil.copy(PROLOG / "algorithms.json", copy)
    text = (PROLOG / "pyab_bridge.pl").read_text(encoding="utf-8")
    (copy / "pyab_bridge.pl").write_text(text + "\ncache_probe(1).\n", encoding="utf-8")
    return copy / "pyab_bridge.pl"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(swi_state.ENV, raising=False)
    return tmp_path / "cache" / "pyab"


def make(bridge: Path) -> str | None:
    return swi_state.state(FOUND[0], FOUND[1], version(), bridge)


def ask(state: str, goal: str) -> str:
    """What a `swipl` started from ``state`` prints for ``goal``."""
    done = subprocess.run(["swipl", "-x", state, "-q", "-g", goal, "-t", "halt"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_made_once_then_reused(bridge, cache, monkeypatch):
    first = make(bridge)
    assert first is not None and Path(first).parent == cache
    assert ask(first, "pyab_bridge:cache_probe(X), print(X)") == "1"
    assert ask(first, "pyab_bridge:algorithms_text(T), sub_atom(T, 0, _, _, bratko), print(ok)") == "ok"
    made = Path(first).stat().st_mtime_ns

    def no_child(*a, **kw):
        raise AssertionError("a swipl child was started although the state is up to date")
    monkeypatch.setattr(subprocess, "run", no_child)
    assert make(bridge) == first
    assert Path(first).stat().st_mtime_ns == made


def test_an_edited_bridge_file_is_picked_up(bridge, cache):
    first = make(bridge)
    assert ask(first, "pyab_bridge:cache_probe(X), print(X)") == "1"
    text = bridge.read_text(encoding="utf-8").replace("cache_probe(1).", "cache_probe(2).")
    bridge.write_text(text, encoding="utf-8")  # same size: only the time tells
    again = make(bridge)
    assert again is not None
    assert ask(again, "pyab_bridge:cache_probe(X), print(X)") == "2"


def test_an_edited_module_and_registry_are_picked_up(bridge, cache):
    make(bridge)
    store = bridge.parent / "bridge" / "store.pl"
    store.write_text(store.read_text(encoding="utf-8") + "\nstore_probe(yes).\n", encoding="utf-8")
    registry = bridge.parent / "algorithms.json"
    registry.write_text(registry.read_text(encoding="utf-8").replace('"bratko"', '"bratko2"', 1),
                        encoding="utf-8")
    again = make(bridge)
    assert ask(again, "pyab_store:store_probe(X), print(X)") == "yes"
    assert ask(again, "pyab_bridge:algorithms_text(T), sub_atom(T, 0, _, _, bratko2), print(ok)") == "ok"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_state_is_made_again(bridge, cache, damage):
    first = Path(make(bridge))
    data = first.read_bytes()
    first.write_bytes({"garbage": b"not a zip\n", "truncated": data[: len(data) // 2],
                       "empty": b""}[damage])
    again = make(bridge)
    assert again == str(first) and Path(again).read_bytes() != b""
    assert ask(again, "pyab_bridge:cache_probe(X), print(X)") == "1"  # SWI-Prolog reads it


def test_a_damaged_manifest_is_made_again(bridge, cache):
    first = make(bridge)
    (manifest,) = cache.glob("bridge-*.json")
    manifest.write_text('{"key": ', encoding="utf-8")
    assert make(bridge) == first
    assert '"crc32"' in manifest.read_text(encoding="utf-8")


def test_a_cache_that_cannot_be_written_gives_no_state(bridge, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # its pyab/ cannot be made
    assert make(bridge) is None
    assert not list(tmp_path.glob("**/*.tmp"))


def test_turned_off_by_the_environment(bridge, cache, monkeypatch):
    monkeypatch.setenv(swi_state.ENV, "0")
    assert make(bridge) is None
    assert not cache.exists()


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**os.environ, **env})


SOLVE_FROM_STATE = """
    import sys, pyab
    from pyab.prolog import bridge as prolog
    r = pyab.solve(pyab.parse("a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))"))
    assert (r.best, r.value, r.pruned) == ("b", 3, ("i", "j")), r
    assert "pyswip" not in sys.modules, "pyswip was imported"
    db = prolog.engine().call("current_prolog_flag", [("atom", "resource_database"), None],
                              module="system")[1]
    print(db)
"""


def test_the_engine_starts_from_the_state_without_pyswip(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), swi_state.ENV: "1"}
    first = run_python(SOLVE_FROM_STATE, env)
    assert first.returncode == 0, first.stderr
    (state,) = (tmp_path / "cache" / "pyab").glob("bridge-*.state")
    assert first.stdout.strip() == str(state)
    again = run_python(SOLVE_FROM_STATE, env)
    assert again.returncode == 0 and again.stdout == first.stdout, again.stderr


def test_without_a_writable_cache_the_command_line_still_answers(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = subprocess.run([sys.executable, "-m", "pyab", "solve", "examples/slides.tree", "--json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "XDG_CACHE_HOME": str(blocker)})
    assert done.returncode == 0, done.stderr
    assert '"best": "b"' in done.stdout and '"pruned": ["i", "j"]' in done.stdout


def test_pyswip_imported_after_pyab_still_works(tmp_path):
    done = run_python("""
        import pyab
        r = pyab.solve(pyab.parse("a(b=1, c=2)"))
        assert r.best == "c"
        import pyswip
        p = pyswip.Prolog()
        p.assertz("colour(red)")
        assert [s["X"] for s in p.query("colour(X)")] == ["red"]
        assert pyab.solve(pyab.parse("a(b=3, c=2)")).best == "b"
        print("ok")
    """, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr
