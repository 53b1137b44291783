"""pyab.grade.suite: the TOML suite, and every mistake named with its line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pyab.grade import SuiteError, load_suite

GOOD = """\
[grader]
route = "python"
entry = "AlphaBetaAgent"
interface = "cs188"
algorithm = "strict-cut"
untrusted = true
timeout = 5

[[tests]]
name = "random trees, one ghost"
points = 4
random = 300
seed = 1
agents = 2
depth = 4

[[tests]]
name = "CS188 q3"
points = 6
cs188 = "q3"
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "q3").mkdir()
    src = Path(__file__).resolve().parent.parent / "referee" / "cs188_tests" / "0-tied-root.test"
    (tmp_path / "q3" / "0-tied-root.test").write_text(src.read_text())
    return tmp_path


def write(folder: Path, text: str) -> str:
    p = folder / "suite.toml"
    p.write_text(textwrap.dedent(text))
    return str(p)


def test_the_issue_example_loads(folder):
    s = load_suite(write(folder, GOOD))
    assert s.grader.interface == "cs188" and s.grader.untrusted and s.grader.timeout == 5
    assert [g.name for g in s.tests] == ["random trees, one ghost", "CS188 q3"]
    assert s.tests[0].random == 300 and s.tests[0].depth == 4 and s.tests[0].agents == 2
    assert s.tests[1].cs188 == str(folder / "q3") and s.max_score == 10


@pytest.mark.parametrize("change,line,words", [
    (("points = 4", "pionts = 4"), 11, "unknown key 'pionts'"),
    (("depth = 4", "depth = 3"), 15, "multiple of 2"),
    (('route = "python"', 'route = "ruby"'), 2, "route must be one of python, exec, program"),
    (("timeout = 5", 'timeout = "5"'), 7, "timeout must be"),
    (('cs188 = "q3"', 'cs188 = "q4"'), 20, "no folder of .test files"),
    (("random = 300", "random = 300\ntrees = []"), 9, "give one of random"),
    (('algorithm = "strict-cut"', 'algorithm = "alphabeta"'), 5, "unknown algorithm"),
    (("seed = 1", "seed = 1\nvalues = \"huge\""), 14, "values must be one of default, ties, wide"),
    (("agents = 2", "agents = 2 ="), 14, "not valid TOML"),
])
def test_bad_suites_name_the_line(folder, change, line, words):
    path = write(folder, GOOD.replace(*change))
    with pytest.raises(SuiteError) as err:
        load_suite(path)
    assert err.value.line == line, str(err.value)
    assert words in str(err.value) and str(err.value).startswith(f"{path}:{line}: ")


def test_missing_tables(folder):
    with pytest.raises(SuiteError, match="no \\[grader\\] table"):
        load_suite(write(folder, "[[tests]]\nname = 'x'\npoints = 1\nrandom = 1\n"))
    with pytest.raises(SuiteError, match="no \\[\\[tests\\]\\]"):
        load_suite(write(folder, "[grader]\nentry = 'f'\n"))
    with pytest.raises(SuiteError, match="cannot read"):
        load_suite(str(folder / "nope.toml"))


def test_two_ghosts_need_an_algorithm_that_asks_each_node(folder):
    text = GOOD.replace('interface = "cs188"', 'interface = "pyab"').replace(
        'algorithm = "strict-cut"', 'algorithm = "aima"').replace("agents = 2", "agents = 3")
    text = text.split("[[tests]]\nname = \"CS188 q3\"")[0]
    with pytest.raises(SuiteError, match=r":14: \[\[tests\]\] 1: 3 agents .* aima infers sides"):
        load_suite(write(folder, text))
