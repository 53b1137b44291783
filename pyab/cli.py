"""The ``pyab`` command line.  Each command lives in ``pyab/commands/<name>.py``
with a ``register(subparsers)`` function that adds its parser and sets
``run``; this module only dispatches and turns errors into exit codes:
0 success, 1 a failed check, 2 bad input or usage (one ``error:`` line
naming FILE:LINE:COL, the line and a caret; never a traceback), 3 the
program under test failed (one ``error:`` line with the reason)."""

from __future__ import annotations

import argparse
import importlib
import sys

# Command modules, in the order `pyab --help` lists them.
COMMANDS = ["solve", "check", "facts", "repl", "trace", "show", "draw", "variants", "experiment", "game",
            "examples"]

DESCRIPTION = """\
Run Bratko's alpha-beta program (the course slides' alphabeta/5) in
SWI-Prolog on game trees written in a small DSL, mirror it in Python, and
check that both reach the same value, best move and cuts.

Tree files hold one tree in nested, list or flat form, for example
    a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))
    [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    a -> b, c        b = 3        c = 5
with an optional leading `max` or `min` for the side to move at the root.
`max`/`min` may also stand before any node's name; a node without one takes
the opposite of its parent's side (a(g=2, min b(min c(d=1), f=9))).
"""

EPILOG = """\
examples:
  pyab solve examples/slides.tree            best move, value, leaves, cuts
  pyab solve examples/slides.tree --json     the same as JSON
  pyab check examples/*.tree                 Prolog vs the Python mirror
  pyab check --random 2000 --seed 1          random trees, both engines
  pyab repl examples/slides.tree             SWI-Prolog with the tree loaded
  pyab trace examples/slides.tree            the search step by step, like the slides' frames
  pyab show examples/slides.tree             the searched tree in the terminal
  pyab draw examples/slides.tree -o s.html   a page that steps through the search

exit codes: 0 success, 1 a failed check, 2 bad input or usage,
  3 the program under test (check --program) crashed, timed out, broke a
  limit, was refused or gave an invalid answer
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyab", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"pyab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"pyab.commands.{name}").register(sub)
    return parser


# Options whose value may start with a minus sign that argparse would take
# for an option of its own: `--alpha -inf` is read as `--alpha=-inf`.
SIGNED_OPTIONS = ("--alpha", "--beta", "--values")


def _join_signed(argv: list[str]) -> list[str]:
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg in SIGNED_OPTIONS:
            value = next(it, None)
            out.append(arg if value is None else f"{arg}={value}")
        else:
            out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(_join_signed(sys.argv[1:] if argv is None else argv))
    from .errors import Error, Mismatch, ProgramError
    try:
        return int(args.run(args) or 0)
    except ProgramError as err:
        _program_error(err, getattr(args, "json", False))
        return 3
    except Mismatch as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except Error as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except ValueError as err:  # bad option values found after parsing
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _program_error(err, as_json: bool) -> None:
    """The program under test failed: one ``error:`` line on stderr (the
    program's output escaped for the terminal); with ``--json`` also the one
    JSON object on stdout, with the captured output as fields."""
    from .referee.child import escape
    print(f"error: {escape(str(err), 500)}", file=sys.stderr)
    if as_json:
        import json
        json.dump({"agree": False, "exit": 3, **err.to_json()}, sys.stdout, ensure_ascii=True)
        sys.stdout.write("\n")
        return
    tail = [ln for ln in err.stderr.splitlines() if ln.strip()][-5:]
    if tail:
        print("  the program's last lines on stderr:", file=sys.stderr)
        for line in tail:
            print("  | " + escape(line, 300), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
