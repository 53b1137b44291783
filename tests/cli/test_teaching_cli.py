"""The teaching commands: `pyab examples` gives every file that ships its line
from examples/README.md; `pyab repl` warns when the slides' program cannot
search the tree; `pyab variants` says what it left out; a missing static
value under --depth is one error whatever the engine."""

from __future__ import annotations

from pyab import cli


def test_every_example_has_a_line(capsys):
    assert cli.main(["examples"]) == 0
    out = capsys.readouterr().out.splitlines()
    listed = [line.split(None, 1) for line in out[1:-1]]
    assert len(listed) > 20
    bare = [row[0] for row in listed if len(row) < 2]
    assert bare == [], bare
    said = dict(row for row in listed)
    assert "Hsu" in said["best-order.tree"]
    assert said["grading/class/bob/multiAgents.py"] == said["grading/class/alice/multiAgents.py"]
    assert "course's format" in said["grading/test_cases/q3/0-tied-root.test"]


def test_repl_warns_before_any_query_when_the_slides_program_cannot_search(tmp_path):
    from conftest import pyab_cli
    ghosts = pyab_cli("repl", "examples/courses/two-ghosts.tree",
                      stdin="strict_cut(a, -inf, inf, inf, Move, Val).\n")
    assert ghosts.returncode == 0, ghosts.stderr
    warning = ghosts.stderr.index("% warning: bratko cannot search this tree: 'c' has MIN to move like its "
                                  "parent 'b'")
    assert warning < ghosts.stderr.index("% try:  ?- strict_cut(a, -inf, inf, inf, Move, Val).")
    assert "strict-cut" in ghosts.stderr and "alphabeta(" not in ghosts.stderr
    assert "Move = g" in ghosts.stdout and "Val = 2" in ghosts.stdout  # strict_cut/6 is loaded
    depth = pyab_cli("repl", "examples/depth-limited.tree", stdin="")
    assert "% warning: 'a' has a static value of its own" in depth.stderr, depth.stderr
    assert "strict-cut takes a depth" in depth.stderr
    plain = pyab_cli("repl", "examples/slides.tree", stdin="")
    assert "warning" not in plain.stderr and "alphabeta(a, -inf, inf, GoodPos, Val)" in plain.stderr


def test_variants_says_which_algorithms_it_left_out_and_why(capsys):
    from pyab.search import ALGORITHMS
    assert cli.main(["variants", "examples/courses/two-ghosts.tree"]) == 0
    out = capsys.readouterr().out
    left = [line for line in out.splitlines() if line.startswith("left out: ")]
    named = [n for line in left for n in line[len("left out: "):].split(": ")[0].split(", ")]
    assert sorted(named + ["strict-cut"]) == sorted(ALGORITHMS)
    assert all("'c' has MIN to move like its parent 'b'" in line for line in left), left
    assert cli.main(["variants", "examples/depth-limited.tree", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "left out: bratko: bratko has no depth limit" in out


def test_a_missing_static_value_is_one_error_in_both_engines(tmp_path):
    import json

    from conftest import pyab_cli
    tree = tmp_path / "t.tree"
    tree.write_text("a('b x'(c = 1, d(e = 2, f = 3)), g = 4)\n", encoding="utf-8")
    said = {}
    for engine in ("prolog", "python"):
        for algorithm in ("aima", "cpw-minmax", "hsu-f1", "strict-cut"):
            out = pyab_cli("solve", str(tree), "--algorithm", algorithm, "--depth", "1", "--engine", engine,
                           "--json")
            assert out.returncode == 2, out.stdout + out.stderr
            said[engine, algorithm] = json.loads(out.stdout)["error"]
    assert len({json.dumps(e, sort_keys=True) for e in said.values()}) == 1, said
    error = said["prolog", "aima"]
    assert error["kind"] == "NoStaticValue"
    assert error["message"].startswith("node 'b x' is at the depth limit and has no static value: give it one")
    assert "or search deeper" in error["message"]
