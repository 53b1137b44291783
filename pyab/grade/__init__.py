"""Grading a class: a suite of test groups (TOML), every submission graded
by the referee group by group with partial credit, and the reports the
platforms read (a gradebook, Gradescope's results.json, JUnit XML).

    from pyab.grade import load_suite, grade_submission, write_reports
    suite = load_suite("suite.toml")
    results = [grade_submission(suite, path) for path in submissions]
    write_reports(results, "out")

``pyab grade`` is the command; docs/grading.md the guide.
"""

from .reports import gradescope_json, junit_xml, write_reports
from .run import GroupResult, SubmissionResult, TestResult, grade_submission
from .suite import Group, Grader, Suite, SuiteError, load_suite

__all__ = ["Grader", "Group", "GroupResult", "Suite", "SuiteError", "SubmissionResult",
           "TestResult", "grade_submission", "gradescope_json", "junit_xml", "load_suite",
           "write_reports"]
