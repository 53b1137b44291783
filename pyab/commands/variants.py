"""pyab variants FILE: every registered algorithm on one tree, in both engines."""

from __future__ import annotations

import argparse

from . import _common
from ..result import window_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "variants", help="every algorithm on one tree, in both engines: value, move, leaves",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Run every registered algorithm (see --algorithm in `pyab solve --help`) on the
tree in FILE, in SWI-Prolog (observed) and in the Python mirror, and print one
row each: the value, the best move, the number of leaves read, and whether the
two engines agree on best, value, leaves, visited and pruned.  Exit 0 when
every pair agrees, 1 when any pair disagrees, 2 on bad input.""",
        epilog="""\
examples:
  pyab variants examples/aima-tie.tree
  pyab variants examples/slides.tree --alpha 3 --beta 10 --json
  pyab variants examples/slides.tree --leaves         also list the leaves read""")
    p.add_argument("file", metavar="FILE", help="a .tree file, or - for standard input")
    _common.add_window(p)
    _common.add_depth(p)
    p.add_argument("--leaves", action="store_true", help="add a column with the leaves read")
    _common.add_json(p)
    p.set_defaults(run=run)


def rows(tree, alpha, beta, depth=None):
    """One dict per registered algorithm: name, both results, agreement and
    the lines of the differences; and the algorithms left out, each with
    why (``pyab.engines.check_search`` refuses it on this tree or depth)."""
    from ..engines import both, check_search
    from ..errors import SearchArgumentError
    from ..search import ALGORITHMS
    out, left_out = [], []
    for name in ALGORITHMS:
        try:
            check_search(tree, name, alpha, beta, depth=depth)
        except SearchArgumentError as e:
            left_out.append((name, str(e)))
            continue
        pair = both(tree, name, alpha, beta, depth=depth)
        out.append({"algorithm": name, "prolog": pair.prolog, "python": pair.python,
                    "agree": pair.agree, "differences": pair.differences})
    return out, left_out


def run(args: argparse.Namespace) -> int:
    if args.depth is not None and args.depth < 0:
        raise ValueError("--depth must be 0 or more")
    tree = _common.load_tree(args.file)
    table, left_out = rows(tree, args.alpha, args.beta, args.depth)
    failed = sum(not r["agree"] for r in table)
    if args.json:
        _common.print_json({"algorithms": [
            {"algorithm": r["algorithm"], "prolog": r["prolog"].to_json(),
             "python": r["python"].to_json(), "agree": r["agree"]} for r in table]})
        return 1 if failed else 0
    _print_table(args, tree, table, left_out)
    return 1 if failed else 0


def _left_out(left_out: list[tuple[str, str]]) -> list[str]:
    """The algorithms left out, grouped by why: the reason names the
    algorithm, so it is said once with the first name in it."""
    groups: dict[str, list[str]] = {}
    for name, why in left_out:
        groups.setdefault(why.replace(name, "{}"), []).append(name)
    lines = []
    for why, names in groups.items():
        lines.append(f"left out: {', '.join(names)}: " + why.replace("{}", names[0] if len(names) == 1
                                                                     else "each"))
    return lines


def _print_table(args, tree, table, left_out) -> None:
    from ..prolog.facts import number
    from ..text import printable
    window = window_text(args.alpha, args.beta)
    depth = "" if args.depth is None else f", depth {args.depth}"
    print(f"{printable(args.file)}: {tree.root_side.upper()} to move at {printable(tree.root)}, window {window}{depth}")
    head = ["algorithm", "value", "best", "leaves", "agree"]
    body = []
    for r in table:
        res = r["prolog"]
        value = number(res.value) if isinstance(res.value, (int, float)) else str(res.value)
        cells = [r["algorithm"], value, "-" if res.best is None else printable(res.best),
                 str(len(res.leaves)), "yes" if r["agree"] else "NO"]
        if args.leaves:
            cells.append(printable(" ".join(res.leaves)))
        body.append(cells)
    if args.leaves:
        head.append("leaves read")
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    right = {1, 3}  # numbers

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    print(line(head))
    print(line(["-" * w for w in widths]))
    for cells in body:
        print(line(cells))
    for r in table:
        if not r["agree"]:
            print(f"\n{r['algorithm']}: the engines disagree")
            for d in r["differences"]:
                print("  " + d.replace("\n", "\n  "))
    print("\nvalue and best are the Prolog engine's; leaves = static values read.")
    for note in _left_out(left_out):
        print(note)
