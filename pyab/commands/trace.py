"""pyab trace FILE: the search step by step, like the slides' frames."""

from __future__ import annotations

import argparse

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "trace", help="the search step by step: calls, leaves, bounds, cuts, returns",
        description="Search the tree in FILE (or - for stdin) and print every step as a row "
                    "of a table like the slides' Alpha/Beta/GoodPos/Val frames: each call of "
                    "alphabeta/5 with its window, each leaf read, each newbounds/6 answer, each "
                    "cut-off (alpha or beta, and which siblings it removes), each return.  For "
                    "the slides' program (bratko) the prolog engine observes SWI-Prolog and the "
                    "python engine the mirror; for the other algorithms the steps come from the "
                    "Python mirror's frames, used only when its result equals the observed "
                    "Prolog run's (the last line, and --json's \"frames\", say where the steps "
                    "came from).",
        epilog="example: pyab trace examples/slides.tree --engine python --json")
    _common.add_search(p)
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..trace import trace
    tree = _common.load_tree(args.file)
    tr = trace(tree, engine=args.engine, algorithm=args.algorithm, alpha=args.alpha,
               beta=args.beta, depth=args.depth, timeout=args.timeout)
    if args.json:
        _common.print_json(tr.to_json())
        return 0
    from ..render.table import print_table
    print_table(tr, title=f"{args.file}: {tr.algorithm} in {tr.engine}, window "
                          f"{_common.window_text(args.alpha, args.beta)}")
    return 0
