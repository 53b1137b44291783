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

from .errors import Error

# Command modules, in the order `pyab --help` lists them.
COMMANDS = ["solve", "check", "facts", "repl", "trace", "show", "draw", "practice", "variants",
            "experiment", "game", "grade", "autograder", "examples", "where", "docs"]

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
  pyab practice -o practice.html             random trees to practise on, graded

exit codes: 0 success, 1 a failed check, 2 bad input or usage,
  3 the program under test (--program, --python, --exec) crashed, timed out, broke a
  limit, was refused or gave an invalid answer
"""


class UsageError(Error):
    """A command line argparse refuses (raised instead of its exit, so that
    --json can answer with JSON too)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str):
        super().__init__(message)
        self.parser = parser


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(self, message)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: when its first word names a command, only
    that command's module is imported (a command's start-up pays for its
    own imports only); otherwise every command, for help and errors."""
    parser = _Parser(
        prog="pyab", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"pyab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    first = argv[0] if argv else None
    for name in [first] if first in COMMANDS else COMMANDS:
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


def _error_json(err: BaseException) -> dict:
    """An error as JSON: its kind and message, and the place when it has one."""
    from .errors import DSLError, Mismatch, ProgramError, PrologError
    out: dict = {"kind": type(err).__name__, "message": str(err).split("\n")[0]}
    if isinstance(err, DSLError):
        out.update(message=err.message, file=err.source, line=err.line, column=err.column,
                   excerpt=err.excerpt)
    elif isinstance(err, Mismatch):
        out["differences"] = err.diff
    elif isinstance(err, PrologError) and err.term:
        out["term"] = err.term
    elif isinstance(err, ProgramError):
        out.update(message=err.reason, program_kind=err.kind, program_stdout=err.stdout,
                   program_stderr=err.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    from .commands import _common
    from .errors import Mismatch, ProgramError
    from .text import printable

    argv = _join_signed(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except UsageError as err:
        err.parser.print_usage(sys.stderr)
        print(f"{err.parser.prog}: error: {printable(err)}", file=sys.stderr)
        if "--json" in argv:
            command = next((a for a in argv if a in COMMANDS), "pyab")
            _common.release_json(command, 2, {"kind": "UsageError", "message": str(err)})
        return 2
    json_mode = bool(getattr(args, "json", False))
    command = args.command if not getattr(args, "experiment", None) else f"experiment {args.experiment}"

    def say(err: BaseException) -> None:
        print("error: " + "\n".join(printable(line) for line in str(err).split("\n")),
              file=sys.stderr)

    def fail(err: BaseException, code: int) -> int:
        say(err)
        if json_mode:
            _common.release_json(command, code, _error_json(err))
        return code

    if json_mode:
        _common.hold_json()
    try:
        code = int(args.run(args) or 0)
    except Mismatch as err:
        return fail(err, 1)
    except ProgramError as err:  # the program under test failed: its fault, not the input's
        code = fail(err, 3)
        tail = [ln for ln in err.stderr.splitlines() if ln.strip()][-5:]
        if tail and not json_mode:
            print("  the program's last lines on stderr:", file=sys.stderr)
            for line in tail:
                print("  | " + printable(line[:300]), file=sys.stderr)
        return code
    except Error as err:
        return fail(err, 2)
    except ValueError as err:  # bad option values found after parsing
        return fail(err, 2)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _pipe_closed()
    if json_mode:
        try:
            _common.release_json(command, code)
        except BrokenPipeError:
            return _pipe_closed()
    return code


def _pipe_closed() -> int:
    """The reader went away (``pyab check ... | head``): end quietly.  What
    is still buffered for it goes to /dev/null, so the final flush cannot
    raise again."""
    import os
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass
    return 0


def exit_now(code: int) -> None:
    """End the process with ``code`` as soon as its output is out: flush
    standard output and error, then ``os._exit``, which skips the
    interpreter's tear-down (SWI-Prolog freeing a big tree's clauses one by
    one took over a second after the answer was printed).  Only the command
    line does this, never the library: every file a command writes is
    closed when the command returns (each is written in a ``with`` block,
    worker pools too), so nothing but the tear-down is skipped."""
    import os
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away, or a closed stream
            pass
    os._exit(code)


def run() -> None:
    """The ``pyab`` entry point (and ``python -m pyab``): :func:`main`, then
    :func:`exit_now` with its exit code."""
    try:
        code = main()
    except SystemExit as stop:  # argparse's --help, --version and usage errors
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    exit_now(code)


if __name__ == "__main__":
    run()
