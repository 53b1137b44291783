"""pyab practice -o PAGE.html: a page for practising alpha-beta on random trees."""

from __future__ import annotations

import argparse
import textwrap

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "practice", help="write a page that makes random trees and grades your alpha-beta",
        description=textwrap.fill(
            "Write one self-contained page (no network) for practising alpha-beta.  It makes "
            "random trees in the browser (depth, children a node, values: the options set the "
            "form's starting values), searches each with the algorithm chosen (bratko, the "
            "slides' program; aima; strict-cut, CS188's rule; or minimax), and asks for the "
            "value every searched inner node returns, the window some nodes are called with, "
            "and the nodes never searched.  Check grades each answer and says why in words; a "
            "node inside a cut-off subtree is never searched, so picking it is right.  A score "
            "adds up over the rounds.  The same --seed gives the same trees."),
        epilog="examples:\n"
               "  pyab practice -o practice.html\n"
               "  pyab practice -o practice.html --depth 4 --branching 2-3 --values 0:9 --algorithm aima",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_output(p, "PAGE", "where to write the page (.html)", required=True)
    p.add_argument("--depth", type=_common.positive, default=3, metavar="N",
                   help="levels below the root, 1 to 6 (default 3)")
    _common.add_branching(p, (2, 3), "A-B", "children a node, from A to B, 1 to 5 (default 2-3)")
    p.add_argument("--values", default="-9:9", metavar="LO:HI",
                   help="leaf values from LO to HI (default -9:9; a small range makes ties)")
    _common.add_algorithm(p, choices=("bratko", "aima", "strict-cut", "minimax"),
                          help="the search the page starts with (default bratko)")
    _common.add_seed(p, None, "the page's first seed (default: a new one each time)")
    _common.add_title(p, "the page's title")
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import Error
    from ..render.practice import page
    from ..text import printable
    try:
        lo, hi = (int(x) for x in args.values.split(":"))
    except ValueError:
        raise Error(f"--values {args.values}: write LO:HI with whole numbers, e.g. -9:9") from None
    try:
        text = page(seed=args.seed, depth=args.depth, branching=args.branching, values=(lo, hi),
                    algorithm=args.algorithm, title=args.title)
    except ValueError as err:
        raise Error(f"{err}") from None
    out = Path(args.output)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as err:
        raise Error(f"{out}: cannot write ({err.strerror or err})") from None
    if args.json:
        _common.print_json({"output": str(out), "depth": args.depth, "branching": list(args.branching),
                            "values": [lo, hi], "algorithm": args.algorithm, "seed": args.seed})
    else:
        print(printable(f"{out}: a practice page ({args.algorithm}, depth {args.depth}, "
                        f"{args.branching[0]}-{args.branching[1]} children, values {lo}..{hi})"))
    return 0
