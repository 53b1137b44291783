"""Grading a class: a suite of test groups (TOML), every submission graded
by the referee group by group with partial credit, and the reports the
platforms read (a gradebook, Gradescope's results.json, JUnit XML).

    from pyab.grade import grade_class, load_suite
    run = grade_class(load_suite("suite.toml"), submissions, jobs=2, out="grades")

(:func:`grade_submission` grades one; :func:`write_reports` writes the
reports of results made otherwise.)

``pyab grade`` is the command; docs/grading.md the guide.
"""

from .classroom import ClassRun, grade_class
from .reports import gradescope_json, junit_xml, write_reports
from .run import GroupResult, SubmissionResult, TestResult, grade_submission
from .suite import Group, Grader, Suite, SuiteError, load_suite

__all__ = ["ClassRun", "Grader", "Group", "GroupResult", "Suite", "SuiteError", "SubmissionResult",
           "TestResult", "grade_class", "grade_submission", "gradescope_json", "junit_xml", "load_suite",
           "write_reports"]
