"""pyab grade with the other routes: Prolog programs (route = "program",
untrusted) and any-language programs (route = "exec")."""

from __future__ import annotations

import json
import shutil

from conftest import EXAMPLES, ROOT, pyab_cli

PROLOG = """\
[grader]
route = "program"
algorithm = "bratko"
untrusted = true
timeout = 10

[[tests]]
name = "random trees"
points = 5
random = 30
seed = 4
values = "ties"

[[tests]]
name = "the slides"
points = 1
trees = ["slides.tree"]
"""

EXEC = """\
[grader]
route = "exec"
entry = "python3 {file}"
file = "client.py"
algorithm = "bratko"
timeout = 10

[[tests]]
name = "random trees"
points = 10
random = 40
seed = 5
values = "ties"
"""


def test_prolog_programs(tmp_path):
    (tmp_path / "suite.toml").write_text(PROLOG)
    shutil.copy(EXAMPLES / "slides.tree", tmp_path)
    good = tmp_path / "slides.pl"
    shutil.copy(ROOT / "prolog" / "alphabeta.pl", good)
    text = (ROOT / "prolog" / "alphabeta.pl").read_text()
    assert "Val > Beta" in text
    bad = tmp_path / "mutant.pl"
    bad.write_text(text.replace("Val > Beta", "Val >= Beta", 1))  # one comparison changed
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), str(good), str(bad), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    book = json.loads((out / "gradebook.json").read_text())
    rows = {row["submission"]: row for row in book["rows"]}
    assert rows["slides"]["score"] == 6
    assert rows["mutant"]["random trees"] < 5 and rows["mutant"]["first_failure"] == "disagree"
    res = json.loads((out / "mutant" / "results.json").read_text())
    text = res["tests"][0]["output"]
    assert "--program mutant.pl --untrusted" in text and str(tmp_path) not in text


def test_exec_programs_in_folders(tmp_path):
    (tmp_path / "suite.toml").write_text(EXEC)
    for name, mutant in (("ann", False), ("ben", True)):
        (tmp_path / name).mkdir()
        src = (EXAMPLES / "referee" / "client.py").read_text()
        if mutant:  # the client's own --mutant flag, switched on in the file
            src = src.replace("MUTANT = \"--mutant\" in sys.argv[1:]", "MUTANT = True")
        (tmp_path / name / "client.py").write_text(src)
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), str(tmp_path / "ann"),
                 str(tmp_path / "ben"),
                 "--out", str(out), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["submission"]: row for row in json.loads(r.stdout)["rows"]}
    assert rows["ann"]["score"] == 10 and rows["ben"]["score"] < 10


def test_a_program_that_cannot_load_stops_its_groups_at_once(tmp_path):
    """A Prolog file that does not load fails the same way on every tree:
    its group stops after the first (a child is not started 30 times)."""
    (tmp_path / "suite.toml").write_text(PROLOG)
    shutil.copy(EXAMPLES / "slides.tree", tmp_path)
    broken = tmp_path / "broken.pl"
    broken.write_text("alphabeta(Pos, _, _, _, _) :- moves(Pos, [\n")  # a syntax error
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), str(broken), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads((out / "broken" / "results.json").read_text())
    first = res["tests"][0]
    assert first["score"] == 0
    # one short message, no tree to shrink or draw: the same on every tree
    assert first["output"].startswith("your program cannot run (crash): "), first["output"]
    assert "could not be loaded" in first["output"]
    assert "tree" not in first["output"] and len(first["output"]) < 700


def test_one_child_serves_a_submission_across_its_groups(tmp_path):
    """Each load of the program leaves a line behind (a trusted suite runs
    its directives): two random groups and a tree group, one load."""
    suite = PROLOG.replace("untrusted = true", "untrusted = false") + """
[[tests]]
name = "more random trees"
points = 1
random = 5
seed = 9
"""
    (tmp_path / "suite.toml").write_text(suite)
    shutil.copy(EXAMPLES / "slides.tree", tmp_path)
    loads = tmp_path / "loads.txt"
    program = tmp_path / "counted.pl"
    program.write_text(f":- open('{loads}', append, S), format(S, 'loaded~n', []), close(S).\n"
                       + (ROOT / "prolog" / "alphabeta.pl").read_text())
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), str(program), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stdout + r.stderr
    book = json.loads((tmp_path / "out" / "gradebook.json").read_text())
    assert book["rows"][0]["score"] == 7
    assert loads.read_text().splitlines() == ["loaded"]
