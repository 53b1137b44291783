"""pyab grade as a hostile class would try it: nothing one submission does
costs another student its row (issue 33).  Small classes, a few seconds each."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from conftest import EXAMPLES, pyab_cli

CLIENT = (EXAMPLES / "referee" / "client.py").read_text()

EXEC = """\
[grader]
route = "exec"
entry = "python3 {file}"
file = "client.py"
algorithm = "bratko"
timeout = 10
%s
[[tests]]
name = "random trees"
points = 10
random = 6
seed = 5
values = "ties"
"""

PYTHON = """\
[grader]
route = "python"
entry = "alphabeta"
file = "ab.py"
algorithm = "bratko"
timeout = 5

[[tests]]
name = "random trees"
points = 7
random = 9
seed = 1
values = "ties"

[[tests]]
name = "more"
points = 5
random = 3
seed = 2
"""

# An answer that is a number beyond a double's range (and, with NAN, not a number).
BIG = """\
import json, sys
for line in sys.stdin:
    print(json.dumps({"best": None, "value": 10 ** 400}), flush=True)
"""

# pyab's own alpha-beta, through the game object of --python, and one comparison changed
HONEST = (EXAMPLES / "referee" / "slides_alphabeta.py").read_text()
assert "val > beta" in HONEST
WRONG = HONEST.replace("val > beta", "val >= beta")


def _class(tmp_path: Path, suite: str, students: dict[str, dict[str, str]]) -> list[str]:
    (tmp_path / "suite.toml").write_text(suite)
    subs = []
    for name, files in students.items():
        folder = tmp_path / "class" / name
        folder.mkdir(parents=True)
        for fname, text in files.items():
            (folder / fname).write_text(text)
        subs.append(str(folder))
    return subs


def _book(out: Path) -> dict[str, dict]:
    return {row["submission"]: row for row in json.loads((out / "gradebook.json").read_text())["rows"]}


def _sandbox() -> bool:
    from pyab.referee.sandbox import SandboxUnavailable, backend
    try:
        backend()
    except SandboxUnavailable:
        return False
    return True


def test_check_json_on_an_answer_beyond_a_double(tmp_path):
    prog = tmp_path / "big.py"
    prog.write_text(BIG)
    r = pyab_cli("check", "--random", "3", "--exec", f"python3 {prog}", "--json")
    assert r.returncode == 3, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    out = json.loads(r.stdout)  # exactly one object
    assert out["error"]["program_kind"] == "invalid"
    assert "beyond the range of a double" in out["error"]["message"]
    assert len(out["error"]["message"]) < 300  # 401 digits, shortened


def test_one_answer_beyond_a_double_costs_no_one_else_a_row(tmp_path):
    subs = _class(tmp_path, EXEC % "", {"alice": {"client.py": CLIENT},
                                         "mallory": {"client.py": BIG}})
    out = tmp_path / "out"
    for jobs in ("1", "2"):
        r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out),
                     "--jobs", jobs)
        assert r.returncode == 0, r.stdout + r.stderr
        book = _book(out)
        assert book["alice"]["score"] == 10
        assert book["mallory"]["score"] == 0 and book["mallory"]["first_failure"] == "invalid"
        assert (out / "mallory" / "results.json").is_file()


def test_a_link_to_another_program_is_refused(tmp_path):
    """A program file linking out of its folder (to a reference, a
    classmate's file) earns nothing; the same file named on the command
    line is the grader's choice."""
    subs = _class(tmp_path, PYTHON, {"alice": {"ab.py": HONEST}, "mallory": {}})
    os.symlink(Path(subs[0]) / "ab.py", Path(subs[1]) / "ab.py")
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, str(Path(subs[1]) / "ab.py"),
                 "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    book = _book(out)
    assert book["alice"]["score"] == 12
    assert book["mallory"]["score"] == 0 and book["mallory"]["first_failure"] == "refused"
    res = json.loads((out / "mallory" / "results.json").read_text())
    assert "ab.py is a symbolic link leaving the submission folder" in res["tests"][0]["output"]
    assert book["ab"]["score"] == 12  # named on the command line: graded


def test_report_folders_are_unique_and_names_kept(tmp_path):
    subs = []
    for i, name in enumerate(["a b", "a_b", "a b"]):
        folder = tmp_path / f"c{i}" / name
        folder.mkdir(parents=True)
        (folder / "ab.py").write_text(HONEST if i != 1 else WRONG)
        subs.append(str(folder))
    (tmp_path / "suite.toml").write_text(PYTHON)
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = json.loads((out / "gradebook.json").read_text())["rows"]
    assert [row["submission"] for row in rows] == ["a b", "a_b", "a b"]
    assert [row["folder"] for row in rows] == ["a_b", "a_b-2", "a_b-3"]
    for row in rows:
        res = json.loads((out / row["folder"] / "results.json").read_text())
        assert res["score"] == row["score"]


def test_hostile_names_and_errors_are_escaped(tmp_path):
    raiser = ("def alphabeta(game, node, alpha, beta):\n"
              "    raise RuntimeError('\\x01\\x1b[2J \\u202e' + 'x' * 100000)\n")
    subs = _class(tmp_path, PYTHON, {"=HYPERLINK(1)": {"ab.py": raiser},
                                     "ev\x1b[31mil": {"ab.py": HONEST}})
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out),
                 "--junit", str(out / "junit.xml"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "\x1b" not in r.stdout and "\\x1b" in r.stdout
    cells = list(csv.reader((out / "gradebook.csv").open()))
    assert cells[1][0] == "'=HYPERLINK(1)"
    ET.parse(out / "junit.xml")  # well-formed whatever the program printed
    res = json.loads((out / "_HYPERLINK_1_" / "results.json").read_text())
    assert len(res["tests"][0]["output"]) < 10000  # a 100 KB message, capped
    j = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out), "--json")
    assert len(j.stdout) < 20000 and json.loads(j.stdout)["rows"]


