"""The cost of ``--untrusted`` per tree, for each route: ``pyab check
--random N`` with and without the operating-system sandbox, run side by
side (alternating, the median of each), from a copy of the program's folder;
and what each part of the sandbox adds to starting a child: the namespaces
and mounts (with the folder filled into its tmpfs), the cgroups, the
system-call filter, beside the plain child.

The sandbox costs once per child (namespaces, mounts, the copy of the
folder, the cgroups) and next to nothing per question: the child is
started once and answers every tree, so the per-tree figure is the whole run
over N trees.  The filter is checked at every system call of the child; the
echo rows measure it on the pipe round trips a question makes.
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

# A child that answers "{}" at once, then echoes each line: a start, then round trips.
ECHO = ("import sys\nprint('{}', flush=True)\n"
        "for line in sys.stdin:\n    sys.stdout.write(line); sys.stdout.flush()\n")


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
    return out + parts(quick)


def parts(quick: bool) -> list[Row]:
    """Starting a confined python3 (and 2,000 echo round trips), per backend:
    namespaces alone, + cgroups, + filter, + both, beside the plain child."""
    from pyab.referee import cgroup
    from pyab.referee.child import Child
    from pyab.referee.sandbox import PATH, Sandbox, limits
    python3 = shutil.which("python3", path=PATH) or "python3"  # the one a confined child runs
    starts, trips = (5, 500) if quick else (15, 2000)
    variants = {"plain child": None, "namespaces": (False, False), "+ cgroups": (True, False),
                "+ filter": (False, True), "+ cgroups + filter": (True, True)}
    out = []
    for kind in ("bwrap", "unshare"):
        if shutil.which(kind) is None:
            continue
        start: dict[str, list[float]] = {v: [] for v in variants}
        echo: dict[str, list[float]] = {v: [] for v in variants}
        with tempfile.TemporaryDirectory(prefix="pyab-bench-parts-") as d:
            for _ in range(starts):
                for name, how in variants.items():
                    box = None if how is None else Sandbox(d, kind=kind, cgroup=how[0],
                                                            seccomp=how[1])
                    lim = limits(60, 1024) if box is not None else {"timeout": 60, "memory_mb": 1024}
                    t0 = time.perf_counter()
                    with Child([python3, "-c", ECHO], sandbox=box, **lim) as child:
                        child.restart_clock()
                        child.receive()
                        t1 = time.perf_counter()
                        for i in range(trips):
                            child.send(i)
                            child.receive()
                        t2 = time.perf_counter()
                    start[name].append(t1 - t0)
                    echo[name].append((t2 - t1) / trips)
        base_start = statistics.median(start["plain child"])
        base_echo = statistics.median(echo["plain child"])
        for name in list(variants)[1:]:
            if "cgroups" in name and cgroup.available():
                continue  # no cgroup here: nothing to measure
            s, e = statistics.median(start[name]), statistics.median(echo[name])
            out.append(Row(f"{kind}, {name}: start python3 and read its first line",
                           f"{1000 * s:.1f} ms", "a plain child (no sandbox)",
                           f"{1000 * base_start:.1f} ms", base_start / s,
                           f"{1000 * (s - base_start):+.1f} ms", "-", None))
            out.append(Row(f"{kind}, {name}: one echo round trip ({trips} in a row)",
                           f"{1e6 * e:.1f} us", "a plain child (no sandbox)",
                           f"{1e6 * base_echo:.1f} us", base_echo / e,
                           f"{e / base_echo:.2f}x", "-", None))
    return out


def _wall(cmd: list[str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


if __name__ == "__main__":  # python -m benchmarks.sandbox: the parts alone
    from .measure import print_table
    print_table(parts("--quick" in sys.argv))
