"""The parent's side of a search by a program under test: the one loop.

The parent holds the tree.  The program asks about nodes; :class:`Observer`
answers from the tree and records every question: visited = the nodes asked
``moves`` (or ``staticval``), each once, in the order first asked; leaves =
the nodes asked ``staticval``, in order.  That is the observation the Prolog
side makes of ``moves/2`` and ``staticval/2``: made by the referee, never
reported by the program.  :func:`converse` is the loop every route runs
(``--program``, ``--python``, ``--exec``); the in-process route calls
:meth:`Observer.ask` directly.

Two kinds of trouble end a search early:

* :class:`SearchBug`: the search itself is wrong -- it asked the static
  value of an inner node, or asked about a node the search was never
  given (not the root, not a child of a node whose moves it asked).  The
  verdict treats it like a disagreement (exit 1): it is shrunk and shown.
* :class:`~pyab.errors.ProgramError`: the program crashed, broke the
  protocol or answered nonsense (exit 3).

Wire format (one JSON object per line):

    parent -> child   {"root": N, "alpha": A, "beta": B}     A, B numbers or "-inf"/"inf"
                      (+ "depth" with --depth, "agents" with --agents; the Prolog
                      child also gets "entry")
    child -> parent   {"moves": N}        answer ["c1", "c2", ...] ([] for a leaf)
                      {"max_to_move": N}  answer true / false
                      {"moves_sides": N}  answer [["c1", ...], [true, ...]]: the moves
                                          and whether MAX is to move at each (recorded
                                          as the moves question: a side is no secret)
                      {"staticval": N}    answer a number
                      {"best": N or null, "value": V}          the end of the search
                      {"error": "why"}    optional: the program gives up (pyab's own
                                          Python child sends it for an exception)

That is protocol 1, one search at a time.  A client that answers its first
job with ``{"protocol": 2}`` gets several searches in flight, their messages
tagged by search, many a line (:mod:`pyab.referee.flight`); each message is
one of the above, judged by :func:`answer_or_end` through its own search's
observer.

pyab's own Prolog child (``--program``) is the one exception: it gets each
job as Prolog text with the tree in it, answers the program's questions
there, records them in a store an --untrusted program cannot reach, and sends the
record with its answer, ``{"asked": [id * 3 + q, ...], "best": ..., "value":
...}`` (q the question's place in :data:`QUESTIONS`): no round trip a
question (and many jobs a write).  :meth:`Observer.replay` asks the recorded questions in order, so
the observation is the same as if each had crossed the pipe.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..errors import Error, ProgramError
from ..result import Result, json_number
from ..search.common import Recorder, access
from ..tree import Number, Tree

__all__ = ["QUESTIONS", "UPGRADE", "Observer", "SearchBug", "answer_or_end", "converse", "from_wire",
           "job"]

QUESTIONS = ("moves", "max_to_move", "staticval")  # a recorded question's code is its place here
MOVES_SIDES = "moves_sides"  # "moves", answered with the children's sides too
_CLAIMS = ("crash", "invalid", "refused", "limit")  # the kinds pychild sends with {"error": ...}

# The kinds of a wrong search (docs/referee.md).
BUG_KINDS = ("inner-static-value", "not-a-child")


class SearchBug(Error):
    """The program's search went wrong in a way only a wrong search can:
    ``kind`` is one of :data:`BUG_KINDS`, ``reason`` one line."""

    def __init__(self, reason: str, kind: str):
        super().__init__(reason)
        self.reason, self.kind = reason, kind


def from_wire(x: Any) -> Any:
    """A number from the wire: "inf" / "-inf" are the infinities (anything
    else is returned as is)."""
    if x == "inf":
        return math.inf
    if x == "-inf":
        return -math.inf
    return x


def job(tree: Tree, alpha: Number, beta: Number, depth: int | None, **extra: Any) -> dict:
    """The line that starts one search."""
    out = {"root": tree.root, "alpha": json_number(alpha), "beta": json_number(beta), **extra}
    if depth is not None:
        out["depth"] = depth
    return out


def _show(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


class Observer:
    """Answers one search's questions from ``tree`` and records them.

    ``label`` names the program in every error ("yours (my_ab.py)").
    ``log`` keeps (question, node, answer) in order, for ``pyab trace``.
    ``bug`` is the :class:`SearchBug` raised, if any (an in-process search
    may catch it; the verdict still sees it).
    """

    questions: tuple[str, ...] = (*QUESTIONS, MOVES_SIDES)

    def __init__(self, tree: Tree, label: str):
        self.tree, self.label = tree, label
        self.rec = Recorder(tree, label)
        self._max_flag = access(tree)[2]  # is_max's answers, one byte a node (the mirror's)
        self.log: list[tuple[str, str, Any]] = []
        self.given = {0}  # ids the search was handed: the root, children of asked nodes
        self.bug: SearchBug | None = None

    def fail(self, what: str, kind: str = "invalid") -> ProgramError:
        return ProgramError(f"{self.label}: {what}", kind)

    def _bug(self, what: str, kind: str) -> SearchBug:
        self.bug = self.bug or SearchBug(f"{self.label}: {what}", kind)
        return self.bug

    def node(self, question: str, name: Any) -> int:
        if not isinstance(name, str):
            raise self.fail(f"asked {question} of {_show(name)}: nodes are named by strings, "
                            "as in the moves answers", "protocol")
        i = self.tree.index.get(name)
        if i is None or i not in self.given:
            what = "not a node of the tree" if i is None else "a node the search was not given"
            raise self._bug(f"asked {question} of {_show(name)}, {what} (only the root and the "
                            "children of nodes whose moves it asked)", "not-a-child")
        return i

    def ask(self, question: str, name: Any) -> Any:
        """The answer to one question; records it."""
        if self.bug is not None:
            raise self.bug  # an in-process search that caught it goes on: stop it again
        if question == MOVES_SIDES:  # protocol 2's moves, the most asked: node() and _answer() inline
            tree = self.tree
            i = tree.index.get(name) if name.__class__ is str else None
            if i is None or i not in self.given:
                i = self.node("moves", name)  # raises, saying why
            kids = tree.kids[i]
            self.rec.visit(i)
            self.given.update(kids)
            names = [tree.names[k] for k in kids]
            self.log.append(("moves", tree.names[i], names))
            max_flag = self._max_flag
            return [names, [max_flag(k) == 1 for k in kids]]
        if question not in QUESTIONS:
            raise self.fail(f"asked {question!r}: the questions are {', '.join(self.questions)}", "protocol")
        return self._answer(question, self.node(question, name))

    def _answer(self, question: str, i: int) -> Any:
        """The answer about node ``i``, a node the search was given."""
        tree = self.tree
        if question == "moves":
            self.rec.visit(i)
            self.given.update(tree.kids[i])
            answer: Any = [tree.names[k] for k in tree.kids[i]]
        elif question == "max_to_move":
            answer = tree.is_max(i)
        else:
            if tree.values[i] is None:
                raise self._bug(f"asked the static value of {tree.names[i]!r}, an inner node without one "
                                "(only leaves, and nodes at a depth limit, have static values)",
                                "inner-static-value")
            answer = self.rec.read(i)
        self.log.append((question, tree.names[i], answer))
        return answer

    def replay(self, codes: Any, stray: Any = None) -> None:
        """Ask, in order, the questions pyab's Prolog child recorded: each
        code is ``id * 3 + q``, q the place of the question in
        :data:`QUESTIONS`; ``stray`` [question, name] the one it stopped at
        (that raises here, as it would have been raised when asked)."""
        names, n, given = self.tree.names, 3 * len(self.tree), self.given
        if not isinstance(codes, list) or not all(c.__class__ is int and 0 <= c < n for c in codes):
            raise self.fail(f"pyab's child sent the record {_show(codes)}: not question codes", "protocol")
        for code in codes:
            i, q = divmod(code, 3)
            if i in given and self.bug is None:
                self._answer(QUESTIONS[q], i)
            else:
                self.ask(QUESTIONS[q], names[i])  # raises, naming the node
        if stray is not None:
            if not (isinstance(stray, list) and len(stray) == 2 and stray[0] in QUESTIONS):
                raise self.fail(f"pyab's child stopped at {_show(stray)}: not a question", "protocol")
            self.ask(*stray)
            raise self.fail(f"pyab's child stopped at {_show(stray)}, which pyab answers", "protocol")

    def result(self, best: Any, value: Any, *, value_required: bool = True) -> Result:
        """The validated final answer as a Result (``engine`` is the label).
        ``best`` None is the answer "no move" (the verdict compares it)."""
        if self.bug is not None:
            raise self.bug
        tree = self.tree
        root_kids = tree.children(tree.root)
        if value is not None or value_required:
            _number_check(value, self.fail)
        value = from_wire(value)
        if best is None:
            best_id = None
        elif not isinstance(best, str) or best not in root_kids:
            where = (f"the root {tree.root!r} is a leaf" if not root_kids
                     else f"the root's moves are {', '.join(root_kids[:8])}")
            raise self.fail(f"returned the best move {_show(best)}, which is not a child of the root ({where})")
        else:
            best_id = tree.index[best]
        # its lists named when read: the verdict compares the record's ids first
        return self.rec.result(best_id, value, questions=len(self.log))._replace(
            engine="its own process", algorithm=self.label)


def _number_check(value: Any, fail: Callable[..., ProgramError]) -> None:
    """A value any comparison can use: a number within a double's range
    (a bigger integer, a JSON literal beyond it, NaN or any other term is
    ``invalid``), or "inf"/"-inf", a window bound."""
    if value in ("inf", "-inf"):
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(f"returned the value {_show(value)}, which is not a finite number "
                   "(nor inf/-inf, a window bound)")
    if isinstance(value, float) and math.isnan(value):
        raise fail("returned the value NaN, which is not a finite number")
    if isinstance(value, int):
        if value.bit_length() > 1023:  # float(value) would overflow
            raise fail(f"returned the value {_show_int(value)}, beyond the range of a double")
    elif math.isinf(value):  # a literal such as 1e400: the bounds are sent as "inf"/"-inf"
        raise fail("returned a number beyond the range of a double (send a window bound "
                   'as "inf" or "-inf")')


def _show_int(n: int) -> str:
    """A huge integer shortened: its sign, first digits and digit count."""
    digits = len(str(abs(n))) if n.bit_length() < 10000 else round(n.bit_length() * 0.30103)
    head = str(abs(n))[:12] if n.bit_length() < 10000 else ""
    return f"{'-' if n < 0 else ''}{head}... ({digits} digits)"


def answer_or_end(observer: Observer, msg: Any, value_required: bool = True,
                  sides: bool = False) -> tuple[bool, Any]:
    """One message of a search: (False, the answer to its question) or
    (True, its validated Result).  ``sides``: ``moves`` is answered as
    ``moves_sides`` (protocol 2).  :raises ProgramError: an error message
    or a line that is neither; :class:`SearchBug`: a wrong question."""
    if msg.__class__ is dict and len(msg) == 1:  # the common case: one question
        for q, node in msg.items():
            if q in observer.questions:
                return False, observer.ask(MOVES_SIDES if sides and q == "moves" else q, node)
    if not isinstance(msg, dict):
        raise observer.fail(f"sent {_show(msg)}: expected a JSON object", "protocol")
    if "error" in msg:  # its own kind is a claim: only pyab's child's words are kept
        kind = msg.get("kind", "crash")
        from ..text import capped  # an error text is the program's: a few KB at most
        raise observer.fail(capped(str(msg["error"])), kind if kind in _CLAIMS else "invalid")
    questions = observer.questions  # cs188 asks others
    asked = [q for q in questions if q in msg]
    if "best" in msg and "value" in msg and not asked:
        return True, observer.result(msg["best"], msg["value"], value_required=value_required)
    raise observer.fail(f"sent {_show(msg)}: expected one question ({', '.join(questions)}) "
                        'or the answer {"best": ..., "value": ...}', "protocol")


def named(err: ProgramError, label: str, child: Any) -> ProgramError:
    """``err`` naming the program (``label``) and keeping what ``child``
    printed: how every route reports a program's failure."""
    stdout = err.stdout or getattr(child, "stdout_junk", "")
    stderr = err.stderr or getattr(child, "stderr", "")
    reason = err.reason if err.reason.startswith(label) else f"{label}: {err.reason}"
    return ProgramError(reason, err.kind, stdout=stdout, stderr=stderr)


