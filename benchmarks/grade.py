"""``python -m benchmarks.grade``: the time to grade a submission with
``pyab grade`` (the example suite, examples/grading: 250 random trees in
three groups and four CS188 test files), beside grading the same groups
as separate ``pyab check`` runs, one process a group and a test file,
which is how a class was graded before (the issue counted 360 runs for
10 submissions); and a class at scale, on each route (``--program``,
``--python``): 300 submissions (a third of them with one comparison
changed), 1,000 default random trees each, sandboxed, ``--jobs 2``,
against the aim of 300 submissions in 40 s (issue 37; ``--quick``
grades 20 a route and projects to 300), with the CPU of everything under
the command (a ``cpuacct`` cgroup of the run's own where one can be
made), the same class on one tree a submission (its start-ups), and
each route's CPU a submission's start-up and a tree.
While the class is graded the process table is sampled
(:mod:`benchmarks.classroom`): the most defunct processes seen (aim 0
that outlive a sample) and the memory of pyab and everything under it,
first and last sample beside the largest."""

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


AIM = 40.0  # seconds wall for 300 submissions x 1,000 trees, --jobs 2 (issue 37)


def _make_class(folder: Path, per: int, trees: int, untrusted: bool = True) -> dict[str, tuple[Path, Path, list[str]]]:
    """``per`` submissions a route (a third of them mutants) under
    ``folder``: route -> (its suite of ``trees`` trees, the same suite of
    one tree, the submissions)."""
    sources = {"program": (ROOT / "prolog" / "alphabeta.pl", "pl", ""),
               "python": (ROOT / "examples" / "referee" / "slides_alphabeta.py", "py",
                          'entry = "alphabeta"\ninterface = "pyab"\n')}
    made = {}
    for route, (source, ext, entry) in sources.items():
        home = folder / route
        home.mkdir()
        suite = _CLASS_SUITE.format(route=route, entry=entry, trees=trees)
        if not untrusted:
            suite = suite.replace("untrusted = true", "untrusted = false")
        (home / "suite.toml").write_text(suite)
        (home / "one.toml").write_text(suite.replace(f"random = {trees}", "random = 1"))
        text = source.read_text()
        old, new = _MUTANTS[ext]
        assert old in text
        subs = []
        for i in range(per):
            sub = home / f"s{i:03d}"
            sub.mkdir()
            (sub / f"ab.{ext}").write_text(text.replace(old, new, 1) if i % 3 == 0 else text)
            subs.append(str(sub))
        made[route] = (home / "suite.toml", home / "one.toml", subs)
    return made


def _grade(suite: Path, subs: list[str], out: Path, jobs: int):
    return _watched(py("-m", "pyab", "grade", str(suite), *subs, "--jobs", str(jobs), "--out", str(out)))


def stages(per: int = 12, trees: int = 1000) -> dict[str, dict[str, float]]:
    """CPU a stage of grading, by route, not sandboxed (a sandbox's inner
    processes end killed, and the CPU they used is counted nowhere), one
    process: a submission's start-up (the suite of one tree: the worker's
    share of the command, the program's child started and ended, the
    reports) and a tree (the difference to the suite of ``trees``; a
    third of the submissions are mutants, shrunk, as in the class)."""
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="pyab-class-stages-") as tmp:
        made = _make_class(Path(tmp), per, trees, untrusted=False)
        for route, (suite, one, subs) in made.items():
            t_one, _ = _grade(one, subs, Path(tmp) / f"{route}-one", 1)
            t_all, _ = _grade(suite, subs, Path(tmp) / f"{route}-all", 1)
            start = t_one.cpu / len(subs)
            out[route] = {"start_cpu_s": start, "start_wall_s": t_one.wall / len(subs),
                          "tree_cpu_us": (t_all.cpu - t_one.cpu) / (len(subs) * (trees - 1)) * 1e6,
                          "tree_wall_us": (t_all.wall - t_one.wall) / (len(subs) * (trees - 1)) * 1e6}
    return out


