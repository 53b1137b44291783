"""The modules one command passes through, and how often it turns back.

``python -m benchmarks.transitions solve examples/slides.tree`` runs the
command line in this process with a profile hook (``sys.setprofile``) and
counts, over every Python call made by pyab's modules (importing them
included), the *transitions*: calls whose module differs from the previous
pyab call's.  A transition into a module already entered is a turn back.
Prints the pyab modules imported, those entered, the transitions, the turns
back, and each module's entries, most first (the command's own output goes
to standard output, the counts to standard error)."""

from __future__ import annotations

import sys
from collections import Counter


def count(argv: list[str]) -> tuple[int, Counter]:
    """(pyab modules imported, entries per module) of ``pyab ARGV``."""
    entries: Counter = Counter()
    last: list[str | None] = [None]

    def hook(frame, event, arg):  # noqa: ARG001 - sys.setprofile's signature
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if (module == "pyab" or module.startswith("pyab.")) and module != last[0]:
            entries[module] += 1
            last[0] = module

    sys.setprofile(hook)
    try:
        from pyab.cli import main
        main(argv)
    except SystemExit:
        pass
    finally:
        sys.setprofile(None)
    imported = sum(1 for m in sys.modules if m == "pyab" or m.startswith("pyab."))
    return imported, entries


def main(argv: list[str] | None = None) -> int:
    imported, entries = count(list(sys.argv[1:] if argv is None else argv))
    total = sum(entries.values())
    print(f"pyab modules imported {imported}, entered {len(entries)}; transitions {total}, "
          f"turns back {total - len(entries)}", file=sys.stderr)
    for module, n in entries.most_common():
        print(f"{n:5}  {module}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
