"""The verdict on one tree: a program under test against pyab's reference.

:func:`judge` runs the program on a tree (through any route), compares what
was observed with the reference, and returns one :class:`Verdict`:

* ``agree`` (exit 0);
* ``disagree`` (exit 1), of kind ``differs`` (a compared field differs),
  ``inner-static-value`` or ``not-a-child`` (the search asked a question
  only a wrong search asks: :class:`~pyab.referee.protocol.SearchBug`);
* ``error`` (exit 3), of the :class:`~pyab.errors.ProgramError`'s kind:
  ``crash``, ``timeout``, ``limit``, ``refused``, ``protocol``, ``invalid``.

What is compared (``--compare``, one name or a comma-separated list):
``all`` (value, best move, leaves read and nodes visited, each equal to the
algorithm's), ``move``, ``leaves``, ``visited`` (equal to the algorithm's),
``value`` (a correct minimax value: the window's fail-low/fail-high answers
allowed), ``optimal-move`` (any root move whose minimax value is the
root's) and ``generated`` (the CS188 grader's rule: the same root move and
the same *set* of states generated, :mod:`pyab.referee.cs188`).  Minimax
here takes each node's own side to move, so trees where one side moves
twice in a row are judged right.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Iterator

from ..engines import check_search, plain_search
from ..errors import ProgramError
from ..result import Result, bound_text, json_number
from .. import search as mirror  # its solve_python looked up at each call: a test may wrap it
from ..search.common import record_ids
from ..tree import Number, Tree
from .protocol import SearchBug

__all__ = ["COMPARE", "KINDS", "References", "Settings", "Verdict", "judge", "minimax_values",
           "parse_compare", "reference_label", "sharing", "value_correct"]

COMPARE = ("all", "value", "move", "optimal-move", "leaves", "visited", "generated")

# What each kind means: docs/referee.md says the same to users.
KINDS = {
    "agree": "every compared field agrees",
    "differs": "a compared field differs from the reference",
    "inner-static-value": "the search asked the static value of an inner node",
    "not-a-child": "the search asked about a node it was never given",
    **{k: "the program failed (exit 3)" for k in ProgramError.KINDS},
}

# (field, how): "exact" equal to the algorithm's, "minimax" a correct
# minimax value, "optimal" one of the optimal root moves.
_CHECKS = {"all": (("value", "exact"), ("best", "exact"), ("leaves", "exact"), ("visited", "exact")),
           "value": (("value", "minimax"),), "move": (("best", "exact"),),
           "optimal-move": (("best", "optimal"),), "leaves": (("leaves", "exact"),),
           "visited": (("visited", "exact"),),
           "generated": (("best", "exact"), ("generated", "set"))}


def parse_compare(compare: str | Iterable[str] | None) -> tuple[str, ...]:
    """``"value,optimal-move"`` (or a sequence) -> ("value", "optimal-move").
    :raises ValueError: naming an unknown name."""
    if compare is None:
        return ("all",)
    items = compare.split(",") if isinstance(compare, str) else list(compare)
    out = tuple(dict.fromkeys(c.strip() for c in items if c.strip()))
    bad = [c for c in out if c not in COMPARE]
    if bad or not out:
        raise ValueError(f"--compare {','.join(items)!r}: expected one or more of "
                         f"{', '.join(COMPARE)}, separated by commas")
    return out


@lru_cache(maxsize=64)  # once a run, not once a tree
def _checks(compare: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys(c for name in compare for c in _CHECKS[name]))


@lru_cache(maxsize=64)
def _needs_own(compare: tuple[str, ...]) -> bool:
    """Does a check compare with the algorithm's own search (not minimax)?"""
    return any(how in ("exact", "set") for _, how in _checks(compare))


def reference_label(algorithm: str, compare: tuple[str, ...], how: str | None = None) -> str:
    """``reference (bratko)``, ``reference (minimax)``, or both for a list."""
    hows = {how} if how else {h for _, h in _checks(compare)}
    own = {"exact", "set"}  # judged against the algorithm's own search
    names = ([algorithm] if hows & own else []) + (["minimax"] if hows - own else [])
    return f"reference ({'; '.join(names)})"


@dataclass(frozen=True)
class Settings:
    """What a verdict depends on besides the tree and the window."""

    algorithm: str = "bratko"
    depth: int | None = None
    compare: tuple[str, ...] = ("all",)
    agents: int | None = None  # K agents in turn: sent to the program with the job


