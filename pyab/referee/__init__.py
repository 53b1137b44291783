"""The referee for anyone's alpha-beta: a program under test, run in a child
process, searches pyab's trees by asking the parent about nodes; the parent
answers from the tree and records the questions (``protocol``), and the
verdict compares that observation with pyab's reference (``verdict``).

Three routes to a program, one protocol:

* ``--exec "CMD"``: any program speaking JSON lines (:class:`ExecRoute`);
* ``--python PATH.py:FUNC`` or ``module:func``: a Python function, run in
  ``python -m pyab.referee.pychild`` (:class:`PythonRoute`);
* ``--program FILE.pl [--untrusted]``: a Prolog program, run by its own
  SWI-Prolog (:class:`PrologRoute`, through ``prolog/referee/child.pl``).
"""

from __future__ import annotations

import math
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from ..errors import ProgramError
from ..result import Result
from ..tree import Number, Tree
from .protocol import Observer, converse, to_wire

__all__ = ["ExecRoute", "PrologRoute", "PythonRoute", "Route", "route_from_args"]


class Route:
    """A program under test.  ``label`` names it ("yours (my_ab.py)"),
    ``replay`` is the command-line options that select it again."""

    label: str
    replay: list[str]
    interface: str = "pyab"

    def search(self, tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
               depth: int | None = None, allow_no_best: bool = False,
               log: list | None = None) -> Result:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> "Route":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _ChildRoute(Route):
    """A program in a child process, started once and reused for every
    search; replaced after it failed (a failed child's state is unknown)."""

    def __init__(self, argv: list[str], label: str, replay: list[str], *,
                 timeout: float | None = None, memory_mb: int | None = None,
                 untrusted: bool = False):
        self.argv, self.label, self.replay = argv, label, replay + (["--untrusted"] if untrusted else [])
        self.timeout, self.memory_mb, self.untrusted = timeout, memory_mb, untrusted
        self._child: Any = None

    def _confine(self) -> tuple[list[str], Any]:
        """The confined argv and its sandbox (``--untrusted``)."""
        from .sandbox import exec_child
        return exec_child(self.argv)

    def _start(self) -> Any:
        from .child import Child
        if self._child is None:
            if self.untrusted:
                from .sandbox import limits
                argv, box = self._confine()
                self._child = Child(argv, sandbox=box, **limits(self.timeout, self.memory_mb))
            else:
                self._child = Child(self.argv, timeout=self.timeout, memory_mb=self.memory_mb)
        return self._child

    def search(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None,
               allow_no_best=False, log=None):
        observer = Observer(tree, self.label)
        job = {"root": tree.root, "alpha": to_wire(alpha), "beta": to_wire(beta)}
        if depth is not None:
            job["depth"] = depth
        try:
            result = converse(self._start(), observer, job, allow_no_best=allow_no_best,
                              value_required=self.interface != "aima")
            return result._replace(window=(alpha, beta))
        except ProgramError as err:
            self.close()
            if err.reason.startswith(self.label):
                raise
            raise ProgramError(f"{self.label}: {err.reason}", err.kind, stdout=err.stdout,
                               stderr=err.stderr) from None
        finally:
            if log is not None:
                log.extend(observer.log)

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child = None


class ExecRoute(_ChildRoute):
    def __init__(self, command: str, **kw: Any):
        try:
            argv = shlex.split(command)
        except ValueError as err:
            raise ValueError(f"--exec {command!r}: {err}") from None
        if not argv:
            raise ValueError("--exec needs a command")
        super().__init__(argv, f"yours ({command})", ["--exec", command], **kw)


class PythonRoute(_ChildRoute):
    def __init__(self, spec: str, interface: str = "pyab", **kw: Any):
        from .pychild import INTERFACES
        if interface not in INTERFACES:
            raise ValueError(f"unknown interface {interface!r} (known: {', '.join(INTERFACES)})")
        target, sep, name = spec.rpartition(":")
        if not sep or not target or not name.isidentifier():
            raise ValueError(f"--python {spec!r}: expected PATH.py:FUNC or module:func")
        if target.endswith(".py") and not Path(target).is_file():
            raise ValueError(f"--python {spec!r}: no file {target}")
        replay = ["--python", spec] + (["--interface", interface] if interface != "pyab" else [])
        super().__init__([sys.executable, "-m", "pyab.referee.pychild", spec, "--interface", interface],
                         f"yours ({spec})", replay, **kw)
        self.interface, self.spec = interface, spec

    def _confine(self) -> tuple[list[str], Any]:
        from .sandbox import python_child
        return python_child(self.spec, self.interface)


