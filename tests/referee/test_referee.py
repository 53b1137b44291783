"""The referee for anyone's alpha-beta: --python, --exec, the verdict.

Each program runs in a child process and is observed through the questions
it asks; every route must agree when the program is right and catch one
changed comparison when it is not.
"""

from __future__ import annotations

import inspect
import json
import re
import shlex
import shutil
import sys

import pytest

from pyab.cli import main
from conftest import EXAMPLES, ROOT

REF = EXAMPLES / "referee"
SLIDES_PY = f"{REF / 'slides_alphabeta.py'}:alphabeta"
CLIENT_PY = f"{shlex.quote(sys.executable)} {REF / 'client.py'}"
NODE = shutil.which("node")
CLIENT_JS = f"node {REF / 'client.js'}"
TREES = sorted(str(p) for p in EXAMPLES.glob("*.tree"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def check_json(capsys, *argv: str) -> tuple[int, dict]:
    code, out, err = run(capsys, "check", *argv, "--json")
    lines = out.strip().splitlines()
    assert len(lines) == 1, out + err  # one object, nothing else
    return code, json.loads(lines[0])


def slides_mutant(tmp_path):
    """slides_alphabeta.py with ONE changed comparison: goodenough's
    `val > beta` becomes `val >= beta`."""
    src = (REF / "slides_alphabeta.py").read_text()
    assert src.count("val > beta") == 1
    path = tmp_path / "slides_mutant.py"
    path.write_text(src.replace("val > beta", "val >= beta"))
    return f"{path}:alphabeta"


# -- --python, the pyab interface ------------------------------------------------

def test_the_slides_in_python_agree_on_the_examples_and_300_random_trees(capsys):
    code, out, err = run(capsys, "check", *TREES, "--python", SLIDES_PY)
    assert code == 0, out + err
    assert out.count("ok  ") == len(TREES)
    code, report = check_json(capsys, "--random", "300", "--python", SLIDES_PY)
    assert code == 0 and report["verdict"] == "agree" and report["checked"] == 300
    assert report["reference"] == "reference (bratko)" and report["yours"] == f"yours ({SLIDES_PY})"


def test_a_module_and_function_name_work_too(capsys, monkeypatch):
    monkeypatch.chdir(REF)
    code, out, err = run(capsys, "check", "--random", "50", "--python", "slides_alphabeta:alphabeta")
    assert code == 0, out + err


def test_one_changed_comparison_is_caught_shrunk_and_replayable(capsys, tmp_path):
    mutant = slides_mutant(tmp_path)
    code, report = check_json(capsys, "--random", "300", "--python", mutant, "--save-dir", str(tmp_path))
    assert code == 1 and report["verdict"] == "disagree"
    first = report["first"]
    assert first["tree_number"] == 15  # seed 0: the first tree with a tie at a bound
    shrunk = first["shrunk"]
    assert shrunk["nodes"] <= 6 < first["nodes"] and shrunk["reproduced"]
    assert any(d.startswith("leaves:") for d in shrunk["differences"])
    replay = shlex.split(report["replay"])
    assert replay[:2] == ["pyab", "check"] and "--python" in replay and mutant in replay
    again = tmp_path / "again"
    again.mkdir()
    code, out, _ = run(capsys, *replay[1:], "--save-dir", str(again))
    assert code == 1 and "DISAGREE" in out and "no smaller tree shows it" in out
    assert list(again.iterdir()) == []  # the saved tree is its own replay: nothing new saved
    i = replay.index(mutant)
    code, out, err = run(capsys, *replay[1:i], SLIDES_PY, *replay[i + 1:])
    assert code == 0, out + err  # the shrunk tree is fine for the real program


def test_keep_going_counts_and_rates_the_disagreements(capsys, tmp_path):
    mutant = slides_mutant(tmp_path)
    code, report = check_json(capsys, "--random", "300", "--python", mutant, "--keep-going",
                              "--save-dir", str(tmp_path))
    assert code == 1 and (report["disagreements"], report["checked"]) == (13, 300)
    assert report["rate"] == pytest.approx(13 / 300, abs=1e-6)
    assert report["first"]["tree_number"] == 15  # still the first one, shrunk
    code, out, _ = run(capsys, "check", "--random", "100", "--python", mutant, "--keep-going",
                       "--save-dir", str(tmp_path))
    assert code == 1
    assert re.match(r"\d+ of 100 trees disagree \(\d+\.\d%", out.strip().splitlines()[-1]), out
    assert "reference (bratko):" in out and f"yours ({mutant}):" in out


def test_compare_value_asks_only_for_a_correct_minimax_value(capsys, tmp_path):
    # `>=` cuts on ties and reads fewer leaves, but every value is still right
    mutant = slides_mutant(tmp_path)
    code, report = check_json(capsys, "--random", "150", "--python", mutant, "--compare", "value")
    assert code == 0 and report["reference"] == "reference (minimax)"
    wrong = tmp_path / "wrong.py"
    wrong.write_text((REF / "slides_alphabeta.py").read_text()
                     + "\n\ndef off_by_one(game, pos, a, b):\n"
                       "    best, v = alphabeta(game, pos, a, b)\n    return best, v + 1\n")
    code, report = check_json(capsys, "--random", "50", "--python", f"{wrong}:off_by_one",
                              "--compare", "value", "--windows", "full", "--save-dir", str(tmp_path))
    assert code == 1 and report["first"]["differences"][0].startswith("value:")
    code, report = check_json(capsys, "--random", "50", "--python", f"{wrong}:off_by_one",
                              "--compare", "move")
    assert code == 0  # the moves are right


# -- --python, the aima interface ---------------------------------------------------

def test_aima_pythons_own_alpha_beta_search_agrees_with_algorithm_aima(capsys):
    games = pytest.importorskip("aima.games", reason="aima-python: `make setup` installs it")
    assert games.alpha_beta_search.__module__ == "aima.games"  # the package's, unchanged
    code, report = check_json(capsys, "--random", "300", "--python", "aima.games:alpha_beta_search",
                              "--interface", "aima", "--algorithm", "aima")
    assert code == 0 and report["verdict"] == "agree", report


def test_aima_pythons_alpha_beta_search_with_one_changed_comparison_is_caught(capsys, tmp_path):
    games = pytest.importorskip("aima.games", reason="aima-python: `make setup` installs it")
    src = inspect.getsource(games.alpha_beta_search)
    assert src.count("if v >= beta:") == 1
    path = tmp_path / "aima_mutant.py"
    path.write_text("import numpy as np\n\n\n" + src.replace("if v >= beta:", "if v > beta:"))
    code, report = check_json(capsys, "--random", "300", "--python", f"{path}:alpha_beta_search",
                              "--interface", "aima", "--algorithm", "aima", "--save-dir", str(tmp_path))
    assert code == 1 and report["first"]["tree_number"] == 48
    assert report["first"]["shrunk"]["nodes"] <= 6
    assert "--interface aima" in report["replay"]


def test_the_aima_interface_takes_no_window(capsys):
    code, _, err = run(capsys, "check", TREES[0], "--python", SLIDES_PY, "--interface", "aima",
                       "--alpha", "1")
    assert code == 2 and "no window" in err


# -- --exec ---------------------------------------------------------------------------

@pytest.mark.parametrize("client", [
    CLIENT_PY,
    pytest.param(CLIENT_JS, marks=pytest.mark.skipif(NODE is None, reason="node is not installed")),
], ids=["python", "javascript"])
def test_an_exec_client_agrees_and_its_mutant_is_caught(capsys, tmp_path, client):
    code, report = check_json(capsys, "--random", "200", "--exec", client)
    assert code == 0 and report["verdict"] == "agree", report
    code, report = check_json(capsys, "--random", "200", "--exec", client + " --mutant",
                              "--save-dir", str(tmp_path))
    assert code == 1 and report["first"]["tree_number"] == 15
    assert report["first"]["shrunk"]["nodes"] <= 6 and report["first"]["shrunk"]["reproduced"]
    assert shlex.split(report["replay"])[3:5] == ["--exec", f"{client} --mutant"]


def test_the_observation_is_the_referees_not_the_programs(capsys, tmp_path):
    # A program that knows the slides' answer and says it without searching:
    # right value, right move, but pyab saw it read no leaf.
    liar = tmp_path / "liar.py"
    liar.write_text("import sys, json\n"
                    "for line in sys.stdin:\n"
                    "    print(json.dumps({'best': 'b', 'value': 3, 'leaves': ['e']}), flush=True)\n")
    code, out, _ = run(capsys, "check", str(EXAMPLES / "slides.tree"),
                       "--exec", f"{sys.executable} {liar}", "--save-dir", str(tmp_path))
    assert code == 1 and "leaves:" in out and "(none)" in out


# -- every failure of a program is a ProgramError: exit 3, one line, naming it -----------

BAD_PY = '''
def strval(game, root, a, b):
    return game.children(root)[0], "3"
def nobest(game, root, a, b):
    return None, 3
def notchild(game, root, a, b):
    return "zzz", 3
def boom(game, root, a, b):
    kids = game.children(root)
    return kids[0], 1 / 0
def single(game, root, a, b):
    return 3
def unknown(game, root, a, b):
    game.children(42)
def nan(game, root, a, b):
    return game.children(root)[0], float("nan")
def inner(game, root, a, b):
    return None, game.value(root)
def chatty(game, root, a, b):
    print("this goes to stderr, not into the protocol")
    raise KeyError("k")
'''


@pytest.mark.parametrize("func, says", [
    ("strval", "returned the value '3', which is not a finite number"),
    ("notchild", "returned the best move 'zzz', which is not a child of the root"),
    ("boom", "raised ZeroDivisionError: division by zero (at bad.py:10 in boom: return kids[0], 1 / 0)"),
    ("single", "expected a pair"),
    ("nan", "returned the value 'NaN', which is not a finite number"),
    ("chatty", "raised KeyError: 'k' (at bad.py:21 in chatty"),
    ("missing", "has no function missing"),
])
def test_a_broken_python_function_is_a_program_error(capsys, tmp_path, func, says):
    (tmp_path / "bad.py").write_text(BAD_PY)
    spec = f"{tmp_path / 'bad.py'}:{func}"
    code, out, err = run(capsys, "check", str(EXAMPLES / "slides.tree"), "--python", spec)
    assert code == 3, out + err
    first, *rest = err.splitlines()
    assert first.startswith(f"error: program under test: yours ({spec}): ") and says in first, err
    # what follows is the program's own stderr (its traceback), quoted; never pyab's
    assert all(line.startswith("  ") for line in rest), err
    assert "Traceback" not in out + first and "pyab/referee/checking.py" not in err


@pytest.mark.parametrize("func, kind, says", [
    ("nobest", "differs", "best:"),  # no move is an answer: compared, not refused
    ("unknown", "not-a-child", "asked moves of '42', not a node of the tree"),
    ("inner", "inner-static-value", "asked the static value of 'a', an inner node"),
])
def test_a_wrong_search_is_a_disagreement_not_a_crash(capsys, tmp_path, func, kind, says):
    (tmp_path / "bad.py").write_text(BAD_PY.replace("game.children(42)", "game.children('42')"))
    spec = f"{tmp_path / 'bad.py'}:{func}"
    code, report = check_json(capsys, str(EXAMPLES / "slides.tree"), "--python", spec,
                              "--save-dir", str(tmp_path))
    assert code == 1 and report["verdict"] == "disagree" and report["kind"] == kind, report
    assert any(says in d for d in report["first"]["differences"]), report
    assert report["first"]["shrunk"]["kind"] == kind and report["first"]["shrunk"]["reproduced"]
    assert report["first"]["shrunk"]["nodes"] <= 3


@pytest.mark.parametrize("program, says", [
    ("print('junk', flush=True)", "a line that is not JSON"),
    ("import sys, json; sys.stdin.readline(); print(json.dumps({'moves': 5}), flush=True); "
     "sys.stdin.readline()", "asked moves of 5: nodes are named by strings"),
    ("import sys, json; sys.stdin.readline(); print(json.dumps({'moves': 'a', 'x': 1}), flush=True); "
     "sys.stdin.readline()", "expected one question"),
    ("import sys, json; sys.stdin.readline(); print(json.dumps([1]), flush=True)",
     "expected a JSON object"),
    ("import sys; sys.stdin.readline(); sys.stderr.write('oops\\n'); sys.exit(4)",
     "(exit 4)"),
    ("import sys, json; sys.stdin.readline(); print(json.dumps({'best': None, 'value': True}), "
     "flush=True)", "returned the value True, which is not a finite number"),
])
def test_a_broken_exec_program_is_a_program_error(capsys, tmp_path, program, says):
    (tmp_path / "p.py").write_text(program + "\n")
    cmd = f"{sys.executable} {tmp_path / 'p.py'}"
    code, out, err = run(capsys, "check", str(EXAMPLES / "slides.tree"), "--exec", cmd)
    assert code == 3 and err.startswith(f"error: program under test: yours ({cmd}): ") and says in err, err


def test_usage_errors_are_exit_2(capsys):
    for argv, says in [(["--python", "nofile.py:f"], "no file nofile.py"),
                       (["--python", "bad"], "expected PATH.py:FUNC or module:func"),
                       (["--python", SLIDES_PY, "--exec", "x"], "give one of"),
                       (["--exec", CLIENT_PY, "--interface", "aima"], "--interface applies to --python"),
                       (["--compare", "value"], "judge your program")]:
        code, _, err = run(capsys, "check", TREES[0], *argv)
        assert code == 2 and says in err, (argv, err)


def test_a_prolog_program_that_defines_moves_is_refused_saying_so(capsys, tmp_path):
    prog = tmp_path / "mine.pl"
    prog.write_text((ROOT / "prolog" / "alphabeta.pl").read_text() + "\nmoves(a, [b, c]).\n")
    code, _, err = run(capsys, "check", TREES[0], "--program", str(prog))
    assert code == 3 and "defines its own moves/2" in err and f"{prog}:" in err


def test_program_with_keep_going_goes_through_the_referee(capsys, tmp_path):
    prog = tmp_path / "mine.pl"
    prog.write_text((ROOT / "prolog" / "alphabeta.pl").read_text()
                    .replace("min_to_move(Pos), Val > Beta, !", "min_to_move(Pos), Val >= Beta, !"))
    code, report = check_json(capsys, "--random", "100", "--program", str(prog), "--keep-going",
                              "--save-dir", str(tmp_path))
    assert code == 1 and report["disagreements"] > 0 and "--program" in report["replay"]


# -- watching your own search: solve, trace, show, draw ----------------------------------

def test_solve_trace_show_and_draw_run_your_program(capsys, tmp_path):
    slides = str(EXAMPLES / "slides.tree")
    code, out, _ = run(capsys, "solve", slides, "--python", SLIDES_PY, "--json")
    got = json.loads(out)
    assert code == 0 and (got["best"], got["value"], got["pruned"]) == ("b", 3, ["i", "j"])
    code, out, _ = run(capsys, "trace", slides, "--exec", CLIENT_PY)
    assert code == 0 and "the questions it asked" in out
    assert "1  moves(a) -> b c d" in out and "staticval(e) -> 3" in out
    code, out, _ = run(capsys, "trace", slides, "--exec", CLIENT_PY, "--json")
    asked = json.loads(out)["questions"]
    assert asked[0] == {"question": "moves", "node": "a", "answer": ["b", "c", "d"]}
    code, out, _ = run(capsys, "show", slides, "--python", SLIDES_PY)
    assert code == 0 and "cut" in out
    code, out, _ = run(capsys, "draw", slides, "--python", SLIDES_PY, "-o", str(tmp_path / "x.dot"))
    assert code == 0 and (tmp_path / "x.dot").read_text().count("->") == 12


def test_memory_limits_an_exec_program_too(tmp_path):
    """--memory applies to every route's child, not only --program's."""
    from conftest import pyab_cli
    hog = tmp_path / "hog.py"
    hog.write_text("import sys\nfor line in sys.stdin:\n    x = bytearray(400 * 1024 * 1024)\n")
    done = pyab_cli("check", str(EXAMPLES / "slides.tree"), "--exec", f"{sys.executable} {hog}",
                    "--memory", "200")
    assert done.returncode == 3 and "ran out of memory" in done.stderr, done.stderr
