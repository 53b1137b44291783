"""``pacman.GameState`` over a pyab tree, written for pyab.

A state is a node.  Each method a CS188 agent calls is a question to the
parent process, which answers from the tree and records it:

* ``getLegalActions(agentIndex)`` (also ``getLegalPacmanActions()``): the
  node's actions (its children's names, or the edge labels of a ``.test``
  tree); [] at a leaf;
* the successor, by every name a course year gave it:
  ``generateSuccessor(agentIndex, action)`` and
  ``generatePacmanSuccessor(action)`` (most years), ``generateChild`` and
  ``generatePacmanChild`` (2020), ``getNextState`` and
  ``getPacmanNextState`` (2021): the state the action leads to, *generated*;
* ``isWin()``, ``isLose()``: a terminal state's outcome;
* ``getScore()``: the state's static value as a float, as the course's
  grader gives it (``scoreEvaluationFunction``);
* ``getNumAgents()``: how many agents move in turn (the job says).

As in the course's own test trees, ``agentIndex`` does not choose the
moves: the tree says who moves where, and an agent that counts agents
wrongly searches the wrong levels as MAX or MIN, which the verdict shows.
What only a Pacman board can answer (``getPacmanPosition``, ``getFood``,
...) raises :class:`NoBoard`, saying so; the course's own framework
(``--cs188-framework``) is the way to play on a board.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["GameState", "NoBoard"]

# The board's questions a game tree cannot answer.
BOARD = ("getPacmanPosition", "getPacmanState", "getGhostStates", "getGhostState",
         "getGhostPositions", "getGhostPosition", "getFood", "getNumFood", "hasFood",
         "getWalls", "hasWall", "getCapsules", "getAgentPosition", "getAgentState")


class NoBoard(Exception):
    """A question only a Pacman board answers, asked of a game tree's state."""


class GameState:
    def __init__(self, ask: Callable[[str, Any], Any], node: str, agents: int):
        self._ask, self._node, self._agents = ask, node, agents

    def getLegalActions(self, agentIndex: int = 0) -> list:
        return list(self._ask("actions", self._node))

    def getLegalPacmanActions(self) -> list:
        return self.getLegalActions(0)

    def generateSuccessor(self, agentIndex: int, action: Any) -> "GameState":
        return GameState(self._ask, self._ask("successor", [self._node, action]), self._agents)

    def generatePacmanSuccessor(self, action: Any) -> "GameState":
        return self.generateSuccessor(0, action)

    generateChild = getNextState = generateSuccessor
    generatePacmanChild = getPacmanNextState = generatePacmanSuccessor

    def getNumAgents(self) -> int:
        return self._agents

    def isWin(self) -> bool:
        return self._ask("outcome", self._node) == "win"

    def isLose(self) -> bool:
        return self._ask("outcome", self._node) == "lose"

    def getScore(self) -> float:
        return float(self._ask("staticval", self._node))

    def deepCopy(self) -> "GameState":
        return self  # a node never changes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and other._node == self._node

    def __hash__(self) -> int:
        return hash(self._node)

    def __repr__(self) -> str:
        return f"GameState({self._node!r})"

    __str__ = __repr__


def _no_board(name: str) -> Callable[..., Any]:
    def method(self: GameState, *args: Any, **kw: Any) -> Any:
        raise NoBoard(f"{name}() asks about the Pacman board, and this state is a node of a game "
                      "tree; give the course's framework (--cs188-framework DIR) to play on a board")
    method.__name__ = name
    return method


for _name in BOARD:
    setattr(GameState, _name, _no_board(_name))
