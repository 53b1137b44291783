"""A Prolog program under test (``check --program FILE.pl``), run in a child.

The child is ``swipl -g pyab_child:main prolog/referee/child.pl -- [--untrusted] FILE.pl``: it
loads the program into a module of its own and gets each search as one
line, the tree with it (:func:`job_text`).  pyab's code in the child
answers the program's ``moves/2``, ``staticval/2``, ``max_to_move/1`` and
``min_to_move/1`` from that tree and records each question, in order, in
a store an ``--untrusted`` program cannot reach; the record comes back with the answer
and pyab replays it through the same observer as every other route
(visited = each node asked for its moves or static value, once, in the
order first asked, as the bridge observes it; leaves = every static value
asked for, in order), and validates the final answer.  The program never
sees the reference programs, the bridge, or pyab's memory.  One child
serves every tree of a run and is replaced after it fails; the next search
can be announced (:meth:`PrologProgram.ahead`) and is then sent while pyab
judges the last.  The parent's side is the one loop of every route
(:func:`pyab.referee.protocol.converse`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..errors import ProgramError
from ..result import Result
from .child import PROLOG_CHILD_EXIT, Child
from ..prolog.facts import number, quote
from ..text import numbers
from ..tree import Number, Tree
from .protocol import Observer, SearchBug, converse
from .sandbox import LIMITS as UNTRUSTED_DEFAULTS  # limits an --untrusted run gets unless told

__all__ = ["PrologProgram", "UNTRUSTED_DEFAULTS"]


def job_text(tree: Tree, alpha: Number, beta: Number, depth: int | None, entry: str) -> str:
    """One search for the Prolog child, with its tree, as a Prolog term on
    one line (prolog/referee/child.pl says what it holds).  The tree goes
    as parallel lists, so that most of the text is made by C code."""
    parent = [-1] * len(tree)
    for i, kids in enumerate(tree.kids):
        for k in kids:
            parent[k] = i
    compact = (",", ":")
    return (f"job({quote(tree.root)},{number(alpha)},{number(beta)},"
            f"{'inf' if depth is None else depth},{quote(entry)},"
            f"[{','.join([quote(n) for n in tree.names])}],{json.dumps(parent, separators=compact)},"
            f"{json.dumps(tree.kids, separators=compact)},{numbers(tree.values)},"
            f"{json.dumps(list(map(tree.is_max_id, range(len(tree)))), separators=compact)}).")


def _same(a: tuple, b: tuple) -> bool:
    """The same search: the same tree (the same object, or an equal one),
    entry goal, window and depth."""
    return (a[0] is b[0] or a[0] == b[0]) and a[1:] == b[1:]


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
        self.shown = str(path)
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
        self._next: tuple | None = None  # the search announced by ahead()
        self._sent: tuple | None = None  # the search whose job the child has, unanswered

    def _start(self) -> Child:
        if self._child is not None and self._child.alive:
            return self._child
        self._dir = self._dir or tempfile.TemporaryDirectory(prefix="pyab-child-")
        from ..resources import prolog_dir
        child_pl, swipl, box = str(prolog_dir() / "referee" / "child.pl"), self.swipl, None
        if self.untrusted:  # confined: a copy of the program's folder and of child.pl only
            from .sandbox import Sandbox
            entry_pl = str(prolog_dir() / "bridge" / "entry.pl")  # child.pl's one import of pyab's
            box = Sandbox(Path(self.path).parent,
                          ship=((child_pl, "referee/child.pl"), (entry_pl, "bridge/entry.pl")))
            child_pl, swipl = box.shipped("referee/child.pl"), "swipl"
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
                            wall_seconds=lim.get("wall_seconds"), share_cpu=False)
        return self._child

    def solve(self, tree: Any, algorithm: str = "bratko", alpha: Any = -math.inf,
              beta: Any = math.inf, *, depth: int | None = None, observer: Observer | None = None
              ) -> Result:
        """Run the program's ``algorithm`` entry goal on ``tree``; the
        observed :class:`Result`.  :raises ProgramError: when it fails;
        :class:`~pyab.referee.protocol.SearchBug` when its search is wrong."""
        from ..search import algorithm as find  # the registry: prolog/algorithms.json
        entry = find(algorithm).entry  # ValueError naming the known ones
        observer = observer or Observer(tree, f"yours ({self.shown})")
        search = (tree, entry, alpha, beta, depth)
        sent, self._sent = self._sent, None
        if sent is not None and not _same(sent, search):
            self._discard()  # not the search announced: its answer is dropped
            sent = None
        if sent is not None and self._child is not None:
            child = self._child  # it has the job (if it died on it, that is this tree's answer)
        else:
            sent, child = None, self._start()
        try:
            r = converse(child, observer, None if sent else job_text(tree, alpha, beta, depth, entry),
                         then=self._send_next)
        except (ProgramError, SearchBug):
            self._sent = None
            self._child = None
            child.close()  # the next tree gets a fresh child: this one is mid-search
            raise
        return r._replace(engine="prolog", algorithm=algorithm, extra={"program": self.path},
                          window=(alpha, beta))

    def ahead(self, tree: Any, algorithm: str = "bratko", alpha: Any = -math.inf,
              beta: Any = math.inf, *, depth: int | None = None) -> None:
        """Announce the search the next :meth:`solve` will ask for: its job
        is sent as soon as this one's answer is in, so that the child
        searches while pyab replays and judges the answer it has (the two
        processes then work at once, on two CPUs).  A solve that asks for
        another search drops the announced one (and starts a new child)."""
        from ..search import algorithm as find
        self._next = (tree, find(algorithm).entry, alpha, beta, depth)

    def _send_next(self) -> None:
        search, self._next = self._next, None
        if search is None or self._child is None:
            return
        tree, entry, alpha, beta, depth = search
        try:
            self._child.send_job(job_text(tree, alpha, beta, depth, entry))
            self._sent = search
        except ProgramError:  # the child is gone: the next solve starts another
            self._child.close()
            self._child = None

    def _discard(self) -> None:
        """Drop a job sent ahead that no solve asks for: the child is
        replaced, not waited for (that search may never end: without
        --timeout nothing stops it).  It happens once a run at most, where
        the loop stopped early (a disagreement, a group given up)."""
        if self._child is not None:
            self._child.close()
            self._child = None

    @property
    def stderr(self) -> str:
        return self._child.stderr if self._child is not None else ""

    def close(self) -> None:
        self._next = self._sent = None
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
