"""pacman, written for pyab's tests: GameState (counting the states
explored, as the course's does) and runGames."""
from game import MOVES, Directions, Game, Grid


class GameState:
    explored = set()

    @staticmethod
    def getAndResetExplored():
        out, GameState.explored = GameState.explored, set()
        return out

    def __init__(self, layout=None, pac=None, ghosts=(), food=frozenset(), score=0.0,
                 win=False, lose=False):
        self.layout, self.pac, self.ghosts, self.food = layout, pac, tuple(ghosts), food
        self.score, self.win, self.lose = score, win, lose

    def _key(self):
        return self.pac, self.ghosts, self.food, self.score, self.win, self.lose

    def __eq__(self, other):
        return isinstance(other, GameState) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return f"pacman {self.pac} ghosts {list(self.ghosts)} food {sorted(self.food)}"

    def getNumAgents(self):
        return 1 + len(self.ghosts)

    def isWin(self):
        return self.win

    def isLose(self):
        return self.lose

    def getScore(self):
        return float(self.score)

    def getPacmanPosition(self):
        return self.pac

    def getGhostPosition(self, i):
        return self.ghosts[i - 1]

    def getFood(self):
        g = Grid(self.layout.width, self.layout.height)
        for x, y in self.food:
            g[x][y] = True
        return g

    def getLegalActions(self, agentIndex=0):
        if self.win or self.lose:
            return []
        at = self.pac if agentIndex == 0 else self.ghosts[agentIndex - 1]
        out = [d for d, (dx, dy) in MOVES.items() if d != Directions.STOP
               and (at[0] + dx, at[1] + dy) not in self.layout.walls]
        return out + [Directions.STOP] if agentIndex == 0 else out

    def generateSuccessor(self, agentIndex, action):
        if self.win or self.lose:
            raise Exception("Can't generate a successor of a terminal state.")
        if action not in self.getLegalActions(agentIndex):
            raise Exception(f"Illegal action {action}")
        dx, dy = MOVES[action]
        pac, ghosts, food, score = self.pac, list(self.ghosts), self.food, self.score
        if agentIndex == 0:
            pac = (pac[0] + dx, pac[1] + dy)
            score -= 1
            if pac in food:
                food, score = food - {pac}, score + 10
        else:
            g = ghosts[agentIndex - 1]
            ghosts[agentIndex - 1] = (g[0] + dx, g[1] + dy)
        win = lose = False
        if pac in ghosts:
            lose, score = True, score - 500
        elif not food:
            win, score = True, score + 500
        state = GameState(self.layout, pac, ghosts, food, score, win, lose)
        GameState.explored.add(self)
        GameState.explored.add(state)
        return state


def runGames(layout, pacman, ghosts, display, numGames, record, numTraining=0,
             catchExceptions=False, timeout=30):
    state = GameState(layout, layout.pacman, layout.ghosts[:len(ghosts)], frozenset(layout.food))
    agents = [pacman] + list(ghosts)[:len(layout.ghosts)]
    game = Game(state)
    if hasattr(pacman, "registerInitialState"):
        pacman.registerInitialState(state)
    for _ in range(60):
        for i, agent in enumerate(agents):
            try:
                action = agent.getAction(game.state)
            except Exception:
                if not catchExceptions:
                    raise
                game.agentCrashed = True
                return [game]
            game.state = game.state.generateSuccessor(i, action)
            if game.state.isWin() or game.state.isLose():
                return [game]
    return [game]
