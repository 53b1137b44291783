"""pyab draw FILE -o OUT: a picture of the search (Graphviz or HTML)."""

from __future__ import annotations

import argparse

from . import _common

FORMATS = ("dot", "svg", "png", "pdf", "html")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "draw", help="draw the searched tree: .dot/.svg/.png (Graphviz) or an .html stepper",
        description="Search the tree in FILE (or - for stdin) and draw it.  .dot, .svg, .png and .pdf "
                    "go through Graphviz: MAX nodes are boxes, MIN nodes ellipses, each with "
                    "its value and the window it was called with; the chosen line is bold, "
                    "edges into cut-off subtrees dashed and labelled alpha-cut or beta-cut.  "
                    ".html writes one self-contained page (no network) that steps through the "
                    "search: right/left, Space/PageDown step, End/Home jump, P plays, F fits, "
                    "drag pans, Q starts a quiz on which subtrees get cut off.",
        epilog="example: pyab draw examples/slides.tree -o slides.html")
    _common.add_search(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="where to write: OUT.dot, OUT.svg, OUT.png, OUT.pdf or OUT.html")
    p.add_argument("--dpi", type=_common.positive, default=None, metavar="N",
                   help="resolution of a PNG in dots per inch (Graphviz's default 96; 200 "
                        "or more for a projector or print)")
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
                    f"(use .dot, .svg, .png, .pdf or .html, or --format)")
    if args.dpi is not None and fmt != "png":
        raise Error(f"--dpi sets the resolution of a PNG, not of {fmt}")
    from ..render.trace import trace
    tree = _common.load_tree(args.file)
    tr = _common.user_trace(args, tree) or trace(  # yours, or pyab's
        tree, engine=args.engine, algorithm=args.algorithm, alpha=args.alpha,
        beta=args.beta, depth=args.depth, timeout=args.timeout)
    warnings: list[str] = []
    try:
        if fmt == "html":
            from ..render.html import page
            out.write_text(page(tr, title=f"{Path(args.file).name}: {tr.algorithm}"), encoding="utf-8")
        else:
            from ..render.dot import render
            warnings = render(tr, out, fmt, dpi=args.dpi)
    except OSError as err:
        raise Error(f"{args.output}: cannot write ({err.strerror or err})") from None
    import sys

    from ..text import printable
    for w in warnings:  # Graphviz's own words (e.g. a picture scaled down to fit its limits)
        print(f"warning: graphviz: {printable(w)}", file=sys.stderr)
    if args.json:
        _common.print_json(dict(tr.result.to_json(), output=str(out), format=fmt,
                                steps=len(tr.steps), frames=tr.frames, warnings=warnings))
    else:
        print(printable(f"{args.output}: {fmt}, {len(tree)} nodes, {len(tr.steps)} steps "
                        f"({tr.algorithm} in {tr.engine}: GoodPos = {tr.result.best}, "
                        f"Val = {tr.result.value})"))
    return 0
