"""``game`` as a CS188 ``multiAgents.py`` uses it, written for pyab: the
``Agent`` base class and the compass names.  In pyab's trees an action is
a child's name or an edge label, so ``Directions`` is only there for code
that names it (``Directions.STOP``)."""

from __future__ import annotations

from typing import Any

__all__ = ["Actions", "Agent", "Directions"]


class Agent:
    """An agent with an ``index`` (0 is Pacman, MAX); subclasses define
    ``getAction(state)``."""

    def __init__(self, index: int = 0):
        self.index = index

    def getAction(self, state: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} has no getAction(state)")


class Directions:
    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"
    LEFT = {NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP}
    RIGHT = {y: x for x, y in LEFT.items()}
    REVERSE = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}


class Actions:
    """The compass moves as vectors (for evaluation functions that use them)."""

    _vectors = {Directions.NORTH: (0, 1), Directions.SOUTH: (0, -1), Directions.EAST: (1, 0),
                Directions.WEST: (-1, 0), Directions.STOP: (0, 0)}

    @staticmethod
    def reverseDirection(action: str) -> str:
        return Directions.REVERSE.get(action, action)

    @staticmethod
    def directionToVector(direction: str, speed: float = 1.0) -> tuple[float, float]:
        dx, dy = Actions._vectors.get(direction, (0, 0))
        return dx * speed, dy * speed

    @staticmethod
    def vectorToDirection(vector: tuple[float, float]) -> str:
        dx, dy = vector
        if dy > 0:
            return Directions.NORTH
        if dy < 0:
            return Directions.SOUTH
        if dx < 0:
            return Directions.WEST
        if dx > 0:
            return Directions.EAST
        return Directions.STOP
