"""Every ``console`` block of docs/courses.md is run: each ``$ `` line is a
command (run by bash in a scratch folder that links ``examples`` and
``prolog``), and what it prints must be the lines that follow it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "courses.md"


def sessions() -> list[tuple[str, str]]:
    out = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, expected = part.partition("\n")
            out.append((command, expected))
    return out


SESSIONS = sessions()


def test_the_page_has_examples():
    assert len(SESSIONS) >= 10


@pytest.mark.parametrize("command, expected", SESSIONS, ids=[c for c, _ in SESSIONS])
def test_example(tmp_path, command, expected):
    for name in ("examples", "prolog"):
        (tmp_path / name).symlink_to(ROOT / name)
    if "two-ghosts.pl" in command and "swipl" in command:
        with open(tmp_path / "two-ghosts.pl", "w", encoding="utf-8") as f:
            subprocess.run([sys.executable, "-m", "pyab", "facts", "examples/courses/two-ghosts.tree"],
                           cwd=tmp_path, stdout=f, check=True, env=_env())
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True,
                          env=_env(), timeout=120)
    assert (done.stdout + done.stderr) == expected


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    env["COLUMNS"] = "200"
    return env
