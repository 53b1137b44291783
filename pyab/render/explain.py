"""What each algorithm's cut test and tie rule are, so a trace can say
*why* a step cut or did not, and which of two equal children is kept.

The rules are read off the Python mirrors in ``pyab.search`` (each line
below names the comparison in its source):

* ``bratko``: goodenough/7 cuts on ``Val > Beta`` (MIN to move in the
  child) or ``Val < Alpha`` (MAX to move): strict; betterof/6 keeps the
  earlier child only when it is strictly better, so the later wins a tie;
* ``strict-cut``: ``v > beta`` / ``v < alpha``, the first strictly better
  move;
* ``aima``, ``cpw-*``, ``module22``, ``hsu-*``: ``>= beta`` / ``<= alpha``
  the first strictly better move; module22 tests ``child >= use-thresh``
  only after ``child > pass-thresh`` made it the best so far, so a child
  no better than alpha (at a MAX node) never cuts;
  Hsu's versions also stop when the best so far equals the largest (MAX)
  or smallest (MIN) static value the tree holds: a *direct* cut-off; F1's
  best so far, m, starts at alpha (MAX) or beta (MIN), so an empty window
  cuts after the first child whatever it is worth;
* ``minimax``: no cut test at all.

Everything here is from MAX's point of view, as the trace's windows are.
"""

from __future__ import annotations

from typing import NamedTuple

from ..tree import Number

__all__ = ["Rule", "rule", "replaces", "cuts", "test_text"]


class Rule(NamedTuple):
    strict: bool | None   # True: > beta / < alpha; False: >= / <=; None: never cuts
    later_wins: bool      # a tie with the best so far: the later child is kept
    direct: bool = False  # Hsu: the tree's extreme value ends the loop too
    gated: bool = False   # module22: the cut test only follows an improvement
    m_from_bound: bool = False  # Hsu's F1: m starts at alpha (MAX) / beta (MIN)


_NON_STRICT = Rule(strict=False, later_wins=False)
_RULES = {
    "bratko": Rule(strict=True, later_wins=True),
    "strict-cut": Rule(strict=True, later_wins=False),
    "module22": Rule(strict=False, later_wins=False, gated=True),
    "minimax": Rule(strict=None, later_wins=False),
    "minimax-negamax": Rule(strict=None, later_wins=False),
}


def rule(algorithm: str) -> Rule:
    if algorithm in _RULES:
        return _RULES[algorithm]
    if algorithm.startswith("hsu-"):
        return Rule(strict=False, later_wins=False, direct=True,
                    m_from_bound=algorithm.startswith("hsu-f1"))
    return _NON_STRICT


def replaces(r: Rule, at_max: bool, value: Number, best: Number | None) -> bool:
    """Does a child worth ``value`` become the best so far?"""
    if best is None:
        return True
    if value == best:
        return r.later_wins
    return value > best if at_max else value < best


def operator(r: Rule, at_max: bool) -> str:
    """The cut test's comparison at a MAX node (against beta) or a MIN node
    (against alpha)."""
    if at_max:
        return ">" if r.strict else ">="
    return "<" if r.strict else "<="


def cuts(op: str, value: Number, limit: Number) -> bool:
    return {">": value > limit, ">=": value >= limit,
            "<": value < limit, "<=": value <= limit}[op]


def test_text(op: str, value: Number, bound: str, limit: Number, show) -> str:
    """``12 > beta 3 is false``; at a tie, also whether the test is strict."""
    held = cuts(op, value, limit)
    out = f"{show(value)} {op} {bound} {show(limit)} is {'true' if held else 'false'}"
    if value == limit:
        out += (", the test is strict" if op in (">", "<") else ", the test is not strict")
    return out
