"""The one way into the two engines: which engine runs a search, and the
same search in both, compared.

Every caller (``pyab.solve``, ``pyab check``, ``variants``, ``experiment``,
``trace``, ``game``) goes through :func:`solve` or :func:`traced`; nothing
else asks which engine it is.  :func:`finish` makes the two engines'
results alike (window, bound, horizon); :func:`both` runs a search in
both and compares them field by field, the one place that does.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from .errors import Error, Mismatch, NoStaticValue, PrologError, SearchArgumentError
from .result import LAZY, Result, bound_of, bound_text
from .text import printable
from .tree import AnyTree, Number, Tree

__all__ = ["FIELDS", "NAMES", "Pair", "both", "both_many", "check", "check_search", "count_differences", "differences",
           "finish", "named_events", "solve", "traced"]

#: The engines: ``prolog`` (SWI-Prolog, observed) and ``python`` (the mirror).
NAMES = ("prolog", "python")


def _text(x: Any) -> str:
    return bound_text(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else repr(x)


# -- the arguments of one search, checked in one place for the API
# (solve, pyab.render.trace.trace) and so for every command ------------------

def check_search(tree: Any, algorithm: str, alpha: Any, beta: Any, *,
                 depth: Any = None, timeout: Any = None) -> None:
    """Refuse what would make a search meaningless or silently wrong.

    :raises SearchArgumentError: for a bound that is not a number (or is
        NaN), an inverted window (alpha above beta), a depth that is not a
        whole number of at least 0, a depth limit for an algorithm without
        one, a timeout of 0 or less, and a tree whose sides do not
        alternate for an algorithm that infers them.
    :raises ValueError: for an unknown algorithm.

    >>> check_search(None, "bratko", 5, 3)
    Traceback (most recent call last):
    ...
    pyab.errors.SearchArgumentError: inverted window: alpha 5 is above beta 3 (alpha must be at most beta)
    """
    from .search import algorithm as find
    alg = find(algorithm)
    for label, b in (("alpha", alpha), ("beta", beta)):
        if isinstance(b, bool) or not isinstance(b, (int, float)):
            raise SearchArgumentError(f"{label} must be a number or -inf/inf, not {b!r}")
        if math.isnan(b):
            raise SearchArgumentError(f"{label} cannot be NaN")
    if alpha > beta:
        raise SearchArgumentError(f"inverted window: alpha {_text(alpha)} is above beta "
                                  f"{_text(beta)} (alpha must be at most beta)")
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise SearchArgumentError(f"depth must be a whole number of plies, not {depth!r}")
        if depth < 0:
            raise SearchArgumentError(f"depth must be 0 or more plies, not {depth} "
                                      "(leave it out to search to the leaves)")
        if not alg.depth_limit:
            raise SearchArgumentError(
                f"{algorithm} has no depth limit (the slides' program searches to the leaves); "
                "--depth works with the other algorithms")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or math.isnan(timeout):
            raise SearchArgumentError(f"timeout must be a number of seconds, not {timeout!r}")
        if timeout <= 0:
            raise SearchArgumentError(f"timeout must be more than 0 seconds, not {_text(timeout)} "
                                      "(leave it out for no limit)")
    if tree is not None and not alg.any_sides and not getattr(tree, "alternating", True):
        node = tree.repeated_side()
        side = tree.side(node).upper()
        why = ("the slides' program infers the side to move from the child it has just "
               "searched (goodenough/7, newbounds/6 and betterof/6 ask min_to_move/1 of it), "
               "so it needs sides that alternate"
               if algorithm == "bratko" else
               f"{algorithm} assumes sides that alternate level by level")
        raise SearchArgumentError(
            f"{algorithm} cannot search this tree: {node!r} has {side} to move like its parent "
            f"{tree.parent(node)!r}, and {why}; use --algorithm strict-cut, which asks every "
            "node who moves")


def _unknown(engine: str) -> ValueError:
    return ValueError(f"unknown engine {engine!r} (known: {', '.join(NAMES)})")


def solve(
    tree: AnyTree,
    engine: str = "prolog",
    algorithm: str = "bratko",
    alpha: Number = -math.inf,
    beta: Number = math.inf,
    *,
    depth: int | None = None,
    timeout: float | None = None,
    program: str | None = None,
    names: bool = True,
    eager: bool = False,
    once: bool = False,
) -> Result:
    """Search ``tree`` with ``algorithm`` in ``engine`` ("prolog" or "python"):
    ``pyab.solve``.

    The Prolog engine runs the real program in SWI-Prolog (the default
    :func:`pyab.engine`) and observes it; the Python engine runs the mirror.
    ``timeout`` and ``program`` apply to the Prolog engine.  ``names=False``
    (implicit trees only) skips the lists of names in Prolog; either engine
    then puts ``leaves_count`` and ``visited_count`` in ``Result.extra``.
    ``eager=True`` has the Prolog engine name the observed nodes at once,
    for callers that read every list anyway (names read later cost a copy
    of the record more).  ``once=True`` says the tree is searched once:
    the Prolog engine may load, search and unload a small tree in one call
    (:meth:`pyab.prolog.Engine.solve`).
    """
    from .api import expect_tree
    expect_tree(tree, "pyab.solve")
    _check(tree, algorithm, alpha, beta, depth, timeout)
    return _run(tree, engine, algorithm, alpha, beta, depth=depth, timeout=timeout, program=program,
                names=names, eager=eager, once=once)


def _check(tree: AnyTree, algorithm: str, alpha: Number, beta: Number, depth: int | None,
           timeout: float | None) -> None:
    from .tree import check_window
    check_search(tree, algorithm, alpha, beta, depth=depth, timeout=timeout)
    check_window(tree, alpha, beta)  # both engines refuse what they would compare differently


def _run(tree: AnyTree, engine: str, algorithm: str, alpha: Number, beta: Number, *,
         depth: int | None, timeout: float | None = None, program: str | None = None,
         names: bool = True, eager: bool = False, once: bool = False) -> Result:
    """:func:`solve` on arguments :func:`_check` has taken."""
    if engine == "prolog":
        from . import prolog
        try:
            result = prolog.solve(tree, algorithm, alpha, beta, depth=depth, timeout=timeout,
                                  program=program, names=names, eager=eager, once=once)
        except PrologError as e:  # the mirror's error for the same tree (pyab.errors.NoStaticValue)
            raise _no_static_value(e, tree) or e
    elif engine == "python":
        from .search import solve_python
        result = solve_python(tree, algorithm, alpha, beta, depth)
        if not names:
            result.extra.update(leaves_count=len(result.leaves), visited_count=len(result.visited))
    else:
        raise _unknown(engine)
    return finish(result, tree, alpha, beta, depth)  # horizon and bound, alike for both engines


def _no_static_value(err: PrologError, tree: Any) -> NoStaticValue | None:
    """The Prolog programs' existence_error(static_value, Pos) as the
    mirror's error for the same node; None for any other error."""
    import re
    found = re.fullmatch(r"error\(existence_error\(static_value,(.*)\),[^,()]*\)", err.term)
    if not found:
        return None
    from .prolog.facts import quote
    return NoStaticValue(next((n for n in getattr(tree, "names", ()) if quote(n) == found.group(1)),
                              found.group(1)))


