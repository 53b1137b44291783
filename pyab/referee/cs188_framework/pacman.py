"""``pacman.GameState`` over a pyab tree, written for pyab.

A state is a node.  Each method a CS188 agent calls is a question to the
parent process, which answers from the tree and records it:

* ``getLegalActions(agentIndex)``: the node's actions (its children's
  names, or the edge labels of an imported CS188 tree); [] at a leaf;
* ``generateSuccessor(agentIndex, action)`` (also ``generatePacmanSuccessor``
  and ``getNextState``): the state the action leads to: *generated*;
* ``isWin()``, ``isLose()``: a terminal state's outcome;
* ``getScore()``: the state's static value (``scoreEvaluationFunction``);
* ``getNumAgents()``: how many agents move in turn (the job says).

As in the course's own test trees, ``agentIndex`` does not choose the
moves: the tree says who moves where, and an agent that counts agents
wrongly searches the wrong levels as MAX or MIN, which the verdict shows.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["GameState"]


class GameState:
    def __init__(self, ask: Callable[[str, Any], Any], node: str, agents: int):
        self._ask, self._node, self._agents = ask, node, agents

    def getLegalActions(self, agentIndex: int = 0) -> list:
        return list(self._ask("actions", self._node))

    def generateSuccessor(self, agentIndex: int, action: Any) -> "GameState":
        return GameState(self._ask, self._ask("successor", [self._node, action]), self._agents)

    def generatePacmanSuccessor(self, action: Any) -> "GameState":
        return self.generateSuccessor(0, action)

    getNextState = generateSuccessor

    def getNumAgents(self) -> int:
        return self._agents

    def isWin(self) -> bool:
        return self._ask("outcome", self._node) == "win"

    def isLose(self) -> bool:
        return self._ask("outcome", self._node) == "lose"

    def getScore(self) -> Any:
        return self._ask("staticval", self._node)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and other._node == self._node

    def __hash__(self) -> int:
        return hash(self._node)

    def __repr__(self) -> str:
        return f"GameState({self._node!r})"

    __str__ = __repr__
