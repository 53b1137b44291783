"""pyab facts FILE: the Prolog fact file of a tree."""

from __future__ import annotations

import argparse

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "facts", help="write the tree as Prolog facts (tree/2, staticval/2, ...)",
        description="Write the tree in FILE as the slides' Prolog facts: tree/2, staticval/2, "
                    "min_to_move/1, max_to_move/1 for every node and the moves/2 bridge.  "
                    "Load the result next to the slides' program alphabeta.pl (in the folder "
                    "`pyab where --prolog` prints) in plain SWI-Prolog; `pyab solve OUT.pl` reads "
                    "it back.",
        epilog="example: pyab facts examples/slides.tree -o slides.pl && "
               "swipl \"$(pyab where --prolog)/alphabeta.pl\" slides.pl")
    p.add_argument("file", metavar="FILE", help="a .tree file, a facts file (.pl), or - for standard input")
    _common.add_output(p, "OUT.pl", "write here instead of standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..prolog.facts import facts
    text = facts(_common.load_tree(args.file))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text, end="")
    return 0
