"""`pyab check --random --scheduler ADDRESS` and `pyab experiment ...
--scheduler ADDRESS` on a local Dask cluster of two worker processes (one
thread each, so one SWI-Prolog each) reach the verdict of one process."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import PROLOG, pyab_cli

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed (pip install -e '.[dist]'; "
                          "make test installs it)")


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, worker_dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _verdict(text: str) -> str:
    return re.sub(r"\(\d+ trees/s[^)]*\)", "(rate)", text)


def test_1000_random_trees_on_the_cluster_give_the_verdict_of_one_process(scheduler):
    one = pyab_cli("check", "--random", "1000", "--seed", "3")
    many = pyab_cli("check", "--random", "1000", "--seed", "3", "--scheduler", scheduler)
    assert one.returncode == 0, one.stderr
    assert "on the Dask cluster" in many.stdout
    assert (many.returncode, _verdict(many.stdout).replace(f" on the Dask cluster at {scheduler}", "")) \
        == (one.returncode, _verdict(one.stdout))


def test_a_wrong_program_is_caught_at_the_same_tree_on_the_cluster(scheduler, tmp_path):
    mutant = tmp_path / "mutant.pl"
    program = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    mutant.write_text(program.replace("Val > Beta, !", "Val >= Beta, !"), encoding="utf-8")
    args = ("check", "--random", "300", "--seed", "4", "--program", str(mutant),
            "--save-dir", str(tmp_path))
    one, many = pyab_cli(*args), pyab_cli(*args, "--scheduler", scheduler)
    assert one.returncode == 1 and "DISAGREE on random tree" in one.stdout
    assert (many.returncode, many.stdout) == (one.returncode, one.stdout)


def test_experiment_on_the_cluster_gives_the_table_of_one_process(scheduler):
    args = ("experiment", "knuth-moore", "--branching", "3", "--depth", "0-3", "--json")
    one, many = pyab_cli(*args), pyab_cli(*args, "--scheduler", scheduler)
    assert one.returncode == many.returncode == 0, many.stderr

    def counts(text):
        return [(r["depth"], r.get("best"), r.get("worst"), r["agree"]) for r in json.loads(text)["rows"]]
    assert counts(many.stdout) == counts(one.stdout)
    args = ("experiment", "random-order", "--branching", "2,3", "--depth", "2-4", "--trees", "2", "--json")
    one, many = pyab_cli(*args), pyab_cli(*args, "--scheduler", scheduler)
    assert one.returncode == many.returncode == 0, many.stderr
    assert json.loads(many.stdout)["rows"] == json.loads(one.stdout)["rows"]
