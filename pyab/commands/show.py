"""pyab show FILE: the searched tree as a picture in the terminal."""

from __future__ import annotations

import argparse

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show", help="the searched tree in the terminal: values, windows, chosen line, cuts",
        description="Search the tree in FILE (or - for stdin) and draw it in the terminal: "
                    "each node with MAX/MIN, the value it backed up and the window it was "
                    "called with; the chosen line highlighted, cut-off subtrees dimmed and "
                    "marked alpha-cut or beta-cut.  Colour on a terminal, plain text when piped.",
        epilog="example: pyab show examples/slides.tree | less")
    _common.add_search(p)
    p.add_argument("--max-nodes", type=_common.positive, default=2000, metavar="N",
                   help="draw at most N nodes (default 2000): the chosen line, then the rest "
                        "breadth-first; each cut-short node says how many nodes it hides")
    _common.add_final_windows(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..render.terminal import print_tree
    from ..render.trace import trace
    tree = _common.load_tree(args.file, args.agents)
    tr = _common.user_trace(args, tree) or trace(  # yours, or pyab's
        tree, engine=args.engine, algorithm=args.algorithm, alpha=args.alpha,
        beta=args.beta, depth=args.depth, timeout=args.timeout)
    print_tree(tr, max_nodes=args.max_nodes, final_windows=args.final_windows)
    return 0
