"""`pyab autograder`: the zip Gradescope takes, run as Gradescope runs it
(setup.sh, then run_autograder in a fake /autograder), and the GitHub
Classroom workflow."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "grading"
POINTS = Decimal(16)  # examples/grading/suite.toml: 4 + 4 + 2 + 6
UNSET = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")


def pyab(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pyab", *args], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})), timeout=300)


# Gradescope's results.json as its specification lists it
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/): the
# fields, their types, and nothing else.
TOP = {"score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
       "test_output_format": str, "test_name_format": str, "visibility": str, "stdout_visibility": str,
       "extra_data": dict, "tests": list, "leaderboard": list}
TEST = {"score": (int, float), "max_score": (int, float), "status": str, "name": str, "name_format": str,
        "number": str, "output": str, "output_format": str, "tags": list, "visibility": str,
        "extra_data": dict}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def _typed(v, want) -> bool:
    want = want if isinstance(want, tuple) else (want,)
    return isinstance(v, want + ((Decimal,) if float in want else ())) and not isinstance(v, bool)


def gradescope_errors(text: str) -> list[str]:
    """What in a results.json text is not Gradescope's format, and whether
    the points add up exactly (as the decimals written)."""
    res = json.loads(text, parse_float=Decimal)
    if not isinstance(res, dict) or not isinstance(res.get("tests"), list):
        return ["not an object with tests"]
    errors = [f"top: {k!r} unknown or mistyped" for k, v in res.items() if k not in TOP or not _typed(v, TOP[k])]
    for n, t in enumerate(res["tests"]):
        errors += [f"test {n}: {k!r} unknown or mistyped" for k, v in t.items()
                   if k not in TEST or not _typed(v, TEST[k])]
        errors += [f"test {n}: no {k}" for k in ("name", "max_score") if k not in t]
    if "score" not in res and any("score" not in t for t in res["tests"]):
        errors.append("no score at the top nor on each test")
    if errors:
        return errors
    for n, t in enumerate(res["tests"]):
        if t.get("status", "passed") not in ("passed", "failed"):
            errors.append(f"test {n}: status {t['status']!r}")
        if t.get("visibility", "visible") not in VISIBILITY:
            errors.append(f"test {n}: visibility {t['visibility']!r}")
        if not 0 <= t["score"] <= t["max_score"]:
            errors.append(f"test {n}: score {t['score']} outside 0..{t['max_score']}")
    for k in ("visibility", "stdout_visibility"):
        if res.get(k, "visible") not in VISIBILITY:
            errors.append(f"top: {k} {res[k]!r}")
    if sum(Decimal(t["max_score"]) for t in res["tests"]) != POINTS:
        errors.append(f"max_scores sum to {sum(t['max_score'] for t in res['tests'])}, not {POINTS}")
    if sum(Decimal(t["score"]) for t in res["tests"]) != res["score"]:
        errors.append(f"tests' scores sum to {sum(t['score'] for t in res['tests'])}, not {res['score']}")
    return errors


def test_the_format_check_catches_what_it_should():
    good = {"score": 1.5, "tests": [{"name": "a", "score": 1.5, "max_score": 6, "status": "passed"},
                                    {"name": "b", "score": 0, "max_score": 10, "status": "failed"}]}
    assert gradescope_errors(json.dumps(good)) == []
    for bad in ({**good, "score": 1.4999}, {**good, "grade": 1},
                {**good, "tests": [{**good["tests"][0], "status": "ok"}, good["tests"][1]]},
                {**good, "tests": [{**good["tests"][0], "max_score": 5.9999}, good["tests"][1]]},
                {**good, "tests": [{**good["tests"][0], "score": "1.5"}, good["tests"][1]]}):
        assert gradescope_errors(json.dumps(bad)), bad


@pytest.fixture(scope="module")
def autograder(tmp_path_factory) -> tuple[Path, dict]:
    """(the fake /autograder with the zip unpacked in source/, the
    environment with pyab on PATH as setup.sh leaves it)."""
    base = tmp_path_factory.mktemp("gradescope")
    made = pyab("autograder", str(EXAMPLE / "suite.toml"), "-o", str(base / "autograder.zip"), cwd=base)
    assert made.returncode == 0, made.stderr
    root = base / "autograder"
    with zipfile.ZipFile(base / "autograder.zip") as z:
        names = z.namelist()
        z.extractall(root / "source")
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
    assert names[:2] == ["setup.sh", "run_autograder"] and modes["run_autograder"] & 0o111
    assert len([n for n in names if "/" not in n and n.startswith("pyab-") and n.endswith(".tar.gz")]) == 1
    assert "suite/suite.toml" in names and "suite/test_cases/q3/0-tied-root.test" in names
    # setup.sh as Gradescope runs it, but for the apt packages (this machine
    # has them; the image's apt is not here) and in a folder of its own.
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(PYAB_SETUP_APT="0", PYAB_VENV=str(base / "venv"), PYAB_BIN=str(base / "bin"))
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], capture_output=True, text=True,
                           env=env, cwd=base, timeout=600)
    assert setup.returncode == 0, setup.stdout[-2000:] + setup.stderr[-2000:]
    assert os.path.realpath(base / "bin" / "pyab") == str(base / "venv" / "bin" / "pyab")
    run_env = {k: v for k, v in os.environ.items() if k not in UNSET}
    run_env.update(PATH=f"{base / 'bin'}:{os.environ['PATH']}", PYAB_AUTOGRADER_ROOT=str(root))
    return root, run_env


def run_autograder(root: Path, env: dict, submission: str,
                   wrap: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess, str]:
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    shutil.copytree(EXAMPLE / "class" / submission, root / "submission",
                    ignore=shutil.ignore_patterns("__pycache__"))
    p = subprocess.run([*wrap, "bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                       env=env, cwd=root, timeout=600)
    results = root / "results" / "results.json"
    assert results.is_file(), p.stdout + p.stderr
    return p, results.read_text()


@pytest.mark.slow
def test_an_honest_submission_gets_every_point(autograder):
    root, env = autograder
    p, text = run_autograder(root, env, "alice")
    assert gradescope_errors(text) == []
    res = json.loads(text, parse_float=Decimal)
    assert res["score"] == POINTS, res["output"]
    assert all(t.get("status") == "passed" or t.get("tags") == ["skipped"] for t in res["tests"])
    assert "grading in pyab's sandbox (" in p.stdout and "without" not in p.stdout


@pytest.mark.slow
def test_a_failing_submission_loses_points(autograder):
    root, env = autograder
    p, text = run_autograder(root, env, "bob")
    assert gradescope_errors(text) == []
    res = json.loads(text, parse_float=Decimal)
    assert 0 < res["score"] < POINTS
    assert any(t.get("status") == "failed" for t in res["tests"])


# A container that gives no user namespaces, for real: a user namespace of
# its own (where this test is root) whose limit of nested ones is 0, so
# bwrap and unshare fail inside as they do on such a platform.
NO_USERNS = ("unshare", "--user", "--map-root-user", "sh", "-c",
             'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "sh")


@pytest.mark.slow
def test_without_user_namespaces_it_grades_unconfined_and_says_so(autograder):
    root, env = autograder
    probe = subprocess.run([*NO_USERNS, "unshare", "--user", "true"], capture_output=True, text=True)
    if probe.returncode == 0 or "unshare" not in probe.stderr:
        pytest.skip(f"cannot take user namespaces away here: {probe.stderr.strip()}")
    p, text = run_autograder(root, env, "alice", NO_USERNS)
    assert "grading without pyab's sandbox" in p.stdout, p.stdout + p.stderr
    assert gradescope_errors(text) == []
    assert json.loads(text, parse_float=Decimal)["score"] == POINTS


def test_the_unconfined_twin_differs_only_in_the_sandbox():
    from pyab.grade.autograder import unconfined
    text = (EXAMPLE / "suite.toml").read_text()
    twin = unconfined(text)
    changed = [(a, b) for a, b in zip(text.splitlines(), twin.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][0].startswith("untrusted = true")
    assert changed[0][1].startswith("untrusted = false")
    assert unconfined(text.replace("untrusted = true", "untrusted = false")) is None
    # a key of the same name in a later table is not the grader's
    assert unconfined("[grader]\nroute = 'python'\n[[tests]]\nuntrusted = true\n") is None


def test_github_classroom_workflow(tmp_path):
    made = pyab("autograder", str(EXAMPLE / "suite.toml"), "--github", "-o", str(tmp_path / "repo"),
                cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    flow = (tmp_path / "repo" / ".github" / "workflows" / "classroom.yml").read_text()
    assert "\t" not in flow
    sdists = list((tmp_path / "repo" / ".autograder").glob("pyab-*.tar.gz"))
    assert len(sdists) == 1 and (tmp_path / "repo" / ".autograder" / "suite" / "suite.toml").is_file()
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml is not None:
        doc = yaml.safe_load(flow)
        steps = doc["jobs"]["run-autograding-tests"]["steps"]
        run = "\n".join(s.get("run", "") for s in steps)
        reporter = steps[-1]
        assert reporter["uses"].startswith("classroom-resources/autograding-grading-reporter@")
        assert reporter["with"]["runners"] == "pyab" and "steps.pyab.outputs.result" in reporter["env"]["PYAB_RESULTS"]
    else:
        run = flow
    assert f"pip install -q .autograder/{sdists[0].name}" in run
    assert "pyab grade .autograder/suite/suite.toml" in run
    assert "pyab autograder --classroom-result" in run


def test_classroom_result_is_the_reporters_payload(tmp_path):
    res = {"score": 1.5, "tests": [{"name": "a", "score": 1.5, "max_score": 6, "status": "passed"},
                                   {"name": "b", "score": 0, "max_score": 10, "status": "failed",
                                    "output": "why"},
                                   {"name": "c", "score": 0, "max_score": 0, "tags": ["skipped"]}]}
    (tmp_path / "results.json").write_text(json.dumps(res))
    p = pyab("autograder", "--classroom-result", str(tmp_path / "results.json"), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    payload = json.loads(base64.b64decode(p.stdout.strip()))
    assert payload["max_score"] == 16 and payload["status"] == "fail" and payload["version"] == 1
    assert [(t["name"], t["status"], t["score"]) for t in payload["tests"]] == \
        [("a", "pass", 1.5), ("b", "fail", 0), ("c", "pass", 0)]


def test_an_installed_pyab_without_a_checkout_asks_for_the_sdist(tmp_path, monkeypatch):
    from pyab.grade import autograder
    from pyab.grade.autograder import AutograderError
    monkeypatch.setattr(autograder, "__file__", str(tmp_path / "site" / "pyab" / "grade" / "autograder.py"))
    with pytest.raises(AutograderError, match="--sdist"):
        autograder.gradescope_zip(EXAMPLE / "suite.toml", tmp_path / "a.zip")
    assert not (tmp_path / "a.zip").exists()


def test_shares_sum_exactly():
    """Seven tests sharing 6 points: as written, their max_scores and the
    scores of a submission passing four of them add up exactly (grade_submission
    rounds each group once, with apportion; the gradebook has the same total)."""
    from pyab.grade.reports import gradebook_rows, gradescope_json
    from pyab.grade.run import GroupResult, SubmissionResult, TestResult, apportion
    tests = [TestResult(f"t{i}", 6 / 7 if i < 4 else 0.0, 6 / 7, "passed" if i < 4 else "failed")
             for i in range(7)]
    group = GroupResult("g", 6, tests)
    apportion(group)
    result = SubmissionResult("s", [group])
    res = json.loads(json.dumps(gradescope_json(result)), parse_float=Decimal)
    assert Decimal(str(gradebook_rows([result])[1][0]["score"])) == res["score"]
    assert sum(Decimal(t["max_score"]) for t in res["tests"]) == 6
    assert sum(Decimal(t["score"]) for t in res["tests"]) == res["score"]
    assert abs(res["score"] - Decimal(24) / 7) < Decimal("0.0005")
