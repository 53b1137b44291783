"""The reports of a graded class: ``gradebook.csv`` and ``gradebook.json``
(one row per submission: score, max, each group's score, the first
failure's kind), ``NAME/results.json`` per submission in Gradescope's
format, and JUnit XML.

Gradescope's results.json (https://gradescope-autograders.readthedocs.io/
en/latest/specs/): a top-level ``score`` and ``output``, and ``tests``,
each with ``name``, ``score``, ``max_score``, ``status`` ("passed" or
"failed") and ``output``.  A skipped test has no status and a
``max_score`` of 0, so it counts for nothing.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Sequence
from xml.etree import ElementTree as ET

from ..text import capped, csv_cell, xml_text
from .run import SubmissionResult

__all__ = ["Gradebook", "folder_names", "gradebook_rows", "gradescope_json", "junit_xml", "safe_name",
           "write_atomic", "write_gradebook", "write_reports", "write_results"]

RECORD = "submission.json"  # NAME/submission.json: the whole result, for --resume


def safe_name(name: str) -> str:
    """A submission's name as a folder name (no path separators, no dots first)."""
    name = re.sub(r"[^A-Za-z0-9._@+-]", "_", name).lstrip(".")
    return name[:100] or "submission"


def folder_names(names: Sequence[str]) -> list[str]:
    """A report folder per submission, unique: in the order given the first
    keeps its :func:`safe_name`, later ones that collide get -2, -3, ...

    >>> folder_names(["a b", "a_b", "c", "a b"])
    ['a_b', 'a_b-2', 'c', 'a_b-3']
    """
    out: list[str] = []
    taken: set[str] = set()
    for name in names:
        base = safe_name(name)
        folder, n = base, 2
        while folder.lower() in taken:  # a case-insensitive file system too
            folder, n = f"{base}-{n}", n + 1
        taken.add(folder.lower())
        out.append(folder)
    return out


def write_atomic(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a temporary file, then a rename):
    a run stopped mid-write leaves the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


def gradescope_json(result: SubmissionResult) -> dict[str, Any]:
    """One submission's results.json object.  The tests' ``max_score``s sum
    exactly to the suite's points and the top ``score`` is exactly the sum
    of the tests' (whole ten-thousandths: :func:`pyab.grade.run.apportion`)."""
    tests = []
    for t in result.tests:
        entry: dict[str, Any] = {"name": t.name, "score": _num(t.score),
                                 "max_score": _num(t.max_score), "output": capped(t.output, 20000)}
        if t.status == "skipped":
            entry["tags"] = ["skipped"]
        else:
            entry["status"] = t.status
        tests.append(entry)
    failed = [t.name for t in result.tests if t.status == "failed"]
    output = (f"not graded: {capped(result.error)}" if result.error else
              f"{_num(result.score)} of {_num(result.max_score)} points"
              + (f"; failed: {', '.join(failed)}" if failed else "; every test passed"))
    return {"score": _num(result.score), "output": output,
            "execution_time": round(result.seconds), "tests": tests}


def gradebook_rows(results: Sequence[SubmissionResult]) -> tuple[list[str], list[dict]]:
    """(columns, rows): a row per submission."""
    columns = _columns(results)
    return columns, [_row(r) for r in results]


def _columns(results: Sequence[SubmissionResult]) -> list[str]:
    groups: dict[str, None] = {}
    for r in results:
        for g in r.groups:
            groups.setdefault(g.name, None)
    return ["submission", "score", "max", *groups, "first_failure"]


def _row(r: SubmissionResult) -> dict[str, Any]:
    row: dict[str, Any] = {"submission": r.name, "score": _num(r.score), "max": _num(r.max_score)}
    for g in r.groups:
        row[g.name] = _num(round(g.score, 4))
    row["first_failure"] = r.first_failure
    return row


