"""pyab repl FILE: SWI-Prolog's toplevel with the program and the tree loaded."""

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
    # -inf..inf, not the slides' -1000..1000: a bigger value in the tree would
    # fall outside that window and come back as a bound, not the value.
    print(f"% try:  ?- alphabeta({quote(tree.root)}, -inf, inf, GoodPos, Val).", file=sys.stderr)
    sys.stderr.flush()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C belongs to swipl
    try:
        return subprocess.call([swipl, "-q", str(prolog_dir() / "alphabeta.pl"), path])
    finally:
        signal.signal(signal.SIGINT, previous)
        os.unlink(path)
