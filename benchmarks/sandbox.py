"""The cost of ``--untrusted`` per tree, for each route: ``pyab check
--random N`` with and without the operating-system sandbox, run side by
side (alternating, the median of each), from a copy of the program's folder.

The sandbox costs once per child (bubblewrap's namespaces and mounts, the
copy of the folder) and nothing per question: the child is started once and
answers every tree, so the per-tree figure is the whole run over N trees.
A confined --python child is the system's ``python3 -I`` (without pyab's
virtualenv on its path), which can start faster than the unconfined one.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .measure import ROOT, Row

ROUTES = {
    "--python": (ROOT / "examples" / "referee" / "slides_alphabeta.py",
                 lambda p: ["--python", f"{p}:alphabeta"]),
    "--exec": (ROOT / "examples" / "referee" / "client.py",
               lambda p: ["--exec", f"python3 {p.name}"]),
    "--program": (ROOT / "prolog" / "alphabeta.pl", lambda p: ["--program", str(p)]),
}


def rows(quick: bool) -> list[Row]:
    n, rounds = (100, 2) if quick else (300, 3)
    out = []
    for route, (source, spec) in ROUTES.items():
        with tempfile.TemporaryDirectory(prefix="pyab-bench-sandbox-") as d:
            prog = Path(shutil.copy(source, d))
            base = [sys.executable, "-P", "-m", "pyab", "check",
                    "--random", str(n), "--seed", "1", *spec(prog)]
            one = [c if c != str(n) else "1" for c in base]
            plain, boxed, plain1, boxed1 = [], [], [], []
            for _ in range(rounds):
                plain.append(_wall(base, d))
                boxed.append(_wall(base + ["--untrusted"], d))
                plain1.append(_wall(one, d))
                boxed1.append(_wall(one + ["--untrusted"], d))
        p, b = statistics.median(plain), statistics.median(boxed)
        p1, b1 = statistics.median(plain1), statistics.median(boxed1)
        out.append(Row(f"`check --random {n} {route} --untrusted` per tree (whole run / trees)",
                       f"{1000 * b / n:.2f} ms", "the same without --untrusted",
                       f"{1000 * p / n:.2f} ms", p / b, f"{b / p:.2f}x the cost", "<= 2x", b / p <= 2))
        out.append(Row(f"`check --random 1 {route} --untrusted` (start-up: copy, namespaces)",
                       f"{1000 * b1:.0f} ms", "the same without --untrusted",
                       f"{1000 * p1:.0f} ms", p1 / b1, f"{b1 - p1:+.3f} s", "-", None))
    return out


def _wall(cmd: list[str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start
