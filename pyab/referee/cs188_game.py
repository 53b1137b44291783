"""A CS188 ``PacmanGameTreeTest`` graded through the course's framework.

The course's test plays one game on a layout and checks, at each of
Pacman's turns, the student's action and how many states its search
explored.  Here three processes take part: the judge
(:mod:`pyab.referee.cs188_judge`, pyab's code on the course's modules)
holds the real game states and scores the test as the course does; the
student's agent runs in its own child (sandboxed with ``untrusted``) on
stand-in states whose every method is a question; this process passes
each question from the child to the judge and the answer back, checking
its shape.  The student's child never sees the judge, the solution or the
count: what is counted is what the judge was asked to do.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from typing import Any

from ..errors import ProgramError
from .protocol import _show

__all__ = ["GameObserver", "play"]

QUESTIONS = ("legal", "next", "outcome", "score", "agents", "board")


class GameObserver:
    """The parent's side of one turn: questions forwarded to the judge."""

    questions = QUESTIONS

    def __init__(self, judge: "_Judge", label: str):
        self.judge, self.label = judge, label

    def fail(self, what: str, kind: str = "invalid") -> ProgramError:
        return ProgramError(f"{self.label}: {what}", kind)

    def ask(self, question: str, arg: Any) -> Any:
        board = ("getPacmanPosition", "getGhostPositions", "getGhostPosition", "getCapsules",
                 "getNumFood", "getFood", "getWalls", "hasFood", "hasWall")
        shape_ok = {"legal": lambda a: isinstance(a, list) and len(a) == 2,
                    "next": lambda a: isinstance(a, list) and len(a) == 3,
                    "board": lambda a: isinstance(a, list) and len(a) >= 2 and a[1] in board}
        if question in shape_ok and not shape_ok[question](arg):
            raise self.fail(f"asked {question} of {_show(arg)}: not the shape pyab's state sends",
                            "protocol")
        reply = self.judge.ask(question, arg)
        if "error" in reply:  # under the course the agent's own call raises: a crash
            raise self.fail(f"its call {question}{_show(arg)} raised {reply['error']}", "crash")
        return reply["answer"]

    def result(self, best: Any, value: Any, *, value_required: bool = False) -> Any:
        return best


class _Judge:
    def __init__(self, framework: str, test: dict, solution: dict):
        self.err = tempfile.TemporaryFile()  # what the game prints, and the judge's own failure
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pyab.referee.cs188_judge", framework],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, text=True,
            encoding="utf-8")
        self.send({"test": test, "solution": solution})

    def send(self, obj: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.err.seek(0)
            last = self.err.read().decode("utf-8", "replace").strip().splitlines()[-1:]
            from ..errors import SetupError
            raise SetupError("the course's game could not be played with this framework (is it "
                             "the course's project folder, with layout.py and ghostAgents.py?)"
                             + (f": {last[0][:200]}" if last else ""))
        return json.loads(line)

    def ask(self, question: str, arg: Any) -> Any:
        self.send({"ask": [question, arg]})
        return self.receive()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                f.close()
        self.err.close()


def play(route: Any, framework: str, test: dict, solution: dict) -> tuple[bool, list[str], str]:
    """One game: (passed, the course's messages, the failure's kind or "").

    ``route``: the student's :class:`~pyab.referee.PythonRoute` (cs188)
    with the course's framework; ``framework``: its read-only copy;
    ``test``, ``solution``: the files' keys."""
    from .protocol import converse
    rounds = int(test["depth"])
    judge = _Judge(framework, test, solution)
    kind = ""
    try:
        while True:
            msg = judge.receive()
            if "done" in msg:
                return bool(msg["done"]["passed"]), list(msg["done"]["messages"]), kind
            sid = msg["turn"]
            observer = GameObserver(judge, route.label)
            job = {"root": sid, "alpha": "-inf", "beta": "inf", "depth": rounds, "game": True}
            try:
                action = converse(route._start(), observer,  # type: ignore[arg-type]  # duck-typed
                                  job, value_required=False)
            except ProgramError as err:
                route.close()  # a failed child's state is unknown: the next turn gets a new one
                kind = err.kind
                judge.send({"crash": err.reason})
                continue
            judge.send({"action": action if isinstance(action, str) else str(action)})
    finally:
        judge.close()

