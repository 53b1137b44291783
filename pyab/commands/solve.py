"""pyab solve FILE: one search, its answer and what it read and cut."""

from __future__ import annotations

import argparse

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve", help="search one tree and report best move, value, leaves and cuts",
        description="Search the tree in FILE (or - for stdin) and print the best move "
                    "(the slides' GoodPos), the value (Val), the leaves whose static value "
                    "was read, and the subtrees cut off.  The prolog engine runs the real "
                    "program in SWI-Prolog and observes it; python runs the mirror.",
        epilog="example: pyab solve examples/slides.tree --alpha 3 --beta 10 --json")
    _common.add_search(p)
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import pyab
    tree = _common.load_tree(args.file)
    result = pyab.solve(tree, engine=args.engine, algorithm=args.algorithm,
                        alpha=args.alpha, beta=args.beta, depth=args.depth,
                        timeout=args.timeout)
    if args.json:
        _common.print_json(result.to_json())
        return 0
    from ..facts import number
    print(f"{args.file}: {result.algorithm} in {result.engine}, window "
          f"{_common.window_text(args.alpha, args.beta)}, {tree.root_side.upper()} to move at {tree.root}")
    if result.best is not None:
        best = result.best
    elif tree.is_leaf(tree.root):
        best = "(none: the root is a leaf)"
    else:
        best = "(none: no move reached the window)"
    print(f"  best move    {best}")
    print(f"  value        {number(result.value) if not isinstance(result.value, str) else result.value}"
          f"  ({result.bound}{'' if result.bound == 'exact' else ' bound'})")
    print(f"  leaves read  {len(result.leaves)}: {' '.join(result.leaves)}")
    print(f"  nodes called {len(result.visited)}")
    cut = " ".join(result.pruned) if result.pruned else "(nothing)"
    print(f"  cut off      {len(result.pruned)}: {cut}")
    if result.horizon:
        print(f"  horizon      {len(result.horizon)}: {' '.join(result.horizon)}"
              "  (below the depth limit: not searched, not cut)")
    if result.bound != "exact":
        from ..result import bound_text
        print(f"  {bound_text(result)}")
    return 0
