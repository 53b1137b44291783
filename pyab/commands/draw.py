"""pyab draw FILE -o OUT: a picture of the search (Graphviz or HTML)."""

from __future__ import annotations

import argparse

from . import _common

FORMATS = ("dot", "svg", "png", "html")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "draw", help="draw the searched tree: .dot/.svg/.png (Graphviz) or an .html stepper",
        description="Search the tree in FILE (or - for stdin) and draw it.  .dot, .svg and .png "
                    "go through Graphviz: MAX nodes are boxes, MIN nodes ellipses, each with "
                    "its value and the window it was called with; the chosen line is bold, "
                    "edges into cut-off subtrees dashed and labelled alpha-cut or beta-cut.  "
                    ".html writes one self-contained page (no network) that steps through the "
                    "search: keys right/left step, End/Home jump.",
        epilog="example: pyab draw examples/slides.tree -o slides.html")
    _common.add_search(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="where to write: OUT.dot, OUT.svg, OUT.png or OUT.html")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="the format, when OUT's extension does not say it")
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import Error
    out = Path(args.output)
    fmt = args.format or out.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise Error(f"{args.output}: cannot tell the format from the extension "
                    f"(use .dot, .svg, .png or .html, or --format)")
    from ..trace import trace
    tree = _common.load_tree(args.file)
    tr = _common.user_trace(args, tree) or trace(  # yours, or pyab's
        tree, engine=args.engine, algorithm=args.algorithm, alpha=args.alpha,
        beta=args.beta, depth=args.depth, timeout=args.timeout)
    try:
        if fmt == "html":
            from ..render.html import page
            out.write_text(page(tr, title=f"{Path(args.file).name}: {tr.algorithm}"), encoding="utf-8")
        else:
            from ..render.dot import render
            render(tr, out, fmt)
    except OSError as err:
        raise Error(f"{args.output}: cannot write ({err.strerror or err})") from None
    if args.json:
        _common.print_json(dict(tr.result.to_json(), output=str(out), format=fmt,
                                steps=len(tr.steps)))
    else:
        print(f"{args.output}: {fmt}, {len(tree)} nodes, {len(tr.steps)} steps "
              f"({tr.algorithm} in {tr.engine}: GoodPos = {tr.result.best}, "
              f"Val = {tr.result.value})")
    return 0
