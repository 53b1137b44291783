"""``python -m benchmarks.grade``: the time to grade a submission with
``pyab grade`` (the example suite, examples/grading: 250 random trees in
three groups and four CS188 test files), beside grading the same groups
as separate ``pyab check`` runs, one process a group and a test file,
which is how a class was graded before (the issue counted 360 runs for
10 submissions)."""

from __future__ import annotations

import sys
import tempfile
import tomllib
from pathlib import Path

from .measure import Row, py, run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "grading"


def _glue(submission: Path) -> list[list[str]]:
    """One `pyab check` a group (random) or a test file (cs188)."""
    suite = tomllib.loads((EXAMPLE / "suite.toml").read_text())
    g = suite["grader"]
    prog = ["--python", f"{submission / 'multiAgents.py'}:{g['entry']}", "--interface", "cs188",
            "--algorithm", g["algorithm"], "--keep-going", "--save-dir", tempfile.gettempdir()]
    if g.get("untrusted"):  # confined as the suite's grading is
        prog.append("--untrusted")
    cmds = []
    for t in suite["tests"]:
        if "random" in t:
            cmds.append(py("-m", "pyab", "check", "--random", str(t["random"]), "--seed",
                           str(t["seed"]), "--agents", str(t["agents"]), "--depth", str(t["depth"]),
                           "--values", t.get("values", "default"), *prog))
        else:
            for f in sorted((EXAMPLE / t["cs188"]).glob("*.test")):
                if "GraphGameTreeTest" in f.read_text():
                    k = 3 if "two-ghosts" in f.name else 2  # the files' num_agents; depth 1 round
                    cmds.append(py("-m", "pyab", "check", str(f), *prog, "--depth", str(k),
                                   "--agents", str(k)))
    return cmds


def rows(quick: bool = False) -> list[Row]:
    subs = sorted(p for p in (EXAMPLE / "class").iterdir() if p.is_dir())
    with tempfile.TemporaryDirectory(prefix="pyab-grade-") as tmp:
        graded, _ = run(py("-m", "pyab", "grade", str(EXAMPLE / "suite.toml"), *map(str, subs),
                           "--out", tmp))
    per = graded.wall / len(subs)
    glue = 0.0
    for sub in subs:
        for cmd in _glue(sub):
            glue += _run_any(cmd)[0].wall
    glue /= len(subs)
    return [Row(f"`pyab grade` of the example suite, per submission ({len(subs)} graded, "
                "250 random trees, 4 test files)", f"{per:.2f} s wall",
                f"the same groups as {len(_glue(subs[0]))} `pyab check` runs a submission",
                f"{glue:.2f} s wall",
                glue / per, f"{glue / per:.2f}x faster", "-", None)]


def _run_any(cmd: list[str]):
    """A `pyab check` run that may exit 1 (a disagreement is a result here)."""
    import resource
    import subprocess
    import time

    from .measure import Timing
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - w0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return Timing(wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)), done


def main(argv: list[str] | None = None) -> int:
    from .measure import print_table
    print_table(rows())
    return 0


if __name__ == "__main__":
    sys.exit(main())
