"""``python -m benchmarks.grade``: the time to grade a submission with
``pyab grade`` (the example suite, examples/grading: 250 random trees in
three groups and four CS188 test files), beside grading the same groups
as separate ``pyab check`` runs, one process a group and a test file,
which is how a class was graded before (the issue counted 360 runs for
10 submissions); and a class at scale: K Prolog and K Python submissions
(a third to a half of them with one comparison changed), 1,000 default
random trees each, sandboxed, ``--jobs 2``, against the aim of 300
submissions in two minutes (issue 28; ``--quick`` grades 2 x 20 and
projects to 300).  While the class is graded the process table is sampled
(:mod:`benchmarks.classroom`): the most defunct processes seen (aim 0 that
outlive a sample) and the memory of pyab and everything under it, first
and last sample beside the largest."""

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
                glue / per, f"{glue / per:.2f}x faster", "-", None)] + class_rows(quick)


# One comparison changed in some of the class's programs (the rest correct).
_MUTANTS = {"pl": ("Val > Beta", "Val >= Beta"), "py": ("val > beta", "val >= beta")}
_CLASS_SUITE = """\
[grader]
route = "{route}"
{entry}algorithm = "bratko"
untrusted = true
timeout = 5

[[tests]]
name = "random trees"
points = 10
random = {trees}
seed = 1
"""


def class_rows(quick: bool = False, trees: int = 1000) -> list[Row]:
    """Grade a made-up class on both sandboxed routes; the whole wall time
    beside the aim (300 submissions x 1,000 trees in 120 s)."""
    per = 20 if quick else 150
    sources = {"pl": (ROOT / "prolog" / "alphabeta.pl", "program", ""),
               "py": (ROOT / "examples" / "referee" / "slides_alphabeta.py", "python",
                      'entry = "alphabeta"\ninterface = "pyab"\n')}
    wall = cpu = 0.0
    lingering = defunct = 0
    rss: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pyab-class-") as tmp:
        for ext, (source, route, entry) in sources.items():
            folder = Path(tmp) / ext
            folder.mkdir()
            (folder / "suite.toml").write_text(_CLASS_SUITE.format(route=route, entry=entry, trees=trees))
            text = source.read_text()
            old, new = _MUTANTS[ext]
            assert old in text
            subs = []
            for i in range(per):
                sub = folder / f"s{i:03d}"
                sub.mkdir()
                (sub / f"ab.{ext}").write_text(text.replace(old, new, 1) if i % 3 == 0 else text)
                subs.append(str(sub))
            t, seen = _watched(py("-m", "pyab", "grade", str(folder / "suite.toml"), *subs,
                                  "--jobs", "2", "--out", str(folder / "out")))
            wall, cpu = wall + t.wall, cpu + t.cpu
            defunct, lingering = max(defunct, seen.defunct_max), max(lingering, seen.lingering_max)
            rss += seen.rss_mb
    n = 2 * per
    projected = wall * 300 / n
    what = f"{n} graded" if n == 300 else f"{n} graded, projected linearly to 300"
    return [Row(f"`pyab grade` of a class: 300 submissions x {trees:,} random trees, half Prolog, "
                f"half Python, sandboxed, --jobs 2 ({what})", f"{projected:.0f} s wall ({cpu * 300 / n:.0f} s CPU)",
                "the aim (issue 28)", "120 s wall", 120 / projected, f"{120 / projected:.2f}x",
                "<= 120 s", projected <= 120),
            Row(f"defunct processes under `pyab grade` of that class (sampled every 0.2 s; {n} graded)",
                f"{lingering} left a sample later", "at one sample, reaped by the next",
                f"{defunct}", None, "-", "0 left", lingering == 0),
            Row("memory of `pyab grade` and all under it over that run (resident, summed)",
                f"{rss[-1]:.0f} MB last" if rss else "-", "first sample / largest",
                f"{rss[0]:.0f} / {max(rss):.0f} MB" if rss else "-", None, "-", "flat", None)]


def _watched(cmd: list[str]):
    """``cmd`` run with its process table sampled (benchmarks.classroom)."""
    import resource
    import subprocess
    import time

    from .classroom import watch
    from .measure import Timing
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    seen, sampler = watch(proc)
    _, err = proc.communicate()
    sampler.join()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{err.decode()[-2000:]}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return Timing(time.perf_counter() - w0, cpu), seen


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
