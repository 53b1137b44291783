"""The referee's Prolog child started from a saved state of
prolog/referee/child.pl (pyab.prolog.state.child_state): made once and
cached, never used stale or damaged, the same answers as from source,
inside the sandbox too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pyab.dsl import load
from pyab.prolog import state as swi_state
from pyab.referee.program import PrologProgram

from tests.conftest import PROLOG, ROOT

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="no swipl")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(swi_state.ENV, raising=False)
    monkeypatch.setattr(swi_state, "_CHILD", {})
    return tmp_path / "cache" / "pyab"


@pytest.fixture
def child(tmp_path: Path) -> Path:
    """A copy of child.pl (and the one bridge module it loads) to edit."""
    (tmp_path / "prolog" / "referee").mkdir(parents=True)
    shutil.copytree(PROLOG / "bridge", tmp_path / "prolog" / "bridge")
    shutil.copy(PROLOG / "referee" / "child.pl", tmp_path / "prolog" / "referee")
    return tmp_path / "prolog" / "referee" / "child.pl"


def probe(state: str) -> str:
    done = subprocess.run(["swipl", "-x", state, "-q", "-g",
                           "(catch(pyab_child:probe_(X), _, X = none), print(X))", "-t", "halt"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_made_once_then_reused_and_remade_when_child_pl_changes(child, cache, monkeypatch):
    first = swi_state.child_state("swipl", child)
    assert first is not None and Path(first).parent == cache
    assert probe(first) == "none"
    made = Path(first).stat().st_mtime_ns
    monkeypatch.setattr(swi_state, "_CHILD", {})  # a new process: checked in full again
    assert swi_state.child_state("swipl", child) == first
    assert Path(first).stat().st_mtime_ns == made
    child.write_text(child.read_text(encoding="utf-8") + "\nprobe_(edited).\n", encoding="utf-8")
    monkeypatch.setattr(swi_state, "_CHILD", {})
    again = swi_state.child_state("swipl", child)
    assert again == first and probe(again) == "edited"


@pytest.mark.parametrize("damage", ["garbage", "removed"])
def test_a_damaged_or_removed_state_is_made_again(child, cache, damage):
    first = Path(swi_state.child_state("swipl", child))
    data = first.read_bytes()
    if damage == "removed":  # within one process: its size and time are looked at each time
        first.unlink()
    else:
        swi_state._CHILD.clear()
        first.write_bytes(b"x" * len(data))  # the same size: the CRC tells
    again = swi_state.child_state("swipl", child)
    assert again == str(first) and Path(again).read_bytes()[:2] == data[:2]
    assert probe(again) == "none"


def test_turned_off_by_the_environment(child, cache, monkeypatch):
    monkeypatch.setenv(swi_state.ENV, "0")
    assert swi_state.child_state("swipl", child) is None
    assert not cache.exists()


SLIDES = ROOT / "examples" / "slides.tree"


@pytest.mark.parametrize("use_state", [True, False])
@pytest.mark.parametrize("untrusted", [False, True])
def test_the_child_answers_the_same_from_the_state_and_from_source(cache, monkeypatch, tmp_path,
                                                                   use_state, untrusted):
    if untrusted:
        from pyab.referee.sandbox import SandboxUnavailable, backend
        try:
            backend()
        except SandboxUnavailable as err:
            pytest.skip(str(err))
    if not use_state:
        monkeypatch.setenv(swi_state.ENV, "0")
    tree = load(SLIDES)
    text = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    (tmp_path / "right").mkdir()
    (tmp_path / "wrong").mkdir()
    (tmp_path / "right" / "ab.pl").write_text(text, encoding="utf-8")
    (tmp_path / "wrong" / "ab.pl").write_text(text.replace("Val > Beta", "Val >= Beta", 1),
                                              encoding="utf-8")
    seen = {}
    for name in ("right", "wrong"):
        with PrologProgram(tmp_path / name / "ab.pl", untrusted=untrusted) as program:
            r = program.solve(tree, alpha=2, beta=3)
            assert ("-x" in program._child.argv) == use_state
            seen[name] = (r.best, r.value, r.leaves)
    assert seen["right"] != seen["wrong"]  # the mutant is run, not a cached answer
    r = PrologProgram(tmp_path / "right" / "ab.pl", untrusted=untrusted)
    with r:
        assert r.solve(tree).leaves == tuple("efghklm")
