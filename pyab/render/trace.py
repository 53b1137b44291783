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

and three that explain (worked out from the observed values, by the rules
of :mod:`pyab.render.explain`; betterof/6 itself is not wrapped):

``test``     the cut test in ``node`` after ``child`` returned ``value``
             failed: ``value test limit`` is false (``bound`` says which of
             alpha and beta ``limit`` is); a ``bounds`` step follows
``betterof`` bratko's betterof/6 in ``node``: ``child``/``value`` against the
             best of the later children ``rival``/``rival_value``; the
             winner is ``good``/``good_value`` (the later wins a tie)
``tie``      any other algorithm: ``child`` ties the best so far ``rival``,
             and ``good`` is the one it keeps (the first)

``bounds``, ``test`` and ``tie`` steps carry the best child so far in
``good``/``good_value``; a ``cut`` step names its bound: ``cut`` is
"alpha", "beta" or "direct" (Hsu: the tree's extreme value, ``bound``
"largest" or "smallest"), ``test`` the comparison that held and ``limit``
the bound's value.

For every other algorithm the steps come from the Python mirror's frames
(``Recorder.enter``/``back`` in ``pyab.search``): each call with its window
(from MAX's point of view), each static value read, each value returned;
``bounds`` steps are the window changes between one child's call and the
next, a ``cut`` step is a node left with children unsearched after its last
child returned (a beta-cut at a MAX node, an alpha-cut at a MIN node).  With
``engine="prolog"`` the Prolog run is observed first and the mirror's frames
are used only when its result (best, value, leaves, visited, pruned) equals
the Prolog run's; ``Trace.frames`` says where the steps came from:

``"observed"``  every step observed in the engine that ran (bratko)
``"mirror"``    the Python mirror's frames, its result checked equal to the
                Prolog run's (every other algorithm, prolog engine)
``"python"``    the Python mirror's own frames (python engine)
``"rebuilt"``   rebuilt from the observed calls, leaves and cuts, without
                windows (a mirror that disagrees with the Prolog run)

``Trace.exact`` is False only for ``"rebuilt"``.

A node the depth limit scored by its static value gets a ``horizon`` step
(its children are ``Result.horizon``), whichever way the steps were made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Iterable

from ..result import Result, bound_text, json_number
from ..tree import Number, Tree

__all__ = ["FRAMES", "KINDS", "Step", "Trace", "explain", "from_events", "from_frames", "reconstruct", "trace"]

KINDS = ("call", "leaf", "test", "bounds", "betterof", "tie", "cut", "return", "horizon")

# Where a trace's steps came from (Trace.frames), in words for the pictures.
FRAMES = {
    "observed": "every step observed",
    "mirror": "steps from the Python mirror, whose result equals the observed Prolog run's",
    "python": "steps from the Python mirror",
    "rebuilt": "steps rebuilt from the observed calls, leaves and cuts (no windows)",
}


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
    good: str | None = None            # the best child so far (GoodPos)
    good_value: Number | None = None   # and its value
    rival: str | None = None           # betterof/tie: the child compared with
    rival_value: Number | None = None
    bound: str | None = None           # test: "alpha" or "beta"
    test: str | None = None            # test/cut: the comparison (">", ">=", "<", "<=", "=")
    limit: Number | None = None        # test/cut: the bound's value

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
        if self.kind == "test":
            from .explain import test_text
            assert self.test and self.bound and self.value is not None and self.limit is not None
            return f"no cut: {test_text(self.test, self.value, self.bound, self.limit, n)}"
        if self.kind == "betterof":
            v, w = self.value, self.rival_value
            assert v is not None and w is not None
            op = "<" if self.test == "<" else ">"
            held = v < w if op == "<" else v > w
            head = f"betterof({self.child}, {n(v)}, {self.rival}, {n(w)}): {n(v)} {op} {n(w)} is "
            if held:
                return head + f"true, so {self.child} = {n(v)} is better"
            if v == w:
                return head + f"false, a tie: the later {self.rival} = {n(w)} wins"
            return head + f"false, so {self.rival} = {n(w)} is kept"
        if self.kind == "tie":
            return (f"tie: {self.child} = {n(self.value)} equals the best so far, {self.rival}; "
                    f"{self.good} is kept (only a strictly better value replaces it)")
        if self.kind == "cut":
            gone = ", ".join(self.removed)
            v = self.value
            if self.cut == "direct" and v is not None:
                return (f"direct cut-off ({self.child} = {n(v)} = the {self.bound} value the "
                        f"tree holds, {n(self.limit)}: nothing can do better): {gone} never searched")
            if self.cut in ("alpha", "beta") and self.test and self.limit is not None and v is not None:
                why = f"{self.child} = {n(v)} {self.test} {self.cut} {n(self.limit)}"
                if self.good_value is not None:  # the best so far cut, not the child (Hsu's m)
                    why = (f"m = {n(self.good_value)}, the best so far, {self.test} {self.cut} "
                           f"{n(self.limit)}; {self.child} = {n(v)}")
                return f"{self.cut} cut-off ({why}): {gone} never searched"
            if self.child is not None and v is not None:
                return f"cut-off after {self.child} = {n(v)}: {gone} never searched"
            return f"cut-off: {gone} never searched"
        if self.kind == "horizon":
            return (f"depth limit: {self.node} is scored by its static value; "
                    f"{', '.join(self.removed)} not searched (the horizon, not a cut-off)")
        if self.kind == "return":
            if self.value is None:
                return f"{self.node} done"
            best = f"GoodPos = {self.best}, " if self.best is not None else ""
            return f"{self.node} returns {best}Val = {n(self.value)}"
        return self.kind


_NUMBERS = {"alpha", "beta", "value", "new_alpha", "new_beta", "good_value", "rival_value", "limit"}


def _num(x: Number | None) -> str:
    return "" if x is None else bound_text(x)


@dataclass(frozen=True)
class Trace:
    """A search, step by step, with its result.

    ``exact`` is False when the steps were rebuilt from the generic
    observation (no windows); ``frames`` says where they came from (a key
    of :data:`FRAMES`).
    """

    tree: Tree = field(repr=False, compare=False)
    steps: tuple[Step, ...]
    result: Result
    alpha: Number
    beta: Number
    exact: bool
    frames: str = "observed"

    @property
    def source(self) -> str:
        """Where the steps came from, in words (for a picture's caption)."""
        return FRAMES.get(self.frames, self.frames)

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
            "frames": self.frames,
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

    def called(self) -> dict[str, tuple[Number, Number]]:
        """The window each node was called with (its first call), where observed."""
        out: dict[str, tuple[Number, Number]] = {}
        for s in self.steps:
            if s.kind == "call" and s.alpha is not None and s.node not in out:
                out[s.node] = (s.alpha, s.beta)  # type: ignore[assignment]
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
    from ..api import expect_tree
    expect_tree(tree, "pyab.render.trace.trace")
    if algorithm == "bratko":
        from ..engines import check_search
        from ..engines import traced
        from ..engines import finish
        check_search(tree, algorithm, alpha, beta, depth=depth, timeout=timeout)  # as pyab.solve
        result, events = traced(tree, engine, alpha, beta, timeout=timeout)
        return from_events(tree, events, finish(result, tree, alpha, beta), alpha, beta)
    from ..engines import solve
    result = solve(tree, engine, algorithm, alpha, beta, depth=depth, timeout=timeout)
    return explain(tree, result, alpha, beta, depth)


def explain(tree: Tree, result: Result, alpha: Number = -math.inf, beta: Number = math.inf,
            depth: int | None = None) -> Trace:
    """The steps of a search already run: the Python mirror runs the same
    search with its frames recorded, and they are used when its result
    equals ``result`` (best, value, leaves, visited, pruned); otherwise
    the steps are rebuilt from ``result`` alone (``frames="rebuilt"``).
    The window and depth must be the ones ``result`` was searched with."""
    from ..engines import differences
    from ..engines import named_events
    from ..search import python_search
    raw: list[tuple[Any, ...]] = []
    try:
        if result.algorithm == "bratko":
            from ..search.bratko import search
            mirror = search(tree, alpha, beta, observe=lambda *e: raw.append(e))
        else:
            mirror = python_search(result.algorithm)(tree, alpha, beta, depth=depth,
                                                     observe=lambda *e: raw.append(e))
    except ValueError:  # an algorithm without a mirror, or a window it refuses
        return reconstruct(tree, result, alpha, beta)
    from ..engines import finish
    mirror = finish(mirror, tree, alpha, beta)  # horizon apart from pruned, as for result
    if differences(result, mirror):  # the frames would not be this run's: say so
        return reconstruct(tree, result, alpha, beta)
    frames = "python" if result.engine == "python" else "mirror"
    if result.algorithm == "bratko":
        tr = from_events(tree, named_events(tree, raw), result, alpha, beta)
        return Trace(tree, tr.steps, result, alpha, beta, exact=True, frames=frames)
    return from_frames(tree, named_events(tree, raw), result, alpha, beta, frames)


def _parents(tree: Tree) -> dict[str, str]:
    return {tree.names[k]: tree.names[i] for i, ks in enumerate(tree.kids) for k in ks}


def from_events(tree: Tree, events: Iterable[tuple[Any, ...]], result: Result,
                alpha: Number, beta: Number) -> Trace:
    """A :class:`Trace` from raw events (as ``pyab.prolog.solve_traced``
    returns them, with names).  bounds and cut events name the child; the
    step is about its parent.  Each bounds step is preceded by the
    goodenough/7 test that failed, and each inner node's return by the
    betterof/6 calls that chose its GoodPos (the later child wins a tie)."""
    parent = _parents(tree)
    depth = tree.depth
    index = tree.index
    steps: list[Step] = []
    searched: dict[str, list[tuple[str, Number]]] = {}  # node -> (child, value) so far

    def best_so_far(node: str) -> tuple[str | None, Number | None]:
        good, val = None, None
        at_max = tree.is_max_id(index[node])
        for c, v in searched.get(node, ()):
            if val is None or v == val or (v > val if at_max else v < val):
                good, val = c, v  # betterof/6: the later child wins a tie
        return good, val

    for e in events:
        kind, pos = e[0], e[1]
        if kind == "call":
            steps.append(Step("call", pos, depth[index[pos]], alpha=e[2], beta=e[3]))
        elif kind == "leaf":
            steps.append(Step("leaf", pos, depth[index[pos]], value=e[2]))
        elif kind == "bounds":
            p = parent[pos]
            good, val = best_so_far(p)
            child_min = not tree.is_max_id(index[pos])  # goodenough asks min_to_move(Pos)
            d = depth[index[p]]
            steps.append(Step("test", p, d, child=pos, value=e[2], alpha=e[3], beta=e[4],
                              bound="beta" if child_min else "alpha",
                              test=">" if child_min else "<", limit=e[4] if child_min else e[3],
                              good=good, good_value=val))
            steps.append(Step("bounds", p, d, child=pos, value=e[2], alpha=e[3],
                              beta=e[4], new_alpha=e[5], new_beta=e[6], good=good, good_value=val))
        elif kind == "cut":
            p = parent[pos]
            steps.append(Step("cut", p, depth[index[p]], child=pos, value=e[2], alpha=e[3],
                              beta=e[4], cut=e[5], removed=tuple(e[6]),
                              test=">" if e[5] == "beta" else "<",
                              limit=e[4] if e[5] == "beta" else e[3]))
        elif kind == "return":
            kids = searched.pop(pos, [])
            if kids:
                steps.extend(_betterof(tree, pos, kids, depth[index[pos]]))
            steps.append(Step("return", pos, depth[index[pos]], best=e[2], value=e[3]))
            if pos in parent:
                searched.setdefault(parent[pos], []).append((pos, e[3]))
        else:
            raise ValueError(f"unknown trace event {kind!r}")
    return Trace(tree, tuple(steps), result, alpha, beta, exact=True)


def _betterof(tree: Tree, node: str, kids: list[tuple[str, Number]], d: int) -> list[Step]:
    """The betterof/6 calls of ``node``'s goodenough/7 chain as it unwinds:
    the last child searched first, each earlier child against the winner
    of the later ones (clause 1: the earlier only when strictly better)."""
    out = []
    good, good_v = kids[-1]
    for child, v in reversed(kids[:-1]):
        child_max = tree.is_max_id(tree.index[child])  # betterof asks max_to_move(Pos)
        op = "<" if child_max else ">"
        rival, rival_v = good, good_v
        if (v < rival_v) if child_max else (v > rival_v):
            good, good_v = child, v
        out.append(Step("betterof", node, d, child=child, value=v, rival=rival,
                        rival_value=rival_v, test=op, good=good, good_value=good_v))
    return out


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
    return Trace(tree, tuple(steps), result, alpha, beta, exact=False, frames="rebuilt")


@dataclass
class _Frame:
    node: str
    window: tuple[Any, Any]
    child: str | None = None     # the child that returned last
    value: Number | None = None  # and its value
    good: str | None = None      # the best child so far, by the algorithm's tie rule
    good_value: Number | None = None


def from_frames(tree: Tree, events: Iterable[tuple[Any, ...]], result: Result,
                alpha: Number, beta: Number, frames: str) -> Trace:
    """A :class:`Trace` from a mirror's frames (``("call", node, alpha,
    beta)``, ``("leaf", node, value)``, ``("return", node, best, value)``,
    with names, from MAX's point of view; see ``Recorder``).  Bounds and cut
    steps are derived as the module docstring says, the test, tie and cut
    explanations by the algorithm's rule (:mod:`pyab.render.explain`);
    ``result`` is the run the trace is about (the Prolog run's, checked
    equal to the mirror's)."""
    from .explain import cuts, operator, replaces, rule
    r = rule(result.algorithm)
    lo = hi = None
    if r.direct:
        from ..search.hsu import value_range
        lo, hi = value_range(tree)
    depth, index = tree.depth, tree.index
    pruned, horizon = set(result.pruned), set(result.horizon)
    steps: list[Step] = []
    stack: list[_Frame] = []

    def cut_step(top: _Frame, node: str, d: int, gone: tuple[str, ...]) -> Step:
        at_max = tree.is_max_id(index[node])
        v, (a, b) = top.value, top.window
        kw: dict[str, Any] = {}
        if r.strict is not None and v is not None:
            op, lim = operator(r, at_max), (b if at_max else a)
            m = top.good_value  # the best so far: Hsu's m
            if r.m_from_bound and (a if at_max else b) is not None:
                start = a if at_max else b
                m = start if m is None else (max(m, start) if at_max else min(m, start))
            if lim is not None and cuts(op, v, lim):
                kw = dict(cut="beta" if at_max else "alpha", test=op, limit=lim)
            elif lim is not None and m is not None and cuts(op, m, lim):
                kw = dict(cut="beta" if at_max else "alpha", test=op, limit=lim,
                          good=top.good, good_value=m)
            elif r.direct and m == (hi if at_max else lo):
                kw = dict(cut="direct", test="=", limit=m, good=top.good, good_value=m,
                          bound="largest" if at_max else "smallest")
        return Step("cut", node, d, child=top.child, value=v, alpha=a, beta=b,
                    removed=gone, **kw)

    for e in events:
        kind, node = e[0], e[1]
        d = depth[index[node]]
        if kind == "call":
            a, b = e[2], e[3]
            if stack and stack[-1].child is not None:
                top = stack[-1]
                if a is not None and top.window[0] is not None:
                    # the node's own window: a MAX node passes its beta on, a MIN node its
                    # alpha (Hsu's F2 passes one bound only: the other stays the node's)
                    wa, wb = top.window
                    a_node, b_node = (a, wb) if tree.is_max_id(index[top.node]) else (wa, b)
                else:
                    a_node, b_node = a, b
                if a is not None:
                    pd, at_max = depth[index[top.node]], tree.is_max_id(index[top.node])
                    ta, tb = top.window
                    bound, lim, op = ("beta", tb, operator(r, at_max)) if at_max else \
                        ("alpha", ta, operator(r, at_max))
                    if r.gated and top.value is not None and \
                            not cuts(">" if at_max else "<", top.value, ta if at_max else tb):
                        # module22: no better than the pass threshold, so no cut test at all
                        bound, lim, op = ("alpha", ta, ">") if at_max else ("beta", tb, "<")
                    if r.strict is not None and lim is not None:
                        steps.append(Step("test", top.node, pd, child=top.child, value=top.value,
                                          alpha=ta, beta=tb, bound=bound, test=op, limit=lim,
                                          good=top.good, good_value=top.good_value))
                    steps.append(Step("bounds", top.node, pd, child=top.child,
                                      value=top.value, alpha=ta, beta=tb,
                                      new_alpha=a_node, new_beta=b_node, good=top.good,
                                      good_value=top.good_value))
                    top.window = (a_node, b_node)
            elif stack and a is not None and stack[-1].window[0] is None:
                stack[-1].window = (a, b)  # a node entered without a window of its own
            stack.append(_Frame(node, (a, b)))
            steps.append(Step("call", node, d, alpha=a, beta=b))
        elif kind == "leaf":
            steps.append(Step("leaf", node, d, value=e[2]))
        elif kind == "return":
            best, value = e[2], e[3]
            while stack and stack[-1].node != node:
                stack.pop()  # a frame that never reported back (not expected)
            top = stack.pop() if stack else _Frame(node, (None, None))
            if top.child is not None:
                gone = tuple(c for c in tree.children(node) if c in pruned)
                if gone:
                    steps.append(cut_step(top, node, d, gone))
            unsearched = tuple(c for c in tree.children(node) if c in horizon)
            if unsearched:
                steps.append(Step("horizon", node, d, removed=unsearched))
            steps.append(Step("return", node, d, best=best, value=value))
            if stack:
                up = stack[-1]
                up.child, up.value = node, value
                at_max = tree.is_max_id(index[up.node])
                if up.good_value is not None and value == up.good_value and not r.later_wins:
                    steps.append(Step("tie", up.node, depth[index[up.node]], child=node,
                                      value=value, rival=up.good, rival_value=up.good_value,
                                      good=up.good, good_value=up.good_value))
                elif replaces(r, at_max, value, up.good_value):
                    up.good, up.good_value = node, value
        else:
            raise ValueError(f"unknown frame event {kind!r}")
    return Trace(tree, tuple(steps), result, alpha, beta, exact=True, frames=frames)
