"""A Prolog program under test (``check --program FILE.pl``), run in a child.

The child is ``swipl -g pyab_child:main prolog/referee/child.pl -- [--untrusted] FILE.pl``: it
loads the program into a module of its own and asks pyab for every
``moves/2``, ``staticval/2`` and ``max_to_move/1`` (``min_to_move/1`` is
asked as the negation of ``max_to_move/1``).  pyab answers from the tree,
records what was asked (visited = each node asked for its moves or static
value, once, in the order first asked, as the bridge observes it; leaves =
every static value asked for, in order) and validates the final answer;
the program never sees the reference programs, the bridge, or pyab's
memory.  One child serves every tree of a run and is replaced after
it fails.  The parent's side is the one loop of every route
(:func:`pyab.referee.protocol.converse`).
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
from .child import PROLOG_CHILD_EXIT, Child
from .protocol import Observer, SearchBug, converse, job
from .sandbox import LIMITS as UNTRUSTED_DEFAULTS  # limits an --untrusted run gets unless told

__all__ = ["PrologProgram", "UNTRUSTED_DEFAULTS"]


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
                            wall_seconds=lim.get("wall_seconds"))
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
        child = self._start()
        start = job(tree, alpha, beta, depth, entry=entry)
        start.setdefault("depth", "inf")
        try:
            r = converse(child, observer, start)
        except (ProgramError, SearchBug):
            self._child = None
            child.close()  # the next tree gets a fresh child: this one is mid-search
            raise
        return r._replace(engine="prolog", algorithm=algorithm, extra={"program": self.path},
                          window=(alpha, beta))

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
