"""The gradebook written as a class is graded (pyab.grade.reports.Gradebook):
after every row, whole, in the submissions' order, each row's text made
once; the same bytes as the whole gradebook written at once."""

from __future__ import annotations

import csv
import json

from pyab.grade import reports
from pyab.grade.reports import Gradebook
from pyab.grade.run import GroupResult, SubmissionResult
from pyab.grade import run as graded


def result(name: str, got: float, kind: str = "", groups: tuple[str, ...] = ("random", "cs188")
           ) -> SubmissionResult:
    return SubmissionResult(name, [GroupResult(g, 5.0, [graded.TestResult(
        g, got if i == 0 else 5.0, 5.0, "passed" if got == 5.0 or i else "failed", "", kind)])
        for i, g in enumerate(groups)])


def expected(results, folders):
    """The gradebook's files as json.dumps and csv write them in one go."""
    groups = list(dict.fromkeys(g.name for r in results for g in r.groups))
    columns = ["submission", "score", "max", *groups, "first_failure"]
    rows = [{"submission": r.name, "score": reports._num(r.score), "max": reports._num(r.max_score),
             **{g.name: reports._num(g.score) for g in r.groups}, "first_failure": r.first_failure}
            for r in results]
    book = json.dumps({"columns": columns, "rows": [{**row, "folder": f}
                                                    for row, f in zip(rows, folders)]}, indent=2)
    return book + "\n", [columns] + [[str(row.get(c, "")) for c in columns] for row in rows]


def test_written_after_each_row_in_the_submissions_order(tmp_path, monkeypatch):
    made = []
    real = reports._row
    monkeypatch.setattr(reports, "_row", lambda r: made.append(r.name) or real(r))
    class_ = [result("ann", 5.0), result("=bob", 2.5, "disagree"), result("cy", 0.0, "timeout")]
    folders = ["ann", "_bob", "cy"]
    book = Gradebook(tmp_path, folders)
    for n, i in enumerate([2, 0, 1]):  # finished out of order
        book.add(i, class_[i])
        book.write()
        done = sorted([2, 0, 1][:n + 1])
        text, table = expected([class_[j] for j in done], [folders[j] for j in done])
        assert (tmp_path / "gradebook.json").read_text() == text
        with open(tmp_path / "gradebook.csv", newline="") as f:
            rows = list(csv.reader(f))
        assert [r[0] for r in rows[1:]] == [("'" if class_[j].name[0] == "=" else "") +
                                              class_[j].name for j in done]
        assert [r[1:] for r in rows] == [r[1:] for r in table]
    assert made == ["cy", "ann", "=bob"]  # each row made once, not again at each write


def test_a_new_group_column_makes_every_row_again(tmp_path):
    book = Gradebook(tmp_path, ["a", "b"])
    book.add(0, result("a", 5.0, groups=("random",)))
    book.write()
    book.add(1, result("b", 1.0, groups=("random", "extra")))
    book.write()
    text, _ = expected([book.results[0], book.results[1]], ["a", "b"])
    assert (tmp_path / "gradebook.json").read_text() == text
    assert (tmp_path / "gradebook.csv").read_text().splitlines()[1] == "a,5,5,5,,"  # no extra cell yet


def test_no_row_yet(tmp_path):
    Gradebook(tmp_path, ["a"]).write()
    assert json.loads((tmp_path / "gradebook.json").read_text())["rows"] == []
