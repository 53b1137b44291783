"""pyab grade --scheduler ADDRESS: a class graded on a local Dask cluster
(two worker processes) gets the gradebook of one process."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import ROOT, pyab_cli

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed (pip install -e '.[dist]')")


def test_the_cluster_grades_like_one_process(tmp_path):
    example = ROOT / "examples" / "grading"
    shutil.copytree(example, tmp_path / "g")
    subs = [str(tmp_path / "g" / "class" / s) for s in ("alice", "bob")]
    suite = str(tmp_path / "g" / "suite.toml")
    # everything on 127.0.0.1, the dashboards on a free port there
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                       worker_dashboard_address="127.0.0.1:0")
    try:
        many = pyab_cli("grade", suite, *subs, "--out", str(tmp_path / "many"), "--json",
                        "--scheduler", cluster.scheduler_address)
    finally:
        cluster.close()
    one = pyab_cli("grade", suite, *subs, "--out", str(tmp_path / "one"), "--json")
    assert one.returncode == many.returncode == 0, many.stderr
    assert json.loads(many.stdout)["rows"] == json.loads(one.stdout)["rows"]
    for name in ("alice", "bob"):
        a = json.loads((tmp_path / "one" / name / "results.json").read_text())
        b = json.loads((tmp_path / "many" / name / "results.json").read_text())
        assert [t["output"] for t in a["tests"]] == [t["output"] for t in b["tests"]]


def test_a_worker_killed_mid_run_costs_no_row(tmp_path):
    """Two workers on 127.0.0.1; one killed once the first row is in, and
    another started: every row exactly once, equal to a local run."""
    import os
    import signal
    import subprocess
    import sys
    import time
    example = ROOT / "examples" / "grading"
    shutil.copytree(example, tmp_path / "g")
    subs = []
    for i in range(6):
        sub = tmp_path / "class" / f"s{i}"
        shutil.copytree(example / "class" / ("alice" if i % 2 else "bob"), sub)
        subs.append(str(sub))
    suite = str(tmp_path / "g" / "suite.toml")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                       worker_dashboard_address="127.0.0.1:0")
    out = tmp_path / "many"
    try:
        proc = subprocess.Popen([sys.executable, "-m", "pyab", "grade", suite, *subs, "--out",
                                 str(out), "--json", "--scheduler", cluster.scheduler_address],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        deadline = time.monotonic() + 120
        while not (out / "gradebook.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
            pids = client.run(os.getpid)  # each worker process
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        cluster.scale(2)  # another in its place
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        cluster.close()
    assert proc.returncode == 0, stderr
    rows = json.loads(stdout)["rows"]
    assert [r["submission"] for r in rows] == [f"s{i}" for i in range(6)]
    one = pyab_cli("grade", suite, *subs, "--out", str(tmp_path / "one"), "--json", timeout=300)
    assert json.loads(one.stdout)["rows"] == rows
