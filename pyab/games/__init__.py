"""Games given by rules, in Python and (``prolog/games/``) in Prolog."""

from __future__ import annotations

from .tictactoe import TicTacToe

__all__ = ["TicTacToe"]