class PrologRoute(Route):
    """A Prolog program in a child SWI-Prolog (:class:`~pyab.referee.program.
    PrologProgram`): consulted there, or with ``untrusted`` read clause by
    clause and vetted with library(sandbox); never loaded into pyab."""

    def __init__(self, path: str, algorithm: str, timeout: float | None = None, *,
                 untrusted: bool = False, memory_mb: int | None = None):
        from .program import PrologProgram
        self.path, self.algorithm = path, algorithm
        self.label = f"yours ({path})"
        self.replay = ["--program", path] + (["--untrusted"] if untrusted else [])
        refuse_own_tree(path)
        self._program = PrologProgram(path, untrusted=untrusted, timeout=timeout,
                                      memory_mb=memory_mb)

    def search(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None,
               allow_no_best=False, log=None):
        try:
            r = self._program.solve(tree, self.algorithm, alpha, beta, depth=depth)
        except ProgramError as err:
            if err.reason.startswith(self.label):
                raise
            raise ProgramError(f"{self.label}: {err.reason}", err.kind, stdout=err.stdout,
                               stderr=err.stderr) from None
        return r._replace(engine="SWI-Prolog", algorithm=self.label, window=(alpha, beta))

    def close(self) -> None:
        self._program.close()


# The predicates the tree provides: a program under test must not define them.
TREE_PREDICATES = {"moves": 2, "staticval": 2, "min_to_move": 1, "max_to_move": 1}
_HEAD = re.compile(r"^(moves|staticval|min_to_move|max_to_move)\s*\(", re.MULTILINE)


def _arity(text: str, start: int) -> int:
    """The number of arguments of the head whose "(" is at ``start``
    (commas at bracket depth 1, quotes ignored: good enough for heads)."""
    depth, n, quote = 0, 1, ""
    for ch in text[start:start + 2000]:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return n
        elif ch == "," and depth == 1:
            n += 1
    return -1


def refuse_own_tree(path: str) -> None:
    """A Prolog program under test that defines moves/2, staticval/2,
    min_to_move/1 or max_to_move/1 itself is refused, naming the clause:
    the tree's moves and values come from pyab, and the program's own would
    silently replace them (or make every search fail)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return  # the loader reports a missing file in its own words
    for m in _HEAD.finditer(text):
        name = m.group(1)
        if _arity(text, m.end() - 1) == TREE_PREDICATES[name]:
            line = text.count("\n", 0, m.start()) + 1
            raise ProgramError(
                f"yours ({path}): {path}:{line}: defines its own {name}/{TREE_PREDICATES[name]}; "
                "the tree's moves/2, staticval/2, min_to_move/1 and max_to_move/1 come from "
                "pyab: remove these clauses (keep them in a separate file for your own games)",
                "refused")


def route_from_args(args: Any) -> Route | None:
    """The route the options --python/--exec/--program choose, or None."""
    chosen = [o for o in ("python", "exec", "program") if getattr(args, o, None)]
    if len(chosen) > 1:
        raise ValueError("give one of --python, --exec, --program")
    interface = getattr(args, "interface", "pyab") or "pyab"
    if interface != "pyab" and not getattr(args, "python", None):
        raise ValueError("--interface applies to --python (an --exec program speaks the JSON protocol)")
    timeout = getattr(args, "timeout", None)
    memory = getattr(args, "memory", None)
    untrusted = bool(getattr(args, "untrusted", False))
    if getattr(args, "python", None):
        return PythonRoute(args.python, interface, timeout=timeout, memory_mb=memory,
                           untrusted=untrusted)
    if getattr(args, "exec", None):
        return ExecRoute(args.exec, timeout=timeout, memory_mb=memory, untrusted=untrusted)
    if getattr(args, "program", None):
        return PrologRoute(args.program, args.algorithm, timeout,
                           untrusted=bool(getattr(args, "untrusted", False)), memory_mb=memory)
    return None
