"""Placement: a program under test runs on the CPU of the pyab thread that
talks to it (pyab/referee/placement.py).  Each check runs in a fresh Python
so that pytest's own threads keep their CPUs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getaffinity")
                                or len(os.sched_getaffinity(0)) < 2,
                                reason="needs Linux and at least two CPUs to choose from")


def run_python(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


CHILD_MASK = """
    import os, sys
    from pyab.referee.child import Child
    before = sorted(os.sched_getaffinity(0))
    c = Child([sys.executable, "-c", "import os, json; print(json.dumps(sorted(os.sched_getaffinity(0))))"],
              timeout=30, memory_mb=None)
    try:
        print(before, c.receive(), sorted(os.sched_getaffinity(0)))
    finally:
        c.close()
"""


def test_a_child_shares_the_cpu_of_the_thread_that_started_it():
    before, child, after = _masks(run_python(CHILD_MASK))
    assert len(before) >= 2
    assert len(child) == 1 and child == after and child[0] in before


def test_placement_off_leaves_every_mask_alone():
    before, child, after = _masks(run_python(CHILD_MASK, PYAB_PLACEMENT="0"))
    assert before == child == after and len(before) >= 2


def test_the_thread_gets_its_cpus_back_when_its_last_child_is_closed():
    out = run_python("""
        import os, sys
        from pyab.referee.child import Child
        mask = lambda: sorted(os.sched_getaffinity(0))
        before = mask()
        argv = [sys.executable, "-c", "import sys; sys.stdin.read()"]
        a = Child(argv, timeout=30, memory_mb=None)
        b = Child(argv, timeout=30, memory_mb=None)
        pinned = mask()
        a.close()
        still = mask()
        b.close()
        print(before, pinned, still, mask())
    """)
    before, pinned, still, after = (eval(part) for part in out.replace("] [", "]|[").split("|"))
    assert len(pinned) == 1 and still == pinned and after == before and len(before) >= 2


def test_pool_workers_spread_over_the_cpus(tmp_path):
    script = tmp_path / "pool.py"  # a file: spawned workers import the task from it
    script.write_text(textwrap.dedent("""
        import multiprocessing, os
        from concurrent.futures import ProcessPoolExecutor
        from pyab.referee.placement import share_cpu
        def place(_):
            import time
            cpu = share_cpu().cpu
            time.sleep(0.2)  # both workers hold a task: the pool cannot give both to one worker
            return cpu, sorted(os.sched_getaffinity(0))
        if __name__ == "__main__":
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(2, mp_context=ctx) as pool:
                print(sorted(pool.map(place, range(2))))
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    out = done.stdout.strip()
    (cpu1, mask1), (cpu2, mask2) = eval(out)
    assert cpu1 != cpu2 and mask1 == [cpu1] and mask2 == [cpu2]


def _masks(line: str) -> tuple[list[int], list[int], list[int]]:
    before, child, after = line.replace("] [", "]|[").split("|")
    return eval(before), eval(child), eval(after)
