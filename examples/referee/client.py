#!/usr/bin/env python3
"""A worked --exec client: the slides' alpha-beta speaking pyab's JSON lines.

    pyab check --random 200 --exec "python3 examples/referee/client.py"
    pyab check --random 200 --exec "python3 examples/referee/client.py --mutant"

Protocol 2 (docs/referee.md): it answers the first job it gets with
{"protocol": 2}; from then on each line from pyab carries new jobs,
{"jobs": [{"id": I, "root": N, "alpha": A, "beta": B}, ...]}, and the
answers to its questions, {"answers": [[I, ANSWER], ...]}; it answers each
line with one line, [[I, MESSAGE], ...]: the next question of every search
that line started or answered ({"moves": N}, answered [children, [is MAX
to move at each]]; {"staticval": N}), or its end {"best": N or null,
"value": V}.  Each search is a generator that yields its questions, so
many run side by side, each with its own state.

``--protocol 1`` speaks the first version: one job at a time, one
question a line ({"moves_sides": N} for the children with their sides).
It uses nothing but the standard library.  --mutant flips one comparison
(goodenough's ``val > beta`` becomes ``val >= beta``): the referee catches it.
"""

import json
import sys

MUTANT = "--mutant" in sys.argv[1:]
PROTOCOL = 1 if "--protocol=1" in sys.argv or "--protocol 1" in " ".join(sys.argv) else 2


def bound(x):
    return float(x) if isinstance(x, str) else x  # float("inf"), float("-inf")


def search(job, moves):
    """One search of the job's tree: a generator that yields each question
    ({question: node}) and is sent its answer; it returns (best, value).
    ``moves`` is the question whose answer carries the children's sides."""
    sides = {}  # this search's nodes -> MAX to move there, as their parents' moves said

    def alphabeta(pos, alpha, beta):
        pos_list, maxes = yield {moves: pos}
        sides.update(zip(pos_list, maxes))
        if pos_list:
            return (yield from boundedbest(pos_list, alpha, beta))
        return None, (yield {"staticval": pos})

    def boundedbest(pos_list, alpha, beta):
        pos = pos_list[0]
        _, val = yield from alphabeta(pos, alpha, beta)
        return (yield from goodenough(pos_list[1:], alpha, beta, pos, val))

    def goodenough(pos_list, alpha, beta, pos, val):
        if not pos_list:
            return pos, val
        if pos not in sides:  # only a node whose moves were never asked: the root
            sides[pos] = yield {"max_to_move": pos}
        is_max = sides[pos]
        beats_beta = val >= beta if MUTANT else val > beta
        if (not is_max and beats_beta) or (is_max and val < alpha):
            return pos, val
        new_alpha, new_beta = newbounds(alpha, beta, is_max, val)
        pos1, val1 = yield from boundedbest(pos_list, new_alpha, new_beta)
        return betterof(is_max, pos, val, pos1, val1)

    return alphabeta(job["root"], bound(job["alpha"]), bound(job["beta"]))


def newbounds(alpha, beta, is_max, val):
    if not is_max and val > alpha:
        return val, beta
    if is_max and val < beta:
        return alpha, val
    return alpha, beta


def betterof(is_max, pos, val, pos1, val1):
    if (not is_max and val > val1) or (is_max and val < val1):
        return pos, val
    return pos1, val1


def step(gen, answer):
    """The search's next message: its next question, or its end."""
    try:
        return gen.send(answer)
    except StopIteration as end:
        best, value = end.value
        return {"best": best, "value": value}


def put(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def protocol_1(first):
    job = first
    while job is not None:
        gen = search(job, "moves_sides")
        msg = step(gen, None)
        while "best" not in msg:
            put(msg)
            msg = step(gen, json.loads(sys.stdin.readline()))
        put(msg)
        line = sys.stdin.readline()
        job = json.loads(line) if line else None


def protocol_2():
    running = {}  # id -> the search's generator
    for line in sys.stdin:
        msg = json.loads(line)
        out = []
        for i, answer in msg.get("answers", []):
            out.append([i, step(running[i], answer)])
        for job in msg.get("jobs", []):
            running[job["id"]] = search(job, "moves")
            out.append([job["id"], step(running[job["id"]], None)])
        for i, said in out:
            if "best" in said:
                del running[i]
        put(out)


def main():
    line = sys.stdin.readline()
    if not line:
        return
    if PROTOCOL == 1:
        protocol_1(json.loads(line))
    else:
        put({"protocol": 2})  # the first job comes again, in protocol 2
        protocol_2()


if __name__ == "__main__":
    main()
