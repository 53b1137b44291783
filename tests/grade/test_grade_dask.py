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
