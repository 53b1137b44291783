"""A whole ``pyab solve`` of the slides' tree in a fresh process, beside
plain ``swipl`` answering the same query and ``python -c pass``, in CPU
seconds (user + system of the child, from ``getrusage``): the median of
ten fresh processes each, the commands taken in turn (one of each, then
the next round), so that a busy machine slows them alike.

    python -m benchmarks.coldstart                 # this checkout's pyab
    python -m benchmarks.coldstart --compare DIR   # and the pyab of another source tree
    python -m benchmarks.coldstart --wheel         # and pyab installed from a wheel

The Python children run as an installed package does: with their
bytecode compiled once (into a temporary ``PYTHONPYCACHEPREFIX``, one
run before the timed ones), even when the environment says
``PYTHONDONTWRITEBYTECODE``; one more row shows the cost without bytecode
(every module compiled from source at every start).  The first run also
makes the bridge's saved state (pyab/swi_state.py) if it is missing, so
the timed runs are what every later start costs.

``--compare DIR`` times ``DIR``'s pyab (say, an export of the main branch)
and this checkout's, both started the same way (``sys.path`` gets the
source folder, the editable install's finder is taken out), for a before
and after taken in one run.  ``--wheel`` builds a wheel of this checkout,
installs it in a temporary virtualenv (lark and pyswip from the package
index) and times its ``pyab``: no editable-install finder runs at start.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .measure import ROOT

__all__ = ["AIM", "main", "rows"]

RUNS = 10
AIM = 0.15  # seconds of CPU for a cold `pyab solve examples/slides.tree` (issue 17)
SLIDES = "examples/slides.tree"

# Runs pyab's command line from the source folder in argv[1], without the
# editable install's finder (which would map `pyab` to this checkout).
_LAUNCH = (
    "import sys; src = sys.argv.pop(1); "
    "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
    "sys.path.insert(0, src); from pyab.cli import run; run()"
)


def _cpu(cmd: list[str], env: dict[str, str]) -> float:
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, capture_output=True, cwd=ROOT, env=env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-500:]!r}")
    return r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def interleaved(commands: list[tuple[str, list[str], dict[str, str]]],
                runs: int = RUNS) -> list[tuple[str, float]]:
    """(label, median CPU seconds) of each command, after one untimed run
    of each; the timed runs go round the commands ``runs`` times."""
    for _, cmd, env in commands:
        _cpu(cmd, env)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for i, (_, cmd, env) in enumerate(commands):
            times[i].append(_cpu(cmd, env))
    return [(label, statistics.median(t)) for (label, _, _), t in zip(commands, times)]


def _pyab() -> list[str]:
    found = shutil.which("pyab", path=str(ROOT / ".venv" / "bin")) or shutil.which("pyab")
    return [found] if found else [sys.executable, "-m", "pyab"]


def _wheel(base: Path) -> list[str]:
    """``pyab`` installed from a wheel of this checkout in a new virtualenv under ``base``."""
    dist, venv = base / "dist", base / "venv"
    for cmd in ([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist),
                 str(ROOT)],
                [sys.executable, "-m", "venv", str(venv)]):
        subprocess.run(cmd, check=True, capture_output=True, cwd=base)
    wheel = next(dist.glob("pyab-*.whl"))
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                   check=True, capture_output=True, cwd=base)
    return [str(venv / "bin" / "pyab")]


def rows(compare: str | None = None, wheel: bool = False, runs: int = RUNS) -> list[tuple[str, float]]:
    with tempfile.TemporaryDirectory(prefix="pyab-cold-") as tmp:
        bytecode = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        bytecode["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        source = {**bytecode, "PYTHONDONTWRITEBYTECODE": "1"}
        source.pop("PYTHONPYCACHEPREFIX")
        swipl = shutil.which("swipl") or "swipl"
        query = ("consult('prolog/alphabeta.pl'), consult('examples/slides.pl'), "
                 "alphabeta(a, -1000, 1000, P, V), print(P-V), nl")
        pyab = _pyab()
        commands = [
            ("swipl prolog/alphabeta.pl examples/slides.pl (the query, then halt)",
             [swipl, "-q", "-g", query, "-t", "halt"], bytecode),
            ("python -c pass (the interpreter alone)", [sys.executable, "-c", "pass"], bytecode),
            (f"pyab solve {SLIDES}", [*pyab, "solve", SLIDES], bytecode),
            (f"pyab solve {SLIDES} --engine python", [*pyab, "solve", SLIDES, "--engine", "python"],
             bytecode),
            (f"pyab solve {SLIDES}, no bytecode (PYTHONDONTWRITEBYTECODE=1)", [*pyab, "solve", SLIDES],
             source),
        ]
        if wheel:
            commands.append((f"pyab solve {SLIDES}, installed from a wheel",
                             [*_wheel(Path(tmp)), "solve", SLIDES], bytecode))
        if compare:
            for label, src in ((f"{compare}", compare), ("this checkout", str(ROOT))):
                for how, env in (("", bytecode), (", no bytecode", source)):
                    commands.append((f"pyab solve {SLIDES} from {label} (source on sys.path{how})",
                                     [sys.executable, "-c", _LAUNCH, src, "solve", SLIDES], env))
        return interleaved(commands, runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.coldstart",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="DIR",
                        help="also time the pyab in this source folder (before vs after)")
    parser.add_argument("--wheel", action="store_true",
                        help="also time pyab installed from a wheel in a fresh virtualenv")
    parser.add_argument("--runs", type=int, default=RUNS, help=f"processes per command (default {RUNS})")
    args = parser.parse_args(argv)
    print(f"cold start: CPU seconds (user + system) of a whole process, median of {args.runs}, "
          f"interleaved (aim: pyab solve {SLIDES} <= {AIM} s)")
    measured = rows(args.compare, args.wheel, args.runs)
    swipl = measured[0][1]
    print("| command | CPU s (median) | x plain swipl |")
    print("| --- | --- | --- |")
    for label, secs in measured:
        print(f"| `{label}` | {secs:.3f} | {secs / swipl:.1f}x |")
    cold = measured[2][1]
    print(f"aim {'met' if cold <= AIM else 'NOT met'}: pyab solve {SLIDES} took {cold:.3f} s CPU "
          f"({'<=' if cold <= AIM else '>'} {AIM} s); python -c pass took {measured[1][1]:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
