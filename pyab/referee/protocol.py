"""The parent's side of a search by a program under test.

The parent holds the tree.  The program asks about nodes; :class:`Observer`
answers from the tree and records every question: visited = the nodes asked
``moves`` (or ``staticval``), each once, in the order first asked; leaves =
the nodes asked ``staticval``, in order.  That is the observation the Prolog
side makes of ``moves/2`` and ``staticval/2``: made by the referee, never
reported by the program.  The program's final answer is validated before it
becomes a :class:`~pyab.result.Result`; anything wrong is a
:class:`~pyab.errors.ProgramError` naming the program.

Wire format (one JSON object per line):

    parent -> child   {"root": N, "alpha": A, "beta": B}     A, B numbers or "-inf"/"inf"
    child -> parent   {"moves": N}        answer ["c1", "c2", ...] ([] for a leaf)
                      {"max_to_move": N}  answer true / false
                      {"staticval": N}    answer a number
                      {"best": N or null, "value": V}          the end of the search
                      {"error": "why"}    optional: the program gives up (pyab's own
                                          Python child sends it for an exception)
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import ProgramError
from ..result import Result
from ..search.common import Recorder
from ..tree import Number, Tree

__all__ = ["QUESTIONS", "Observer", "converse", "from_wire", "to_wire"]

QUESTIONS = ("moves", "max_to_move", "staticval")
_CLAIMS = ("crash", "invalid", "refused")  # the kinds pychild sends with {"error": ...}


def to_wire(x: Number) -> Any:
    """A bound for JSON: infinities become "inf" / "-inf"."""
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def from_wire(x: Any) -> Any:
    """The inverse of :func:`to_wire` (anything else is returned as is)."""
    if x == "inf":
        return math.inf
    if x == "-inf":
        return -math.inf
    return x


def _show(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


class Observer:
    """Answers one search's questions from ``tree`` and records them.

    ``label`` names the program in every error ("yours (my_ab.py)").
    ``log`` keeps (question, node, answer) in order, for ``pyab trace``.
    """

    def __init__(self, tree: Tree, label: str):
        self.tree, self.label = tree, label
        self.rec = Recorder(tree, label)
        self.log: list[tuple[str, str, Any]] = []

    def fail(self, what: str, kind: str = "invalid") -> ProgramError:
        return ProgramError(f"{self.label}: {what}", kind)

    def node(self, question: str, name: Any) -> int:
        if not isinstance(name, str) or name not in self.tree.index:
            raise self.fail(f"asked {question} of {_show(name)}, which is not a node of the tree "
                            "(nodes are named by strings, as in the moves answers)", "protocol")
        return self.tree.index[name]

    def ask(self, question: str, name: Any) -> Any:
        """The answer to one question; records it."""
        if question not in QUESTIONS:
            raise self.fail(f"asked {question!r}: the questions are {', '.join(QUESTIONS)}", "protocol")
        i = self.node(question, name)
        if question == "moves":
            self.rec.visit(i)
            answer: Any = [self.tree.names[k] for k in self.tree.kids[i]]
        elif question == "max_to_move":
            answer = self.tree.is_max(i)
        else:
            if self.tree.values[i] is None:
                raise self.fail(f"asked the static value of {name!r}, an inner node without one "
                                "(only leaves, and nodes at a depth limit, have static values)")
            answer = self.rec.read(i)
        self.log.append((question, name, answer))
        return answer

    def result(self, best: Any, value: Any, *, value_required: bool = True,
               allow_no_best: bool = False) -> Result:
        """The validated final answer as a Result (``engine`` is the label)."""
        tree = self.tree
        root_kids = tree.children(tree.root)
        if value is None and not value_required:
            pass
        elif isinstance(value, bool) or not isinstance(from_wire(value), (int, float)):
            raise self.fail(f"returned the value {_show(value)}, which is not a number")
        elif math.isnan(from_wire(value)):
            raise self.fail("returned the value NaN, which is not a number")
        value = from_wire(value)
        if best is None:
            if root_kids and not allow_no_best:
                raise self.fail(f"returned no best move (None/null), but the root {tree.root!r} has "
                                f"moves: {', '.join(root_kids[:8])}")
            best_id = None
        elif not isinstance(best, str) or best not in root_kids:
            where = (f"the root {tree.root!r} is a leaf" if not root_kids
                     else f"the root's moves are {', '.join(root_kids[:8])}")
            raise self.fail(f"returned the best move {_show(best)}, which is not a move of the root ({where})")
        else:
            best_id = tree.index[best]
        r = self.rec.result(best_id, value)
        return Result(r.best, r.value, r.leaves, r.visited, r.pruned, engine="its own process",
                      algorithm=self.label, extra={"questions": len(self.log)})


def converse(child: Any, observer: Observer, job: dict, **final: Any) -> Result:
    """Send ``job`` to ``child`` (a :class:`~pyab.referee.child.Child`),
    answer its questions through ``observer`` until it gives its answer."""
    label = observer.label
    try:
        child.send(job)
        while True:
            msg = child.receive()
            if not isinstance(msg, dict):
                raise observer.fail(f"sent {_show(msg)}: expected a JSON object", "protocol")
            if "error" in msg:  # its own kind is a claim: only pyab's child's words are kept
                kind = msg.get("kind", "crash")
                raise observer.fail(str(msg["error"]), kind if kind in _CLAIMS else "invalid")
            asked = [q for q in QUESTIONS if q in msg]
            if len(asked) == 1 and len(msg) == 1:
                child.send(observer.ask(asked[0], msg[asked[0]]))  # a list, a boolean or a number
                continue
            if "best" in msg and "value" in msg and not asked:
                return observer.result(msg["best"], msg["value"], **final)
            raise observer.fail(f"sent {_show(msg)}: expected one question ({', '.join(QUESTIONS)}) "
                                'or the answer {"best": ..., "value": ...}', "protocol")
    except ProgramError as err:  # named, and with what the program printed, whatever failed
        reason = err.reason if err.reason.startswith(label) else f"{label}: {err.reason}"
        raise ProgramError(reason, err.kind,
                           stdout=err.stdout or getattr(child, "stdout_junk", ""),
                           stderr=err.stderr or getattr(child, "stderr", "")) from None

