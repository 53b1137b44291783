#!/usr/bin/env python3
"""A worked --exec client: the slides' alpha-beta speaking pyab's JSON lines.

    pyab check --random 200 --exec "python3 examples/referee/client.py"
    pyab check --random 200 --exec "python3 examples/referee/client.py --mutant"

Reads one job per line on standard input, {"root": N, "alpha": A, "beta": B}
(bounds are numbers or "-inf"/"inf"), asks about nodes on standard output,
{"moves_sides": N} / {"staticval": N}, reads each answer from standard
input, and ends the search with {"best": N or null, "value": V}.  The
answer to moves_sides, [children, [is MAX to move at each]], saves asking
{"max_to_move": N} of every child (a round trip each).
It uses nothing but the standard library.  --mutant flips one comparison
(goodenough's ``val > beta`` becomes ``val >= beta``): the referee catches it.
"""

import json
import sys

MUTANT = "--mutant" in sys.argv[1:]


def ask(question, node):
    sys.stdout.write(json.dumps({question: node}) + "\n")
    sys.stdout.flush()
    return json.loads(sys.stdin.readline())


def bound(x):
    return float(x) if isinstance(x, str) else x  # float("inf"), float("-inf")


SIDES = {}  # this search's nodes -> MAX to move there, as their parents' moves said


def max_to_move(pos):
    if pos not in SIDES:  # only a node whose moves were never asked: the root
        SIDES[pos] = ask("max_to_move", pos)
    return SIDES[pos]


def alphabeta(pos, alpha, beta):
    pos_list, sides = ask("moves_sides", pos)
    SIDES.update(zip(pos_list, sides))
    if pos_list:
        return boundedbest(pos_list, alpha, beta)
    return None, ask("staticval", pos)


def boundedbest(pos_list, alpha, beta):
    pos = pos_list[0]
    _, val = alphabeta(pos, alpha, beta)
    return goodenough(pos_list[1:], alpha, beta, pos, val)


def goodenough(pos_list, alpha, beta, pos, val):
    if not pos_list:
        return pos, val
    is_max = max_to_move(pos)  # asked once: the answer cannot change
    beats_beta = val >= beta if MUTANT else val > beta
    if (not is_max and beats_beta) or (is_max and val < alpha):
        return pos, val
    new_alpha, new_beta = newbounds(alpha, beta, is_max, val)
    pos1, val1 = boundedbest(pos_list, new_alpha, new_beta)
    return betterof(is_max, pos, val, pos1, val1)


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


def main():
    for line in sys.stdin:
        job = json.loads(line)
        SIDES.clear()  # another tree: names may mean other nodes
        best, value = alphabeta(job["root"], bound(job["alpha"]), bound(job["beta"]))
        sys.stdout.write(json.dumps({"best": best, "value": value}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
