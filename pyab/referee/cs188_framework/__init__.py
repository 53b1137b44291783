"""The names a CS188 ``multiAgents.py`` imports, written for pyab (no
Berkeley code), and the child's side of ``--interface cs188``.

This folder goes on ``sys.path`` in the Python child, so the student's
``import util``, ``from game import Agent, Directions`` and ``from pacman
import GameState`` find :mod:`util`, :mod:`game` and :mod:`pacman` here.
A game state is a node of pyab's tree: every method the agent calls on it
is a question to the parent (``actions``, ``successor``, ``outcome``,
``staticval``), which answers from the tree and records the states
generated; nothing the child says about its search is trusted.  With the
course's own framework (``--cs188-framework``) the agent imports the
course's ``util``, ``game`` and ``pacman`` instead, and still searches a
tree through this package's state.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["FOLDER", "call_agent", "prepare"]

FOLDER = Path(__file__).resolve().parent


def prepare(course: str | None = None) -> None:
    """Put the framework first for the student's imports: its modules are
    imported now, so a ``util.py`` or ``game.py`` lying next to the
    submission does not replace them.  ``course``: a folder holding the
    course's own modules (a read-only copy), used instead of pyab's."""
    folder = Path(course).resolve() if course else FOLDER
    if str(folder) in sys.path:
        sys.path.remove(str(folder))
    sys.path.insert(0, str(folder))
    for name in ("util", "game", "pacman"):
        module = sys.modules.get(name)
        if module is None or Path(getattr(module, "__file__", "") or "").parent != folder:
            sys.modules.pop(name, None)
            __import__(name)


def _tree_state() -> Any:
    """pyab's GameState over a tree node: the stand-in ``pacman``'s, also
    when the course's own ``pacman`` is the one the agent imports."""
    module = sys.modules.get("pacman")
    if module is not None and Path(getattr(module, "__file__", "") or "").parent == FOLDER:
        return module.GameState
    import importlib.util
    spec = importlib.util.spec_from_file_location("pyab_cs188_tree_state", FOLDER / "pacman.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.GameState


class BoardState:
    """A state of the course's game, held by pyab's judge (a game test with
    the course's framework): every method is a question, answered on the
    real state there, which also counts what the search explored."""

    def __init__(self, ask: Callable[[str, Any], Any], sid: int):
        self._ask, self._id = ask, sid

    def getLegalActions(self, agentIndex: int = 0) -> list:
        return list(self._ask("legal", [self._id, agentIndex]))

    def getLegalPacmanActions(self) -> list:
        return self.getLegalActions(0)

    def generateSuccessor(self, agentIndex: int, action: Any) -> "BoardState":
        return BoardState(self._ask, self._ask("next", [self._id, agentIndex, action]))

    def generatePacmanSuccessor(self, action: Any) -> "BoardState":
        return self.generateSuccessor(0, action)

    generateChild = getNextState = generateSuccessor
    generatePacmanChild = getPacmanNextState = generatePacmanSuccessor

    def isWin(self) -> bool:
        return self._ask("outcome", self._id) == "win"

    def isLose(self) -> bool:
        return self._ask("outcome", self._id) == "lose"

    def getScore(self) -> float:
        return float(self._ask("score", self._id))

    def getNumAgents(self) -> int:
        return int(self._ask("agents", self._id))

    def _board(self, method: str, *args: Any) -> Any:
        answer = self._ask("board", [self._id, method, *args])
        if isinstance(answer, dict) and "grid" in answer:  # a Grid: the course's own class
            import game
            width, height, cells = answer["grid"]
            grid = game.Grid(width, height)
            for x, y in cells:
                grid[x][y] = True
            return grid
        if isinstance(answer, list) and all(isinstance(p, list) and len(p) == 2 for p in answer):
            return [tuple(p) for p in answer]
        return tuple(answer) if isinstance(answer, list) else answer

    def __getattr__(self, name: str) -> Any:
        if name in ("getPacmanPosition", "getGhostPositions", "getGhostPosition", "getCapsules",
                    "getNumFood", "getFood", "getWalls", "hasFood", "hasWall"):
            return lambda *args: self._board(name, *args)
        raise AttributeError(f"{name}: pyab's view of the course's GameState answers the "
                             f"search's and the board's questions, not {name}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardState) and other._id == self._id

    def __hash__(self) -> int:
        return hash(self._id)


def call_agent(agent_class: Callable, ask: Callable[[str, Any], Any], job: dict) -> Any:
    """One search: ``agent_class(depth=plies // agents).getAction(state)``
    on the job's root; the action it returns.  A game test's job gives the
    depth in rounds, as the course builds the agent, and a game state."""
    if job.get("game"):
        return agent_class(depth=int(job["depth"])).getAction(BoardState(ask, int(job["root"])))
    agents = int(job.get("agents") or 2)
    plies = job.get("depth")
    if plies is None or plies == "inf":
        raise ValueError("--interface cs188 needs a depth: --depth N (plies, a multiple of "
                         "the number of agents)")
    agent = agent_class(depth=int(plies) // agents)
    state = _tree_state()(ask, job["root"], agents)
    return agent.getAction(state)
