"""pyab solve FILE: one search, its answer and what it read and cut."""

from __future__ import annotations

import argparse

from . import _common
from ..result import window_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve", help="search one tree and report best move, value, leaves and cuts",
        # Wrapped by hand (not textwrap.fill): this module is imported at every `pyab solve`.
        description="""\
Search the tree in FILE (or - for stdin) and print the best move (the
slides' GoodPos), the value (Val), the leaves whose static value was
read, and the subtrees cut off.  The prolog engine runs the real
program in SWI-Prolog and observes it; python runs the mirror.  With
--program/--python/--exec your own implementation searches instead,
observed by pyab through the questions it asks (pyab docs referee).
A FILE of 1 MiB or more is parsed once: its table is kept in
~/.cache/pyab/trees and the next solve of the same file maps it
(PYAB_TREE_CACHE=0 turns that off; pyab docs performance).""",
        epilog="examples:\n  pyab solve examples/slides.tree --alpha 3 --beta 10 --json\n"
               "  pyab solve examples/slides.tree --python examples/referee/slides_alphabeta.py:alphabeta",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_search(p)
    _common.add_json(p)
    p.add_argument("--full", action="store_true",
                   help="list every leaf and cut-off node (by default a long list shows its "
                        "first and last items and a count; --json always has them all)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import pyab
    tree = _common.search_tree(args)
    result = _common.user_search(args, tree)  # --program/--python/--exec: yours
    who = result.algorithm if result is not None else None
    if result is None:
        result = pyab.solve(tree, engine=args.engine, algorithm=args.algorithm,
                            alpha=args.alpha, beta=args.beta, depth=args.depth,
                            timeout=args.timeout, eager=True)  # every list is printed
        who = f"{result.algorithm} in {result.engine}"
    if args.json:
        _common.print_json(result.to_json())
        return 0
    from ..prolog.facts import number
    from ..text import printable, shorten

    def names(ns) -> str:
        return printable(" ".join(ns)) if args.full else shorten(ns)
    print(f"{printable(args.file)}: {who}, window "
          f"{window_text(args.alpha, args.beta)}, {tree.root_side.upper()} to move "
          f"at {printable(tree.root)}")
    if result.best is not None:
        best = printable(result.best)
    elif not tree.kids_of(tree.root_node):
        best = "(none: the root is a leaf)"
    else:
        best = "(none: no move reached the window)"
    print(f"  best move    {best}")
    value = result.value
    if isinstance(value, (int, float)):
        print(f"  value        {number(value)}  ({result.bound}{'' if result.bound == 'exact' else ' bound'})")
    else:
        print(f"  value        {printable(str(value)) if value else '(not reported)'}")
    print(f"  leaves read  {len(result.leaves)}: {names(result.leaves)}")
    print(f"  nodes called {len(result.visited)}")
    cut = names(result.pruned) if result.pruned else "(nothing)"
    print(f"  cut off      {len(result.pruned)}: {cut}")
    if result.horizon:
        print(f"  horizon      {len(result.horizon)}: {names(result.horizon)}"
              "  (below the depth limit: not searched, not cut)")
    if result.bound != "exact":
        from ..result import value_words
        print(f"  {value_words(result)}")
    return 0
