"""Implicit game trees: trees given by rules instead of stored nodes
(``uniform``, ``tictactoe``), random trees, and the experiments run on them.

Each class here implements the node protocol of :class:`pyab.tree.Tree`
(``root_node``, ``kids_of``, ``value_of``, ``is_max``, ``name_of``,
``depth_of``) so the Python mirrors run on it unchanged, and names the
Prolog rules file that computes the same tree in SWI-Prolog
(``prolog_source()``), so the bridge can run the slides' program on it.
"""

from __future__ import annotations

from .tictactoe import TicTacToe
from .uniform import ORDERINGS, Uniform, parse_ordering

__all__ = ["ORDERINGS", "TicTacToe", "Uniform", "parse_ordering"]
