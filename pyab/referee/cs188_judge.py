"""The judge of a CS188 ``PacmanGameTreeTest``: plays the course's game with
the course's own modules, on pyab's side of the wire.

    python -m pyab.referee.cs188_judge FRAMEWORK_COPY

Started by :mod:`pyab.referee.cs188_game` (never in the student's
sandbox), with a read-only copy of the course's modules first on its path.
Its first line in is the test and its solution (``{"test": {...},
"solution": {...}}``).  It plays one game as the course's test does (the
layout, two ``DirectionalGhost``, the seed re-set after every move), and
at each Pacman turn asks pyab for the student's action: ``{"turn": ID}``.
While the student searches, pyab forwards each of its questions
(``{"ask": [QUESTION, ARG]}``) and this process answers them on the real
states, so the states the student expands are counted here, by the
course's own ``GameState``.  The turn ends with ``{"action": A}`` (or
``{"crash": WHY}``).  Pacman always plays the solution's move, as the
course's grading agent does; the last line out is ``{"done": {"passed":
bool, "messages": [...]}}``, scored as the course scores the test.
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any


def _wire() -> tuple[Any, Any]:
    """The wire: the process's own stdin and a copy of its stdout; what the
    game prints goes to stderr."""
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    return sys.stdin, out


class Judge:
    """The real states by id, and the questions answered on them."""

    def __init__(self, wire_in: Any, wire_out: Any):
        self.wire_in, self.wire_out = wire_in, wire_out
        self.states: list[Any] = []

    def put(self, obj: Any) -> None:
        self.wire_out.write(json.dumps(obj) + "\n")
        self.wire_out.flush()

    def get(self) -> Any:
        line = self.wire_in.readline()
        if not line:
            raise SystemExit(0)
        return json.loads(line)

    def add(self, state: Any) -> int:
        self.states.append(state)
        return len(self.states) - 1

    def state(self, sid: Any) -> Any:
        if not isinstance(sid, int) or not 0 <= sid < len(self.states):
            raise ValueError(f"no state {sid!r} was handed out")
        return self.states[sid]

    def answer(self, question: str, arg: Any) -> Any:
        if question == "legal":
            return list(self.state(arg[0]).getLegalActions(int(arg[1])))
        if question == "next":
            sid, agent, action = arg
            return self.add(self.state(sid).generateSuccessor(int(agent), action))
        if question == "outcome":
            s = self.state(arg)
            return "win" if s.isWin() else "lose" if s.isLose() else None
        if question == "score":
            return float(self.state(arg).getScore())
        if question == "agents":
            return int(self.state(arg).getNumAgents())
        if question == "board":
            sid, method, *args = arg
            value = getattr(self.state(sid), method)(*args)
            if hasattr(value, "asList") and hasattr(value, "width"):
                return {"grid": [value.width, value.height, value.asList()]}
            return value
        raise ValueError(f"unknown question {question!r}")

    def turn(self, state: Any) -> str:
        """The student's action on ``state``, its questions answered."""
        self.put({"turn": self.add(state)})
        while True:
            msg = self.get()
            if "action" in msg:
                return msg["action"]
            if "crash" in msg:
                raise RuntimeError(msg["crash"])
            question, arg = msg["ask"]
            try:
                self.put({"answer": self.answer(question, arg)})
            except Exception as err:  # under the course the agent's own call raises it
                self.put({"error": f"{type(err).__name__}: {err}"})


class Grading:
    """The course's grading agent, written for pyab: the student's action
    and count of states explored checked against the solution's at each
    step; the solution's move is played."""

    def __init__(self, judge: Judge, seed: int, optimal: list, alt_depth: list, partial: list,
                 explored: Any):
        self.judge, self.seed = judge, seed
        self.optimal, self.alt_depth, self.partial = optimal, alt_depth, partial
        self.explored = explored
        self.suboptimal: list[tuple[str, str, str]] = []
        self.wrong_explored = -1
        self.ok_optimal = [True] * len(optimal[0])
        self.ok_alt = [True] * len(alt_depth[0])
        self.ok_partial = [True] * len(partial[0])
        self.step = 0

    def registerInitialState(self, state: Any) -> None:
        random.seed(self.seed)

    def getAction(self, state: Any) -> Any:
        self.explored()
        action = self.judge.turn(state)
        count = len(self.explored())
        optimal = self.optimal[self.step]
        right_count = False
        right_action = False
        for i, (actions, n) in enumerate(optimal):
            if action in actions:
                right_action = True
            else:
                self.ok_optimal[i] = False
            if count == int(n):
                right_count = True
        if not right_count and self.wrong_explored < 0:
            self.wrong_explored = 1
        for i, actions in enumerate(self.alt_depth[self.step]):
            if action not in actions:
                self.ok_alt[i] = False
        for i, actions in enumerate(self.partial[self.step]):
            if action not in actions:
                self.ok_partial[i] = False
        if not right_action:
            self.suboptimal.append((str(state), str(action), optimal[0][0][0]))
        self.step += 1
        random.seed(self.seed + self.step)
        return optimal[0][0][0]

    def failure(self) -> int:
        """0 passed; -3 wrong number of states; -2 partial ply bug; -1 depth
        off by one; n > 0 that many suboptimal moves."""
        if self.wrong_explored > 0:
            return -3
        if any(self.ok_optimal):
            return 0
        if any(self.ok_partial):
            return -2
        if any(self.ok_alt):
            return -1
        return len(self.suboptimal)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    wire_in, wire_out = _wire()
    sys.path.insert(0, argv[0])
    import ghostAgents  # the course's, from the copy
    import layout
    import pacman
    spec = json.loads(wire_in.readline())
    test, solution = spec["test"], spec["solution"]
    judge = Judge(wire_in, wire_out)

    def lines(key: str) -> list:
        return [json.loads(x) for x in solution[key].split("\n") if x.strip()]

    explored = getattr(pacman.GameState, "getAndResetExplored")
    seed = int(test["seed"])
    pac = Grading(judge, seed, lines("optimalActions"), lines("altDepthActions"),
                  lines("partialPlyBugActions"), explored)
    random.seed(seed)
    lay = layout.Layout([line.strip() for line in test["layout"].split("\n")])
    try:
        import textDisplay
        display = textDisplay.NullGraphics()
    except ImportError:
        display = None
    ghosts = [ghostAgents.DirectionalGhost(i + 1) for i in range(2)]
    games = pacman.runGames(lay, pac, ghosts, display, 1, False, catchExceptions=True, timeout=120)
    messages: list[str] = []
    if any(g.agentTimeout for g in games):
        messages.append("Agent timed out on the layout.  No credit")
    elif any(g.agentCrashed for g in games):
        messages.append("Agent crashed on the layout.  No credit")
    else:
        code = pac.failure()
        if code == -3:
            messages.append("Bug: Wrong number of states expanded.")
        elif code == -2:
            messages.append("Bug: Partial Ply Bug")
        elif code == -1:
            messages.append("Bug: Search depth off by 1")
        elif code > 0:
            state, yours, best = random.choice(pac.suboptimal)
            messages.append(f"Bug: Suboptimal moves\nState:{state}\nStudent Move:{yours}\n"
                            f"Optimal Move:{best}")
    judge.put({"done": {"passed": not messages, "messages": messages}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