def finish(result: Result, tree: Any, alpha: Number, beta: Number,
           depth: int | None = None) -> Result:
    """``result`` of a search of ``tree`` in ``alpha..beta`` (and ``depth``),
    with the window, the depth, the bound (:func:`pyab.result.bound_of`, by
    the algorithm's registry row) and a weak reference to the tree kept,
    and the nodes the depth limit left out moved from ``pruned`` to
    ``horizon``: the unsearched children of a node whose static value was
    read although it has children.  The same function for both engines, on
    their observed fields; implicit trees (no names) are left as they are.
    A deferred result stays deferred: the split is made when ``pruned`` or
    ``horizon`` is first read.
    """
    from .search import ALGORITHMS
    from .tree import Tree
    row = ALGORITHMS.get(result.algorithm)
    kept = dict(window=(alpha, beta), depth=depth, tree_ref=_weak(tree),
                bound=bound_of(row.bound if row else "open", result.value, alpha, beta))
    pending = result._pending_fields()
    if pending:
        known = {f: getattr(result, f) for f in LAZY if f not in pending}
        names = dict(pending)
        if isinstance(tree, Tree):
            split: list[tuple[tuple[str, ...], tuple[str, ...]]] = []

            def part(i: int) -> Callable[[], tuple[str, ...]]:
                def get() -> tuple[str, ...]:
                    if not split:
                        split.append(_split_horizon(result, tree))
                    return split[0][i]
                return get
            names.update(pruned=part(0), horizon=part(1))
            known.pop("pruned", None)
            known.pop("horizon", None)
        return Result.deferred(result.best, result.value, result.engine, result.algorithm, names,
                               extra=result.extra, **kept, **known)
    if not isinstance(tree, Tree) or not result.pruned:
        return result._replace(**kept)
    pruned, horizon = _split_horizon(result, tree)
    return result._replace(pruned=pruned, horizon=horizon, **kept)


def _weak(tree: Any) -> Any:
    import weakref
    try:
        return weakref.ref(tree)
    except TypeError:  # a tree type without weak references
        return None


