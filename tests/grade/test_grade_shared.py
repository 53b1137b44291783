"""A class is judged on the same trees: each random group's trees and the
reference's results on them are made once a process and shared by every
submission (pyab.grade.run), while each submission's every tree is still
searched by its own program and compared."""

from __future__ import annotations

from conftest import EXAMPLES

SUITE = """\
[grader]
route = "python"
entry = "alphabeta"
interface = "pyab"
algorithm = "bratko"
timeout = 10

[[tests]]
name = "random trees"
points = 5
random = 40
seed = 6
values = "ties"
"""


def test_the_reference_is_computed_once_for_a_class(tmp_path, monkeypatch):
    import pyab.search
    from pyab.grade import grade_submission, load_suite
    from pyab.grade import run as grade_run
    grade_run._SHARED.clear()
    source = (EXAMPLES / "referee" / "slides_alphabeta.py").read_text()
    assert "val > beta" in source
    subs = {"right": source, "mutant": source.replace("val > beta", "val >= beta", 1)}
    for name, text in subs.items():
        (tmp_path / f"{name}.py").write_text(text)
    (tmp_path / "suite.toml").write_text(SUITE)
    suite = load_suite(tmp_path / "suite.toml")
    real, calls = pyab.search.solve_python, []

    def counted(*a, **kw):
        calls.append(a[0])
        return real(*a, **kw)
    monkeypatch.setattr(pyab.search, "solve_python", counted)
    right = grade_submission(suite, tmp_path / "right.py")
    assert len(calls) == 40  # the reference, once a tree
    again = grade_submission(suite, tmp_path / "right.py")
    assert len(calls) == 40  # shared: not computed again
    mutant = grade_submission(suite, tmp_path / "mutant.py")
    shared = calls[:40]
    assert not any(t is s for t in calls[40:] for s in shared)  # only the shrinker's own trees
    assert right.score == again.score == 5
    test = mutant.groups[0].tests[0]
    assert test.status == "failed" and test.kind == "disagree", test.output
    assert test.passed < 40  # the mutant's every tree judged against the shared reference


def test_references_know_only_their_own_trees():
    from pyab import parse
    from pyab.referee.verdict import References
    a, b = parse("a(b=1, c=2)"), parse("a(b=1, c=2)")
    refs = References([a])
    assert refs.of(a) == {} and refs.of(b) is None
