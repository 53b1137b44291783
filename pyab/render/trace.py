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
from dataclasses import dataclass
from typing import Any, Iterable

from ..result import Result
from ..tree import Number, Tree
from .steps import FRAMES, KINDS, Step, Trace
from .steps import _num as _num  # the tests' name for it

__all__ = ["FRAMES", "KINDS", "Step", "Trace", "explain", "from_events", "from_frames", "reconstruct", "trace"]


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
