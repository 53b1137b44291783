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
import re
from pathlib import Path
from typing import Any, Sequence
from xml.etree import ElementTree as ET

from .run import SubmissionResult

__all__ = ["gradebook_rows", "gradescope_json", "junit_xml", "safe_name", "write_reports"]


def safe_name(name: str) -> str:
    """A submission's name as a folder name (no path separators, no dots first)."""
    name = re.sub(r"[^A-Za-z0-9._@+-]", "_", name).lstrip(".")
    return name or "submission"


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 4)


UNIT = 10_000  # results.json's points are whole ten-thousandths, so that sums are exact


def _apportion(parts: Sequence[float], total: float) -> list[int]:
    """``parts`` in units that sum to exactly ``total``'s (the largest
    remainders get the units rounding leaves over): five tests sharing 6
    points are 1.2 each, seven are 0.8572 and six 0.8571."""
    exact = [p * UNIT for p in parts]
    units = [int(x) for x in exact]
    left = round(total * UNIT) - sum(units)
    for i in sorted(range(len(parts)), key=lambda i: units[i] - exact[i])[:max(left, 0)]:
        units[i] += 1
    return units


def gradescope_json(result: SubmissionResult) -> dict[str, Any]:
    """One submission's results.json object.  The tests' ``max_score``s sum
    exactly to the suite's points and the top ``score`` is exactly the sum
    of the tests' (as decimals: whole ten-thousandths)."""
    tests = []
    earned = 0
    for g in result.groups:
        for t, most in zip(g.tests, _apportion([t.max_score for t in g.tests], g.points)):
            got = most if t.status == "passed" else min(most, max(0, round(t.score * UNIT)))
            earned += got
            entry: dict[str, Any] = {"name": t.name, "score": _num(got / UNIT),
                                     "max_score": _num(most / UNIT), "output": t.output}
            if t.status == "skipped":
                entry["tags"] = ["skipped"]
            else:
                entry["status"] = t.status
            tests.append(entry)
    failed = [t.name for t in result.tests if t.status == "failed"]
    output = (f"not graded: {result.error}" if result.error else
              f"{_num(earned / UNIT)} of {_num(result.max_score)} points"
              + (f"; failed: {', '.join(failed)}" if failed else "; every test passed"))
    return {"score": _num(earned / UNIT), "output": output,
            "execution_time": round(result.seconds), "tests": tests}


def gradebook_rows(results: Sequence[SubmissionResult]) -> tuple[list[str], list[dict]]:
    """(columns, rows): a row per submission."""
    groups: list[str] = []
    for r in results:
        for g in r.groups:
            if g.name not in groups:
                groups.append(g.name)
    columns = ["submission", "score", "max", *groups, "first_failure"]
    rows = []
    for r in results:
        row: dict[str, Any] = {"submission": r.name, "score": _num(r.score),
                               "max": _num(r.max_score)}
        for g in r.groups:
            row[g.name] = _num(round(g.score, 4))
        row["first_failure"] = r.first_failure
        rows.append(row)
    return columns, rows


def junit_xml(results: Sequence[SubmissionResult]) -> str:
    """A JUnit XML report: a testsuite per submission, a testcase per test."""
    root = ET.Element("testsuites", name="pyab grade")
    for r in results:
        suite = ET.SubElement(root, "testsuite", name=r.name, tests=str(len(r.tests)),
                              failures=str(sum(t.status == "failed" for t in r.tests)),
                              skipped=str(sum(t.status == "skipped" for t in r.tests)),
                              time=f"{r.seconds:.3f}")
        for t in r.tests:
            case = ET.SubElement(suite, "testcase", classname=r.name, name=t.name)
            if t.status == "failed":
                fail = ET.SubElement(case, "failure", type=t.kind or "failed",
                                     message=f"{_num(t.score)} of {_num(t.max_score)} points")
                fail.text = t.output
            elif t.status == "skipped":
                ET.SubElement(case, "skipped", message=t.output)
            else:
                ET.SubElement(case, "system-out").text = t.output
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_reports(results: Sequence[SubmissionResult], out: str | Path,
                  junit: str | Path | None = None) -> list[Path]:
    """gradebook.csv, gradebook.json and NAME/results.json under ``out``
    (and ``junit``); the paths written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    columns, rows = gradebook_rows(results)
    buf = io.StringIO()
    w = csv.DictWriter(buf, columns, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    (out / "gradebook.csv").write_text(buf.getvalue(), encoding="utf-8")
    (out / "gradebook.json").write_text(json.dumps({"columns": columns, "rows": rows}, indent=2)
                                        + "\n", encoding="utf-8")
    written += [out / "gradebook.csv", out / "gradebook.json"]
    for r in results:
        folder = out / safe_name(r.name)
        folder.mkdir(exist_ok=True)
        (folder / "results.json").write_text(json.dumps(gradescope_json(r), indent=2) + "\n",
                                             encoding="utf-8")
        written.append(folder / "results.json")
    if junit is not None:
        Path(junit).write_text(junit_xml(results), encoding="utf-8")
        written.append(Path(junit))
    return written
