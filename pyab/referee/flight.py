"""Several searches in flight on one child: protocol version 2.

A client opts in by answering the first job it gets (a version 1 job,
``pyab.referee.protocol``) with ``{"protocol": 2}``; pyab then sends that
search again, and the searches announced after it, as version 2 lines
(docs/referee.md):

    pyab -> child   {"jobs": [{"id": 1, "root": N, "alpha": A, "beta": B}, ...],
                     "answers": [[ID, ANSWER], ...]}          (either key may be absent)
    child -> pyab   [[ID, MESSAGE], ...]                      each MESSAGE a version 1 line:
                                                              a question, the end, an error

``moves`` is answered as ``moves_sides`` is (the children with their
sides).  pyab answers every question of a line in one line, carrying new
jobs with it.  Each search has its own :class:`~pyab.referee.protocol.
Observer`: every question is answered by, and recorded in, the observer of
the search whose id it carries, and judged against that search's tree.

A search that fails (its program's error, a wrong search, a broken line,
a timeout) ends the child: its state is unknown.  The other searches in
flight go back to the queue, with fresh observers, for the next child.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Callable

from ..errors import ProgramError
from .protocol import SearchBug, _show, answer_or_end, named

__all__ = ["Flight", "Search"]


class Search:
    """One search: its job, its observer, and once it ended its result (or
    the error that ended it).  ``crowded``: other searches were in flight
    beside it."""

    __slots__ = ("tree", "key", "job", "make", "observer", "id", "since", "ended", "result",
                 "error", "crowded")

    def __init__(self, tree: Any, key: tuple, job: dict, make: Callable[[], Any]):
        self.tree, self.key, self.job, self.make = tree, key, job, make
        self.requeue()

    def requeue(self) -> None:
        """Back to the queue, as never asked."""
        self.observer = self.make()
        self.id: int | None = None
        self.since = 0.0
        self.ended = False
        self.result: Any = None
        self.error: BaseException | None = None
        self.crowded = False

    def end(self, result: Any = None, error: BaseException | None = None) -> None:
        self.ended, self.result, self.error = True, result, error


class Flight:
    """The version 2 conversation with one child: ``queue`` the searches
    announced (in order; the route appends them), ``running`` those sent,
    by id.  :meth:`wait` keeps up to ``width`` searches in flight until
    the one asked for has ended.  One line at a time is on its way: each
    line pyab sends is answered by one line, and answered in turn."""

    def __init__(self, child: Any, label: str, value_required: bool):
        self.child, self.label, self.value_required = child, label, value_required
        self.running: dict[int, Search] = {}
        self._ids = 0
        self._answers: list = []  # [id, answer] for the next line
        self._owed = False        # a line sent, its answer line not yet read

    def wait(self, target: Search | None, queue: deque, width: int) -> None:
        """Answer questions, and send jobs from ``queue`` (target first
        when it is there), until ``target`` has ended (None: until none is
        in flight).  A failure of the
        child ends ``target`` with it; a failed search ends the child (the
        others go back to the front of ``queue``).  :attr:`child` is None
        once the child is gone."""
        if target is not None:
            target.since = max(target.since, time.monotonic())  # its clock: from now, or when sent
        while True:
            if not self._owed:  # pyab's turn: the last line's answers and new jobs, in one line
                jobs = self._fill(queue, width)
                if self._answers or jobs:
                    out: dict[str, Any] = {"jobs": jobs} if jobs else {}
                    if self._answers:
                        out["answers"], self._answers = self._answers, []
                    try:
                        self.child.send(out)
                    except ProgramError as err:
                        self._lost(target or next(iter(self.running.values())), queue, err)
                        return
                    self._owed = True
            if target.ended if target is not None else not self.running:
                return
            assert self._owed, "a search in flight, and no line on its way"
            clock = target or next(iter(self.running.values()))
            try:
                self.child.clock_from(clock.since)  # the oldest search's own clock
                tagged = self._tagged(self.child.receive())
                self._owed = False
            except ProgramError as err:
                self._lost(clock, queue, err)
                return
            failed = None
            for sid, msg in tagged:
                s = self.running[sid]
                try:
                    done, said = answer_or_end(s.observer, msg, self.value_required, sides=True)
                except (ProgramError, SearchBug) as err:
                    failed = failed or s
                    s.end(error=self._named(err))
                    continue
                if done:
                    s.end(said._replace(window=s.key[:2]))
                    del self.running[sid]
                else:
                    self._answers.append([sid, said])
            if failed is not None:
                self._lost(None, queue, None)
                return

    def _fill(self, queue: deque, width: int) -> list:
        jobs = []
        while queue and len(self.running) < width:
            s = queue.popleft()
            self._ids += 1
            s.id = self._ids
            s.since = time.monotonic()
            self.running[s.id] = s
            jobs.append({"id": s.id, **s.job})
        if len(self.running) > 1:
            for s in self.running.values():
                s.crowded = True
        return jobs

    def _tagged(self, line: Any) -> list:
        """The line's [id, message] pairs, each id a search in flight."""
        if not isinstance(line, list) or not line:
            raise ProgramError(f"{self.label}: sent {_show(line)}: expected a list of [id, message] "
                               "(protocol 2)", "protocol")
        for pair in line:
            if not (isinstance(pair, list) and len(pair) == 2 and pair[0].__class__ is int
                    and pair[0] in self.running):
                raise ProgramError(f"{self.label}: sent {_show(pair)}: expected [id, message] with "
                                   "the id of a search in flight (protocol 2)", "protocol")
        if len({p[0] for p in line}) != len(line):
            raise ProgramError(f"{self.label}: sent two messages of one search in a line "
                               f"({_show(line)}): a search waits for each answer", "protocol")
        return line

    def _named(self, err: BaseException) -> BaseException:
        return named(err, self.label, self.child) if isinstance(err, ProgramError) else err

    def _lost(self, target: Search | None, queue: deque, err: ProgramError | None) -> None:
        """The child is gone (``err``: it failed, blamed on ``target``, the
        search whose clock ran) or ended because a search failed: the
        searches that did not end go back to the front of the queue."""
        if err is not None and target is not None and not target.ended:
            target.end(error=self._named(err))
        if self.child is not None:
            self.child.close()
            self.child = None
        back = [s for s in self.running.values() if not s.ended]
        self.running.clear()
        self._answers, self._owed = [], False
        for s in back:
            s.requeue()
        queue.extendleft(reversed(back))
