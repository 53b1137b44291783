"""pyab repl FILE: SWI-Prolog's toplevel with the program and the tree loaded.

When the slides' program cannot search the tree (sides that do not
alternate, or static values on inner nodes, which only a depth-limited
search reads), a warning says so before the toplevel starts, naming the node
and strict-cut, which is loaded too, and the query to try is strict-cut's."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "repl", help="start swipl with the slides' program and the tree loaded",
        description="Start the SWI-Prolog toplevel with the slides' program (alphabeta.pl, in the folder "
                    "`pyab where --prolog` prints) and the facts of "
                    "the tree in FILE loaded, and print the query to try.  Leave with halt.")
    p.add_argument("file", metavar="FILE", help="a .tree file, or - for standard input")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..prolog.facts import facts, quote
    from ..resources import prolog_dir
    tree = _common.load_tree(args.file)
    swipl = shutil.which("swipl")
    if swipl is None:
        from ..errors import Error
        raise Error("swipl is not installed (make setup installs it)")
    fd, path = tempfile.mkstemp(prefix="pyab_", suffix=".pl")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(facts(tree))
    print(f"% tree {args.file} loaded; facts in {path}", file=sys.stderr)
    programs = [prolog_dir() / "alphabeta.pl"]
    warnings = cannot_search(tree)
    for line in warnings:
        print(f"% warning: {line}", file=sys.stderr)
    # -inf..inf, not the slides' -1000..1000: a bigger value in the tree would
    # fall outside that window and come back as a bound, not the value.
    if warnings:
        programs.append(prolog_dir() / "strict_cut.pl")
        depth = "1" if tree.alternating else "inf"
        print(f"% try:  ?- strict_cut({quote(tree.root)}, -inf, inf, {depth}, Move, Val).", file=sys.stderr)
    else:
        print(f"% try:  ?- alphabeta({quote(tree.root)}, -inf, inf, GoodPos, Val).", file=sys.stderr)
    sys.stderr.flush()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C belongs to swipl
    try:
        return subprocess.call([swipl, "-q", *map(str, programs), path])
    finally:
        signal.signal(signal.SIGINT, previous)
        os.unlink(path)


def cannot_search(tree) -> list[str]:
    """Why the slides' alphabeta/5 cannot search ``tree``, in words (none: it can)."""
    from ..engines import check_search
    from ..errors import SearchArgumentError
    out = []
    try:
        check_search(tree, "bratko", float("-inf"), float("inf"))
    except SearchArgumentError as e:
        out.append(str(e).replace("use --algorithm strict-cut, which asks every node who moves",
                                   "strict-cut asks every node who moves (strict_cut/6, loaded here)"))
    inner = [n for n, ks, v in zip(tree.names, tree.kids, tree.values) if ks and v is not None]
    if inner:
        out.append(f"{inner[0]!r} has a static value of its own, for a search with a depth limit; the "
                   "slides' program has none and never reads it: strict-cut takes a depth "
                   "(strict_cut/6, loaded here)")
    return out