def test_grade_takes_untrusted_and_timeout(tmp_path):
    subs = _class(tmp_path, PYTHON, {"alice": {"ab.py": HONEST}})
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(tmp_path / "o"),
                 "--timeout", "7", *(["--untrusted"] if _sandbox() else []))
    assert r.returncode == 0, r.stdout + r.stderr


def test_scores_sum_to_the_total(tmp_path):
    """Each test rounded once: the total is their sum (was 1 against three
    tests of 0.3333, as 12.0834 against 12.0833 in a real class), and the
    tests' maxima sum to the group's points, so a full pass is a full point."""
    from conftest import ROOT, cs188_agent
    cases = tmp_path / "q3"
    cases.mkdir()
    for stem in ("0-tied-root", "1-two-ghosts", "2-depth-limit"):
        for suffix in (".test", ".solution"):
            shutil.copy(ROOT / "tests" / "referee" / "cs188_tests" / (stem + suffix), cases)
    suite = ('[grader]\nroute = "python"\nentry = "AlphaBetaAgent"\ninterface = "cs188"\n'
             'algorithm = "strict-cut"\ntimeout = 10\n\n'
             '[[tests]]\nname = "q3"\npoints = 1\ncs188 = "q3"\n')
    (tmp_path / "suite.toml").write_text(suite)
    (tmp_path / "alice").mkdir()
    shutil.copy(cs188_agent("correct"), tmp_path / "alice" / "multiAgents.py")
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), str(tmp_path / "alice"), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads((out / "alice" / "results.json").read_text())
    assert [t["score"] for t in res["tests"]] == [0.3334, 0.3333, 0.3333]
    assert [t["max_score"] for t in res["tests"]] == [0.3334, 0.3333, 0.3333]
    assert res["score"] == 1
    assert _book(out)["alice"]["score"] == 1


def test_a_program_that_cannot_import_gets_one_short_message(tmp_path):
    broken = "import util\nutil.raiseNotDefinedAnywhere()\n"
    subs = _class(tmp_path, PYTHON, {"carol": {"ab.py": broken}})
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    for t in json.loads((out / "carol" / "results.json").read_text())["tests"]:
        text = t["output"]
        assert text.startswith("your program cannot run (crash): "), text
        assert "<frozen" not in text and "smallest tree" not in text and len(text) < 700
        assert "ModuleNotFoundError: No module named 'util'" in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_replaced_sandboxed_child_leaves_no_defunct_process(tmp_path):
    if not _sandbox():
        pytest.skip("no sandbox here")
    from pyab.errors import ProgramError
    from pyab.referee import PythonRoute
    prog = tmp_path / "bad.py"
    prog.write_text("def alphabeta(game, node, alpha, beta):\n    raise RuntimeError('no')\n")
    import pyab
    tree = pyab.parse("a(b=1, c=2)")

    def zombies() -> set[str]:  # this process's defunct children (earlier tests' too)
        me, out = str(os.getpid()), set()
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] == "Z":
                out.add(pid)
        return out
    before = zombies()
    with PythonRoute(f"{prog}:alphabeta", untrusted=True, timeout=10) as route:
        for _ in range(3):
            with pytest.raises(ProgramError):
                route.search(tree)
    assert zombies() - before == set()


