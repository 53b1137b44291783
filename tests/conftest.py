from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# CS188-style AlphaBetaAgent fixtures: the correct one and the one that
# prunes on equality are the example class's two students
# (examples/grading/class/); each of the others is the correct one with one
# mistake, made here by replacing text (every old text must be there).
_CS188_IN_EXAMPLES = {"correct": "alice", "prune_equal": "bob"}
_CS188_MUTANTS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "depth_plies": ("depth counts every agent's move (plies), not rounds, so it searches "
                    "too shallow", [("depth + (agent + 1 == n)", "depth + 1"),
                                    ("1 % n, 1 if n == 1 else 0", "1 % n, 1")]),
    "ghosts_not_chained": ("after a ghost, Pacman moves again: right with one ghost, wrong "
                           "with two", [("nxt, deeper = (agent + 1) % n, depth + (agent + 1 == n)",
                                         "nxt, deeper = (0, depth + 1) if agent > 0 "
                                         "else (1 % n, depth + (n == 1))")]),
    "root_tie_last": ("on a tie at the root it keeps the last best action (>=), not the first",
                      [("alpha, beta)\n            if v > best_v:",
                        "alpha, beta)\n            if v >= best_v:")]),
    "window_9999": ("-9999 and 9999 stand for the infinities, right until a value reaches "
                    "them", [('float("-inf")', "-9999"), ('float("inf")', "9999")]),
}
_MADE: dict[str, Path] = {}


def cs188_agent(name: str) -> Path:
    """The multiAgents.py file of the fixture agent ``name``."""
    if name in _CS188_IN_EXAMPLES:
        return EXAMPLES / "grading" / "class" / _CS188_IN_EXAMPLES[name] / "multiAgents.py"
    if name not in _MADE:
        import atexit
        import tempfile
        why, changes = _CS188_MUTANTS[name]
        text = cs188_agent("correct").read_text()
        text = "# " + why + ": one mistake in a correct agent.\n" + text.split("\n", 3)[3]
        for old, new in changes:
            assert old in text, f"{name}: {old!r} is not in the correct agent"
            text = text.replace(old, new)
        folder = Path(tempfile.mkdtemp(prefix="pyab-agent-"))
        atexit.register(shutil.rmtree, folder, True)
        _MADE[name] = folder / f"{name}.py"
        _MADE[name].write_text(text)
    return _MADE[name]


PROLOG = ROOT / "prolog"
SLIDES_TEXT = "a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))"


@pytest.fixture
def slides():
    import pyab
    return pyab.parse(SLIDES_TEXT)


def swipl(*args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run a separate `swipl` process (not the engine inside pytest)."""
    exe = shutil.which("swipl")
    assert exe, "swipl must be installed (make setup)"
    return subprocess.run([exe, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, encoding="utf-8")


def pyab_cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real command line in a fresh process."""
    return subprocess.run([sys.executable, "-m", "pyab", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, encoding="utf-8")
