"""`pyab variants` and `pyab check --algorithm all`."""

from __future__ import annotations

import json

import pytest

from pyab import cli
from pyab.search import ALGORITHMS, Algorithm

from conftest import EXAMPLES, pyab_cli

MINE = ["aima", "cpw-minmax", "cpw-negamax", "cpw-failsoft", "module22"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_lists_every_registered_algorithm(capsys):
    code, out, _ = run(capsys, "variants", str(EXAMPLES / "aima-tie.tree"))
    assert code == 0
    rows = {line.split()[0]: line.split() for line in out.splitlines()[3:] if line.strip()
            and line.split()[0] in ALGORITHMS}
    assert list(rows) == list(ALGORITHMS)
    assert rows["aima"][1:] == ["3", "r_1", "7", "yes"]
    assert rows["bratko"][1:] == ["3", "r_2", "9", "yes"]


def test_json_shape(capsys):
    code, out, _ = run(capsys, "variants", str(EXAMPLES / "slides.tree"), "--alpha", "4",
                       "--beta", "10", "--json")
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["command", "exit", "algorithms"]  # the envelope every --json has (docs/json.md)
    assert (doc["command"], doc["exit"]) == ("variants", 0)
    assert [row["algorithm"] for row in doc["algorithms"]] == list(ALGORITHMS)
    for row in doc["algorithms"]:
        assert set(row) == {"algorithm", "prolog", "python", "agree"}
        assert row["agree"] is True
        assert row["prolog"]["engine"] == "prolog" and row["python"]["engine"] == "python"
        for key in ("best", "value", "leaves", "visited", "pruned", "algorithm"):
            assert row["prolog"][key] == row["python"][key]
    by_name = {row["algorithm"]: row["prolog"] for row in doc["algorithms"]}
    assert (by_name["cpw-negamax"]["best"], by_name["cpw-negamax"]["value"]) == (None, 4)
    assert (by_name["cpw-failsoft"]["best"], by_name["cpw-failsoft"]["value"]) == ("b", 3)


def test_disagreement_exits_1(capsys, monkeypatch):
    """Give aima the slides' mirror: on the tie tree the engines then differ."""
    monkeypatch.setitem(ALGORITHMS, "aima", Algorithm("aima", "bratko", "aima.pl", "mutant"))
    code, out, _ = run(capsys, "variants", str(EXAMPLES / "aima-tie.tree"))
    assert code == 1
    assert "aima: the engines disagree" in out
    code, out, _ = run(capsys, "variants", str(EXAMPLES / "aima-tie.tree"), "--json")
    assert code == 1
    agree = {row["algorithm"]: row["agree"] for row in json.loads(out)["algorithms"]}
    assert agree["aima"] is False and agree["bratko"] is True


def test_depth_limit(capsys, tmp_path):
    f = tmp_path / "d.tree"
    f.write_text("r(r_1 = 4 (r_1_1 = 1, r_1_2 = 9), r_2 = 5 (r_2_1 = 7, r_2_2 = 8))\n")
    code, out, _ = run(capsys, "variants", str(f), "--depth", "1", "--json")
    assert code == 0
    rows = {row["algorithm"]: row["prolog"] for row in json.loads(out)["algorithms"]}
    for name in MINE:
        assert (rows[name]["value"], rows[name]["leaves"]) == (5, ["r_1", "r_2"]), name


def test_bad_input_exits_2():
    proc = pyab_cli("variants", "no-such-file.tree")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error:") and "Traceback" not in proc.stderr
    proc = pyab_cli("variants", "-", stdin="a(b=1,\n")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_check_all_on_the_examples(capsys):
    files = sorted(str(p) for p in EXAMPLES.glob("*.tree"))
    code, out, _ = run(capsys, "check", *files, "--algorithm", "all")
    assert code == 0
    assert out.count("every algorithm agrees") == len(files)


def test_check_all_random(capsys):
    code, out, _ = run(capsys, "check", "--random", "60", "--seed", "5", "--algorithm", "all")
    assert code == 0, out
    assert "60 random trees" in out


def test_check_all_refuses_program(capsys):
    code, _, err = run(capsys, "check", "--random", "1", "--algorithm", "all",
                       "--program", "prolog/alphabeta.pl")
    assert code == 2 and "--program" in err


@pytest.mark.slow
@pytest.mark.parametrize("name", MINE)
def test_check_random_1000(capsys, name):
    code, out, _ = run(capsys, "check", "--random", "1000", "--seed", "1", "--algorithm", name)
    assert code == 0, out
    assert "agree on every one" in out
