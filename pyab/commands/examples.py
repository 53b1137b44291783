"""pyab examples [--copy DIR]: the example trees that ship with pyab."""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

# A row of examples/README.md's table: | `file`, `folder/` | form | what it shows |
_ROW = re.compile(r"^\|\s*(`[^|]+`)\s*\|[^|]*\|\s*(.+?)\s*\|\s*$", re.M)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "examples", help="list the example trees that ship with pyab, or copy them",
        description="List the example files installed with pyab (the ones the --help texts "
                    "use), or copy them into a folder of yours to try them.",
        epilog="example: pyab examples --copy examples && pyab solve examples/slides.tree")
    p.add_argument("--copy", metavar="DIR",
                   help="copy the examples into DIR (created if missing; files already there are kept)")
    p.set_defaults(run=run)


def _files(source: Path) -> list[Path]:
    return sorted(f for f in source.rglob("*")
                  if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc")


def about(readme: Path) -> dict[str, str]:
    """What examples/README.md's table says of each file or folder (``x/``)."""
    out: dict[str, str] = {}
    for names, what in _ROW.findall(readme.read_text(encoding="utf-8")):
        for name in re.findall(r"`([^`]+)`", names):
            out[name] = what
    return out


def _about(told: dict[str, str], name: str) -> str:
    folders = [k for k in told if k.endswith("/") and name.startswith(k)]
    what = told.get(name) or (told[max(folders, key=len)] if folders else "")
    return re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", what)  # a link's text, without its address


def run(args: argparse.Namespace) -> int:
    from ..resources import examples_dir
    source = examples_dir()
    files = _files(source)
    if not args.copy:
        readme = source / "README.md"
        told = about(readme) if readme.is_file() else {}
        print(f"pyab's examples are in {source}:")
        for f in files:
            name = f.relative_to(source).as_posix()
            print(f"  {name:<24} {_about(told, name)}".rstrip())
        print("copy them with: pyab examples --copy DIR")
        return 0
    dest = Path(args.copy)
    copied = kept = 0
    for f in files:
        target = dest / f.relative_to(source)
        if target.exists():
            kept += 1
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
        copied += 1
    print(f"copied {copied} file(s) to {dest}" + (f"; kept {kept} already there" if kept else ""))
    return 0
