"""pyab trace FILE: the search step by step, like the slides' frames."""

from __future__ import annotations

import argparse
import textwrap

from . import _common
from ..result import window_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "trace", help="the search step by step: calls, leaves, bounds, cuts, returns",
        description=textwrap.fill(
            "Search the tree in FILE (or - for stdin) and print every step as a row "
                    "of a table like the slides' Alpha/Beta/GoodPos/Val frames: each call of "
                    "alphabeta/5 with its window, each leaf read, each cut test that failed "
                    "(\"no cut: 12 < alpha 3 is false\", and whether a strict test lets a tie "
                    "pass), each newbounds/6 answer, each betterof/6 (the tie rule: the later "
                    "child wins), each cut-off with the bound that caused it (alpha, beta, or "
                    "Hsu's direct cut-off) and which siblings it removes, each return.  GoodPos "
                    "and Val are the best child so far.  For "
                    "the slides' program (bratko) the prolog engine observes SWI-Prolog and the "
                    "python engine the mirror; for the other algorithms the steps come from the "
                    "Python mirror's frames, used only when its result equals the observed "
                    "Prolog run's (the last line, and --json's \"frames\", say where the steps "
                    "came from).  With --python or --exec the trace is what pyab can see of your "
                    "program: the questions it asked, in order, with pyab's answers (its windows "
                    "and returns stay inside it)."),
        epilog="examples:\n  pyab trace examples/slides.tree --engine python --json\n"
               "  pyab trace examples/slides.tree --exec 'node examples/referee/client.js'",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_search(p)
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..render.trace import trace
    tree = _common.load_tree(args.file, args.agents)
    if args.python or args.exec:
        return _questions(args, tree)
    tr = _common.user_trace(args, tree) or trace(  # --program: rebuilt; else pyab's own
        tree, engine=args.engine, algorithm=args.algorithm, alpha=args.alpha,
        beta=args.beta, depth=args.depth, timeout=args.timeout)
    if args.json:
        _common.print_json(tr.to_json())
        return 0
    from ..render.table import print_table
    print_table(tr, title=f"{args.file}: {tr.algorithm} in {tr.engine}, window "
                          f"{window_text(args.alpha, args.beta)}")
    return 0


def _questions(args: argparse.Namespace, tree) -> int:
    """Your program's search as pyab saw it: each question and its answer."""
    from ..prolog.facts import number
    log: list = []
    result = _common.user_search(args, tree, log)
    if args.json:
        _common.print_json({"result": result.to_json(), "questions": [
            {"question": q, "node": n, "answer": a} for q, n, a in log]})
        return 0
    print(f"{args.file}: {result.algorithm}, window {window_text(args.alpha, args.beta)}")
    print("  the questions it asked, in order, with pyab's answers:")
    width = len(str(len(log)))
    for i, (q, n, a) in enumerate(log, 1):
        shown = (" ".join(a) if a else "[] (a leaf)") if isinstance(a, list) else \
            ("MAX" if a else "MIN") if q == "max_to_move" else \
            (a if isinstance(a, str) else "(none)") if q in ("successor", "outcome") else number(a)
        print(f"  {i:>{width}}  {q}({n}) -> {shown}")
    value = result.value
    print(f"  answer: best {result.best}, value "
          f"{number(value) if isinstance(value, (int, float)) else '(not reported)'}; "
          f"{len(result.leaves)} leaves read, {len(result.pruned)} cut off")
    return 0
