from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# CS188-style AlphaBetaAgent fixtures (tests/referee/cs188_agents/); the
# correct one and the one that prunes on equality are the example class's
# two students, kept once, in examples/grading/class/.
_CS188_IN_EXAMPLES = {"correct": "alice", "prune_equal": "bob"}


def cs188_agent(name: str) -> Path:
    """The multiAgents.py file of the fixture agent ``name``."""
    if name in _CS188_IN_EXAMPLES:
        return EXAMPLES / "grading" / "class" / _CS188_IN_EXAMPLES[name] / "multiAgents.py"
    return ROOT / "tests" / "referee" / "cs188_agents" / f"{name}.py"
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
