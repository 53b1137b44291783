"""Options and output shared by several commands."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from typing import Any


def bound(text: str) -> float | int:
    """A window bound: a number, or inf / -inf (also +inf, infinity)."""
    t = text.strip().lower()
    if t in ("inf", "+inf", "infinity", "+infinity"):
        return math.inf
    if t in ("-inf", "-infinity"):
        return -math.inf
    if not t.isascii():  # float() would read other scripts' digits; the DSL does not
        raise argparse.ArgumentTypeError(f"not a number or inf/-inf: {text!r}")
    digits = t.lstrip("+-")
    if digits.isdigit() and digits.isascii():
        if len(digits) > 4300:  # Python's int() limit; float() would make it inf
            raise argparse.ArgumentTypeError(f"a bound of {len(digits)} digits is too long (at most 4300)")
        return int(t)
    try:
        x = float(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number or inf/-inf: {text!r}") from None
    if math.isnan(x):
        raise argparse.ArgumentTypeError("a window bound cannot be NaN")
    return x


def int_range(text: str) -> tuple[int, int]:
    """``3`` or ``1-4`` -> an inclusive range of non-negative integers."""
    try:
        lo, _, hi = text.partition("-")
        a, b = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number or a range like 1-4: {text!r}") from None
    if a < 0 or b < a:
        raise argparse.ArgumentTypeError(f"not an increasing range of non-negative numbers: {text!r}")
    return a, b


def whole(text: str, least: int = 0) -> int:
    """A whole number of at least ``least`` (0: --step)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < least:
        raise argparse.ArgumentTypeError(f"must be {least} or more, not {n}")
    return n