UPGRADE = {"protocol": 2}  # a client's answer to its first job: it speaks protocol 2 (referee.flight)


def converse(child: Any, observer: Observer, start: dict | str | None, *, value_required: bool = True,
             upgrade: Callable[[], Any] | None = None) -> Any:
    """Send ``start`` (a :func:`job`) to ``child`` (a
    :class:`~pyab.referee.child.Child`), answer its questions through
    ``observer`` until it gives its answer: the one parent loop of every
    route.  A ProgramError names the program and keeps what it printed.

    ``start`` as text is a job for pyab's own Prolog child, which answers
    the questions from the tree shipped with the job and sends the record
    of them with its answer (``"asked"``, see prolog/referee/child.pl); that
    record is replayed through ``observer`` here.  Only then is a record
    taken: from any other child it would be the program's report.  ``start``
    None: such a job was sent already.  ``upgrade``: the job is a fresh
    child's first; if the child answers :data:`UPGRADE`, the search goes on
    in protocol 2 (``upgrade()`` is its Result)."""
    label = observer.label
    recorded = start is None or isinstance(start, str)
    try:
        if isinstance(start, str):
            child.send_job(start)
        elif start is not None:
            child.send(start)
        while True:
            msg = child.receive()
            if upgrade is not None and msg == UPGRADE:
                break
            upgrade = None  # only the first answer to the first job may be the upgrade
            if not isinstance(msg, dict):
                raise observer.fail(f"sent {_show(msg)}: expected a JSON object", "protocol")
            if recorded and "asked" in msg:
                observer.replay(msg.pop("asked"), msg.pop("stray", None))
            done, out = answer_or_end(observer, msg, value_required)
            if done:
                return out
            child.send(out)  # a list, a boolean or a number
    except ProgramError as err:
        raise named(err, label, child) from None
    assert upgrade is not None
    return upgrade()
