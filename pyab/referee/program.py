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
sees the reference programs, the bridge, or pyab's memory.

One child serves every tree of a run and is replaced after it fails.  The
searches the loop announces (:meth:`PrologProgram.ahead`) go to it
:data:`BATCH` at a time, in one write: the child answers them in order,
each answer written as soon as it is known, so that each search has its
own clock (``--timeout``) and a child that fails leaves the answers
before it whole.  The searches sent after a failed one go to a fresh
child.  The parent's side is the one loop of every route
(:func:`pyab.referee.protocol.converse`), or for a plain agreement
:func:`observed`, which reads the same record without a question's Python
call each.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections import deque
from pathlib import Path
from typing import Any

from ..errors import ProgramError
from ..result import Result
from .child import PROLOG_CHILD_EXIT, Child
from ..prolog.facts import number, quote
from ..tree import Number, Tree
from .protocol import Observer, SearchBug, converse
from .sandbox import LIMITS as UNTRUSTED_DEFAULTS  # limits an --untrusted run gets unless told

__all__ = ["BATCH", "PrologProgram", "UNTRUSTED_DEFAULTS", "observed"]

# Searches under way in the child (and so the loop's lookahead; a write
# refills half).  On 10,000 default random trees, pinned to one CPU, CPU us
# a tree for pyab and the child: 1: 233, 8: 215, 16: 202, 32: 175, 64: 177.
BATCH = 32

# A node's side by its depth's parity, a byte a depth (a tree deeper than
# 255 levels takes the slower way).
_SIDES = {"max": bytes(b"xn"[d & 1] for d in range(256)),
          "min": bytes(b"nx"[d & 1] for d in range(256))}
_MARKS = bytes.maketrans(b"\0\1", b"nx")  # a side a node: True (1) where MAX moves
_FLOATS = (".", "e", "i", "a")  # in the text of a float (1.5, 1e+300, inf, nan), never of an int


class _Quoted(dict):
    """Each name's :func:`~pyab.prolog.facts.quote`, made once (random
    trees share most names): looked up in C, a miss made in Python."""

    def __missing__(self, name: str) -> str:
        if len(self) > 1 << 16:
            self.clear()
        q = self[name] = quote(name)
        return q


_QUOTED = _Quoted()


def job_text(tree: Tree, alpha: Number, beta: Number, depth: int | None, entry: str) -> str:
    """One search for the Prolog child, with its tree, as a Prolog term on
    one line (prolog/referee/child.pl says what it holds).  Every name is
    quoted (:func:`~pyab.prolog.facts.quote`), every number written by
    :func:`~pyab.prolog.facts.number`; each part is made by one call that
    runs in C (``str`` of a tuple, ``str.join``, ``bytes.translate``)
    rather than a Python step per node."""
    names = tree.names
    # Node ids are ints, so the tuples' text is Prolog's list text once its
    # brackets are swapped: "(1, 2)" -> "[1, 2]", "(3,)" -> "[3]".
    kids = str(tree.kids)[1:-1].replace(",)", ")").replace("(", "[").replace(")", "]").rstrip(",")
    vals = str(tree.values)[1:-1].replace("None", "n").rstrip(",")
    if any(c in vals for c in _FLOATS):
        vals = ",".join(["n" if v is None else number(v) for v in tree.values])
    if tree.sides is not None:
        sides = bytes(tree.sides).translate(_MARKS)
    else:  # sides alternate by depth
        try:
            sides = bytes(tree.depth).translate(_SIDES[tree.root_side])
        except ValueError:
            sides = bytes([_SIDES[tree.root_side][d & 1] for d in tree.depth])
    return (f"j({_QUOTED[names[0]]},{number(alpha)},{number(beta)},"
            f"{'inf' if depth is None else depth},{_QUOTED[entry]},"
            f"n({','.join(map(_QUOTED.__getitem__, names))}),k({kids}),v({vals}),"
            f"\"{sides.decode()}\").")


def observed(tree: Tree, msg: dict) -> tuple[list[int], list[int]] | None:
    """The nodes visited (each once, in the order first asked) and the
    leaves read (in order) that the child's record ``msg["asked"]``
    shows, as :meth:`~pyab.referee.protocol.Observer.replay` would observe
    them; None when it shows anything else (a stray question, a question
    about a node not given, the static value of an inner node, a code that
    is not one): the replay then says what."""
    codes = msg.get("asked")
    if "stray" in msg or codes.__class__ is not list:
        return None
    n = 3 * len(tree.kids)
    if codes and not (set(map(type, codes)) == {int} and min(codes) >= 0 and max(codes) < n):
        return None
    kids, values = tree.kids, tree.values
    given = {0}
    seen: dict[int, None] = {}
    leaves = []
    for c in codes:
        i = c // 3
        if i not in given:
            return None
        q = c - 3 * i
        if q == 0:
            seen[i] = None
            given.update(kids[i])
        elif q == 2:
            if values[i] is None:
                return None
            seen[i] = None
            leaves.append(i)
    return list(seen), leaves


