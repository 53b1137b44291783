"""pyab where [--json]: the folders of the installed Prolog programs,
example trees and documentation, wherever pip put them."""

from __future__ import annotations

import argparse

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "where", help="print where the installed Prolog programs, examples and docs are",
        description="Print the folders that ship inside pyab: the Prolog programs "
                    "(alphabeta.pl is the slides' program; tree_dsl.pl reads .tree files in "
                    "plain SWI-Prolog), the example trees and the documentation.  They are "
                    "the files the --help texts name, found wherever pyab is installed.",
        epilog="examples:\n"
               "  pyab where\n"
               "  swipl \"$(pyab where --prolog)/alphabeta.pl\" \"$(pyab where --examples)/slides.pl\"\n"
               "  pyab where --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    which = p.add_mutually_exclusive_group()
    for name in ("prolog", "examples", "docs"):
        which.add_argument(f"--{name}", dest="only", action="store_const", const=name,
                           help=f"print only the {name} folder (for scripts)")
    _common.add_json(p)
    p.set_defaults(run=run)


def places() -> dict[str, str]:
    from ..resources import docs_dir, examples_dir, prolog_dir
    prolog = prolog_dir()
    return {"prolog": str(prolog), "examples": str(examples_dir()), "docs": str(docs_dir()),
            "alphabeta": str(prolog / "alphabeta.pl"), "tree_dsl": str(prolog / "tree_dsl.pl"),
            "tests": str(prolog / "tests" / "all.pl")}


def run(args: argparse.Namespace) -> int:
    found = places()
    if args.json:
        _common.print_json(found if not args.only else {args.only: found[args.only]})
        return 0
    if args.only:
        print(found[args.only])
        return 0
    print(f"prolog     {found['prolog']}\n"
          f"           the programs: alphabeta.pl (the slides'), aima.pl, cpw.pl, hsu.pl, ...;\n"
          f"           tree_dsl.pl reads .tree files in plain SWI-Prolog (docs: prolog.md)\n"
          f"examples   {found['examples']}\n"
          f"docs       {found['docs']}   (pyab docs NAME prints one)\n"
          f"tests      swipl -g run_tests -t halt {found['tests']}\n"
          f"try        swipl {found['alphabeta']} {found['examples']}/slides.pl")
    return 0
