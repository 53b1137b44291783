"""pyab grade: a class of CS188-style submissions graded with one command
into a gradebook, Gradescope results.json files and JUnit XML."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from conftest import ROOT, pyab_cli, cs188_agent

CASES = ROOT / "tests" / "referee" / "cs188_tests"

SUITE = """\
[grader]
route = "python"
entry = "AlphaBetaAgent"
interface = "cs188"
algorithm = "strict-cut"
untrusted = true
timeout = 10

[[tests]]
name = "one ghost"
points = 4
random = 40
seed = 1
agents = 2
depth = 4
values = "ties"

[[tests]]
name = "two ghosts"
points = 4
random = 40
seed = 2
agents = 3
depth = 3
values = "ties"

[[tests]]
name = "one ghost, all or nothing"
points = 1
all_or_nothing = true
random = 20
seed = 3
agents = 2
depth = 2
values = "ties"

[[tests]]
name = "q3"
points = 6
cs188 = "q3"
"""

STUDENTS = {"alice": "correct", "bob": "prune_equal", "carol": "ghosts_not_chained"}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded once: (folder, process, out dir)."""
    base = tmp_path_factory.mktemp("course")
    shutil.copytree(CASES, base / "q3")
    (base / "suite.toml").write_text(SUITE)
    for student, fixture in STUDENTS.items():
        (base / "class" / student).mkdir(parents=True)
        shutil.copy(cs188_agent(fixture), base / "class" / student / "multiAgents.py")
    (base / "class" / "dave").mkdir()  # handed in nothing
    (base / "class" / "dave" / "notes.txt").write_text("sorry")
    out = base / "grades"
    subs = [str(base / "class" / s) for s in ("alice", "bob", "carol", "dave")]
    r = pyab_cli("grade", str(base / "suite.toml"), *subs, "--out", str(out), "--junit",
                 str(out / "junit.xml"), "--jobs", "2", timeout=600)
    return base, r, out


def results(out: Path, name: str) -> dict:
    return json.loads((out / name / "results.json").read_text())


def test_exit_and_summary(graded):
    base, r, out = graded
    assert r.returncode == 0, r.stdout + r.stderr  # every submission has a row, dave's too
    assert "dave" in r.stdout and "not graded" in r.stdout
    assert "4 graded, 0 resumed, 1 could not be graded" in r.stdout
    assert "Traceback" not in r.stderr


def test_gradebook(graded):
    base, r, out = graded
    book = json.loads((out / "gradebook.json").read_text())
    rows = {row["submission"]: row for row in book["rows"]}
    assert book["columns"] == ["submission", "score", "max", "one ghost", "two ghosts",
                               "one ghost, all or nothing", "q3", "first_failure"]
    assert rows["alice"]["score"] == rows["alice"]["max"] == 15
    assert rows["alice"]["first_failure"] == ""
    assert rows["bob"]["score"] < 15 and rows["bob"]["first_failure"] == "disagree"
    assert rows["carol"]["one ghost"] == 4 and rows["carol"]["two ghosts"] < 4
    assert rows["dave"]["score"] == 0 and rows["dave"]["first_failure"] == "missing"
    csv = (out / "gradebook.csv").read_text().splitlines()
    assert csv[0].startswith("submission,score,max,") and len(csv) == 5


def test_results_json_is_gradescope_shaped(graded):
    base, r, out = graded
    for name in ("alice", "bob", "carol", "dave"):
        res = results(out, name)
        assert set(res) >= {"score", "output", "tests"}
        total = 0
        for t in res["tests"]:
            assert set(t) >= {"name", "score", "max_score", "output"}
            assert t.get("status") in ("passed", "failed") or t.get("tags") == ["skipped"]
            assert 0 <= t["score"] <= t["max_score"]
            total += t["score"]
        assert abs(total - res["score"]) < 1e-6
    names = [t["name"] for t in results(out, "alice")["tests"]]
    assert names[3:] == ["q3: 0-tied-root", "q3: 1-two-ghosts", "q3: 2-depth-limit",
                         "q3: 3-below-sentinels", "q3: 4-pacman-game", "q3: 5-minimax"]
    skipped = results(out, "alice")["tests"][7]
    assert skipped["max_score"] == 0 and "skipped" in skipped["output"]


def test_partial_credit_and_all_or_nothing(graded):
    base, r, out = graded
    tests = {t["name"]: t for t in results(out, "bob")["tests"]}
    one = tests["one ghost"]
    passed = int(re.match(r"passed (\d+) of 40 random trees", one["output"]).group(1))
    assert 0 < passed < 40 and one["score"] == pytest.approx(4 * passed / 40, abs=1e-3)
    assert tests["one ghost, all or nothing"]["score"] == 0
    assert tests["q3: 0-tied-root"]["status"] == "failed"
    assert tests["q3: 1-two-ghosts"]["score"] == pytest.approx(6 / 5)  # 5 graph tests share 6


def test_feedback_a_student_can_use(graded):
    base, r, out = graded
    for name in ("bob", "carol"):
        text = json.dumps(results(out, name))
        assert str(base) not in text and "/tmp" not in text and str(ROOT) not in text
        others = set(STUDENTS) | {"dave"} - {name}
        assert not any(o in text for o in others - {name})
    one = {t["name"]: t for t in results(out, "bob")["tests"]}["one ghost"]["output"]
    assert "the smallest tree found that still fails" in one
    assert "how the reference (strict-cut) searches it:" in one and "◀ chosen" in one
    assert "never generated:" in one
    replay = one.split("replay it:\n", 1)[1]
    assert "pyab check counterexample.tree --python multiAgents.py:AlphaBetaAgent --interface " \
           "cs188 --untrusted --algorithm strict-cut --depth 4 --agents 2 --compare generated" in replay