def positive(text: str) -> int:
    """A whole number of at least 1."""
    return whole(text, 1)


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (x > 0 and math.isfinite(x)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return x


def add_window(p: argparse.ArgumentParser) -> None:
    p.add_argument("--alpha", type=bound, default=-math.inf, metavar="A",
                   help="lower end of the window (number, or -inf; default -inf)")
    p.add_argument("--beta", type=bound, default=math.inf, metavar="B",
                   help="upper end of the window (number, or inf; default inf)")


# One function per option that several commands share: its name, type and
# validation live here; a command passes only its own default, choices or
# help (tests/cli/test_options_once.py holds this).

def add_algorithm(p: Any, also: tuple[str, ...] = (), choices: tuple[str, ...] | None = None,
                  help: str | None = None) -> None:
    """--algorithm, one of pyab's algorithms (or ``choices``, a subset);
    ``also`` adds choices such as "all"."""
    from ..search import ALGORITHMS
    names = [*(choices or ALGORITHMS), *also]
    unknown = set(names) - set(ALGORITHMS) - set(also)
    if unknown:
        raise ValueError(f"not pyab's algorithms: {sorted(unknown)}")
    p.add_argument("--algorithm", default="bratko", choices=names, metavar="NAME",
                   help=help or "which alpha-beta: " + ", ".join(names)
                   + " (default bratko, the slides' program)")


def add_depth(p: Any) -> None:
    p.add_argument("--depth", type=int, default=None, metavar="N",
                   help="depth limit: nodes at depth N are scored by their static value")


def add_engine(p: Any, choices: tuple[str, ...] = ("prolog", "python"), default: str = "prolog",
               help: str = "prolog (default): SWI-Prolog, observed; python: the mirror") -> None:
    p.add_argument("--engine", choices=list(choices), default=default, help=help)


def add_timeout(p: Any, help: str) -> None:
    p.add_argument("--timeout", type=seconds, default=None, metavar="S", help=help)


def add_agents(p: Any, help: str = "K agents move in turn: the root MAX, then K-1 MIN levels, "
               "cycling (sets every node's side by its level; 3: Pacman and two ghosts)") -> None:
    p.add_argument("--agents", type=positive, default=None, metavar="K", help=help)


def add_untrusted(p: Any, help: str, default: bool | None = False) -> None:
    """--untrusted; ``default`` None: not given (grade: the suite decides)."""
    p.add_argument("--untrusted", action="store_true", default=default, help=help)


def add_jobs(p: Any, help: str) -> None:
    p.add_argument("--jobs", type=positive, default=1, metavar="N", help=help)


def add_seed(p: Any, default: int | None, help: str) -> None:
    p.add_argument("--seed", type=int, default=default, metavar="S", help=help)


def add_disk(p: Any, help: str) -> None:
    p.add_argument("--disk", type=positive, default=None, metavar="MB", help=help)


def add_scheduler(p: Any, help: str) -> None:
    p.add_argument("--scheduler", metavar="ADDRESS", help=help)


def add_output(p: Any, metavar: str, help: str, required: bool = False) -> None:
    p.add_argument("-o", "--output", required=required, metavar=metavar, help=help)


def add_branching(p: Any, default: tuple[int, int], metavar: str, help: str) -> None:
    """--branching of random trees: children a node, a range like 1-4."""
    p.add_argument("--branching", type=int_range, default=default, metavar=metavar, help=help)


def add_title(p: Any, help: str) -> None:
    p.add_argument("--title", default="", help=help)


def add_final_windows(p: Any, help: str = "show each node's final window (as newbounds/6 last "
                      "left it) instead of the one it was called with") -> None:
    p.add_argument("--final-windows", action="store_true", help=help)


def add_search(p: argparse.ArgumentParser) -> None:
    """FILE and the options of one search: engine, algorithm, depth, window,
    timeout (solve, trace, show, draw)."""
    p.add_argument("file", metavar="FILE",
                   help="a .tree file, a facts file (.pl, as pyab facts writes; read, never run), "
                        "or - for standard input")
    add_engine(p)
    add_algorithm(p)
    add_depth(p)
    add_window(p)
    add_timeout(p, "stop the Prolog search after S seconds (exit 2)")
    add_agents(p)
    add_program(p)


def add_program(p: argparse.ArgumentParser) -> None:
    """--program/--python/--exec/--interface: search with your own
    implementation instead of pyab's (see docs/referee.md)."""
    g = p.add_argument_group("your own implementation (pyab docs referee)")
    g.add_argument("--program", metavar="FILE.pl",
                   help="a Prolog program defining the algorithm's entry predicate "
                        "(alphabeta/5 for bratko) on moves/2, staticval/2, min_to_move/1, "
                        "max_to_move/1")
    g.add_argument("--python", metavar="PATH.py:FUNC",
                   help="a Python function (or module:func), run in a child process; "
                        "see --interface")
    g.add_argument("--exec", metavar="CMD",
                   help="any program speaking pyab's JSON lines on stdin/stdout, started once")
    g.add_argument("--interface", choices=["pyab", "aima", "cs188"], default="pyab",
                   help="for --python: pyab (FUNC(game, root, alpha, beta) -> (best, value); "
                        "default), aima (aima-python's Game protocol, FUNC(state, game) -> action) "
                        "or cs188 (a CS188 agent class, multiAgents.py:AlphaBetaAgent, built with "
                        "depth = --depth / --agents; compared as the course grades: --compare "
                        "generated)")
    add_untrusted(g, "a program you do not trust, on any route: it runs in an operating-system "
                  "sandbox (bubblewrap, else unshare; refused when neither works) with its "
                  "own namespaces (no network, no view of pyab), a system-call filter, a "
                  "private copy of its folder and limits (default --timeout 10, --memory 1024, "
                  "--disk 256, 32 processes, 16 MB files, 64 open files, 1800 s in all); with "
                  "--program its clauses are also read, not consulted, and vetted by "
                  "library(sandbox); pyab docs sandbox")
    g.add_argument("--memory", type=positive, default=None, metavar="MB",
                   help="the child process's address-space limit in MB (exit 3 when hit)")


def user_search(args: argparse.Namespace, tree: Any, log: list | None = None):
    """The Result of the user's program (--program/--python/--exec) on
    ``tree``, or None when none was given."""
    if not _wants_user(args):
        return None  # none given: the referee is not even imported
    from ..referee import open_route
    route = open_route(program=args.program, python=args.python, exec=args.exec,
                       interface=args.interface, untrusted=args.untrusted,
                       timeout=getattr(args, "timeout", None), memory_mb=args.memory,
                       algorithm=args.algorithm)
    if route is None:
        return None
    from ..errors import ProgramError
    from ..referee.protocol import SearchBug
    with route:
        try:
            return route.search(tree, args.alpha, args.beta, depth=args.depth, log=log,
                                agents=getattr(args, "agents", None))
        except SearchBug as bug:  # no verdict here: the search cannot be shown (exit 3)
            raise ProgramError(f"{bug.reason} (a wrong search: {bug.kind}; `pyab check` shrinks "
                               "it to a small tree)", "invalid") from None


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


class _Held:
    """While ``pyab.cli.main`` runs a command with --json, the command's one
    object is held here and printed by main with the envelope every --json
    object has: ``command`` and ``exit`` (docs/json.md)."""
    active = False
    obj: Any = None


def hold_json() -> None:
    _Held.active, _Held.obj = True, None


def release_json(command: str, code: int, error: dict[str, Any] | None = None) -> None:
    """Print the held object (or ``error``) with its envelope, once."""
    obj, _Held.active, _Held.obj = _Held.obj, False, None
    out: dict[str, Any] = {"command": command, "exit": code}
    if error is not None:
        out["error"] = error
    elif obj is not None:
        out.update(obj)
    else:
        return
    _dump(out)


def print_json(obj: Any) -> None:
    """Print one JSON object (with the envelope when run from the command line)."""
    if _Held.active:
        if _Held.obj is not None:
            raise RuntimeError("a command printed two JSON objects")
        _Held.obj = obj
        return
    _dump(obj)


# Characters JSON may carry raw that a terminal or an editor acts on: DEL,
# the C1 controls (U+009B is a one-byte escape sequence), the line and
# paragraph separators and the bidi overrides (text that reads backwards).
_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_text(obj: Any) -> str:
    """``obj`` as JSON: readable non-ASCII text, but every control and bidi
    character escaped as ``\\uXXXX`` (json escapes C0 itself)."""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _dump(obj: Any) -> None:
    sys.stdout.write(json_text(obj) + "\n")


def load_tree(path: str, agents: int | None = None):
    """The tree in ``path``; with ``agents`` K, its sides set level by level
    for K agents in turn (pyab.trees.randomtrees.with_agents)."""
    from ..dsl import load
    tree = load(path)
    if agents:
        from ..trees.randomtrees import with_agents
        tree = with_agents(tree, agents)
    return tree


def search_tree(args: argparse.Namespace):
    """The tree ``pyab solve`` searches: a big file's cached table
    (pyab.trees.table) when one of pyab's algorithms searches all of it,
    else :func:`load_tree`.  A table answers as the parsed tree does, but
    has no staticval/2 facts for an algorithm that reads the range of the
    stored values, and knows no horizon (a depth limit's)."""
    from ..search import algorithm
    if (args.agents or args.depth is not None or _wants_user(args)
            or algorithm(args.algorithm).value_range):
        return load_tree(args.file, args.agents)
    from ..trees.table import load_cached
    return load_cached(args.file)


def _wants_user(args: argparse.Namespace) -> bool:
    return (any(getattr(args, o, None) for o in ("python", "exec", "program"))
            or getattr(args, "interface", None) not in (None, "pyab"))


def user_trace(args: argparse.Namespace, tree: Any):
    """The user's search (--program/--python/--exec) as a trace rebuilt from
    what the referee observed (calls, leaves, cuts; no windows), or None."""
    result = user_search(args, tree)
    if result is None:
        return None
    from ..render.trace import reconstruct
    return reconstruct(tree, result, args.alpha, args.beta)
