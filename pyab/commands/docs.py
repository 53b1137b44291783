"""pyab docs [NAME] [--json]: the documentation installed with pyab."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "docs", help="list the documentation installed with pyab, or print one document",
        description="The documentation ships inside pyab (Markdown files).  Without NAME, "
                    "list the documents with their titles; with NAME (e.g. prolog, grading, "
                    "json), print that document.",
        epilog="examples:\n  pyab docs\n  pyab docs prolog | less\n  pyab docs json --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", metavar="NAME", nargs="?", help="a document, with or without .md")
    _common.add_json(p)
    p.set_defaults(run=run)


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return ""


def run(args: argparse.Namespace) -> int:
    from ..errors import Error
    from ..resources import docs_dir
    folder = docs_dir()
    docs = sorted(folder.glob("*.md"))
    if args.name is None:
        rows = [{"name": d.stem, "title": _title(d), "path": str(d)} for d in docs]
        if args.json:
            _common.print_json({"folder": str(folder), "docs": rows})
            return 0
        print(f"pyab's documentation is in {folder}:")
        for row in rows:
            print(f"  {row['name']:<20} {row['title']}")
        print("print one with: pyab docs NAME")
        return 0
    name = args.name.removesuffix(".md")
    path = folder / f"{name}.md"
    if path not in docs:
        raise Error(f"no document {args.name!r}; there are: {', '.join(d.stem for d in docs)}")
    text = path.read_text(encoding="utf-8")
    if args.json:
        _common.print_json({"name": name, "title": _title(path), "path": str(path), "text": text})
    else:
        print(text, end="")
    return 0
