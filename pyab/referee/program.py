"""A Prolog program under test (``check --program FILE.pl``), run in a child.

The child is ``swipl -g pyab_child:main prolog/referee/child.pl -- [--untrusted] FILE.pl``: it
loads the program into a module of its own and asks pyab for every
``moves/2``, ``staticval/2`` and ``max_to_move/1`` (``min_to_move/1`` is
asked as the negation of ``max_to_move/1``).  pyab answers from the tree,
records what was asked (visited = each node asked for its moves or static
value, once, in the order first asked, as the bridge observes it; leaves =
every static value asked for, in order) and validates the final answer; the program never sees the reference programs, the bridge, or
pyab's memory.  One child serves every tree of a run and is replaced after
it fails.

The parent loop here is the smallest one the Prolog route needs; the
general referee loop (``--exec``, ``--python``) speaks the same wire format.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..errors import ProgramError
from ..result import Result
from .child import PROLOG_CHILD_EXIT, Child, escape
from .sandbox import LIMITS as UNTRUSTED_DEFAULTS  # limits an --untrusted run gets unless told

__all__ = ["PrologProgram", "UNTRUSTED_DEFAULTS"]

QUESTIONS = ("moves", "staticval", "max_to_move")


class PrologProgram:
    """``path`` (a Prolog file) as a program under test, in a child process.

    ``untrusted`` reads instead of consulting and vets with
    library(sandbox), and sets the limits of :data:`UNTRUSTED_DEFAULTS`
    (``timeout`` / ``memory_mb`` given here win).  Use as a context manager
    or call :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike, *, untrusted: bool = False,
                 timeout: float | None = None, memory_mb: int | None = None,
                 swipl: str | None = None):
        self.path = str(Path(path).resolve())
        if not Path(self.path).is_file():
            raise ValueError(f"no Prolog program at {path}")
        self.untrusted = untrusted
        limits: dict[str, Any] = dict(UNTRUSTED_DEFAULTS) if untrusted else {}
        if timeout is not None:
            limits["timeout"] = timeout
        if memory_mb is not None:
            limits["memory_mb"] = memory_mb
        self.limits = limits
        self.swipl = swipl or shutil.which("swipl") or "swipl"
        self._child: Child | None = None
        self._dir: tempfile.TemporaryDirectory | None = None

    def _start(self) -> Child:
        if self._child is not None and self._child.alive:
            return self._child
        self._dir = self._dir or tempfile.TemporaryDirectory(prefix="pyab-child-")
        from ..resources import prolog_dir
        child_pl, swipl, box = str(prolog_dir() / "referee" / "child.pl"), self.swipl, None
        if self.untrusted:  # confined: a copy of the program's folder and of child.pl only
            from .sandbox import Sandbox
            box = Sandbox(Path(self.path).parent, ship=(child_pl,))
            child_pl, swipl = box.shipped("child.pl"), "swipl"
        argv = [swipl, "--no-packs", "-q", "-g", "pyab_child:main", "-t", "halt",
                child_pl, "--",
                *(["--untrusted"] if self.untrusted else []), self.path]
        env = {k: v for k, v in os.environ.items()
               if k in ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "HOME", "TMPDIR")}
        env["HOME"] = self._dir.name  # no ~/.config/swi-prolog of the grader's
        lim = self.limits
        self._child = Child(argv, timeout=lim.get("timeout"), memory_mb=lim.get("memory_mb"),
                            cwd=self._dir.name, env=env, cpu_seconds=lim.get("cpu_seconds"),
                            nproc=lim.get("nproc"), fsize_mb=lim.get("fsize_mb"),
                            exit_codes=PROLOG_CHILD_EXIT, sandbox=box, nofile=lim.get("nofile"),
                            wall_seconds=lim.get("wall_seconds"))
        return self._child

    def solve(self, tree: Any, algorithm: str = "bratko", alpha: Any = -math.inf,
              beta: Any = math.inf, *, depth: int | None = None) -> Result:
        """Run the program's ``algorithm`` entry goal on ``tree``; the
        observed :class:`Result`.  :raises ProgramError: when it fails."""
        from ..search import algorithm as find  # the registry: prolog/algorithms.json
        entry = find(algorithm).entry  # ValueError naming the known ones
        child = self._start()
        job = {"root": tree.root, "alpha": _wire(alpha), "beta": _wire(beta),
               "depth": "inf" if depth is None else int(depth), "entry": entry}
        try:
            best, value, visited, leaves = _referee(child, tree, job)
        except ProgramError:
            self._child = None
            child.close()  # the next tree gets a fresh child
            raise
        return Result(best=best, value=value, leaves=tuple(leaves), visited=tuple(visited),
                      pruned=tuple(_pruned(tree, visited)), engine="prolog",
                      algorithm=algorithm, extra={"program": self.path})

    @property
    def stderr(self) -> str:
        return self._child.stderr if self._child is not None else ""

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def __enter__(self) -> "PrologProgram":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _wire(x: Any) -> Any:
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _referee(child: Child, tree: Any, job: dict) -> tuple[str | None, Any, list[str], list[str]]:
    """Send one job and answer the child's questions until its answer."""
    visited: list[str] = []  # each node once, first asked about (moves or static value)
    seen: set[str] = set()
    leaves: list[str] = []   # every static value read, in order
    child.send(job)
    while True:
        msg = child.receive()
        if not isinstance(msg, dict):
            raise _invalid(child, f"it sent {escape(repr(msg), 80)} instead of a question or an answer",
                           "protocol")
        keys = set(msg)
        if len(keys) == 1 and (key := next(iter(keys))) in QUESTIONS:
            node = msg[key]
            if not isinstance(node, str) or node not in tree:
                raise _invalid(child, f"it asked {key} of {escape(repr(node), 80)}, "
                               "which is not a node of the tree", "invalid")
            if key != "max_to_move" and node not in seen:
                seen.add(node)
                visited.append(node)
            if key == "moves":
                answer: Any = list(tree.children(node))
            elif key == "staticval":
                leaves.append(node)
                v = tree.value(node)
                if v is None:
                    raise _invalid(child, f"it asked the static value of inner node {node!r}",
                                   "invalid")
                answer = v
            else:
                answer = tree.side(node) == "max"
            child.send(answer)
            continue
        if keys == {"best", "value"}:
            return _validate(child, tree, msg["best"], msg["value"]) + (visited, leaves)
        raise _invalid(child, f"it sent {escape(repr(msg), 80)}: not a question or an answer",
                       "protocol")