def minimax_values(tree: Tree, depth: int | None = None) -> list[Number | None]:
    """The minimax value of every node (None below a depth limit), each
    node maximising or minimising by its own side to move."""
    vals: list[Number | None] = [None] * len(tree)
    for i in range(len(tree) - 1, -1, -1):  # a child's id is above its parent's
        d, kids = tree.depth[i], tree.kids[i]
        if depth is not None and d > depth:
            continue
        if not kids or (depth is not None and d == depth):
            if tree.values[i] is None:
                raise ValueError(f"node {tree.names[i]!r} at depth {d} has no static value")
            vals[i] = tree.values[i]
        else:
            kv = [vals[k] for k in kids]
            vals[i] = max(kv) if tree.is_max_id(i) else min(kv)  # type: ignore[type-var]
    return vals


def value_correct(v: Number, minimax: Number, alpha: Number, beta: Number) -> bool:
    """Is ``v`` a correct alpha-beta answer for a node of minimax value
    ``minimax`` searched in ``alpha..beta``?  Inside the window it must be
    the value; at or below alpha (above beta) it may be any bound at or
    below alpha (at or above beta) -- the fail-low/fail-high answers."""
    if alpha < minimax < beta:
        return v == minimax
    if minimax <= alpha:
        return v <= alpha
    return v >= beta


def show(v: Any) -> str:
    if v is None:
        return "(none)"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return bound_text(v)
    if isinstance(v, tuple):
        return " ".join(v) if v else "(none)"
    return str(v)


@dataclass
class Verdict:
    """One tree judged.  ``lines`` are the differences (or the reason),
    readable; ``keys`` name what differs, so that a shrunk tree can be
    checked to show the *same* disagreement (:meth:`same`)."""

    status: str                     # "agree" | "disagree" | "error"
    kind: str                       # a key of KINDS
    tree: Tree
    alpha: Number
    beta: Number
    lines: list[str] = field(default_factory=list)
    keys: frozenset[str] = frozenset()
    yours: Result | None = None
    error: ProgramError | None = None

    @property
    def exit(self) -> int:
        return {"agree": 0, "disagree": 1, "error": 3}[self.status]

    def same(self, other: "Verdict") -> bool:
        return (self.status, self.kind, self.keys) == (other.status, other.kind, other.keys)

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.status, "kind": self.kind,
                "window": [json_number(self.alpha), json_number(self.beta)],
                "nodes": len(self.tree), "differences": list(self.lines)}


class References:
    """The reference's results on a fixed set of trees, each computed once
    by :func:`judge` while :func:`sharing` them: a class's submissions are
    judged on the same trees (:mod:`pyab.grade.run`).  Trees are known by
    identity; the set keeps them alive, so an id is never another tree's."""

    def __init__(self, trees: Iterable[Tree]) -> None:
        self._by_id: dict[int, tuple[Tree, dict[tuple, Result]]] = {id(t): (t, {}) for t in trees}

    def of(self, tree: Tree) -> dict[tuple, Result] | None:
        entry = self._by_id.get(id(tree))
        return entry[1] if entry is not None and entry[0] is tree else None


_SHARED: ContextVar[References | None] = ContextVar("pyab_shared_references", default=None)


@contextmanager
def sharing(refs: References) -> Iterator[None]:
    """:func:`judge` (in this thread) reads and fills ``refs``."""
    token = _SHARED.set(refs)
    try:
        yield
    finally:
        _SHARED.reset(token)


def judge(route: Any, tree: Tree, alpha: Number, beta: Number, settings: Settings) -> Verdict:
    """Run ``route``'s program on ``tree`` in ``alpha..beta`` and judge it.
    A reference that refuses the tree raises (bad input: the caller names
    the file); the program's own failures are verdicts."""
    given = tree
    if settings.agents:  # K agents in turn: every tree judged (a shrunk one too) has their sides
        from ..trees.randomtrees import with_agents
        tree = with_agents(tree, settings.agents)
    checks = _checks(settings.compare)
    ref = None
    if _needs_own(settings.compare):
        shared = _SHARED.get()
        memo = shared.of(given) if shared is not None else None
        key = (settings.algorithm, settings.depth, settings.agents, type(alpha), alpha, type(beta), beta)
        ref = memo.get(key) if memo is not None else None
        if ref is None:
            if settings.algorithm == "minimax" and not tree.alternating:
                from .cs188 import minimax  # MIN after MIN (ghosts): each node asked its side
                ref = minimax(tree, settings.depth)
            else:
                if settings.depth is not None or not plain_search(tree, settings.algorithm,
                                                                  alpha, beta):
                    check_search(tree, settings.algorithm, alpha, beta, depth=settings.depth)
                ref = mirror.solve_python(tree, settings.algorithm, alpha, beta, settings.depth)
            if memo is not None:
                memo[key] = ref
    try:
        agrees = getattr(route, "agrees", None)  # a route that tells a plain agreement from its record
        if agrees is not None and ref is not None and settings.agents is None:
            quick = agrees(tree, alpha, beta, settings.depth, checks, ref)
            if quick is not None:
                return Verdict("agree", "agree", tree, alpha, beta, yours=quick)
        yours = route.search(tree, alpha, beta, depth=settings.depth, agents=settings.agents)
    except SearchBug as bug:
        return Verdict("disagree", bug.kind, tree, alpha, beta, [bug.reason], frozenset([bug.kind]))
    except ProgramError as err:
        return Verdict("error", err.kind, tree, alpha, beta, [err.reason], error=err)
    lines, keys = _compare(tree, alpha, beta, settings, checks, ref, yours, route.label)
    if lines:
        return Verdict("disagree", "differs", tree, alpha, beta, lines, frozenset(keys), yours)
    return Verdict("agree", "agree", tree, alpha, beta, yours=yours)