def _split_horizon(result: Result, tree: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(pruned, horizon) of ``result.pruned`` on the explicit ``tree``."""
    if not result.pruned:
        return (), ()
    kids, index = tree.kids, tree.index
    scored = {index[n] for n in set(result.leaves) if kids[index[n]]}
    below = {tree.names[k] for i in scored for k in kids[i]}
    return (tuple(p for p in result.pruned if p not in below),
            tuple(p for p in result.pruned if p in below))




# What must agree.  `pruned` follows from `visited` and the tree, but it is
# compared too: each engine derives it on its own side.  `horizon` is split
# off `pruned` by one function (pyab.result.finish) on each engine's fields.
FIELDS = ("best", "value", "leaves", "visited", "pruned", "horizon")


def _first_step(a: Sequence[str], b: Sequence[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return printable(f"first difference at step {i + 1}: prolog {x!r}, python {y!r}")
    shorter, longer, who = (a, b, "python") if len(a) < len(b) else (b, a, "prolog")
    return printable(f"first difference at step {len(shorter) + 1}: only {who} goes on, "
                     f"with {longer[len(shorter)]!r}")


def _show(v: Any) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return bound_text(v)
    if isinstance(v, tuple):
        return printable(" ".join(v)) if v else "(none)"
    return printable(repr(v))


def differences(prolog: Result, python: Result) -> list[str]:
    """Readable lines, one per field on which the two results differ."""
    out = []
    for f in FIELDS:
        a, b = getattr(prolog, f), getattr(python, f)
        same = bound_text(a) == bound_text(b) if f == "value" else a == b
        if not same:
            line = f"{f}:\n    prolog: {_show(a)}\n    python: {_show(b)}"
            if isinstance(a, tuple):
                line += f"\n    {_first_step(a, b)}"
            out.append(line)
    return out


def count_differences(prolog: Result, python: Result) -> list[str]:
    """As :func:`differences`, for results that carry only counts
    (``names=False``): best, value, leaves_count and visited_count."""
    out = []
    for f in ("best", "value", "leaves_count", "visited_count"):
        a = getattr(prolog, f) if f in ("best", "value") else prolog.extra.get(f)
        b = getattr(python, f) if f in ("best", "value") else python.extra.get(f)
        if (_show(a) != _show(b)) if f == "value" else a != b:
            out.append(f"{f}:\n    prolog: {_show(a)}\n    python: {_show(b)}")
    return out


class Pair(NamedTuple):
    """One search in both engines: the two results and the lines on which
    they differ (empty when they agree)."""

    prolog: Result
    python: Result
    differences: list[str]

    @property
    def agree(self) -> bool:
        return not self.differences


def both(tree: AnyTree, algorithm: str = "bratko", alpha: Number = -math.inf,
         beta: Number = math.inf, *, depth: int | None = None, names: bool = True,
         **prolog_kw: Any) -> Pair:
    """The same search in SWI-Prolog and in the mirror, compared: the one
    place ``check``, ``variants`` and ``experiment`` do it.  With
    ``names=False`` (implicit trees) the counts are compared."""
    from .api import expect_tree
    expect_tree(tree, "pyab.solve")
    _check(tree, algorithm, alpha, beta, depth, prolog_kw.get("timeout"))  # once for both
    prolog = _run(tree, "prolog", algorithm, alpha, beta, depth=depth, names=names, eager=True,
                  once=True, **prolog_kw)  # every list is compared; a small tree in one call
    python = _run(tree, "python", algorithm, alpha, beta, depth=depth, names=names)
    diff = differences(prolog, python) if names else count_differences(prolog, python)
    return Pair(prolog, python, diff)


#: Trees a call into SWI-Prolog in :func:`both_many`: enough that the call
#: costs little a tree, few enough that the batch's terms stay small (a
#: bigger batch keeps more live data on Prolog's stacks for every garbage
#: collection of the searches).
BATCH = 64


def both_many(cases: Iterable[tuple[Any, ...]], algorithm: str = "bratko", *,
              batch: int = BATCH) -> Iterator[tuple[tuple[Any, ...], list[str]]]:
    """:func:`both` on many fact trees without a depth limit (``pyab check
    --random``): each item of ``cases`` is (tree, alpha, beta, ...) and
    comes back with the lines on which the engines differ (empty when they
    agree), in order.

    The Prolog searches of a batch are observed in one call into
    SWI-Prolog (:meth:`pyab.prolog.Engine.solve_batch`); the mirror runs on
    its own.  The two records are compared as observed: when best, value
    (of the same type), leaves, visited and pruned are equal, everything
    :func:`both` compares is equal (:func:`finish` derives the rest from
    them and the tree by one function), and no :class:`Result` is built.
    Otherwise both results are finished and :func:`differences` says what
    differs, as :func:`both` would.  A batch that SWI-Prolog refuses is
    searched again tree by tree with :func:`both`, so an error is raised
    for the tree that causes it; so is every tree of an algorithm that
    reads the range of the stored values (``value_range`` in the registry:
    the batch's trees are rules, without staticval/2 facts to read).
    """
    from .prolog import engine
    from .prolog.answers import _result_of
    from .search import algorithm as find, solve_python
    it = iter(cases)
    any_sides = find(algorithm).any_sides  # an unknown algorithm: said here
    if find(algorithm).value_range:  # it reads staticval/2's facts, which the batch has not
        for item in it:
            yield item, both(item[0], algorithm, item[1], item[2]).differences
        return
    while True:
        chunk = list(itertools.islice(it, batch))
        if not chunk:
            return
        refused: Exception | None = None
        for n, item in enumerate(chunk):
            if _plain(item[0], item[1], item[2], any_sides):
                continue  # nothing _check() would refuse
            try:
                _check(item[0], algorithm, item[1], item[2], None, None)  # as both() does
            except (Error, ValueError) as err:  # raised after the trees before it, as both() would
                refused, chunk = err, chunk[:n]
                break
        try:
            records = engine().solve_batch([item[:3] for item in chunk], algorithm) if chunk else []
        except Error:
            for item in chunk:
                yield item, both(item[0], algorithm, item[1], item[2]).differences
            continue
        for item, rec in zip(chunk, records):
            tree, alpha, beta = item[:3]
            if rec is None:  # the search failed: both() raises as a single search does
                yield item, both(tree, algorithm, alpha, beta).differences
                continue
            mirror = solve_python(tree, algorithm, alpha, beta, None)
            best, value, leaves, visited, pruned = rec
            if (best == mirror.best and type(value) is type(mirror.value) and value == mirror.value
                    and leaves == mirror.leaves and visited == mirror.visited and pruned == mirror.pruned):
                yield item, []
                continue
            prolog = finish(_result_of(rec, algorithm), tree, alpha, beta, None)
            yield item, differences(prolog, finish(mirror, tree, alpha, beta, None))
        if refused is not None:
            raise refused


_INF = math.inf
_EXACT = 2 ** 53  # integers a float holds exactly: below this in size


def plain_search(tree: Any, algorithm: str, alpha: Any, beta: Any) -> bool:
    """True when :func:`check_search` and :func:`~pyab.tree.check_window`
    (no depth, no timeout) would take this search without a look: a
    referee's loop skips them then (False: ask them; they say why)."""
    from .search import ALGORITHMS
    alg = ALGORITHMS.get(algorithm)
    return alg is not None and _plain(tree, alpha, beta, alg.any_sides)


def _plain(tree: Any, alpha: Any, beta: Any, any_sides: bool) -> bool:
    """True for a search :func:`_check` (no depth, no timeout) takes
    without a look: the full window, or whole-number bounds in order that
    any value compares with alike, on a tree its algorithm can search
    (the windows of ``pyab check --random``); False: ask :func:`_check`."""
    ta, tb = type(alpha), type(beta)
    if ta is float and tb is float:
        if not (alpha == -_INF and beta == _INF):
            return False
    elif not (ta is int and tb is int and -_EXACT < alpha <= beta < _EXACT):
        return False
    return any_sides or tree.alternating


def check(tree: AnyTree, algorithm: str = "bratko", alpha: Number = -math.inf,
          beta: Number = math.inf, **kw: Any) -> Result:
    """Solve ``tree`` in both engines and compare best, value, leaves,
    visited, pruned and horizon.  Returns the Prolog result.

    :raises Mismatch: when they differ, with a readable diff.
    """
    from .api import expect_tree
    expect_tree(tree, "pyab.check")
    pair = both(tree, algorithm, alpha, beta, **kw)
    if pair.differences:
        raise Mismatch(f"{algorithm}: Prolog and Python disagree on "
                       + ", ".join(d.split(":")[0] for d in pair.differences),
                       "\n".join(pair.differences))
    return pair.prolog


def traced(tree: AnyTree, engine: str = "prolog", alpha: Number = -math.inf,
           beta: Number = math.inf, *, timeout: float | None = None
           ) -> tuple[Result, list[tuple[Any, ...]]]:
    """The slides' program step by step: the result and the events (names,
    not node ids), as :func:`pyab.prolog.solve_traced` gives them."""
    from .tree import check_window
    check_window(tree, alpha, beta)
    if engine == "prolog":
        from .prolog import solve_traced
        return solve_traced(tree, alpha, beta, timeout=timeout)
    if engine == "python":
        from .search.bratko import search
        raw: list[tuple[Any, ...]] = []
        result = search(tree, alpha, beta, observe=lambda *e: raw.append(e))
        return result, named_events(tree, raw)
    raise _unknown(engine)


def named_events(tree: Tree, raw: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
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
