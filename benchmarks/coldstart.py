"""A whole ``pyab solve`` of the slides' tree in a fresh process, beside
plain ``swipl`` answering the same query, in CPU seconds (user + system of
the child, from ``getrusage``), the median of ten runs each.

    python -m benchmarks.coldstart
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys

from .measure import ROOT

__all__ = ["main", "rows"]

RUNS = 10


def cpu_median(cmd: list[str], runs: int = RUNS) -> float:
    """Median CPU seconds of ``runs`` runs of ``cmd`` (each must exit 0)."""
    times = []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, capture_output=True, cwd=ROOT)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-500:]!r}")
        times.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return statistics.median(times)


def rows() -> list[tuple[str, float]]:
    pyab = shutil.which("pyab", path=str(ROOT / ".venv" / "bin")) or shutil.which("pyab")
    swipl = shutil.which("swipl") or "swipl"
    query = ("consult('prolog/alphabeta.pl'), consult('examples/slides.pl'), "
             "alphabeta(a, -1000, 1000, P, V), print(P-V), nl")
    return [
        ("swipl prolog/alphabeta.pl examples/slides.pl (the query, then halt)",
         cpu_median([swipl, "-q", "-g", query, "-t", "halt"])),
        ("python -c pass (the interpreter alone)", cpu_median([sys.executable, "-c", "pass"])),
        ("pyab solve examples/slides.tree", cpu_median([pyab or sys.executable, "solve",
                                                         "examples/slides.tree"]
                                                        if pyab else [sys.executable, "-m", "pyab",
                                                                      "solve", "examples/slides.tree"])),
        ("pyab solve examples/slides.tree --engine python",
         cpu_median([pyab, "solve", "examples/slides.tree", "--engine", "python"] if pyab else
                    [sys.executable, "-m", "pyab", "solve", "examples/slides.tree", "--engine", "python"])),
    ]


def main(argv: list[str] | None = None) -> int:
    print(f"cold start: CPU seconds of a whole process, median of {RUNS} runs (aim: pyab solve <= 0.15 s)")
    measured = rows()
    swipl = measured[0][1]
    print("| command | CPU s (median) | x plain swipl |")
    print("| --- | --- | --- |")
    for label, secs in measured:
        print(f"| `{label}` | {secs:.3f} | {secs / swipl:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