def _compare(tree: Tree, alpha: Number, beta: Number, settings: Settings,
             checks: tuple[tuple[str, str], ...], ref: Result | None, yours: Result,
             label: str) -> tuple[list[str], list[str]]:
    mm: list[Number | None] | None = None

    def minimax() -> list[Number | None]:
        nonlocal mm
        if mm is None:
            mm = minimax_values(tree, settings.depth)
        return mm

    def root_value() -> Number:
        v = minimax()[0]
        assert v is not None  # the root is never below a depth limit
        return v

    def optimal() -> list[str]:
        v = minimax()
        return [tree.names[k] for k in tree.kids[0] if v[k] == v[0]]

    ids: Any = None

    def same_ids(f: str) -> bool:  # both records' node ids equal: the names are (none made)
        nonlocal ids
        if ids is None:
            ids = (record_ids(ref), record_ids(yours)) if ref is not None else (None, None)
        a, b = ids
        return a is not None and b is not None and a[f == "leaves"] == b[f == "leaves"]

    lines: list[str] = []
    keys: list[str] = []
    for f, how in checks:
        if how == "exact" and (f == "leaves" or f == "visited") and same_ids(f):
            continue
        b = getattr(yours, f, None)
        note = ""
        if how == "set":  # the states generated, as a set (pyab.referee.cs188)
            from .cs188 import generated_differences
            ref_label = reference_label(settings.algorithm, settings.compare, how)
            diff = generated_differences(tree, ref, yours, ref_label, label)  # type: ignore[arg-type]
            diff = [d for d in diff if d.startswith("generated")]
            if diff:
                keys.append("generated:set")
                lines += diff
            continue
        if how == "exact":
            a = getattr(ref, f)
            if f == "value":
                if b is None:  # the aima interface returns an action only
                    continue
                same = (a == b if a.__class__ is int and b.__class__ is int  # the usual: no text
                        else bound_text(a) == bound_text(b))
            else:
                same = a == b
            if same:  # (what is shown is made only for a difference)
                continue
            shown = show(a)
        elif how == "minimax":
            if b is None:
                continue
            a = root_value()
            if value_correct(b, a, alpha, beta):
                continue
            shown = show(a)
            if not alpha < a < beta:
                note = (f"\n    (the minimax value is outside the window {show(alpha)} .. {show(beta)}: "
                        "any bound on the same side is correct)")
        else:  # an optimal move: asked only when the root's value is inside the window
            v0 = root_value()
            moves = optimal()
            if not tree.kids[0] or not alpha < v0 < beta or b in moves:
                continue
            shown = f"any of {', '.join(moves)} (value {show(v0)})"
        ref_label = reference_label(settings.algorithm, settings.compare, how)
        key = f"{f}:{how}"
        if f == "best":  # a wrong move stays wrong, a tie stays a tie, when shrunk
            key += ":optimal" if b in optimal() else ":suboptimal"
        keys.append(key)
        width = max(len(ref_label), len(label)) + 1
        line = f"{f}:\n    {ref_label + ':':<{width}} {shown}\n    {label + ':':<{width}} {show(b)}"
        if f == "best" and b is not None and minimax()[tree.index[b]] is not None:
            line += f" (value {show(minimax()[tree.index[b]])})"
        line += note
        if isinstance(b, tuple):
            line += "\n    " + _first_step(a, b)
        lines.append(line)
    return lines, keys


def _first_step(a: tuple, b: tuple) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at step {i + 1}: reference {x}, yours {y}"
    who, longer = ("yours", b) if len(b) > len(a) else ("the reference", a)
    return f"first difference at step {min(len(a), len(b)) + 1}: only {who} goes on, " \
           f"with {longer[min(len(a), len(b))]}"
