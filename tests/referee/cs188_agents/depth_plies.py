# A CS188-style multiAgents.py written for pyab's tests: depth counts every
# agent's move (plies), not rounds, so it searches too shallow.
import util
from game import Agent


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        n = gameState.getNumAgents()

        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            nxt, deeper = (agent + 1) % n, depth + 1
            vals = [value(state.generateSuccessor(agent, a), nxt, deeper)
                    for a in state.getLegalActions(agent)]
            return max(vals) if agent == 0 else min(vals)

        best, best_v = None, float("-inf")
        for a in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, a), 1 % n, 1)
            if v > best_v:
                best, best_v = a, v
        return best


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        n = gameState.getNumAgents()

        def value(state, agent, depth, alpha, beta):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            nxt, deeper = (agent + 1) % n, depth + 1
            if agent == 0:
                v = float("-inf")
                for a in state.getLegalActions(agent):
                    v = max(v, value(state.generateSuccessor(agent, a), nxt, deeper, alpha, beta))
                    if v > beta:
                        return v
                    alpha = max(alpha, v)
                return v
            v = float("inf")
            for a in state.getLegalActions(agent):
                v = min(v, value(state.generateSuccessor(agent, a), nxt, deeper, alpha, beta))
                if v < alpha:
                    return v
                beta = min(beta, v)
            return v

        alpha, beta = float("-inf"), float("inf")
        best, best_v = None, float("-inf")
        for a in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, a), 1 % n, 1, alpha, beta)
            if v > best_v:
                best, best_v = a, v
            alpha = max(alpha, best_v)
        return best
