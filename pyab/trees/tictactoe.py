"""Tic-tac-toe on the node protocol of :class:`pyab.tree.Tree`.

The Python twin of ``prolog/games/tictactoe.pl``.  Squares are numbered
1..9 row by row; X moves first and is MAX; a finished game is worth 1 (X
has three in a row), -1 (O has) or 0 (full board, no row).  A node is the
tuple of squares played so far, so the same board reached in two move
orders is two nodes, as in a game *tree*.  Names: ``r``, ``r_5``,
``r_5_1`` (the squares played, in order), as on the Prolog side.

>>> g = TicTacToe((5, 1))
>>> g.name_of(g.root_node), g.is_max(g.root_node), len(g.kids_of(g.root_node))
('r_5_1', True, 7)
>>> TicTacToe().game_tree_size()
(549946, 255168)
"""

from __future__ import annotations

from typing import Sequence

from ..resources import prolog_dir

__all__ = ["LINES", "TicTacToe"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
RULES = prolog_dir() / "games" / "tictactoe.pl"

Node = tuple[int, ...]


def _board(node: Node) -> list[str]:
    board = ["e"] * 9
    for i, sq in enumerate(node):
        board[sq - 1] = "x" if i % 2 == 0 else "o"
    return board


def _winner(board: list[str]) -> str | None:
    for a, b, c in LINES:
        if board[a] != "e" and board[a] == board[b] == board[c]:
            return board[a]
    return None


class TicTacToe:
    """The game tree below the position reached by ``start`` (squares
    played from the empty board, first move first).

    :raises ValueError: when ``start`` is not a legal game.
    """

    root_side = "max"  # overwritten per instance below
    values: tuple = ()  # no stored values: every value is -1, 0 or 1

    def __init__(self, start: Sequence[int] = ()):
        start = tuple(start)
        board = ["e"] * 9
        for i, sq in enumerate(start):
            if isinstance(sq, bool) or not isinstance(sq, int) or not 1 <= sq <= 9:
                raise ValueError(f"move {i + 1}: {sq!r} is not a square 1..9")
            if board[sq - 1] != "e":
                raise ValueError(f"move {i + 1}: square {sq} is taken already")
            if _winner(board):
                raise ValueError(f"move {i + 1}: the game was over already")
            board[sq - 1] = "x" if i % 2 == 0 else "o"
        self.start = start
        self.root_node: Node = start
        self.root_side = "max" if len(start) % 2 == 0 else "min"
        self.root = self.name_of(start)

    def __repr__(self) -> str:
        return f"TicTacToe({self.start!r})"

    # -- the node protocol ----------------------------------------------------
    def kids_of(self, node: Node) -> Sequence[Node]:
        board = _board(node)
        if _winner(board) or "e" not in board:
            return ()
        return [node + (sq,) for sq in range(1, 10) if board[sq - 1] == "e"]

    def value_of(self, node: Node) -> int | None:
        """1, -1 or 0 for a finished game; None while it goes on."""
        board = _board(node)
        w = _winner(board)
        if w:
            return 1 if w == "x" else -1
        return None if "e" in board else 0

    def is_max(self, node: Node) -> bool:
        return len(node) % 2 == 0

    def depth_of(self, node: Node) -> int:
        return len(node) - len(self.start)

    def name_of(self, node: Node) -> str:
        return "_".join(["r", *map(str, node)])

    def board_text(self, node: Node | None = None) -> str:
        """The board as three lines of X, O and '.'."""
        b = _board(self.root_node if node is None else node)
        cells = [{"x": "X", "o": "O"}.get(c, ".") for c in b]
        return "\n".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))

    def game_tree_size(self) -> tuple[int, int]:
        """(positions, finished games) of the whole game tree below the root,
        counted by walking every move."""
        nodes = leaves = 0
        stack = [self.root_node]
        while stack:
            node = stack.pop()
            nodes += 1
            kids = self.kids_of(node)
            if kids:
                stack.extend(kids)
            else:
                leaves += 1
        return nodes, leaves

    # -- the Prolog side ----------------------------------------------------------
    def prolog_source(self) -> tuple[str, str]:
        return str(RULES), f"start([{', '.join(map(str, self.start))}]).\n"