def _validate(child: Child, tree: Any, best: Any, value: Any) -> tuple[str | None, Any]:
    """The final answer, checked: best a child of the root (or null), value
    a finite number (or "inf"/"-inf", a fail-hard window bound)."""
    kids = tree.children(tree.root)
    if best is not None and not (isinstance(best, str) and best in kids):
        raise _invalid(child, f"its best move {escape(repr(best), 80)} is not a child of the root "
                       f"{escape(tree.root, 40)!r}", "invalid")
    if value in ("inf", "-inf"):
        value = math.inf if value == "inf" else -math.inf
    elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _invalid(child, f"its value {escape(repr(value), 80)} is not a finite number", "invalid")
    return best, value


def _invalid(child: Child, reason: str, kind: str) -> ProgramError:
    return ProgramError(reason, kind, stdout=child.stdout_junk, stderr=child.stderr)


def _pruned(tree: Any, visited: list[str]) -> list[str]:
    """Unvisited children of visited nodes, in depth-first tree order (as
    :func:`pyab.search.common.pruned`, on names)."""
    if not visited:
        return []
    seen = set(visited)
    out: list[str] = []
    stack: list[tuple[str, bool]] = [(tree.root, True)]
    while stack:
        node, inside = stack.pop()
        if not inside:
            out.append(node)
            continue
        stack.extend((k, k in seen) for k in reversed(tree.children(node)))
    return out
