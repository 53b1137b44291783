"""The search algorithms: one Python home and one Prolog home for each.

``ALGORITHMS`` maps the name used on the command line (``--algorithm``) to
where each side lives.  The Python side is a module in this package with a
``search(tree, alpha, beta, *, depth=None) -> Result`` function; the Prolog
side is a plain file under ``prolog/`` whose entry goal is listed in
``prolog/pyab_bridge.pl`` (``entry/8``).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from typing import Callable

from ..result import Result
from ..tree import Number, Tree

__all__ = ["ALGORITHMS", "Algorithm", "algorithm", "python_search"]


@dataclass(frozen=True)
class Algorithm:
    name: str
    module: str        # pyab.search.<module>, holding `function`
    prolog_file: str   # file under prolog/
    summary: str
    function: str = "search"  # the search function in that module
    depth_limit: bool = True   # does it take a depth limit (--depth)?
    any_sides: bool = False    # does it ask each node who moves (trees whose sides do not alternate)?


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in [
        Algorithm("bratko", "bratko", "alphabeta.pl",
                  "the slides' alphabeta/5 (Bratko): strict cut tests, later child wins ties",
                  depth_limit=False),
        Algorithm("aima", "aima", "aima.pl",
                  "AIMA's ALPHA-BETA-SEARCH: cuts on v >= beta / v <= alpha, first move worth v"),
        Algorithm("cpw-minmax", "cpw", "cpw.pl",
                  "chessprogramming alphaBetaMax/alphaBetaMin: fail-hard, returns the bound",
                  "search_minmax"),
        Algorithm("cpw-negamax", "cpw", "cpw.pl",
                  "chessprogramming negamax alphaBeta, fail-hard", "search_negamax"),
        Algorithm("cpw-failsoft", "cpw", "cpw.pl",
                  "chessprogramming negamax alphaBeta, fail-soft: returns the best score",
                  "search_failsoft"),
        Algorithm("module22", "module22", "module22.pl",
                  "AI Module 22 (Rich & Knight MINIMAX-A-B): swapped thresholds, returns a path"),
        Algorithm("hsu-f1", "hsu", "hsu.pl",
                  "Hsu's F1'/G1': the original fail-hard alpha-beta, mini-max form",
                  "search_f1"),
        Algorithm("hsu-f2", "hsu", "hsu.pl",
                  "Hsu's F2'/G2': one-sided bound (beta at a MAX root), no deep cut-offs",
                  "search_f2"),
        Algorithm("hsu-f3", "hsu", "hsu.pl",
                  "Hsu's F3'/G3': fail soft, mini-max form", "search_f3"),
        Algorithm("hsu-f1-negamax", "hsu", "hsu.pl",
                  "Hsu's F1, nega-max form of hsu-f1", "search_f1_negamax"),
        Algorithm("hsu-f2-negamax", "hsu", "hsu.pl",
                  "Hsu's F2, nega-max form of hsu-f2", "search_f2_negamax"),
        Algorithm("hsu-f3-negamax", "hsu", "hsu.pl",
                  "Hsu's F3, nega-max form of hsu-f3", "search_f3_negamax"),
        Algorithm("strict-cut", "strict_cut", "strict_cut.pl",
                  "CS188's AlphaBetaAgent rule: cuts only on v > beta / v < alpha, first "
                  "strictly better move, depth limit, a side per node", any_sides=True),
        Algorithm("minimax", "minimax", "minimax.pl",
                  "Hsu's exhaustive F'/G' (F0'/G0'): no pruning, the referee for values"),
        Algorithm("minimax-negamax", "minimax", "minimax.pl",
                  "Hsu's exhaustive nega-max F (F0)", "search_negamax"),
    ]
}


def algorithm(name: str) -> Algorithm:
    """The algorithm called ``name``; ValueError listing the known ones."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        known = ", ".join(ALGORITHMS)
        raise ValueError(f"unknown algorithm {name!r} (known: {known})") from None


def python_search(name: str) -> Callable[..., Result]:
    alg = algorithm(name)
    return getattr(importlib.import_module(f"{__name__}.{alg.module}"), alg.function)


def solve_python(tree: Tree, name: str = "bratko", alpha: Number = -math.inf,
                 beta: Number = math.inf, depth: int | None = None) -> Result:
    return python_search(name)(tree, alpha, beta, depth=depth)