def junit_xml(results: Sequence[SubmissionResult]) -> str:
    """A JUnit XML report: a testsuite per submission, a testcase per test."""
    root = ET.Element("testsuites", name="pyab grade")
    x = xml_text
    for r in results:
        suite = ET.SubElement(root, "testsuite", name=x(r.name), tests=str(len(r.tests)),
                              failures=str(sum(t.status == "failed" for t in r.tests)),
                              skipped=str(sum(t.status == "skipped" for t in r.tests)),
                              time=f"{r.seconds:.3f}")
        for t in r.tests:
            case = ET.SubElement(suite, "testcase", classname=x(r.name), name=x(t.name))
            output = x(capped(t.output, 20000))
            if t.status == "failed":
                fail = ET.SubElement(case, "failure", type=t.kind or "failed",
                                     message=f"{_num(t.score)} of {_num(t.max_score)} points")
                fail.text = output
            elif t.status == "skipped":
                ET.SubElement(case, "skipped", message=output)
            else:
                ET.SubElement(case, "system-out").text = output
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_results(result: SubmissionResult, path: str | Path) -> Path:
    """One submission's Gradescope results.json at ``path``: the one writer."""
    path = Path(path)
    write_atomic(path, json.dumps(gradescope_json(result), indent=2) + "\n")
    return path


class Gradebook:
    """gradebook.csv and gradebook.json under ``out`` (and ``junit``) of a
    class being graded: :meth:`add` a submission's row as it is done,
    :meth:`write` the files again, whole (:func:`write_atomic`), rows in
    the submissions' order, each row's report folder in the JSON.  Each
    row's text is made once, so that writing after every submission costs
    what the files' bytes cost, not the class's rows again.  Cells a
    spreadsheet would run as formulas are quoted (:func:`~pyab.text.csv_cell`)."""

    def __init__(self, out: str | Path, folders: Sequence[str], junit: str | Path | None = None):
        self.out, self.folders, self.junit = Path(out), list(folders), junit
        self.results: dict[int, SubmissionResult] = {}
        self._text: dict[int, tuple[str, str]] = {}  # i -> (its CSV line, its JSON object)
        self._columns: list[str] = []

    def add(self, i: int, result: SubmissionResult) -> None:
        """The row of the ``i``-th submission (its folder ``folders[i]``)."""
        self.results[i] = result
        self._text.pop(i, None)

    def write(self) -> list[Path]:
        order = sorted(self.results)
        results = [self.results[i] for i in order]
        columns = _columns(results)
        if columns != self._columns:  # a new group's column: every row again
            self._columns, self._text = columns, {}
        for i in order:
            if i not in self._text:
                self._text[i] = self._row_text(i, columns)
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow([csv_cell(c) for c in columns])
        csv_text = buf.getvalue() + "".join(self._text[i][0] for i in order)
        write_atomic(self.out / "gradebook.csv", csv_text)
        if order:  # json.dumps(book, indent=2) of {"columns": ..., "rows": [...]}, by parts
            head = json.dumps({"columns": columns}, indent=2)[:-2]
            book = (head + ',\n  "rows": [\n' + ",\n".join(self._text[i][1] for i in order)
                    + "\n  ]\n}\n")
        else:
            book = json.dumps({"columns": columns, "rows": []}, indent=2) + "\n"
        write_atomic(self.out / "gradebook.json", book)
        written = [self.out / "gradebook.csv", self.out / "gradebook.json"]
        if self.junit is not None:
            write_atomic(Path(self.junit), junit_xml(results))
            written.append(Path(self.junit))
        return written

    def _row_text(self, i: int, columns: list[str]) -> tuple[str, str]:
        row = _row(self.results[i])
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow([csv_cell(row.get(c, "")) for c in columns])
        obj = json.dumps({**row, "folder": self.folders[i]}, indent=2)
        return buf.getvalue(), "    " + obj.replace("\n", "\n    ")


def write_gradebook(results: Sequence[SubmissionResult], folders: Sequence[str],
                    out: str | Path, junit: str | Path | None = None) -> list[Path]:
    """The :class:`Gradebook` of ``results`` (in the order given, each in
    its report folder of ``folders``), written once."""
    book = Gradebook(out, folders, junit)
    for i, r in enumerate(results):
        book.add(i, r)
    return book.write()


def write_reports(results: Sequence[SubmissionResult], out: str | Path,
                  junit: str | Path | None = None) -> list[Path]:
    """Every report of a graded class under ``out``: NAME/results.json,
    NAME/submission.json (read back by ``--resume``), the gradebook (and
    ``junit``); report folders made unique by :func:`folder_names`."""
    out = Path(out)
    folders = folder_names([r.name for r in results])
    written = []
    for r, folder in zip(results, folders):
        written.append(write_results(r, out / folder / "results.json"))
        write_atomic(out / folder / RECORD, json.dumps(r.to_json()) + "\n")
    return write_gradebook(results, folders, out, junit) + written
