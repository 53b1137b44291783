"""pyab experiment: knuth-moore, random-order and best-order, end to end."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES, pyab_cli
from pyab.trees.experiments import (CPW_B40_BEST, CPW_B40_WORST, best_order, knuth_moore,
                                    knuth_moore_rows, random_order_rows)


def test_knuth_moore_json_both_engines():
    out = pyab_cli("experiment", "knuth-moore", "--branching", "3", "--depth", "0-5", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["branching"] == 3 and data["agree"] is True
    assert [r["depth"] for r in data["rows"]] == list(range(6))
    for r in data["rows"]:
        d = r["depth"]
        assert r["formula"] == 3 ** ((d + 1) // 2) + 3 ** (d // 2) - 1
        assert r["minimax"] == 3 ** d
        assert r["best"] == r["formula"] and r["worst"] == r["minimax"]
        engines = [x["engine"] for x in r["runs"]["best"]]
        assert engines == ["prolog", "python"]


def test_knuth_moore_table_and_one_ordering():
    out = pyab_cli("experiment", "knuth-moore", "--branching", "2", "--depth", "3",
                   "--ordering", "worst", "--engine", "prolog")
    assert out.returncode == 0, out.stderr
    assert "worst (measured)" in out.stdout and "best (measured)" not in out.stdout
    assert "prolog only" in out.stdout


def test_b40_rows_against_the_printed_table():
    # Depths 0-4 run quickly in SWI-Prolog (counts only); the rest of the
    # printed table is checked against the formula, which the measured
    # rows meet exactly (docs/experiments.md records d = 5, 6).
    rows = knuth_moore_rows(40, range(0, 5), ("perfect",), engines=("prolog",))
    assert [r["best"] for r in rows] == [1, 40, 79, 1639, 3199] == list(CPW_B40_BEST[:5])
    mismatches = [d for d in range(len(CPW_B40_BEST)) if CPW_B40_BEST[d] != knuth_moore(40, d)]
    assert mismatches == [5]  # 65,569 printed; 40^3 + 40^2 - 1 = 65,599
    assert list(CPW_B40_WORST) == [40 ** d for d in range(len(CPW_B40_WORST))]


def test_b40_worst_rows_measured():
    rows = knuth_moore_rows(40, range(0, 4), ("worst",), engines=("prolog", "python"))
    assert [r["worst"] for r in rows] == [1, 40, 1600, 64000]
    assert all(r["agree"] for r in rows)


@pytest.mark.parametrize("args", [
    ["--branching", "0", "--depth", "1"],
    ["--branching", "3", "--depth", "4-2"],
    ["--branching", "3", "--depth", "x"],
    ["--branching", "3", "--depth", "2", "--algorithm", "nope"],
])
def test_bad_options_exit_2(args):
    out = pyab_cli("experiment", "knuth-moore", *args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr


def test_random_order_rows():
    rows = random_order_rows([3], [2, 3], seeds=4, engines=("prolog", "python"))
    assert all(r["agree"] for r in rows)
    for r in rows:
        assert r["perfect"] <= r["min"] <= r["mean"] <= r["max"] <= r["minimax"]
        assert 0.5 <= r["exponent"] <= 1.0


def test_random_order_cli_json():
    out = pyab_cli("experiment", "random-order", "--branching", "2,4", "--depth", "2-3",
                   "--trees", "3", "--engine", "both", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["agree"] and len(data["rows"]) == 4


def test_random_order_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out_file = tmp_path / "ro.svg"
    out = pyab_cli("experiment", "random-order", "--branching", "2,4", "--depth", "2-3",
                   "--trees", "2", "--plot", str(out_file))
    assert out.returncode == 0, out.stderr
    assert out_file.read_text().lstrip().startswith("<?xml")


def test_best_order_beats_the_perfect_ordering_on_the_example():
    import pyab
    tree = pyab.load(EXAMPLES / "best-order.tree")
    res = best_order(tree)
    assert res["tried"] == 8
    assert (res["perfect"], res["fewest"]) == (3, 2)


def test_best_order_cli():
    out = pyab_cli("experiment", "best-order", str(EXAMPLES / "best-order.tree"), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["fewest"] < data["perfect"] and data["agree"]
    assert data["best_tree"]["leaves"] == ["r_1", "r_2_2"]


def test_best_order_on_uniform_trees_perfect_is_optimal():
    """On a uniform tree no ordering reads fewer leaves than the perfect one
    (Knuth and Moore: the critical positions must all be read)."""
    import pyab
    tree = pyab.parse("[[3, 1, 4], [0, 5, 9], [2, 6, 7]]")
    res = best_order(tree)
    assert res["fewest"] == res["perfect"] == knuth_moore(3, 2)


def test_best_order_limit():
    out = pyab_cli("experiment", "best-order", str(EXAMPLES / "slides.tree"), "--limit", "10")
    assert out.returncode == 2 and "limit" in out.stderr


def test_knuth_moore_exits_1_when_the_engines_disagree(monkeypatch, capsys):
    """A disagreement (here: a mirror made to read one leaf more) is exit 1
    and is shown, never averaged away."""
    from pyab.cli import main
    from pyab.trees import experiments

    real = experiments.count_leaves

    def skewed(tree, engine, algorithm="bratko"):
        c = real(tree, engine, algorithm)
        if engine == "python" and tree.depth == 2:
            c = experiments.Count(c.engine, c.best, c.value, c.leaves + 1, c.visited, c.seconds)
        return c

    monkeypatch.setattr(experiments, "count_leaves", skewed)
    assert main(["experiment", "knuth-moore", "--branching", "3", "--depth", "1-3"]) == 1
    out = capsys.readouterr().out
    assert "DISAGREE" in out and "python: best r_1, value 0, 6 leaves" in out
