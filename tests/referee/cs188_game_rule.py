"""The course's rule for a PacmanGameTreeTest, re-written for pyab's tests
and run in a process of its own on a framework folder (so that its util,
game and pacman are the ones imported):

    python cs188_game_rule.py FRAMEWORK TEST.test AGENT.py
        prints {"passed": bool, "code": N}: the student agent in the game,
        its action and count of states explored checked at every step
    python cs188_game_rule.py FRAMEWORK TEST.test CORRECT.py BUG.py --write
        writes TEST.solution as the course's staff does: the correct agent's
        actions and counts, at depth d-1 and d+1, and a buggy agent's
"""

import importlib.util
import json
import random
import sys
from pathlib import Path


def keys(path):
    out, lines, i = {}, Path(path).read_text().split("\n"), 0
    while i < len(lines):
        line = lines[i].split("#", 1)[0]
        if line.strip().endswith('"""'):
            key, body = line.split(":", 1)[0].strip(), []
            i += 1
            while lines[i].strip() != '"""':
                body.append(lines[i])
                i += 1
            out[key] = "\n".join(body)
        elif ":" in line:
            key, value = line.split(":", 1)
            out[key.strip()] = value.strip().strip('"')
        i += 1
    return out


def agent(path, cls, depth):
    spec = importlib.util.spec_from_file_location(f"agent_{Path(path).stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, cls)(depth=depth)


def play(test, pacman_agent):
    import ghostAgents
    import layout
    import pacman
    random.seed(int(test["seed"]))
    lay = layout.Layout([line.strip() for line in test["layout"].split("\n")])
    ghosts = [ghostAgents.DirectionalGhost(i + 1) for i in range(2)]
    return pacman.runGames(lay, pacman_agent, ghosts, None, 1, False, catchExceptions=True)[0]


def main():
    framework, test_path, *agents = sys.argv[1:]
    sys.path.insert(0, framework)
    import pacman
    test = keys(test_path)
    d, cls = int(test["depth"]), test["alg"]
    explored = pacman.GameState.getAndResetExplored
    if agents[-1] == "--write":
        correct, bug = agents[0], agents[1]
        opt, alt, partial = [], [], []

        class Staff:
            def getAction(self, state):
                explored()
                a = agent(correct, cls, d).getAction(state)
                opt.append([[[a], len(explored())]])
                alt.append([[agent(correct, cls, max(1, d - 1)).getAction(state)],
                            [agent(correct, cls, d + 1).getAction(state)]])
                partial.append([[agent(bug, cls, d).getAction(state)]])
                return a

        play(test, Staff())
        body = "".join(f'{k}: """\n' + "".join(json.dumps(x) + "\n" for x in v) + '"""\n'
                       for k, v in (("optimalActions", opt), ("altDepthActions", alt),
                                    ("partialPlyBugActions", partial)))
        Path(test_path).with_suffix(".solution").write_text(body)
        return
    sol = keys(Path(test_path).with_suffix(".solution"))
    optimal, alt, partial = ([json.loads(x) for x in sol[k].split("\n") if x]
                             for k in ("optimalActions", "altDepthActions", "partialPlyBugActions"))
    student = agent(agents[0], cls, d)
    seen = {"wrong": -1, "subopt": 0, "step": 0, "opt": [True] * len(optimal[0]),
            "alt": [True] * len(alt[0]), "partial": [True] * len(partial[0])}

    class Grading:
        def getAction(self, state):
            explored()
            action, n = student.getAction(state), len(explored())
            step = seen["step"]
            if not any(n == int(c) for _, c in optimal[step]) and seen["wrong"] < 0:
                seen["wrong"] = 1
            for i, (acts, _) in enumerate(optimal[step]):
                seen["opt"][i] &= action in acts
            for i, acts in enumerate(alt[step]):
                seen["alt"][i] &= action in acts
            for i, acts in enumerate(partial[step]):
                seen["partial"][i] &= action in acts
            seen["subopt"] += not any(action in acts for acts, _ in optimal[step])
            seen["step"] += 1
            random.seed(int(test["seed"]) + seen["step"])
            return optimal[step][0][0][0]

    game = play(test, Grading())
    code = (-3 if seen["wrong"] > 0 else 0 if any(seen["opt"]) else -2 if any(seen["partial"])
            else -1 if any(seen["alt"]) else seen["subopt"])
    print(json.dumps({"passed": code == 0 and not game.agentCrashed, "code": code,
                      "crashed": game.agentCrashed}))


if __name__ == "__main__":
    main()
