"""``python -m benchmarks.classroom``: issue 33's class, graded as a teaching
assistant would, with the process table watched throughout.

A class of 40 CS188 submissions made from examples/grading/class/alice
(30 honest, 5 that raise, 3 that loop forever, 2 that do not parse),
graded with the example suite, ``untrusted = true``, ``timeout = 2`` and
``--jobs 2``:

1. a full run: every row right, exit 0;
2. a second run stopped with SIGTERM once a third of its rows are in:
   the time it took to end, the processes and sandbox copies left;
3. ``--resume`` of that run: its gradebook against the full run's.

Throughout, every process under pyab is sampled (every 0.2 s): the most
defunct ones seen at once, and the memory (resident, summed) over the run.
``--quick`` grades 12 submissions (9, 1, 1, 1) instead of 40.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "grading"

RAISING = '''
class AlphaBetaAgent(AlphaBetaAgent):
    def getAction(self, gameState):
        raise ValueError("not written yet")
'''
LOOPING = '''
class AlphaBetaAgent(AlphaBetaAgent):
    def getAction(self, gameState):
        while True:
            pass
'''
NOT_PARSING = "\ndef broken(:\n"


@dataclass
class Watch:
    """What the sampler saw under one process."""

    defunct_max: int = 0     # at one sample
    lingering_max: int = 0   # defunct at two samples in a row (not reaped within 0.2 s)
    defunct_names: set[str] = field(default_factory=set)
    processes_max: int = 0
    rss_mb: list[float] = field(default_factory=list)


def _table() -> dict[int, tuple[int, str, int, str]]:
    """pid -> (parent, state, resident kB, name) for every process now."""
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            head, rest = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)
            stat = rest.split()
            rss = int(stat[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
            out[int(pid)] = (int(stat[1]), stat[0], rss, head.split("(", 1)[1])
        except (OSError, ValueError, IndexError):
            pass
    return out


def below(root: int, table: dict[int, tuple[int, str, int, str]] | None = None) -> set[int]:
    """Every process under ``root`` (by parent links)."""
    table = table if table is not None else _table()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {p for p, (pp, *_) in table.items() if pp in frontier} - found
        found |= frontier
    return found


def watch(proc: subprocess.Popen, every: float = 0.2) -> tuple[Watch, threading.Thread]:
    """Sample the processes under ``proc`` until it ends (a thread)."""
    seen = Watch()

    def loop() -> None:
        before: set[int] = set()
        while proc.poll() is None:
            table = _table()
            mine = below(proc.pid, table) | {proc.pid}
            states = [table[p][1] for p in mine if p in table]
            zombies = {p for p in mine if p in table and table[p][1] == "Z"}
            seen.defunct_max = max(seen.defunct_max, len(zombies))
            seen.lingering_max = max(seen.lingering_max, len(zombies & before))
            seen.defunct_names |= {f"{table[p][3]} (under {table.get(table[p][0], ('',) * 4)[3]}"
                                   f"{', lingering' if p in before else ''})" for p in zombies}
            before = zombies
            seen.processes_max = max(seen.processes_max, len(states))
            seen.rss_mb.append(sum(table[p][2] for p in mine if p in table) / 1024)
            time.sleep(every)
    t = threading.Thread(target=loop, daemon=True)
    t.start()
    return seen, t


def make_class(folder: Path, quick: bool) -> tuple[Path, list[str], dict[str, str]]:
    """The suite (the example's, timeout 2 s, untrusted) and the class:
    paths, and each submission's kind."""
    shutil.copytree(EXAMPLE / "test_cases", folder / "test_cases")
    suite = (EXAMPLE / "suite.toml").read_text()
    suite = suite.replace("timeout = 5 ", "timeout = 2 ")
    assert "timeout = 2 " in suite and "untrusted = true" in suite
    (folder / "suite.toml").write_text(suite)
    honest = (EXAMPLE / "class" / "alice" / "multiAgents.py").read_text()
    counts = [("honest", 9), ("raising", 1), ("looping", 1), ("not-parsing", 1)] if quick else \
        [("honest", 30), ("raising", 5), ("looping", 3), ("not-parsing", 2)]
    extra = {"honest": "", "raising": RAISING, "looping": LOOPING, "not-parsing": NOT_PARSING}
    subs, kinds = [], {}
    for kind, n in counts:
        for i in range(n):
            name = f"{kind}-{i:02d}"
            (folder / "class" / name).mkdir(parents=True)
            (folder / "class" / name / "multiAgents.py").write_text(honest + extra[kind])
            subs.append(str(folder / "class" / name))
            kinds[name] = kind
    return folder / "suite.toml", subs, kinds


def grade(suite: Path, subs: list[str], out: Path, env: dict, *more: str,
          stop_after: int | None = None) -> dict:
    """One ``pyab grade`` run, watched; SIGTERM once ``stop_after`` rows are in."""
    argv = [sys.executable, "-m", "pyab", "grade", str(suite), *subs, "--out", str(out),
            "--jobs", "2", *more]
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    seen, sampler = watch(proc)
    figures: dict = {}
    if stop_after is not None:
        book = out / "gradebook.json"
        while proc.poll() is None:
            try:
                if len(json.loads(book.read_text())["rows"]) >= stop_after:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        under = below(proc.pid)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
        figures["ended_after_sigterm_s"] = round(time.monotonic() - t0, 2)
        time.sleep(0.5)
        table = _table()
        figures["left_after_sigterm"] = sum(1 for p in under if p in table and table[p][1] != "Z")
    else:
        stdout, stderr = proc.communicate()
    sampler.join()
    figures.update(exit=proc.returncode, seconds=round(time.monotonic() - start, 1),
                   defunct_max=seen.defunct_max, defunct_lingering_max=seen.lingering_max,
                   defunct_names=sorted(seen.defunct_names), processes_max=seen.processes_max,
                   rss_mb_first=round(seen.rss_mb[0], 1) if seen.rss_mb else None,
                   rss_mb_max=round(max(seen.rss_mb), 1) if seen.rss_mb else None,
                   rss_mb_last=round(seen.rss_mb[-1], 1) if seen.rss_mb else None,
                   stdout_tail=stdout.decode(errors="replace").strip().splitlines()[-1:],
                   stderr_tail=stderr.decode(errors="replace").strip().splitlines()[-2:])
    return figures


def trial(quick: bool = False) -> dict:
    with tempfile.TemporaryDirectory(prefix="pyab-classroom-") as tmp:
        folder = Path(tmp)
        copies = folder / "tmp"  # the sandboxes' copies: counted after SIGTERM
        copies.mkdir()
        os.chmod(folder, 0o755)
        os.chmod(copies, 0o755)
        env = {**os.environ, "TMPDIR": str(copies)}
        suite, subs, kinds = make_class(folder, quick)
        full = grade(suite, subs, folder / "full", env)
        rows = {r["submission"]: r for r in
                json.loads((folder / "full" / "gradebook.json").read_text())["rows"]}
        right = all((rows[n]["score"] == rows[n]["max"]) == (k == "honest")
                    and (k == "honest" or rows[n]["first_failure"] in
                         {"raising": "crash", "looping": "timeout", "not-parsing": "crash"}[k])
                    for n, k in kinds.items())
        stopped = grade(suite, subs, folder / "part", env, stop_after=len(subs) // 3)
        kept = len(json.loads((folder / "part" / "gradebook.json").read_text())["rows"])
        stopped["copies_left"] = len(list(copies.iterdir()))
        resumed = grade(suite, subs, folder / "part", env, "--resume")
        same = ((folder / "part" / "gradebook.csv").read_text()
                == (folder / "full" / "gradebook.csv").read_text())
        return {"submissions": len(subs), "every_row_right": right, "full": full,
                "stopped": {**stopped, "rows_kept": kept}, "resumed": resumed,
                "resume_equals_full_run": same}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="12 submissions instead of 40")
    args = p.parse_args(argv)
    print(json.dumps(trial(args.quick), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
