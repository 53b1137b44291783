"""pyab draw FILE -o OUT: a picture of the search, for a page, a notebook or a slide."""

from __future__ import annotations

import argparse
import textwrap

from . import _common

FORMATS = ("svg", "png", "pdf", "html", "tex", "dot")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "draw", help="draw the searched tree: .svg .png .pdf .tex .dot, or an .html stepper",
        description=textwrap.fill(
            "Search the tree in FILE (or - for stdin) and draw it.  Every format draws the same "
            "picture: a triangle pointing up where MAX moves, down where MIN moves, the value "
            "inside, the name and the window the node was called with beside an inner node and "
            "under a leaf, the chosen line bold green, edges into cut-off subtrees dashed red "
            "and labelled with the cut (alpha or beta), and a legend.  .png and .pdf are that "
            "SVG drawn by rsvg-convert (a PNG as large as fits a 1920x1080 projector unless "
            "--dpi says otherwise); .tex is TikZ for a Beamer slide (\\input it); .dot is for "
            "Graphviz.  .html writes one self-contained page (no network) that steps through "
            "the search: right/left, Space/PageDown step, End/Home jump, P plays at the speed "
            "the slider sets, F fits, drag pans, Q starts a quiz on which nodes are never "
            "searched; --present makes it the lecture-hall page.  Labels are 18 pixels, and a "
            "tree too wide for a 16:9 slide gets staggered leaf labels, then compact leaves "
            "(the value under a small triangle).  --step K draws the state after K steps, "
            "--frames DIR one picture per step."),
        epilog="examples:\n"
               "  pyab draw examples/slides.tree -o slides.png --title 'Alpha-beta on the slides'\n"
               "  pyab draw examples/slides.tree -o slides.html --present --title 'Lecture 7'\n"
               "  pyab draw examples/slides.tree -o step20.png --step 20\n"
               "  pyab draw examples/slides.tree --frames frames/      # frames/step-000.png ...\n"
               "  pyab draw examples/slides.tree -o slides.tex         # \\input{slides.tex} in Beamer",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_search(p)
    _common.add_output(p, "OUT", "where to write: OUT.svg, .png, .pdf, .html, .tex or .dot")
    p.add_argument("--frames", metavar="DIR",
                   help="write one picture per step into DIR (step-000 is before the first step; "
                        "PNG unless --format says svg, pdf or tex)")
    p.add_argument("--step", type=_common.whole, default=None, metavar="K",
                   help="draw the search as it stands after K steps (pyab trace numbers them), "
                        "with the step in words as the caption")
    _common.add_title(p, "a title drawn above the tree (and the page's title)")
    p.add_argument("--caption", default=None, metavar="TEXT",
                   help="the line under the tree (default: whether the root's value is exact)")
    p.add_argument("--no-caption", action="store_true", help="no line under the tree")
    _common.add_final_windows(p, "show each node's final window (as newbounds/6 last left it) "
                              "instead of the one it was called with; the legend says so")
    p.add_argument("--present", action="store_true",
                   help=".html: the lecture-hall page (18-pixel labels and larger text, high "
                        "contrast, fills one screen)")
    p.add_argument("--font", type=_common.positive, default=18, metavar="PX",
                   help="label size in pixels (default 18, legible on a projector)")
    p.add_argument("--dpi", type=_common.positive, default=None, metavar="N",
                   help="resolution of a PNG in dots per inch (96 is the SVG's own size; the "
                        "default draws it as large as fits 1920x1080)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="the format, when OUT's extension does not say it")
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from ..errors import Error
    from ..text import printable
    if bool(args.output) == bool(args.frames):
        raise Error("say where to draw: -o OUT for one picture, or --frames DIR for one per step")
    out = Path(args.output or args.frames)
    fmt = args.format or (out.suffix.lower().lstrip(".") if args.output else "png")
    if fmt not in FORMATS:
        raise Error(f"{args.output}: cannot tell the format from the extension "
                    f"(use .svg, .png, .pdf, .html, .tex or .dot, or --format)")
    if args.dpi is not None and fmt != "png":
        raise Error(f"--dpi sets the resolution of a PNG, not of {fmt}")
    if args.frames and fmt in ("html", "dot"):
        raise Error(f"--frames draws pictures (png, svg, pdf or tex), not {fmt}")
    if args.step is not None and (args.frames or fmt == "html"):
        raise Error("--step draws one picture (-o OUT.png, .svg, .pdf or .tex); the .html page "
                    "and --frames have every step")
    if args.present and fmt != "html":
        raise Error("--present makes the .html page the lecture-hall page; pictures for slides "
                    "are 18-pixel already (--font)")
    from ..render.trace import trace
    tree = _common.load_tree(args.file, args.agents)
    tr = _common.user_trace(args, tree) or trace(  # yours, or pyab's
        tree, engine=args.engine, algorithm=args.algorithm, alpha=args.alpha,
        beta=args.beta, depth=args.depth, timeout=args.timeout)
    if args.step is not None and args.step > len(tr.steps):
        raise Error(f"--step {args.step}: this search has {len(tr.steps)} steps")
    caption: bool | str = False if args.no_caption else (args.caption if args.caption is not None else True)
    options = dict(font=args.font, max_width=1860, title=args.title,
                   windows="final" if args.final_windows else "called")
    files: list[str] = []
    try:
        if args.frames:
            files = _frames(tr, out, fmt, options, caption, args.dpi)
        elif fmt == "html":
            from ..render.html import page
            out.write_text(page(tr, title=args.title or f"{Path(args.file).name}: {tr.algorithm}",
                                presentation=args.present,
                                caption=None if caption is True else caption,
                                **{k: v for k, v in options.items() if k != "title"}),
                           encoding="utf-8")
        else:
            from ..render.output import save
            if args.step is not None:
                options["step"] = args.step
                if caption is True:
                    caption = _step_caption(tr, args.step)
            save(tree, tr, out, fmt, dpi=args.dpi, caption=caption, **options)
    except OSError as err:
        raise Error(f"{out}: cannot write ({err.strerror or err})") from None
    if args.json:
        extra = {"files": files} if args.frames else {}
        if args.step is not None:
            extra["step"] = args.step
        _common.print_json(dict(tr.result.to_json(), output=str(out), format=fmt,
                                steps=len(tr.steps), frames=tr.frames, warnings=[], **extra))
    else:
        what = f"{len(files)} frames in {out}" if args.frames else f"{out}: {fmt}"
        print(printable(f"{what}, {len(tree)} nodes, {len(tr.steps)} steps "
                        f"({tr.algorithm} in {tr.engine}: GoodPos = {tr.result.best}, "
                        f"Val = {tr.result.value})"), file=sys.stdout)
    return 0


def _step_caption(tr, k: int) -> str:
    n = len(tr.steps)
    return f"step {k} of {n}: " + (tr.steps[k - 1].text() if k else "before the first call")


def _frames(tr, out, fmt: str, options: dict, caption, dpi) -> list[str]:
    """One picture per step, step-000 (before the first) to step-N."""
    from ..render.output import save
    out.mkdir(parents=True, exist_ok=True)
    n = len(tr.steps)
    width = max(3, len(str(n)))
    files = []
    for k in range(n + 1):
        path = out / f"step-{k:0{width}d}.{fmt}"
        text = caption if isinstance(caption, str) or caption is False else _step_caption(tr, k)
        save(tr.tree, tr, path, fmt, dpi=dpi, caption=text, step=k, **options)
        files.append(str(path))
    return files
