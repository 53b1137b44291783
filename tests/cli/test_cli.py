"""The command line, run as real processes."""

from __future__ import annotations

import json
import shlex

import pytest

from conftest import EXAMPLES, ROOT, pyab_cli


def test_solve_json_has_the_contract_keys():
    out = pyab_cli("solve", "examples/slides.tree", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert {"best", "value", "leaves", "visited", "pruned", "engine", "algorithm"} <= d.keys()
    assert (d["best"], d["value"], d["pruned"]) == ("b", 3, ["i", "j"])
    assert d["leaves"] == list("efghklm") and d["engine"] == "prolog" and d["algorithm"] == "bratko"


def test_solve_human_output():
    out = pyab_cli("solve", "examples/slides.tree")
    assert out.returncode == 0
    assert "best move    b" in out.stdout and "value        3" in out.stdout
    assert "leaves read  7: e f g h k l m" in out.stdout and "cut off      2: i j" in out.stdout


def test_solve_python_engine_window_and_stdin():
    out = pyab_cli("solve", "-", "--engine", "python", "--alpha", "5", "--beta", "inf", "--json",
                   stdin="a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))")
    d = json.loads(out.stdout)
    assert d["engine"] == "python" and d["leaves"] == ["e", "h", "k", "l", "m"]


def test_python_dash_m_is_the_same_command():
    out = pyab_cli("--help")
    assert out.returncode == 0 and "solve" in out.stdout and "check" in out.stdout


@pytest.mark.parametrize("text, place", [
    ("a(b=1,, c=2)", "<stdin>:1:7:"),
    ("a(b=1, c)", "<stdin>:1:8:"),
])
def test_bad_input_is_one_error_line_with_place_and_caret(text, place):
    out = pyab_cli("solve", "-", stdin=text)
    assert out.returncode == 2
    lines = out.stderr.splitlines()
    assert lines[0].startswith(f"error: {place}") and lines[-1].strip() == "^"
    assert "Traceback" not in out.stderr


def test_missing_file_and_bad_options_exit_2(tmp_path):
    out = pyab_cli("solve", str(tmp_path / "none.tree"))
    assert out.returncode == 2 and out.stderr.startswith("error: ") and "cannot read" in out.stderr
    out = pyab_cli("solve", "examples/slides.tree", "--alpha", "lots")
    assert out.returncode == 2 and "not a number" in out.stderr
    out = pyab_cli("frobnicate")
    assert out.returncode == 2


def test_facts_command_writes_the_slides_pl(tmp_path):
    out = pyab_cli("facts", "examples/slides.tree", "-o", str(tmp_path / "s.pl"))
    assert out.returncode == 0
    assert (tmp_path / "s.pl").read_text() == (EXAMPLES / "slides.pl").read_text()
    out = pyab_cli("facts", "examples/slides.tree")
    assert out.stdout == (EXAMPLES / "slides.pl").read_text()


def test_check_files_and_random():
    out = pyab_cli("check", *sorted(str(p.relative_to(ROOT)) for p in EXAMPLES.glob("*.tree")))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("ok  ") == len(list(EXAMPLES.glob("*.tree")))
    out = pyab_cli("check", "--random", "200", "--seed", "7", "--values", "0:2", "--windows", "narrow")
    assert out.returncode == 0 and "200 random trees" in out.stdout


def test_check_reports_a_disagreement_and_saves_the_tree(tmp_path):
    src = (ROOT / "prolog" / "alphabeta.pl").read_text()
    mutant = tmp_path / "mutant.pl"
    mutant.write_text(src.replace("min_to_move(Pos), Val > Beta, !", "min_to_move(Pos), Val >= Beta, !"))
    out = pyab_cli("check", "--random", "300", "--seed", "1", "--values", "0:2",
                   "--program", str(mutant), "--save-dir", str(tmp_path))
    assert out.returncode == 1
    assert "DISAGREE" in out.stdout and "first difference at step" in out.stdout
    saved = sorted(p.name for p in tmp_path.glob("pyab-mismatch-*.tree"))
    assert saved == ["pyab-mismatch-seed1-3-shrunk.tree", "pyab-mismatch-seed1-3.tree"]
    replay = shlex.split(out.stdout.split("replay with:")[1].strip())
    assert replay[3:5] == ["--program", str(mutant)]  # the replay names the program
    again = pyab_cli(*replay[1:])
    assert again.returncode == 1 and "DISAGREE" in again.stdout
    fine = pyab_cli(*replay[1:3], *replay[5:])  # the slides' own program agrees on it
    assert fine.returncode == 0, fine.stdout


def test_check_needs_files_or_random():
    out = pyab_cli("check")
    assert out.returncode == 2 and "give FILE" in out.stderr


def test_repl_loads_program_and_tree_in_a_real_toplevel():
    out = pyab_cli("repl", "examples/slides.tree",
                   stdin="alphabeta(a, -inf, inf, GoodPos, Val).\n")
    assert out.returncode == 0, out.stderr
    assert "GoodPos = b" in out.stdout and "Val = 3" in out.stdout
    assert "alphabeta(a, -inf, inf, GoodPos, Val)" in out.stderr  # the hint, as run above


def test_repl_hint_window_holds_values_beyond_a_thousand():
    # Values beyond 1000: the slides' -1000..1000 would make the root fail
    # high; the hint's window must hold every value.
    out = pyab_cli("repl", "-", stdin="a(b = 5000, c = 1000.5)")
    assert "alphabeta(a, -inf, inf, GoodPos, Val)" in out.stderr


def test_repl_quotes_the_root_in_its_hint():
    out = pyab_cli("repl", "-", stdin="'King e1'(x = 1, y = 2)")
    # stdin was consumed by the tree: swipl sees EOF and halts.
    assert "alphabeta('King e1', -inf, inf, GoodPos, Val)" in out.stderr


def test_depth_is_refused_for_the_slides_program_and_skipped_by_all():
    out = pyab_cli("solve", "examples/depth-limited.tree", "--depth", "1")
    assert out.returncode == 2 and "bratko has no depth limit" in out.stderr
    out = pyab_cli("check", "examples/depth-limited.tree", "--algorithm", "all", "--depth", "1")
    assert out.returncode == 0, out.stdout + out.stderr


def test_negative_option_values_need_no_equals_sign():
    out = pyab_cli("check", "--random", "20", "--values", "-3:3", "--alpha", "-inf")
    assert out.returncode == 0, out.stderr


def test_no_best_move_is_explained():
    out = pyab_cli("solve", "examples/slides.tree", "--algorithm", "hsu-f1", "--alpha", "5", "--beta", "10")
    assert "(none: no move reached the window)" in out.stdout
    out = pyab_cli("solve", "-", stdin="a = 7")
    assert "(none: the root is a leaf)" in out.stdout


def test_a_bound_too_long_for_int_is_refused_not_made_infinite():
    out = pyab_cli("solve", "examples/slides.tree", "--alpha", "9" * 5000)
    assert out.returncode == 2 and "too long" in out.stderr
    out = pyab_cli("solve", "examples/slides.tree", "--alpha", "\u0661")  # ARABIC-INDIC DIGIT ONE
    assert out.returncode == 2 and "not a number" in out.stderr