def _same(a: tuple, b: tuple) -> bool:
    """The same search: the same tree (the same object, or an equal one),
    entry goal, window and depth."""
    return (a[0] is b[0] or a[0] == b[0]) and a[1:] == b[1:]


class PrologProgram:
    """``path`` (a Prolog file) as a program under test, in a child process.

    ``untrusted`` reads instead of consulting and vets with
    library(sandbox), and sets the limits of :data:`UNTRUSTED_DEFAULTS`
    (``timeout`` / ``memory_mb`` given here win).  ``batch`` searches go to
    the child in one write.  Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike, *, untrusted: bool = False,
                 timeout: float | None = None, memory_mb: int | None = None,
                 swipl: str | None = None, batch: int = BATCH):
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
        self.batch = max(1, batch)
        self._child: Child | None = None
        self._dir: tempfile.TemporaryDirectory | None = None
        # A search is (tree, entry, alpha, beta, depth).
        self._ahead: deque[tuple] = deque()  # announced by ahead(), not sent yet
        self._sent: deque[tuple] = deque()   # sent to the child, unanswered, in order
        self._taken: tuple[tuple, dict] | None = None  # an answer taken, not yet replayed
        self._entries: dict[str, str] = {}  # algorithm -> its entry goal
        self._track = False  # the searches sent were announced: the loop goes its way
        self._answerer: Child | None = None  # the child of the last answer (its stderr)

    def _start(self) -> Child:
        if self._child is not None and self._child.alive:
            return self._child
        self._dir = self._dir or tempfile.TemporaryDirectory(prefix="pyab-child-")
        from ..prolog.state import child_state
        from ..resources import prolog_dir
        child_pl, swipl, box = str(prolog_dir() / "referee" / "child.pl"), self.swipl, None
        # child.pl and what it loads, saved once (70 ms of a start: 10 from the state),
        # for the swipl that runs it (in the sandbox: the one on the sandbox's PATH)
        if self.untrusted:
            from .sandbox import PATH
            swipl = shutil.which("swipl", path=PATH) or "swipl"
        saved = child_state(swipl, Path(child_pl))
        if self.untrusted:  # confined: a copy of the program's folder and of pyab's child only
            from .sandbox import Sandbox
            entry_pl = str(prolog_dir() / "bridge" / "entry.pl")  # child.pl's one import of pyab's
            ship = (((saved, "referee/child.state"),) if saved else
                    ((child_pl, "referee/child.pl"), (entry_pl, "bridge/entry.pl")))
            box = Sandbox(Path(self.path).parent, ship=ship)
            swipl = "swipl"
            saved, child_pl = ((box.shipped("referee/child.state"), child_pl) if saved else
                               (None, box.shipped("referee/child.pl")))
        load = ["-x", saved] if saved else []
        argv = [swipl, *load, "--no-packs", "-q", "-g", "pyab_child:main", "-t", "halt",
                *([] if saved else [child_pl]), "--",
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

    def search_of(self, tree: Any, algorithm: str = "bratko", alpha: Any = -math.inf,
                  beta: Any = math.inf, depth: int | None = None) -> tuple:
        """The search :meth:`answer` takes: ``algorithm``'s entry goal on
        ``tree``.  :raises ValueError: naming the known algorithms."""
        entry = self._entries.get(algorithm)
        if entry is None:
            from ..search import algorithm as find  # the registry: prolog/algorithms.json
            entry = self._entries[algorithm] = find(algorithm).entry
        return (tree, entry, alpha, beta, depth)

    def solve(self, tree: Any, algorithm: str = "bratko", alpha: Any = -math.inf,
              beta: Any = math.inf, *, depth: int | None = None, observer: Observer | None = None
              ) -> Result:
        """Run the program's ``algorithm`` entry goal on ``tree``; the
        observed :class:`Result`.  :raises ProgramError: when it fails;
        :class:`~pyab.referee.protocol.SearchBug` when its search is wrong."""
        search = self.search_of(tree, algorithm, alpha, beta, depth)
        observer = observer or Observer(tree, f"yours ({self.shown})")
        msg = self.answer(search)
        try:
            r = converse(_Answered(msg, self._answerer), observer, None)
        except (ProgramError, SearchBug):
            self._replace()  # the record was wrong: the child's state is not known
            raise
        return r._replace(engine="prolog", algorithm=algorithm, extra={"program": self.path},
                          window=(alpha, beta))

    def answer(self, search: tuple) -> dict:
        """The child's answer to ``search`` (:meth:`search_of`): its record
        and final answer, as sent, not yet replayed.  Sent now, with the
        searches announced after it, unless it was sent already.
        :raises ProgramError: the program failed on it."""
        taken, self._taken = self._taken, None
        if taken is not None and _same(taken[0], search):
            return taken[1]
        sent = self._sent
        if sent and not _same(sent[0], search):
            self._discard()  # not the search sent first: the loop went another way
        if not sent:
            self._track = self._announced(search)
            self._send([search], self._track)
        child = self._child
        assert child is not None
        try:
            msg = child.receive()
        except ProgramError:  # it failed on this search (or timed out): the next go to another
            sent.popleft()
            self._replace()
            raise
        sent.popleft()
        self._answerer = child
        if msg.__class__ is not dict:
            err = ProgramError(f"yours ({self.shown}): sent {str(msg)[:60]!r}: expected a JSON "
                               "object", "protocol", stdout=child.stdout_junk, stderr=child.stderr)
            self._replace()
            raise err
        best = msg.get("best")
        if best.__class__ is int:  # a node's id: its name (child.pl's answer_/3)
            names = search[0].names
            if not 0 <= best < len(names):
                self._replace()
                raise ProgramError(f"yours ({self.shown}): pyab's child sent the best move "
                                   f"{best}, not a node's id", "protocol")
            msg["best"] = names[best]
        if "stray" in msg:  # the child halted at a question only a wrong search asks
            self._replace()
            return msg
        if sent:
            child.restart_clock()  # the next search is under way now
        if self._track and len(sent) <= self.batch // 2 and self._ahead:
            self._send([], True)
        return msg

    def _announced(self, search: tuple) -> bool:
        """Was ``search`` announced?  Then it is taken off the announced
        ones, with any announced before it that the loop did not ask for
        (a group that stopped early): those after it are the loop's next."""
        ahead = self._ahead
        for n, later in enumerate(ahead):
            if _same(later, search):
                for _ in range(n + 1):
                    ahead.popleft()
                return True
        return False

    def keep(self, search: tuple, msg: dict) -> None:
        """Hand ``msg`` back: the next :meth:`answer` to ``search`` is it."""
        self._taken = (search, msg)

    def ahead(self, tree: Any, algorithm: str = "bratko", alpha: Any = -math.inf,
              beta: Any = math.inf, *, depth: int | None = None) -> None:
        """Announce a search a later :meth:`solve` will ask for, after the
        ones announced before: it goes to the child with the next write,
        so that the child searches while pyab replays and judges the
        answers it has (the two processes then work at once, on two CPUs).
        A solve that asks for another search drops the announced ones (and
        starts a new child if any was sent)."""
        self._ahead.append(self.search_of(tree, algorithm, alpha, beta, depth))

    def _send(self, first: list[tuple], announced: bool) -> None:
        """Send ``first`` and, when it was ``announced`` (the loop goes the
        way it said), the searches announced after it, up to a batch under
        way.  A search that was not announced goes alone (the first of a
        run, or the shrinker's), so that none announced is sent before the
        loop is seen to go its way."""
        room = self.batch - len(self._sent) - len(first) if announced else 0
        jobs = first + [self._ahead.popleft() for _ in range(min(room, len(self._ahead)))]
        if not jobs:
            return
        child = self._start()
        self._sent.extend(jobs)
        try:
            child.send_job("\n".join([job_text(t, a, b, d, e) for t, e, a, b, d in jobs]))
        except ProgramError:  # the child is gone: the first search's receive says how
            pass

    def _replace(self) -> None:
        """The child failed (or halted at a stray question): close it; the
        searches sent after the one it failed on go to the next child."""
        self._ahead.extendleft(reversed(self._sent))
        self._sent.clear()
        if self._child is not None:
            self._child.close()
            self._child = None

    def _discard(self) -> None:
        """Drop the searches sent that no solve asks for: the child is
        replaced, not waited for (a search may never end: without
        --timeout nothing stops it).  It happens once a run at most, where
        the loop stopped early (a disagreement, a group given up)."""
        self._sent.clear()
        self._ahead.clear()
        if self._child is not None:
            self._child.close()
            self._child = None

    @property
    def stderr(self) -> str:
        return self._child.stderr if self._child is not None else ""

    def close(self) -> None:
        self._ahead.clear()
        self._sent.clear()
        self._taken = self._answerer = None
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


class _Answered:
    """The child as :func:`~pyab.referee.protocol.converse` reads it, the
    answer to the search already taken (:meth:`PrologProgram.answer`)."""

    def __init__(self, msg: dict, child: Child | None):
        self._msg: dict | None = msg
        self._child = child

    def receive(self) -> dict:
        msg, self._msg = self._msg, None
        if msg is None:  # converse asks again only after a question: the child asks none
            raise ProgramError("pyab's child sent a question", "protocol")
        return msg

    def send(self, obj: Any) -> None:
        raise ProgramError("pyab's child sent a question", "protocol")

    @property
    def stdout_junk(self) -> str:
        return self._child.stdout_junk if self._child is not None else ""

    @property
    def stderr(self) -> str:
        return self._child.stderr if self._child is not None else ""
