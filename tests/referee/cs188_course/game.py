"""game, written for pyab's tests."""


class Agent:
    def __init__(self, index=0):
        self.index = index


class Directions:
    NORTH, SOUTH, EAST, WEST, STOP = "North", "South", "East", "West", "Stop"


MOVES = {Directions.NORTH: (0, 1), Directions.SOUTH: (0, -1), Directions.EAST: (1, 0),
         Directions.WEST: (-1, 0), Directions.STOP: (0, 0)}


class Grid:
    def __init__(self, width, height, initialValue=False):
        self.width, self.height = width, height
        self.data = [[initialValue] * height for _ in range(width)]

    def __getitem__(self, i):
        return self.data[i]

    def asList(self, key=True):
        return [(x, y) for x in range(self.width) for y in range(self.height)
                if self.data[x][y] == key]


class Game:
    def __init__(self, state):
        self.state, self.agentCrashed, self.agentTimeout = state, False, False
