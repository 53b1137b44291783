"""Every command's --json, success and failure, against the one schema in
docs/json-schema.json (docs/json.md explains it).  Each command runs in
process (pyab.cli.main), so the whole file takes a few seconds."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from conftest import EXAMPLES, ROOT

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
SCHEMA = json.loads((ROOT / "docs" / "json-schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SLIDES = str(EXAMPLES / "slides.tree")


def run(*argv: str) -> tuple[int, dict, str]:
    from pyab.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, out.getvalue()  # exactly one object, on one line
    return code, json.loads(lines[0]), err.getvalue()


def valid(obj: dict) -> None:
    errors = sorted(VALIDATOR.iter_errors(obj), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_the_schema_is_a_valid_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


SUCCESS = {
    "solve": ["solve", SLIDES, "--json"],
    "solve-window": ["solve", SLIDES, "--alpha", "3", "--beta", "10", "--algorithm", "cpw-minmax", "--json"],
    "trace-bratko": ["trace", SLIDES, "--json"],
    "trace-aima": ["trace", str(EXAMPLES / "aima.tree"), "--algorithm", "aima", "--json"],
    "trace-depth": ["trace", str(EXAMPLES / "depth-limited.tree"), "--algorithm", "hsu-f3", "--depth", "1", "--json"],
    "check-files": ["check", SLIDES, str(EXAMPLES / "aima.tree"), "--json"],
    "check-random": ["check", "--random", "5", "--seed", "3", "--json"],
    "variants": ["variants", SLIDES, "--json"],
    "knuth-moore": ["experiment", "knuth-moore", "--branching", "2", "--depth", "1-2", "--engine", "python", "--json"],
    "random-order": ["experiment", "random-order", "--branching", "2", "--depth", "2-2", "--trees", "2",
                     "--engine", "python", "--json"],
    "best-order": ["experiment", "best-order", str(EXAMPLES / "aima.tree"), "--json"],
    "game": ["game", "tictactoe", "--start", "1,5,9", "--engine", "python", "--no-count", "--json"],
    "where": ["where", "--json"],
    "where-prolog": ["where", "--prolog", "--json"],
    "docs": ["docs", "--json"],
    "docs-one": ["docs", "prolog", "--json"],
}


@pytest.mark.parametrize("case", sorted(SUCCESS))
def test_success_matches_the_schema(case):
    code, obj, _ = run(*SUCCESS[case])
    assert code == 0 and obj["exit"] == 0
    assert obj["command"].split()[0] == SUCCESS[case][0]
    valid(obj)


def test_draw_matches_the_schema(tmp_path):
    code, obj, _ = run("draw", SLIDES, "-o", str(tmp_path / "s.html"), "--json")
    assert code == 0 and obj["format"] == "html" and obj["frames"] == "observed"
    valid(obj)


def test_windows_are_numbers_or_inf_strings():
    _, obj, _ = run("trace", SLIDES, "--json")
    first = obj["steps"][0]
    assert (first["alpha"], first["beta"]) == ("-inf", "inf")
    assert obj["alpha"] == "-inf" and obj["beta"] == "inf"
    assert any(isinstance(s.get("new_alpha"), int) for s in obj["steps"] if s["kind"] == "bounds")


ERRORS = {
    "missing-file": (["solve", "no-such-file.tree", "--json"], 2, "DSLError"),
    "bad-option": (["solve", SLIDES, "--alpha", "zz", "--json"], 2, "UsageError"),
    "bad-algorithm": (["trace", SLIDES, "--algorithm", "nope", "--json"], 2, "UsageError"),
    "depth-on-bratko": (["solve", SLIDES, "--depth", "1", "--json"], 2, "SearchArgumentError"),
    "draw-format": (["draw", SLIDES, "-o", "x.gif", "--json"], 2, "Error"),
    "variants-missing": (["variants", "no-such-file.tree", "--json"], 2, "DSLError"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_under_json_are_json_too(case):
    argv, want_code, kind = ERRORS[case]
    code, obj, err = run(*argv)
    assert code == want_code == obj["exit"]
    assert obj["error"]["kind"] == kind
    assert err.strip(), "the error is said on stderr too"
    valid(obj)


def test_check_names_each_bad_file_and_checks_the_rest():
    code, obj, err = run("check", "no-such-file.tree", SLIDES, "--json")
    assert code == 2 == obj["exit"] and obj["checked"] == 1 and obj["refused"] == 1
    assert obj["files"][0]["error"]["kind"] == "DSLError" and obj["files"][1]["agree"] is True
    assert "no-such-file.tree" in err
    valid(obj)


def test_a_syntax_error_carries_its_place(tmp_path):
    bad = tmp_path / "bad.tree"
    bad.write_text("a(b=1,\n  c=)\n", encoding="utf-8")
    code, obj, _ = run("solve", str(bad), "--json")
    assert code == 2
    e = obj["error"]
    assert (e["file"], e["line"], e["column"]) == (str(bad), 2, 5)
    assert e["excerpt"].endswith("^")
    valid(obj)


def test_the_schema_rejects_a_wrong_shape():
    """The schema can fail: a result missing `visited`, a step with an
    unknown field, an error without a message."""
    _, obj, _ = run("solve", SLIDES, "--json")
    broken = dict(obj)
    del broken["visited"]
    assert list(VALIDATOR.iter_errors(broken))
    _, tr, _ = run("trace", SLIDES, "--json")
    tr["steps"][0]["colour"] = "red"
    assert list(VALIDATOR.iter_errors(tr))
    assert list(VALIDATOR.iter_errors({"command": "solve", "exit": 2, "error": {"kind": "X"}}))
    assert list(VALIDATOR.iter_errors(dict(obj, value="NaN")))


SLIDES_PY = f"{EXAMPLES / 'referee' / 'slides_alphabeta.py'}:alphabeta"


def test_the_referees_verdicts_match_the_schema(tmp_path):
    """One shape for every route: an agreement, a disagreement (shrunk, with
    its replay) and a wrong search, each valid; and the schema can fail."""
    code, obj, _ = run("check", SLIDES, "--python", SLIDES_PY, "--json")
    assert code == 0 and obj["verdict"] == "agree" and obj["files"][0]["yours"]["best"] == "b"
    valid(obj)
    mutant = tmp_path / "mutant.py"
    mutant.write_text((EXAMPLES / "referee" / "slides_alphabeta.py").read_text()
                      .replace("val > beta", "val >= beta"))
    code, obj, _ = run("check", "--random", "100", "--python", f"{mutant}:alphabeta",
                       "--save-dir", str(tmp_path), "--json")
    assert code == 1 and obj["first"]["shrunk"]["reproduced"] and obj["replay"]
    valid(obj)
    inner = tmp_path / "inner.py"
    inner.write_text("def f(game, root, a, b):\n    return None, game.value(root)\n")
    code, obj, _ = run("check", SLIDES, "--python", f"{inner}:f", "--save-dir", str(tmp_path), "--json")
    assert code == 1 and obj["kind"] == "inner-static-value"
    valid(obj)
    assert list(VALIDATOR.iter_errors(dict(obj, kind="crash")))  # exit 3 is never a verdict kind
