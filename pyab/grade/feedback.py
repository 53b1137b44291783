"""What grading gives back for a group and its tests, and the text a
failed test shows the student (drawn trees, replay commands, no grader
paths): shared by every kind of group."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..tree import Number, Tree
from .suite import Grader

__all__ = ["GroupResult", "TestResult"]


MAX_TIMEOUTS = 3  # a group stops after this many timed-out searches (the rest fail)

# Failures that come before any search, the same on every tree (a Python
# file that fails to import, a Prolog file that fails to load, a command
# that cannot start): the group stops at the first.
_BEFORE_ANY_SEARCH = ("importing ", "the program could not be loaded", "cannot start ")


def _cannot_run(err: Any) -> bool:
    return err.kind == "refused" or any(s in err.reason for s in _BEFORE_ANY_SEARCH)


@dataclass
class TestResult:
    name: str
    score: float
    max_score: float
    status: str             # passed | failed | skipped
    output: str = ""
    kind: str = ""          # why it failed: disagree, or the program's failure kind
    passed: int = 0         # trees passed
    total: int = 0          # trees tried


@dataclass
class GroupResult:
    name: str
    points: float
    tests: list[TestResult]

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests)


def _replay_program(grader: Grader, program: Path, entry: str) -> list[str]:
    """The options that select the submission, with its own file name only."""
    name = program.name
    if grader.route == "python":
        words = ["--python", f"{name}:{entry}"]
        words += ["--interface", grader.interface] if grader.interface != "pyab" else []
    elif grader.route == "exec":
        words = ["--exec", grader.entry.replace("{file}", name)]
    else:
        words = ["--program", name]
    return words + (["--untrusted"] if grader.untrusted else [])


def _draw(tree: Tree, algorithm: str, alpha: Number, beta: Number, depth: int | None) -> str:
    """The reference's search of ``tree``, drawn as text (pyab show)."""
    import io

    from rich.console import Console
    if algorithm == "minimax" and not tree.alternating:
        return ""  # the registry's minimax assumes alternating sides: no picture
    try:
        from ..render.terminal import rich_tree
        from ..render.trace import trace
        t = trace(tree, "python", algorithm, alpha, beta, depth=depth)
        console = Console(width=120, no_color=True, highlight=False, file=io.StringIO())
        with console.capture() as cap:
            console.print(rich_tree(t))
        return "\n".join(line.rstrip() for line in cap.get().splitlines())
    except Exception:  # a tree the tracer cannot show: its text is still there
        return ""


def _clean(text: str, program: Path, label: str) -> str:
    """No grader path in what the student reads."""
    if label:
        text = text.replace(label, "yours")
    # the longest first: a relative path is a tail of the absolute one
    for p in sorted({str(program.resolve()), str(program.absolute()), str(program)}, key=len,
                    reverse=True):
        text = text.replace(p, program.name)
    for d in sorted({str(program.resolve().parent), str(program.absolute().parent),
                     str(program.parent)}, key=len, reverse=True):
        text = text.replace(d + "/", "")
    return text
