from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
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
