"""Timing helpers and the result table shared by the benchmark sections.

Each figure is taken as wall-clock seconds and CPU seconds (this process's,
or a child process's from ``getrusage``): on a shared machine the wall clock
also counts other people's work, the CPU time does not.
"""

from __future__ import annotations

import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Timing:
    wall: float
    cpu: float


def timed(fn: Callable[[], Any]) -> tuple[Timing, Any]:
    """Run ``fn`` once in this process."""
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return Timing(time.perf_counter() - w0, time.process_time() - c0), out


def run(cmd: list[str], **kw: Any) -> tuple[Timing, subprocess.CompletedProcess]:
    """Run a command to its end; its wall time and its CPU time (user+system)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, **kw)
    wall = time.perf_counter() - w0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return Timing(wall, cpu), done


def swipl_timed(goal_body: str, files: list[str]) -> dict[str, float]:
    """Run ``swipl`` on ``files`` with a goal that binds timing variables and
    prints them as ``key=value`` lines; return them."""
    exe = shutil.which("swipl") or "swipl"
    _, done = run([exe, "-q", "-g", goal_body, "-t", "halt", *files])
    out = {}
    for line in done.stdout.splitlines():
        if "=" in line:
            k, _, v = line.partition("=")
            try:
                out[k.strip()] = float(v)
            except ValueError:
                pass
    return out


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def rss_mb() -> float:
    """This process's resident memory in MB (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def machine() -> str:
    """nproc, CPU model, load, Python and SWI-Prolog versions."""
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    swipl = subprocess.run(["swipl", "--version"], capture_output=True, text=True).stdout.strip()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} CPUs ({model}), load average {load}; Python {platform.python_version()}; "
            f"{swipl}")


@dataclass
class Row:
    """One line of the table: a figure beside its yardstick."""

    figure: str
    value: str
    yardstick: str
    yard_value: str
    ratio: float | None  # how many times better pyab is (>1 = better), or the overhead
    ratio_text: str
    aim: str
    met: bool | None


def print_table(rows: list[Row], file: Any = sys.stdout) -> None:
    head = ("figure", "pyab", "yardstick (same run)", "yardstick", "ratio", "aim", "met")
    table = [(r.figure, r.value, r.yardstick, r.yard_value, r.ratio_text, r.aim,
              "-" if r.met is None else ("yes" if r.met else "NO")) for r in rows]
    print("| " + " | ".join(head) + " |", file=file)
    print("|" + "|".join(" --- " for _ in head) + "|", file=file)
    for t in table:
        print("| " + " | ".join(t) + " |", file=file)


def secs(t: Timing) -> str:
    return f"{t.wall:.2f} s wall, {t.cpu:.2f} s CPU"


def py(*args: str) -> list[str]:
    return [sys.executable, *args]