def test_replay_command_reproduces_the_failure(graded, tmp_path):
    base, r, out = graded
    one = {t["name"]: t for t in results(out, "bob")["tests"]}["one ghost"]["output"]
    script = "\n".join(line[2:] for line in one.split("replay it:\n", 1)[1].splitlines())
    shutil.copy(base / "class" / "bob" / "multiAgents.py", tmp_path / "multiAgents.py")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    script = script.replace("pyab check", f"{sys.executable} -m pyab check")
    p = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 1 and "never generated" in p.stdout, p.stdout + p.stderr


def test_junit(graded):
    base, r, out = graded
    root = ET.parse(out / "junit.xml").getroot()
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"alice", "bob", "carol", "dave"}
    assert suites["alice"].get("failures") == "0" and suites["alice"].get("skipped") == "1"
    assert int(suites["bob"].get("failures")) >= 3


def test_gradescope_on_a_fake_autograder(tmp_path):
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "source").mkdir()
    shutil.copy(cs188_agent("root_tie_last"), root / "submission" / "multiAgents.py")
    shutil.copytree(CASES, root / "source" / "q3")
    (root / "source" / "suite.toml").write_text(SUITE)
    env = dict(os.environ, PYAB_AUTOGRADER_ROOT=str(root), PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "pyab", "grade", "--gradescope",
                        str(root / "source" / "suite.toml"), "--json"], capture_output=True,
                       text=True, env=env, cwd=root, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    summary = json.loads(p.stdout)
    assert summary["written"] == [str(root / "results" / "results.json")]
    res = json.loads((root / "results" / "results.json").read_text())
    assert 0 < res["score"] < 15
    status = {t["name"]: t["status"] for t in res["tests"] if "status" in t}
    assert status["q3: 0-tied-root"] == "failed"


def _submission(tmp_path, name):
    """The fixture agent ``name`` as a one-file submission called ``name``."""
    (tmp_path / "subs").mkdir(exist_ok=True)
    return Path(shutil.copy(cs188_agent(name), tmp_path / "subs" / f"{name}.py"))


def test_a_bad_suite_is_exit_2(tmp_path):
    (tmp_path / "s.toml").write_text(SUITE.replace("depth = 3", "depth = 4"))
    (tmp_path / "q3").mkdir()
    shutil.copy(CASES / "0-tied-root.test", tmp_path / "q3")
    r = pyab_cli("grade", str(tmp_path / "s.toml"), str(_submission(tmp_path, "correct")))
    assert r.returncode == 2
    assert re.search(r"s\.toml:\d+: \[\[tests\]\] 2: .*multiple of 3", r.stderr), r.stderr
    assert "Traceback" not in r.stderr


def test_json_is_one_object_matching_the_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "json-schema.json").read_text())
    (tmp_path / "s.toml").write_text(SUITE.split("[[tests]]\nname = \"q3\"")[0])
    r = pyab_cli("grade", str(tmp_path / "s.toml"), str(_submission(tmp_path, "correct")),
                 str(_submission(tmp_path, "depth_plies")), "--out", str(tmp_path / "out"), "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(obj))
    assert not errors, errors[0].message
    rows = {row["submission"]: row for row in obj["rows"]}
    assert rows["correct"]["score"] == 9 and rows["depth_plies"]["score"] < 9


# The fields of Gradescope's results.json as its specification lists them
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/), with
# their types; no field outside the list.
GRADESCOPE = {
    "type": "object",
    "required": ["score", "tests"],
    "additionalProperties": False,
    "properties": {
        "score": {"type": "number"}, "execution_time": {"type": "integer"},
        "output": {"type": "string"}, "visibility": {"type": "string"},
        "stdout_visibility": {"type": "string"}, "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["score", "max_score", "name"],
            "properties": {
                "score": {"type": "number"}, "max_score": {"type": "number"},
                "status": {"enum": ["passed", "failed"]}, "name": {"type": "string"},
                "number": {"type": "string"}, "output": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
                "extra_data": {"type": "object"}}}},
    },
}


def test_results_json_has_only_gradescope_fields(graded):
    jsonschema = pytest.importorskip("jsonschema")
    base, r, out = graded
    for name in ("alice", "bob", "carol", "dave"):
        errors = list(jsonschema.Draft202012Validator(GRADESCOPE).iter_errors(results(out, name)))
        assert not errors, (name, errors[0].message)


def test_a_progress_bar_on_a_terminal(tmp_path):
    """On a terminal (here a pseudo-terminal) stderr shows a progress bar
    over the class; piped, it shows none (the other tests)."""
    import pty
    (tmp_path / "s.toml").write_text(SUITE.split("[[tests]]\nname = \"two ghosts\"")[0])
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    p = subprocess.Popen([sys.executable, "-m", "pyab", "grade", str(tmp_path / "s.toml"),
                          str(_submission(tmp_path, "correct")), "--out", str(tmp_path / "out")],
                         stdout=subprocess.PIPE, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out, _ = p.communicate(timeout=300)
    os.close(master)
    assert p.returncode == 0 and b"correct" in out
    assert b"grading" in seen and b"0/1" in seen, seen[-500:]