def test_the_exec_route_sees_only_its_own_folder(tmp_path):
    """In grade, an exec-route sandbox holds the submission's folder, not
    the grader's current folder (classmates, the suite, gradebooks)."""
    if not _sandbox():
        pytest.skip("no sandbox here")
    spy = ("import json, os, sys\n"
           "seen = sorted(os.listdir('.')) + sorted(os.listdir('..'))\n"
           "for line in sys.stdin:\n"
           "    print(json.dumps({'error': 'saw ' + ' '.join(seen)}), flush=True)\n")
    subs = _class(tmp_path, EXEC % "untrusted = true", {"alice": {"client.py": CLIENT},
                                                         "mallory": {"client.py": spy}})
    (Path(subs[1]) / "notes.txt").write_text("mine")
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    text = json.loads((out / "mallory" / "results.json").read_text())["tests"][0]["output"]
    assert "saw client.py notes.txt" in text, text
    assert "alice" not in text and "suite.toml" not in text
    assert _book(out)["alice"]["score"] == 10


def test_check_exec_never_shows_the_current_folder(tmp_path):
    if not _sandbox():
        pytest.skip("no sandbox here")
    import subprocess
    sub = tmp_path / "sub"
    sub.mkdir()
    spy = ("import json, os, sys\n"
           "for line in sys.stdin:\n"
           "    print(json.dumps({'error': 'saw ' + ' '.join(sorted(os.listdir('.')))}), flush=True)\n")
    (sub / "spy.py").write_text(spy)
    (tmp_path / "secret.txt").write_text("grader's")
    run = [sys.executable, "-m", "pyab", "check", "--random", "1", "--untrusted", "--json"]
    r = subprocess.run(run + ["--exec", "python3 sub/spy.py"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 3, r.stdout + r.stderr
    message = json.loads(r.stdout)["error"]["message"]
    assert "saw spy.py" in message and "secret" not in message
    r = subprocess.run(run + ["--exec", "python3 -c 1"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "--submission DIR" in r.stderr


def _descendants(root: int) -> set[int]:
    """Every process below ``root`` now (by parent links in /proc)."""
    parents = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            parents[int(pid)] = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            pass
    found, frontier = set(), {root}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_keeps_finished_rows_and_resume_completes_the_run(tmp_path):
    """SIGTERM mid-run: within 10 s, no worker, child or sandbox copy left,
    finished rows kept; --resume grades the rest; the gradebook is a full
    run's."""
    import subprocess
    import tempfile
    import time
    students = {f"s{i}": {"ab.py": HONEST if i % 2 else WRONG} for i in range(6)}
    subs = _class(tmp_path, PYTHON.replace("random = 9", "random = 30"), students)
    untrusted = ["--untrusted"] if _sandbox() else []
    tmp = Path(tempfile.mkdtemp(prefix="pyab-test-grade-", dir="/tmp"))  # the sandboxes' copies
    os.chmod(tmp, 0o755)
    env = {**os.environ, "TMPDIR": str(tmp)}
    try:
        out = tmp_path / "out"
        argv = [sys.executable, "-m", "pyab", "grade", str(tmp_path / "suite.toml"), *subs,
                "--out", str(out), "--jobs", "2", *untrusted]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 120
        while not (out / "gradebook.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        kids = _descendants(proc.pid)
        start = time.monotonic()
        proc.terminate()
        _, err = proc.communicate(timeout=15)
        assert time.monotonic() - start < 10
        assert proc.returncode == 143, err
        time.sleep(0.5)  # the resource tracker ends when it sees its pipe closed
        assert not [Path(f"/proc/{k}/cmdline").read_text() for k in kids if _alive(k)]
        assert not list(tmp.iterdir()), "a sandbox copy was left"
        rows = json.loads((out / "gradebook.json").read_text())["rows"]
        assert 1 <= len(rows) < 6
        for row in rows:
            assert (out / row["folder"] / "results.json").is_file()
        r = subprocess.run(argv[:-len(untrusted) or None] + untrusted + ["--resume"], env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        assert f"{6 - len(rows)} graded, {len(rows)} resumed" in r.stdout
        full = tmp_path / "full"
        r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(full), *untrusted,
                     timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        assert (out / "gradebook.csv").read_text() == (full / "gradebook.csv").read_text()
        for i in range(6):
            a = json.loads((out / f"s{i}" / "results.json").read_text())
            b = json.loads((full / f"s{i}" / "results.json").read_text())
            assert {**a, "execution_time": 0} == {**b, "execution_time": 0}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_the_timeout_is_the_searchs_not_the_start_up(tmp_path):
    """A program that takes 1.5 s to import and searches fast passes with a
    1 s timeout: its start-up is not its first search."""
    slow = "import time\ntime.sleep(1.5)\n" + HONEST
    subs = _class(tmp_path, PYTHON.replace("timeout = 5", "timeout = 1"), {"slow": {"ab.py": slow}})
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert _book(out)["slow"]["score"] == 12, _book(out)


def test_a_hanging_program_costs_three_timeouts_and_shows_its_tree_shrunk(tmp_path):
    import time
    looping = "def alphabeta(game, node, alpha, beta):\n    while True:\n        pass\n"
    suite = PYTHON.replace("timeout = 5", "timeout = 1").split("[[tests]]\nname = \"more\"")[0]
    suite = suite.replace("values = \"ties\"", "values = \"ties\"\ntree_depth = [2, 3]")
    subs = _class(tmp_path, suite, {"loop": {"ab.py": looping}})
    out = tmp_path / "out"
    start = time.monotonic()
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), *subs, "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert time.monotonic() - start < 45  # 3 timeouts, and at most 30 s shrinking
    text = json.loads((out / "loop" / "results.json").read_text())["tests"][0]["output"]
    assert "stopped after 3 trees: 3 searches timed out" in text
    assert "the smallest tree found that still fails" in text, text


def test_pyabs_own_failure_is_an_internal_row_and_exit_3(tmp_path, monkeypatch):
    """An exception in pyab while judging one submission: that submission's
    row says internal, with the message; the others are graded; exit 3."""
    from pyab.grade import grade_class, load_suite
    from pyab.grade import run as grading
    subs = _class(tmp_path, PYTHON, {"alice": {"ab.py": HONEST}, "bob": {"ab.py": HONEST}})
    real = grading._random_group

    def flaky(suite, g, program, routes):
        if program.parent.name == "bob":
            raise OverflowError("int too large to convert to float")
        return real(suite, g, program, routes)
    monkeypatch.setattr(grading, "_random_group", flaky)
    done = grade_class(load_suite(tmp_path / "suite.toml"), subs, out=tmp_path / "out")
    alice, bob = done.rows
    assert alice.score == 12 and not alice.internal
    assert bob.internal and bob.first_failure == "internal"
    assert "OverflowError: int too large" in bob.tests[0].output
    assert done.exit == 3 and done.internal == ["bob"]
    assert (tmp_path / "out" / "bob" / "results.json").is_file()


def test_check_json_caps_a_huge_error_text(tmp_path):
    prog = tmp_path / "loud.py"
    prog.write_text("import json, sys\nfor line in sys.stdin:\n"
                    "    print(json.dumps({'error': 'x' * 200000}), flush=True)\n")
    r = pyab_cli("check", "--random", "1", "--exec", f"python3 {prog}", "--json")
    assert r.returncode == 3, r.stderr
    message = json.loads(r.stdout)["error"]["message"]
    assert 1000 < len(message) < 5000 and message.endswith("more characters)")


def test_a_cs188_agent_that_cannot_import_gets_one_message_a_group(tmp_path):
    """A cs188 group stops at an agent that cannot run: its first test says
    why in a few words, without a tree or a replay; the others are not run
    (on main every test drew the tree and printed the replay again)."""
    from conftest import ROOT
    cases = tmp_path / "q3"
    cases.mkdir()
    for stem in ("0-tied-root", "1-two-ghosts", "2-depth-limit"):
        for suffix in (".test", ".solution"):
            shutil.copy(ROOT / "tests" / "referee" / "cs188_tests" / (stem + suffix), cases)
    (tmp_path / "suite.toml").write_text(
        '[grader]\nroute = "python"\nentry = "AlphaBetaAgent"\ninterface = "cs188"\n'
        'algorithm = "strict-cut"\ntimeout = 10\n\n[[tests]]\nname = "q3"\npoints = 1\ncs188 = "q3"\n')
    (tmp_path / "carol").mkdir()
    (tmp_path / "carol" / "multiAgents.py").write_text("import no_such_module_anywhere\n")
    out = tmp_path / "out"
    r = pyab_cli("grade", str(tmp_path / "suite.toml"), str(tmp_path / "carol"), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    tests = json.loads((out / "carol" / "results.json").read_text())["tests"]
    assert [t["status"] for t in tests] == ["failed"] * 3
    first, *rest = [t["output"] for t in tests]
    assert first.startswith("your program cannot run (crash): ") and "no_such_module_anywhere" in first
    assert "replay it" not in first and "plies" not in first and len(first) < 700
    assert all(o.startswith("not run: your program cannot run") for o in rest), rest
