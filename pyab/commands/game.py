"""pyab game tictactoe: a real game, given as rules, solved by the slides' program."""

from __future__ import annotations

import argparse

from . import _common


def _squares(text: str) -> tuple[int, ...]:
    """``5,1,9`` -> (5, 1, 9); the empty string -> ()."""
    try:
        return tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected squares 1..9 like 5,1,9, not {text!r}") from None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "game", help="solve tic-tac-toe with the slides' program (rules, no stored tree)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Solve a game whose moves are computed by rules (games/*.pl in the folder
`pyab where --prolog` prints, in SWI-Prolog; a Python module in the mirror)
with the unchanged slides' program: the value, the best first move, how many leaves and nodes the
search read, beside the size of the full game tree (counted by walking it).
Squares are numbered 1..9 row by row; X moves first and is MAX; a won game
is worth 1 for X, -1 for O, a draw 0.""",
        epilog="""\
examples:
  pyab game tictactoe                       the empty board: a draw
  pyab game tictactoe --start 1,5 --json    after X on 1 and O on 5
  pyab game tictactoe --engine python""")
    p.add_argument("game", choices=["tictactoe"], help="the game (tictactoe)")
    p.add_argument("--start", type=_squares, default=(), metavar="SQ,...",
                   help="squares played before the search, X first (default: the empty board)")
    _common.add_engine(p)
    _common.add_algorithm(p)
    p.add_argument("--no-count", action="store_true",
                   help="do not walk the full game tree to count its nodes")
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..engines import solve
    from ..trees import TicTacToe
    game = TicTacToe(args.start)
    result = solve(game, args.engine, args.algorithm, names=False)
    leaves, visited = result.extra["leaves_count"], result.extra["visited_count"]
    nodes = finished = None
    if not args.no_count:
        nodes, finished = game.game_tree_size()
    best_square = int(result.best.rsplit("_", 1)[1]) if result.best else None
    if args.json:
        _common.print_json({
            "game": "tictactoe", "start": list(args.start), "engine": args.engine,
            "algorithm": args.algorithm, "value": result.value, "best": result.best,
            "best_square": best_square, "leaves_count": leaves, "visited_count": visited,
            "game_tree_nodes": nodes, "game_tree_leaves": finished})
        return 0
    outcomes: dict[float, str] = {1: "X wins", -1: "O wins", 0: "a draw"}
    outcome = outcomes.get(result.value, str(result.value))
    print(f"tic-tac-toe from {game.root} ({'X' if game.root_side == 'max' else 'O'} to move), "
          f"{args.algorithm} in {args.engine}:")
    print("  " + game.board_text().replace("\n", "\n  "))
    print(f"  value        {result.value} ({outcome} with best play)")
    print(f"  best move    {result.best} (square {best_square})" if result.best else
          "  best move    (none: the game is over)")
    print(f"  leaves read  {leaves:,}")
    print(f"  nodes read   {visited:,}")
    if nodes is not None:
        print(f"  game tree    {nodes:,} positions, {finished:,} finished games "
              f"(counted); alpha-beta read {visited / nodes:.1%} of the positions")
    return 0
