"""The slides' alpha-beta program, transliterated to Python for the referee.

    pyab check --random 300 --python examples/referee/slides_alphabeta.py:alphabeta

One function per Prolog predicate, one branch per clause, in the printed
order (see prolog/alphabeta.pl).  It knows nothing of pyab: it sees the tree
only through the game object pyab hands it (the ``pyab`` interface):

    game.children(pos)   the children of pos in order; [] for a leaf (moves/2)
    game.is_max(pos)     MAX is to move at pos (max_to_move/1)
    game.value(pos)      the static value of a leaf (staticval/2)

and returns ``(best_child_or_None, value)``.  The referee records which nodes
it asked for children and which static values it read.
"""


def alphabeta(game, pos, alpha, beta):
    """alphabeta(Pos, Alpha, Beta, GoodPos, Val)."""
    pos_list = game.children(pos)          # moves(Pos, PosList), !
    if pos_list:
        return boundedbest(game, pos_list, alpha, beta)
    return None, game.value(pos)           # staticval(Pos, Val); GoodPos stays unbound


def boundedbest(game, pos_list, alpha, beta):
    """boundedbest([Pos|PosList], Alpha, Beta, GoodPos, GoodVal)."""
    pos, rest = pos_list[0], pos_list[1:]
    _, val = alphabeta(game, pos, alpha, beta)
    return goodenough(game, rest, alpha, beta, pos, val)


def goodenough(game, pos_list, alpha, beta, pos, val):
    """goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal)."""
    if not pos_list:                                   # goodenough([], ...) :- !.
        return pos, val
    if (min_to_move(game, pos) and val > beta) or (max_to_move(game, pos) and val < alpha):
        return pos, val                                # the cut-off: the rest is never searched
    new_alpha, new_beta = newbounds(game, alpha, beta, pos, val)
    pos1, val1 = boundedbest(game, pos_list, new_alpha, new_beta)
    return betterof(game, pos, val, pos1, val1)


def newbounds(game, alpha, beta, pos, val):
    """newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta)."""
    if min_to_move(game, pos) and val > alpha:
        return val, beta
    if max_to_move(game, pos) and val < beta:
        return alpha, val
    return alpha, beta


def betterof(game, pos, val, pos1, val1):
    """betterof(Pos, Val, Pos1, Val1, Pos, Val): the later one on a tie."""
    if (min_to_move(game, pos) and val > val1) or (max_to_move(game, pos) and val < val1):
        return pos, val
    return pos1, val1


def min_to_move(game, pos):
    return not game.is_max(pos)


def max_to_move(game, pos):
    return game.is_max(pos)