def class_rows(quick: bool = False, trees: int = 1000) -> list[Row]:
    """Grade a made-up class on each sandboxed route with --jobs 2: 300
    submissions (``quick``: 20, projected to 300) of ``trees`` trees, the
    whole command's wall time beside the aim (300 x 1,000 in 40 s) and its
    CPU, then the same class on one tree a submission (its start-ups), and
    each route's start-up a submission and cost a tree (not sandboxed),
    so that the class's time can be recomputed from its stages."""
    import os
    per = 20 if quick else 300
    lingering = defunct = 0
    rss: list[float] = []
    rows, after = [], []
    how = "CPU of everything under it" if _cpu_group() else "CPU of the processes reaped"
    with tempfile.TemporaryDirectory(prefix="pyab-class-") as tmp:
        made = _make_class(Path(tmp), per, trees)
        for route, (suite, one, subs) in made.items():
            t, seen = _grade(suite, subs, Path(tmp) / route / "out", 2)
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            defunct, lingering = max(defunct, seen.defunct_max), max(lingering, seen.lingering_max)
            rss += seen.rss_mb
            t1, _ = _grade(one, subs, Path(tmp) / route / "out-one", 2)
            scale = 300 / per
            what = f"{per} graded" if per == 300 else f"{per} graded, projected linearly to 300"
            wall = t.wall * scale
            rows.append(Row(f"`pyab grade` of a class: 300 --{route} submissions x {trees:,} random "
                            f"trees (a third mutants), sandboxed, --jobs 2 ({what}; load average "
                            f"{load}; {how})", f"{wall:.0f} s wall, {t.cpu * scale:.0f} s CPU",
                            "the aim (issue 37)", f"{AIM:.0f} s wall", AIM / wall,
                            f"{AIM / wall:.2f}x", f"<= {AIM:.0f} s", wall <= AIM))
            after.append(Row(f"of which start-ups, --{route}: the same class graded on one tree a "
                             f"submission ({what})", f"{t1.wall * scale:.0f} s wall, "
                             f"{t1.cpu * scale:.0f} s CPU", "trees: the rest, a tree",
                             f"{(t.cpu - t1.cpu) / (per * (trees - 1)) * 1e6:.0f} us CPU", None,
                             "-", "-", None))
    rows += after
    rows += [Row("defunct processes under `pyab grade` of those classes (sampled every 0.2 s)",
                 f"{lingering} left a sample later", "at one sample, reaped by the next",
                 f"{defunct}", None, "-", "0 left", lingering == 0),
             Row("memory of `pyab grade` and all under it over those runs (resident, summed)",
                 f"{rss[-1]:.0f} MB last" if rss else "-", "first sample / largest",
                 f"{rss[0]:.0f} / {max(rss):.0f} MB" if rss else "-", None, "-", "flat", None)]
    for route, st in stages(6 if quick else 12, trees).items():  # a third mutants, as the class
        rows.append(Row(f"grading's stages, --{route} (not sandboxed, one process, CPU of "
                        "everything under it): a submission's start-up / a tree",
                        f"{st['start_cpu_s'] * 1e3:.0f} ms / {st['tree_cpu_us']:.0f} us CPU",
                        "wall, the same runs",
                        f"{st['start_wall_s'] * 1e3:.0f} ms / {st['tree_wall_us']:.0f} us", None, "-",
                        "-", None))
    return rows


def _cpu_group() -> str | None:
    """A cgroup v1 ``cpuacct`` folder of this run's own, when one can be
    made (root, the hierarchy mounted): it counts the CPU of every process
    under the command, a sandbox's inner ones too (they end killed, so
    ``getrusage`` never sees them).  None: count what getrusage sees."""
    import os
    base = "/sys/fs/cgroup/cpuacct"
    folder = f"{base}/pyab-bench-{os.getpid()}"
    if os.path.isdir(folder):
        return folder
    try:
        os.mkdir(folder)
    except OSError:
        return None
    import atexit
    atexit.register(_remove_group, folder)
    return folder


def _remove_group(folder: str) -> None:
    import os
    import time
    for _ in range(50):  # its last processes may still be leaving
        try:
            os.rmdir(folder)
            return
        except OSError:
            time.sleep(0.1)


def _watched(cmd: list[str]):
    """``cmd`` run with its process table sampled (benchmarks.classroom)."""
    import resource
    import subprocess
    import time

    from .classroom import watch
    from .measure import Timing
    group = _cpu_group()
    enter = None
    if group is not None:
        def enter() -> None:  # in the child, before exec: it and all under it counted
            with open(f"{group}/cgroup.procs", "w") as f:
                f.write("0")
        with open(f"{group}/cpuacct.usage") as f:
            u0 = int(f.read())
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=enter)
    seen, sampler = watch(proc)
    _, err = proc.communicate()
    sampler.join()
    wall = time.perf_counter() - w0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{err.decode()[-2000:]}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if group is not None:
        with open(f"{group}/cpuacct.usage") as f:
            cpu = (int(f.read()) - u0) / 1e9
    return Timing(wall, cpu), seen


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
