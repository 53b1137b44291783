"""ghostAgents, written for pyab's tests: a ghost that steps towards Pacman."""
from game import Agent
from util import manhattanDistance


class DirectionalGhost(Agent):
    def getAction(self, state):
        legal = state.getLegalActions(self.index)
        pac = state.getPacmanPosition()
        return min(legal, key=lambda a: manhattanDistance(
            state.generateSuccessor(self.index, a).getGhostPosition(self.index), pac))
