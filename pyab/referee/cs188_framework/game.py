"""``game`` as a CS188 ``multiAgents.py`` uses it, written for pyab: the
``Agent`` base class, the compass names, ``Grid``, ``Configuration`` and
``AgentState``.  In pyab's trees an action is a child's name or an edge
label, so ``Directions`` is only there for code that names it
(``Directions.STOP``), and the board classes for code that imports them."""

from __future__ import annotations

from typing import Any

__all__ = ["Actions", "Agent", "AgentState", "Configuration", "Directions", "Grid"]


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


class Configuration:
    """Where an agent is and which way it faces."""

    def __init__(self, pos: tuple, direction: str):
        self.pos, self.direction = pos, direction

    def getPosition(self) -> tuple:
        return self.pos

    def getDirection(self) -> str:
        return self.direction

    def isInteger(self) -> bool:
        return self.pos[0] == int(self.pos[0]) and self.pos[1] == int(self.pos[1])

    def generateSuccessor(self, vector: tuple) -> "Configuration":
        dx, dy = vector
        direction = Actions.vectorToDirection(vector)
        return Configuration((self.pos[0] + dx, self.pos[1] + dy),
                             self.direction if direction == Directions.STOP else direction)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Configuration) and
                (self.pos, self.direction) == (other.pos, other.direction))

    def __hash__(self) -> int:
        return hash((self.pos, self.direction))

    def __str__(self) -> str:
        return f"(x,y)={self.pos}, {self.direction}"


class AgentState:
    """An agent's configuration, side and scared time."""

    def __init__(self, startConfiguration: Configuration, isPacman: bool):
        self.start = self.configuration = startConfiguration
        self.isPacman = isPacman
        self.scaredTimer = 0
        self.numCarrying = self.numReturned = 0

    def getPosition(self) -> Any:
        return None if self.configuration is None else self.configuration.getPosition()

    def getDirection(self) -> Any:
        return self.configuration.getDirection()

    def copy(self) -> "AgentState":
        out = AgentState(self.start, self.isPacman)
        out.configuration, out.scaredTimer = self.configuration, self.scaredTimer
        out.numCarrying, out.numReturned = self.numCarrying, self.numReturned
        return out

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AgentState) and self.configuration == other.configuration
                and self.scaredTimer == other.scaredTimer)

    def __hash__(self) -> int:
        return hash((self.configuration, self.scaredTimer))


class Grid:
    """A width x height board of values, indexed ``grid[x][y]``."""

    def __init__(self, width: int, height: int, initialValue: Any = False):
        self.width, self.height = width, height
        self.data = [[initialValue] * height for _ in range(width)]

    def __getitem__(self, i: int) -> list:
        return self.data[i]

    def __setitem__(self, key: int, item: list) -> None:
        self.data[key] = item

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.data == other.data

    def __hash__(self) -> int:
        return hash(tuple(map(tuple, self.data)))

    def __str__(self) -> str:
        return "\n".join("".join("T" if self.data[x][y] else "F" for x in range(self.width))
                         for y in reversed(range(self.height)))

    def copy(self) -> "Grid":
        g = Grid(self.width, self.height)
        g.data = [list(col) for col in self.data]
        return g

    deepCopy = copy

    def shallowCopy(self) -> "Grid":
        g = Grid(self.width, self.height)
        g.data = self.data
        return g

    def count(self, item: Any = True) -> int:
        return sum(col.count(item) for col in self.data)

    def asList(self, key: Any = True) -> list:
        return [(x, y) for x in range(self.width) for y in range(self.height)
                if self.data[x][y] == key]
