"""Issue 23's regressions, each from its smallest case: verdicts and
evidence a student can trust.  Every route's mutant is caught, shrunk, and
the printed replay command, run as a student would run it, shows the same
disagreement."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

import pyab
from pyab.referee import FunctionRoute
from pyab.referee.checking import CheckOptions, random_cases
from pyab.referee.shrink import shrink
from pyab.referee.verdict import Settings, judge, minimax_values
from tests.conftest import EXAMPLES, PROLOG, ROOT, pyab_cli

REF = EXAMPLES / "referee"
SLIDES = str(EXAMPLES / "slides.tree")
SLIDES_PL = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
SLIDES_PY = (REF / "slides_alphabeta.py").read_text(encoding="utf-8")


def _replay(printed: str, cwd) -> subprocess.CompletedProcess:
    """Run a printed `pyab check ...` command as a student would."""
    words = shlex.split(printed)
    assert words[:2] == ["pyab", "check"]
    return subprocess.run([sys.executable, "-m", "pyab", *words[1:], "--json"], cwd=cwd,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def _routes(tmp_path):
    mutant_pl = tmp_path / "mutant.pl"
    mutant_pl.write_text(SLIDES_PL.replace("min_to_move(Pos), Val > Beta, !",
                                           "min_to_move(Pos), Val >= Beta, !"))
    mutant_py = tmp_path / "mutant.py"
    mutant_py.write_text(SLIDES_PY.replace("val > beta", "val >= beta"))
    return {"program": ["--program", str(mutant_pl)],
            "python": ["--python", f"{mutant_py}:alphabeta"],
            "exec": ["--exec", f"{sys.executable} {REF / 'client.py'} --mutant"]}


@pytest.mark.parametrize("route", ["program", "python", "exec"])
def test_each_routes_mutant_is_shrunk_and_its_printed_replay_disagrees(tmp_path, route):
    argv = _routes(tmp_path)[route]
    done = pyab_cli("check", "--random", "300", *argv, "--save-dir", str(tmp_path), "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["yours"].startswith("yours (")
    first, shrunk = report["first"], report["first"]["shrunk"]
    assert shrunk["reproduced"] and shrunk["nodes"] < first["nodes"]
    again = _replay(report["replay"], tmp_path)
    assert again.returncode == 1, again.stderr
    replayed = json.loads(again.stdout)["first"]
    assert replayed["differences"] == shrunk["differences"]  # the same disagreement
    assert argv[0] in shlex.split(report["replay"])  # the route is in the replay


# -- 1. a clause body at column 0 --------------------------------------------------

COLUMN0 = "\n".join(line.removeprefix("    ") for line in SLIDES_PL.splitlines()) + "\n"


@pytest.mark.parametrize("mode", [[], ["--untrusted"]], ids=["plain", "untrusted"])
def test_a_program_with_its_clause_bodies_at_column_0_agrees(tmp_path, mode):
    assert "\nmoves(Pos, PosList), !," in COLUMN0  # the layout that was refused
    prog = tmp_path / "col0.pl"
    prog.write_text(COLUMN0)
    done = pyab_cli("check", "--random", "100", "--program", str(prog), *mode)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("mode", [[], ["--untrusted"]], ids=["plain", "untrusted"])
def test_a_program_with_its_own_moves_is_still_refused_naming_the_line(tmp_path, mode):
    prog = tmp_path / "own.pl"
    prog.write_text(COLUMN0 + "moves(a, [b, c]).\n")
    line = COLUMN0.count("\n") + 1
    done = pyab_cli("check", SLIDES, "--program", str(prog), *mode)
    assert done.returncode == 3 and "defines its own moves/2" in done.stderr
    assert f"own.pl:{line}:" in done.stderr, done.stderr


# -- 2. an unbound GoodPos is "no move" ------------------------------------------------

def test_an_unbound_best_move_is_a_disagreement_shrunk_not_an_invalid_answer(tmp_path):
    prog = tmp_path / "unbound.pl"  # GoodPos left unbound when the root fails low
    prog.write_text(SLIDES_PL.replace(
        "alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-",
        "alphabeta(Pos, Alpha, Beta, _, Val) :- Alpha > -inf, !,\n"
        "    alphabeta(Pos, -inf, inf, _, Val).\n"
        "alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-"))
    done = pyab_cli("check", "--random", "100", "--program", str(prog), "--save-dir", str(tmp_path),
                    "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["kind"] == "differs", done.stderr
    shrunk = report["first"]["shrunk"]
    assert shrunk["reproduced"] and shrunk["nodes"] <= 3
    assert any(d.startswith("best:") and "(none)" in d for d in shrunk["differences"])


def test_no_move_on_a_leaf_root_agrees(tmp_path):
    prog = tmp_path / "leafroot.pl"
    prog.write_text("alphabeta(Pos, _, _, _, Val) :- \\+ moves(Pos, _), staticval(Pos, Val).\n")
    leaf = tmp_path / "leaf.tree"
    leaf.write_text("a = 4\n")
    done = pyab_cli("check", str(leaf), "--program", str(prog))
    assert done.returncode == 0, done.stdout + done.stderr


# -- 4. the shrinker keeps the game ---------------------------------------------------

ALTERNATING_MINIMAX = '''
def f(game, root, alpha, beta):
    def mm(node, is_max):       # assumes the sides alternate: wrong for two ghosts
        kids = game.children(node)
        if not kids:
            return game.value(node)
        vals = [mm(k, not is_max) for k in kids]
        return max(vals) if is_max else min(vals)
    is_max = game.is_max(root)
    kids = game.children(root)
    vals = [mm(k, not is_max) for k in kids]
    v = max(vals) if is_max else min(vals)
    return kids[vals.index(v)], v
'''


def test_a_shrunk_two_ghost_tree_keeps_its_marks_and_disagrees_when_replayed(tmp_path):
    (tmp_path / "alt.py").write_text(ALTERNATING_MINIMAX)
    tree = tmp_path / "ghosts.tree"
    tree.write_text("a(g = 2, min b(min c(d = 1, e = 5), f = 9, h(i = 4, j = 7)), k = 0)\n")
    done = pyab_cli("check", str(tree), "--python", f"{tmp_path / 'alt.py'}:f", "--compare", "value",
                    "--save-dir", str(tmp_path), "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1, done.stderr
    shrunk = report["first"]["shrunk"]
    assert shrunk["reproduced"] and shrunk["tree"].count("min ") >= 2 < report["first"]["nodes"]
    assert json.loads(_replay(report["replay"], tmp_path).stdout)["first"]["differences"] \
        == shrunk["differences"]


FIXED_DEPTH = '''
def f(game, root, alpha, beta):
    # written for trees two plies deep: reads grandchildren without asking
    best, bv = None, None
    for k in game.children(root):
        v = min(game.value(g) for g in game.children(k))
        if bv is None or v >= bv:      # the bug: a later tie wins
            best, bv = k, v
    return best, bv
'''


def test_a_tree_of_one_depth_is_shrunk_at_that_depth():
    exec(FIXED_DEPTH, ns := {})
    route = FunctionRoute(ns["f"])
    settings = Settings("bratko", None, ("move",))
    options = CheckOptions(random=200, tree_depth=(2, 2), branching=(2, 3), ragged=0, values="ties",
                           windows="full")
    first = next(v for c in random_cases(options)
                 if (v := judge(route, c.tree, c.alpha, c.beta, settings)).status != "agree")
    shrunk = shrink(first, lambda t, a, b: judge(route, t, a, b, settings))
    t = shrunk.verdict.tree
    assert shrunk.reproduced and shrunk.verdict.kind == "differs"
    assert {t.depth[i] for i, ks in enumerate(t.kids) if not ks} == {2}
    assert len(t) < len(first.tree)


def test_a_wrong_move_is_not_shrunk_into_a_tie():
    """--compare move: a program that takes the worst move stays wrong
    (not merely another tie-break) on its shrunk tree."""
    def worst(game, root, alpha, beta):
        kids = game.children(root)
        vals = [game.value(k) if not game.children(k) else 0 for k in kids]
        return kids[vals.index(min(vals))], 0
    settings = Settings("bratko", None, ("move",))
    tree = pyab.parse("a(b = 3, c = 1, d = 3, e = 2)")
    first = judge(FunctionRoute(worst), tree, -float("inf"), float("inf"), settings)
    assert first.keys == {"best:exact:suboptimal"}
    shrunk = shrink(first, lambda t, a, b: judge(FunctionRoute(worst), t, a, b, settings))
    v = shrunk.verdict
    mm = minimax_values(v.tree)
    assert v.keys == first.keys and mm[v.tree.index[v.yours.best]] != mm[0]


# -- 5. --compare value takes each node's side ------------------------------------------

def test_minimax_takes_each_nodes_side():
    tree = pyab.parse("a(min b(min c(d = 3, e = 5), f = 9))")  # two MIN levels in a row
    assert minimax_values(tree)[0] == 3  # alternating sides would give 9... or 0 with a MAX c


def test_compare_value_agrees_on_a_two_min_tree(tmp_path):
    tree = tmp_path / "two-min.tree"
    tree.write_text("a(g = 2, min b(min c(d = 1, e = 5), f = 9))\n")
    correct = tmp_path / "sides.py"
    correct.write_text(ALTERNATING_MINIMAX.replace("mm(k, not is_max)", "mm(k, game.is_max(k))"))
    done = pyab_cli("check", str(tree), "--python", f"{correct}:f", "--compare", "value")
    assert done.returncode == 0, done.stdout + done.stderr


# -- 6. optimal moves whatever the tie rule --------------------------------------------

def test_another_tie_rule_is_optimal_but_not_the_same_move(tmp_path):
    later = tmp_path / "later.py"  # betterof keeps the later child on a tie
    later.write_text(SLIDES_PY.replace("val > val1", "val >= val1").replace("val < val1", "val <= val1"))
    assert later.read_text() != SLIDES_PY
    spec = f"{later}:alphabeta"
    moved = pyab_cli("check", "--random", "200", "--values", "ties", "--windows", "full",
                     "--python", spec, "--compare", "move", "--save-dir", str(tmp_path))
    assert moved.returncode == 1
    for compare in ("optimal-move", "value,optimal-move"):
        done = pyab_cli("check", "--random", "200", "--values", "ties", "--windows", "full",
                        "--python", spec, "--compare", compare)
        assert done.returncode == 0, (compare, done.stdout)


def test_a_suboptimal_move_fails_optimal_move(tmp_path):
    bad = tmp_path / "first.py"
    bad.write_text("def f(game, root, a, b):\n    return game.children(root)[-1], 0\n")
    done = pyab_cli("check", SLIDES, "--python", f"{bad}:f", "--compare", "optimal-move",
                    "--save-dir", str(tmp_path))
    assert done.returncode == 1 and "any of" in done.stdout


# -- 8. small things that break trust ----------------------------------------------------

def test_a_missing_save_dir_is_said_before_anything_runs(tmp_path):
    done = pyab_cli("check", "--random", "10", "--python", f"{REF / 'slides_alphabeta.py'}:alphabeta",
                    "--save-dir", str(tmp_path / "nope"))
    assert done.returncode == 2 and "--save-dir" in done.stderr and "no such folder" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize("route", [[], ["--python", f"{REF / 'slides_alphabeta.py'}:alphabeta"]],
                         ids=["engines", "referee"])
def test_a_closed_pipe_ends_quietly(route):
    """`pyab check ... --json | head -c 100` with an object far bigger than
    a pipe's buffer (1,500 files: about 600 kB)."""
    many = " ".join(shlex.quote(SLIDES) for _ in range(1500))
    done = subprocess.run(f"{shlex.quote(sys.executable)} -m pyab check {many} --json "
                          f"{shlex.join(route)} | head -c 100", shell=True, capture_output=True,
                          text=True, timeout=300, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert len(done.stdout) == 100 and done.stderr == ""


def test_two_runs_never_save_over_each_others_trees(tmp_path):
    routes = _routes(tmp_path)
    saved = []
    for route in ("python", "exec"):
        done = pyab_cli("check", "--random", "300", *routes[route], "--save-dir", str(tmp_path), "--json")
        saved.append(json.loads(done.stdout)["first"]["shrunk"]["file"])
    assert saved[0] != saved[1]
    texts = [open(p).read() for p in saved]
    assert "mutant.py" in texts[0] and "client.py" in texts[1]


def test_every_file_is_checked_and_each_refusal_named(tmp_path):
    two_min = tmp_path / "two-min.tree"
    two_min.write_text("a(g = 2, min b(min c(d = 1, e = 5), f = 9))\n")
    for route in ([], ["--python", f"{REF / 'slides_alphabeta.py'}:alphabeta"]):
        done = pyab_cli("check", SLIDES, str(two_min), str(EXAMPLES / "aima.tree"), *route)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"error: {two_min}" in done.stderr and "bratko cannot search this tree" in done.stderr
        assert "Traceback" not in done.stderr
        if not route:
            assert done.stdout.count("ok  ") == 2
        else:
            assert "2 files" in done.stdout


def test_values_wide_reaches_the_sentinels_students_write(tmp_path):
    values = {v for c in random_cases(CheckOptions(random=50, values="wide")) for v in c.tree.values
              if v is not None}
    assert {1000, -1000, 9999, -9999, 2**31 - 1, -2**31} <= values
    capped = tmp_path / "capped.py"  # "infinity" is 1000, as many students write it
    capped.write_text(SLIDES_PY.replace('float("-inf")', "-1000").replace('float("inf")', "1000")
                      + '''

def capped(game, root, alpha, beta):
    return alphabeta(game, root, max(alpha, -1000), min(beta, 1000))
''')
    spec = f"{capped}:capped"
    assert pyab_cli("check", "--random", "200", "--python", spec, "--compare", "value").returncode == 0
    done = pyab_cli("check", "--random", "200", "--python", spec, "--compare", "value",
                    "--values", "wide", "--save-dir", str(tmp_path))
    assert done.returncode == 1, done.stdout


# -- the shrinker's levels and the replay builder ----------------------------------------

def _mutant_first():
    exec(SLIDES_PY.replace("val > beta", "val >= beta"), ns := {})
    route = FunctionRoute(ns["alphabeta"])
    settings = Settings()
    first = next(v for c in random_cases(CheckOptions(random=300))
                 if (v := judge(route, c.tree, c.alpha, c.beta, settings)).status != "agree")
    return first, (lambda t, a, b: judge(route, t, a, b, settings))


def test_shrink_values_keeps_the_shape_and_none_keeps_the_tree():
    first, again = _mutant_first()
    kept = shrink(first, again, "values").verdict
    assert kept.tree.kids == first.tree.kids and kept.tree.names == first.tree.names
    assert kept.tree.values != first.tree.values and kept.same(first)
    found = shrink(first, again, "none")
    assert found.reproduced and found.verdict.tree == first.tree
    assert (found.verdict.alpha, found.verdict.beta) == (first.alpha, first.beta)
    small = shrink(first, again, "all").verdict
    assert len(small.tree) < len(first.tree) and small.same(first)


def test_the_replay_builder_takes_options_as_pairs():
    from pyab.referee.checking import command
    text = command(["pyab", "check", "my tree.tree"],
                   [("--program", "a b.pl"), ("--untrusted", True), ("--depth", None),
                    ("--alpha", "-3"), ("--beta", "inf"), ("--keep-going", False), ("--agents", 2)])
    assert shlex.split(text) == ["pyab", "check", "my tree.tree", "--program", "a b.pl", "--untrusted",
                                 "--alpha=-3", "--beta", "inf", "--agents", "2"]


def test_an_untrusted_runs_replay_is_untrusted_too(tmp_path):
    mutant = _routes(tmp_path)["program"][1]
    done = pyab_cli("check", "--random", "300", "--program", mutant, "--untrusted", "--timeout", "5",
                    "--save-dir", str(tmp_path), "--json")
    words = shlex.split(json.loads(done.stdout)["replay"])
    assert done.returncode == 1 and "--untrusted" in words and words[words.index("--timeout") + 1] == "5.0"


def test_solve_with_a_wrong_search_says_so_without_a_traceback(tmp_path):
    inner = tmp_path / "inner.py"
    inner.write_text("def f(game, root, a, b):\n    return None, game.value(root)\n")
    done = pyab_cli("solve", SLIDES, "--python", f"{inner}:f")
    assert done.returncode == 3 and "a wrong search: inner-static-value" in done.stderr
    assert "Traceback" not in done.stderr


def test_jobs_give_one_processs_verdict_on_every_route(tmp_path):
    argv = _routes(tmp_path)["python"]
    runs = []
    for jobs in ("1", "2"):
        done = pyab_cli("check", "--random", "300", *argv, "--keep-going", "--jobs", jobs,
                        "--save-dir", str(tmp_path), "--json")
        r = json.loads(done.stdout)
        runs.append((done.returncode, r["disagreements"], r["checked"], r["first"]["tree"],
                     r["first"]["shrunk"]["tree"], r["replay"]))
    assert runs[0] == runs[1] and runs[0][0] == 1 and runs[0][1] > 1
