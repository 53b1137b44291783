"""The search step by step, as on the slides' Alpha/Beta/GoodPos/Val frames.

For the slides' program (``bratko``) a trace is *observed* on both sides:

* ``prolog``: SWI-Prolog runs ``prolog/alphabeta.pl`` unchanged, with
  alphabeta/5, newbounds/6 and goodenough/7 of the program module and
  staticval/2 of the tree module wrapped (``solve_traced/8`` in
  ``prolog/pyab_bridge.pl``);
* ``python``: the mirror (``pyab.search.bratko``) reports the same points
  through its ``observe`` hook.

Both give the same five kinds of step, in the order they happen:

``call``    alphabeta/5 is called on ``node`` with the window alpha..beta
``leaf``    the static value of ``node`` is read (``value``)
``bounds``  newbounds/6 answered in ``node`` after ``child`` returned
            ``value``: the window alpha..beta becomes new_alpha..new_beta
            (possibly unchanged)
``cut``     goodenough/7 cut: ``child`` returned ``value`` outside the
            window, ``removed`` (the siblings after it) are never searched;
            ``cut`` says "alpha" (value < alpha) or "beta" (value > beta)
``return``  alphabeta/5 answers for ``node``: GoodPos ``best``, Val ``value``
``horizon`` the depth limit scored ``node`` by its static value: ``removed``
            (its children) are not searched, and that is no cut-off

For every other algorithm the trace is *reconstructed* from the generic
observation (the order of calls, the leaves read, the cut-off subtrees):
``call`` and ``leaf`` steps in the observed order, one ``cut`` step per node
that was left with children unsearched (kind unknown), one ``horizon`` step
per node the depth limit scored (its children are ``Result.horizon``), ``return`` steps
without values except the root's.  ``Trace.exact`` is False for those.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Iterable

from .result import Result, json_number
from .tree import Number, Tree

__all__ = ["KINDS", "Step", "Trace", "from_events", "reconstruct", "trace"]

KINDS = ("call", "leaf", "bounds", "cut", "return", "horizon")


@dataclass(frozen=True)
class Step:
    """One step of a search (see the module docstring for each ``kind``)."""

    kind: str
    node: str
    depth: int
    alpha: Number | None = None
    beta: Number | None = None
    value: Number | None = None
    best: str | None = None
    child: str | None = None
    new_alpha: Number | None = None
    new_beta: Number | None = None
    cut: str | None = None
    removed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None or v == ():
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else json_number(v) if f.name in _NUMBERS else v
        return out

    def text(self) -> str:
        """What happens in this step, in words."""
        n = _num
        if self.kind == "call":
            if self.alpha is None:  # a reconstructed trace: no window observed
                return f"search {self.node}"
            return f"alphabeta({self.node}, {n(self.alpha)}, {n(self.beta)})"
        if self.kind == "leaf":
            return f"staticval({self.node}) = {n(self.value)}"
        if self.kind == "bounds":
            changes = []
            if self.new_alpha != self.alpha:
                changes.append(f"alpha {n(self.alpha)} -> {n(self.new_alpha)}")
            if self.new_beta != self.beta:
                changes.append(f"beta {n(self.beta)} -> {n(self.new_beta)}")
            what = ", ".join(changes) if changes else "window kept"
            return f"newbounds after {self.child} = {n(self.value)}: {what}"
        if self.kind == "cut":
            gone = ", ".join(self.removed)
            if self.cut == "alpha":
                why = f"{self.child} = {n(self.value)} < alpha {n(self.alpha)}"
            elif self.cut == "beta":
                why = f"{self.child} = {n(self.value)} > beta {n(self.beta)}"
            else:
                return f"cut-off: {gone} never searched"
            return f"{self.cut} cut-off ({why}): {gone} never searched"
        if self.kind == "horizon":
            return (f"depth limit: {self.node} is scored by its static value; "
                    f"{', '.join(self.removed)} not searched (the horizon, not a cut-off)")
        if self.kind == "return":
            if self.value is None:
                return f"{self.node} done"
            best = f"GoodPos = {self.best}, " if self.best is not None else ""
            return f"{self.node} returns {best}Val = {n(self.value)}"
        return self.kind


_NUMBERS = {"alpha", "beta", "value", "new_alpha", "new_beta"}


def _num(x: Number | None) -> str:
    if x is None:
        return ""
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    from .facts import number
    return number(x)


@dataclass(frozen=True)
class Trace:
    """A search, step by step, with its result.

    ``exact`` is True when every step was observed (the slides' program),
    False when the steps were reconstructed from the generic observation.
    """

    tree: Tree = field(repr=False, compare=False)
    steps: tuple[Step, ...]
    result: Result
    alpha: Number
    beta: Number
    exact: bool

    @property
    def engine(self) -> str:
        return self.result.engine

    @property
    def algorithm(self) -> str:
        return self.result.algorithm

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        out.update({
            "alpha": json_number(self.alpha),
            "beta": json_number(self.beta),
            "exact": self.exact,
            "steps": [s.to_json() for s in self.steps],
        })
        return out

    # -- the final picture: what each node ended up with ---------------------
    def values(self) -> dict[str, Number]:
        """The value each node returned (or was read as), where known."""
        out: dict[str, Number] = {}
        for s in self.steps:
            if s.kind in ("leaf", "return") and s.value is not None:
                out[s.node] = s.value
        if self.result.visited:
            out[self.tree.root] = self.result.value
        return out

    def windows(self) -> dict[str, tuple[Number, Number]]:
        """Each node's final window, where observed: the window it was
        called with, as newbounds/6 last left it inside that node."""
        out: dict[str, tuple[Number, Number]] = {}
        for s in self.steps:
            if s.kind == "call" and s.alpha is not None:
                out[s.node] = (s.alpha, s.beta)  # type: ignore[assignment]
            elif s.kind == "bounds":
                out[s.node] = (s.new_alpha, s.new_beta)  # type: ignore[assignment]
        return out

    def cuts(self) -> dict[str, str | None]:
        """Each cut-off subtree root -> "alpha", "beta" or None (unknown)."""
        out: dict[str, str | None] = {}
        for s in self.steps:
            if s.kind == "cut":
                for r in s.removed:
                    out[r] = s.cut
        return out

    def best_line(self) -> list[str]:
        """The chosen line from the root: GoodPos, then GoodPos of that, ...
        as far as the steps tell (only the root's move for a reconstruction)."""
        best = {s.node: s.best for s in self.steps if s.kind == "return" and s.best is not None}
        if self.result.best is not None:
            best[self.tree.root] = self.result.best
        line = [self.tree.root]
        while line[-1] in best and len(line) <= len(self.tree):
            line.append(best[line[-1]])
        return line


def trace(tree: Tree, engine: str = "prolog", algorithm: str = "bratko",
          alpha: Number = -math.inf, beta: Number = math.inf, *,
          depth: int | None = None, timeout: float | None = None) -> Trace:
    """Search ``tree`` and return its :class:`Trace`.

    ``bratko`` is observed step by step in either engine; any other
    algorithm is run normally and its trace reconstructed (``exact`` False).
    """
    if algorithm == "bratko":
        from .arguments import check_search
        from .result import finish
        from .tree import check_window
        check_search(tree, algorithm, alpha, beta, depth=depth, timeout=timeout)  # as pyab.solve
        check_window(tree, alpha, beta)  # as pyab.solve: both engines compare alike
        if engine == "prolog":
            from .prolog import solve_traced
            result, events = solve_traced(tree, alpha, beta, timeout=timeout)
            return from_events(tree, events, finish(result, tree, alpha, beta), alpha, beta)
        if engine == "python":
            from .search.bratko import search
            raw: list[tuple[Any, ...]] = []
            result = search(tree, alpha, beta, observe=lambda *e: raw.append(e))
            return from_events(tree, _named(tree, raw), finish(result, tree, alpha, beta),
                               alpha, beta)
        raise ValueError(f"unknown engine {engine!r} (known: prolog, python)")
    from . import solve
    result = solve(tree, engine=engine, algorithm=algorithm, alpha=alpha, beta=beta,
                   depth=depth, timeout=timeout)
    return reconstruct(tree, result, alpha, beta)


def _named(tree: Tree, raw: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The mirror's events with node ids turned into names."""
    name = tree.name_of
    out = []
    for e in raw:
        kind = e[0]
        if kind == "cut":
            out.append((*e[:1], name(e[1]), *e[2:6], tuple(name(r) for r in e[6])))
        elif kind == "return":
            out.append((kind, name(e[1]), None if e[2] is None else name(e[2]), e[3]))
        else:
            out.append((kind, name(e[1]), *e[2:]))
    return out


def _parents(tree: Tree) -> dict[str, str]:
    return {tree.names[k]: tree.names[i] for i, ks in enumerate(tree.kids) for k in ks}


def from_events(tree: Tree, events: Iterable[tuple[Any, ...]], result: Result,
                alpha: Number, beta: Number) -> Trace:
    """A :class:`Trace` from raw events (as ``pyab.prolog.solve_traced``
    returns them, with names).  bounds and cut events name the child; the
    step is about its parent."""
    parent = _parents(tree)
    depth = tree.depth
    index = tree.index
    steps = []
    for e in events:
        kind, pos = e[0], e[1]
        if kind == "call":
            steps.append(Step("call", pos, depth[index[pos]], alpha=e[2], beta=e[3]))
        elif kind == "leaf":
            steps.append(Step("leaf", pos, depth[index[pos]], value=e[2]))
        elif kind == "bounds":
            p = parent[pos]
            steps.append(Step("bounds", p, depth[index[p]], child=pos, value=e[2], alpha=e[3],
                              beta=e[4], new_alpha=e[5], new_beta=e[6]))
        elif kind == "cut":
            p = parent[pos]
            steps.append(Step("cut", p, depth[index[p]], child=pos, value=e[2], alpha=e[3],
                              beta=e[4], cut=e[5], removed=tuple(e[6])))
        elif kind == "return":
            steps.append(Step("return", pos, depth[index[pos]], best=e[2], value=e[3]))
        else:
            raise ValueError(f"unknown trace event {kind!r}")
    return Trace(tree, tuple(steps), result, alpha, beta, exact=True)


def reconstruct(tree: Tree, result: Result, alpha: Number = -math.inf,
                beta: Number = math.inf) -> Trace:
    """A trace rebuilt from a result's observed calls, leaves and cuts (for
    algorithms without a step-by-step observation).  A node is closed when
    the search is next called outside its subtree."""
    parent = _parents(tree)
    depth, index = tree.depth, tree.index
    read = set(result.leaves)
    pruned = set(result.pruned)
    horizon = set(result.horizon)
    steps: list[Step] = []
    stack: list[str] = []

    def close(node: str) -> None:
        gone = tuple(c for c in tree.children(node) if c in pruned)
        d = depth[index[node]]
        if gone:
            steps.append(Step("cut", node, d, removed=gone))
        unsearched = tuple(c for c in tree.children(node) if c in horizon)
        if unsearched:
            steps.append(Step("horizon", node, d, removed=unsearched))
        if node == tree.root:
            steps.append(Step("return", node, d, best=result.best, value=result.value))
        else:
            steps.append(Step("return", node, d, value=tree.value(node) if node in read else None))

    for v in result.visited:
        p = parent.get(v)
        while stack and stack[-1] != p:
            close(stack.pop())
        steps.append(Step("call", v, depth[index[v]]))
        if v in read:
            steps.append(Step("leaf", v, depth[index[v]], value=tree.value(v)))
        stack.append(v)
    while stack:
        close(stack.pop())
    return Trace(tree, tuple(steps), result, alpha, beta, exact=False)
