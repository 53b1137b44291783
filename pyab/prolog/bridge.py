"""The SWI-Prolog engine: :class:`Engine`, one module per tree.

Data crosses only as string arguments of fixed predicates of the bridge
(``prolog/pyab_bridge.pl``), through SWI-Prolog's C interface, never as
query text.  Answers come back as one string with NUL-separated fields,
which sidesteps pyswip's slow list conversion and its 64-bit integer
wrapping (numbers travel as their Prolog text).  A Prolog exception reaches
Python as :class:`~pyab.errors.PrologError` carrying the exception term as
text (``.term``) and SWI-Prolog's message for it.

SWI-Prolog can be started only once per process, so every :class:`Engine`
shares that one runtime (and one lock: calls into it are serialised).  What
an engine owns is its modules: a tree is loaded into module ``pyab_t<N>`` the
first time the engine solves it and stays there while the
:class:`~pyab.tree.Tree` object lives.  When the object is garbage-collected,
the next call of that engine recycles the module: it is emptied
(``recycle/1`` in ``prolog/bridge/store.pl``) and kept, with its
observation wrappers and program modules, on the engine's free list for the
next tree to load into (SWI-Prolog 9.0.4 never frees a wrapper's closure,
so destroying a module leaked about 2 Kb).  A tree given as rules
(``prolog_source()``) is recycled into a module of the same rules file.
:meth:`Engine.close` drops every module the engine made.

``pyab.solve`` and the functions of this module use the default engine,
:func:`engine`.
"""

from __future__ import annotations

import math
import weakref
from pathlib import Path
from typing import Any

from ..errors import Error, PrologError, SearchTimeout
from .answers import _parse_number, _records, _result, _trace_events
from .facts import number
from .libswipl import _RUNTIME_LOCK, PROLOG_DIR, _cload, _runtime
from .deferred import _KEYS, _Deferred
from .packing import _batch_item, _check_window, _packed
from .programs import _program_path
from ..result import Result
from ..search import algorithm as find_algorithm
from ..tree import Number, Tree

__all__ = ["PROLOG_DIR", "Engine", "drop", "engine", "live_modules", "resource_counts",
           "set_default", "solve", "solve_traced"]


class Engine:
    """A SWI-Prolog engine for pyab: the tree and program modules it made,
    their free lists, and the calls that search them.

    ``recycle=False`` destroys a module when its tree is gone instead of
    recycling it (what pyab did before; ``benchmarks/recycle.py`` compares
    the two).  Use it as a context manager, or call :meth:`close`, to drop
    every module it made; the SWI-Prolog runtime itself lives as long as
    the process (it cannot be started twice) and is shared by all engines.

        >>> import pyab
        >>> from pyab.prolog import Engine
        >>> with Engine() as eng:
        ...     eng.solve(pyab.parse("a(b=1, c=2)")).best
        'c'
    """

    def __init__(self, *, recycle: bool = True) -> None:
        self.recycle = recycle
        self._rt = _runtime()
        self.lock = self._rt.lock
        self._modules: "weakref.WeakKeyDictionary[Tree, str]" = weakref.WeakKeyDictionary()
        self._programs: dict[str, int] = {}  # program file -> number, for module names
        # (module, rules file or None) of trees that have been garbage-collected;
        # the weakref callbacks only append here, the rest happens under the lock.
        self._gone: list[tuple[str, str | None]] = []
        self._finalizers: dict[str, weakref.finalize] = {}  # module in use -> finalizer
        self._free: list[str] = []  # emptied fact-tree modules (recycle/1 accepted them)
        self._free_rules: dict[str, list[str]] = {}  # rules file -> emptied modules
        self._closed = False
        # key -> unread deferred answer, alive while a Result's thunks hold it
        self._pending: "weakref.WeakValueDictionary[str, _Deferred]" = weakref.WeakValueDictionary()
        self._unread: list[str] = []  # keys of unread answers whose results are gone
        self._batch: str | None = None  # the module solve_batch() searches in

    # -- life cycle ---------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Drop every module this engine made (in use or free).  Trees it
        solved are simply loaded again by another engine.  Idempotent."""
        with self.lock:
            if self._closed:
                return
            for d in list(self._pending.values()):  # unread names: read them while we can
                d.read()
            self._closed = True
            for fin in self._finalizers.values():
                fin.detach()
            modules = list(self._modules.values()) + [m for m, _ in self._gone] + self._free
            modules += [m for ms in self._free_rules.values() for m in ms]
            modules += [self._batch] if self._batch is not None else []
            self._batch = None
            self._modules.clear()
            self._finalizers.clear()
            self._gone.clear()
            self._free.clear()
            self._free_rules.clear()
            for module in modules:
                self._rt.call("drop", [("atom", module)])

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, name: str, args: list[tuple[str, str] | None],
             module: str = "pyab_bridge") -> list[str | None]:
        """A raw call into SWI-Prolog (see ``_Runtime.call``), for tests and
        benchmarks."""
        return self._rt.call(name, args, module)

    def _live(self) -> None:
        if self._closed:
            raise Error("this Prolog engine is closed")
        while self._unread:
            key = self._unread.pop()
            self._rt.call("deferred_free", [("string", key)])
            _KEYS["free"].append(key)
        while self._gone:
            module, rules = self._gone.pop()
            self._finalizers.pop(module, None)
            self._release(module, rules)

    def _release(self, module: str, rules: str | None) -> None:
        """Recycle a tree's module onto a free list, or drop it."""
        if self.recycle:
            try:
                self._rt.call("recycle", [("atom", module)])
            except PrologError:  # recycle/1 fails after dropping it
                return
            if rules is None:
                self._free.append(module)
            else:
                self._free_rules.setdefault(rules, []).append(module)
        else:
            self._rt.call("drop", [("atom", module)])

    def _module(self, tree: Tree) -> str:
        """The module holding ``tree``, loaded now if need be."""
        module = self._modules.get(tree)
        if module is None:
            rules: str | None = None
            if not hasattr(tree, "prolog_source"):
                # The compiled loader when it is built and takes every value
                # (None, an int of 64 bits, a finite float); else load_packed/3.
                # Either way the same clauses (benchmarks/HISTORY.md).
                loader = _cload
                if loader is not None and not loader.fits(tree.values):
                    loader = None
                if loader is None:
                    names, shape = _packed(tree)  # before a free module is taken
                # A free module if there is one; a load that fails drops it for good.
                module = self._free.pop() if self._free else f"pyab_t{next(self._rt.counter)}"
                if loader is not None:
                    self._rt.load_compiled(loader, module, tree)
                else:
                    self._rt.call("load_packed", [("atom", module), ("string", names), ("string", shape)])
            else:  # an implicit tree (pyab.trees, pyab.trees)
                rules, params = tree.prolog_source()
                free = self._free_rules.get(rules)
                module = free.pop() if free else f"pyab_t{next(self._rt.counter)}"
                self._rt.call("load_rules", [("atom", module), ("string", rules), ("string", params)])
            self._modules[tree] = module
            self._finalizers[module] = weakref.finalize(tree, self._gone.append, (module, rules))
        return module

    def drop(self, tree: Tree) -> None:
        """Release ``tree``'s module now instead of when the object is
        collected (it is recycled; the tree is loaded again if solved)."""
        with self.lock:
            module = self._modules.pop(tree, None)
            if module is not None:
                for d in [d for d in self._pending.values() if d.module == module]:
                    d.read()
                # The finalizer must not release the module a second time: by
                # then another tree may be using it.
                self._finalizers.pop(module).detach()
                rules = tree.prolog_source()[0] if hasattr(tree, "prolog_source") else None
                self._release(module, rules)

    def _prog(self, path: str) -> int:
        return self._programs.setdefault(path, len(self._programs) + 1)

    # -- searching ----------------------------------------------------------

    def solve(
        self,
        tree: Tree,
        algorithm: str = "bratko",
        alpha: Number = -math.inf,
        beta: Number = math.inf,
        *,
        depth: int | None = None,
        timeout: float | None = None,
        program: str | Path | None = None,
        stack_limit: int | None = None,
        names: bool = True,
        eager: bool = False,
        once: bool = False,
    ) -> Result:
        """Run ``algorithm`` on ``tree`` in SWI-Prolog and observe it.

        The best move and value come back at once; the observed names
        (leaves, visited, pruned) are built from the search's record in
        SWI-Prolog when first read (:meth:`Result.deferred`), so a caller
        that only wants the value does not pay for naming every node.
        ``eager=True`` builds them at once (the benchmarks' "before").

        ``once=True`` says the tree is searched once (the referee's random
        trees): a small fact tree not loaded yet is then loaded, searched,
        named and its module emptied for the next tree in one call into
        SWI-Prolog (``solve_packed/11``) instead of five; the names come
        eagerly and the tree does not stay loaded.

        ``tree`` may also be an implicit tree with ``prolog_source()`` (see
        :mod:`pyab.trees`); for those ``names=False`` skips the lists of
        names and returns only ``extra["leaves_count"]`` and
        ``extra["visited_count"]`` (the lists stay empty), which is what big
        experiments need.

        ``program`` replaces the algorithm's Prolog file (e.g. your own
        alphabeta/5, or a mutant in a test); it is loaded unchanged.
        ``stack_limit`` (bytes) runs this one search under a smaller
        SWI-Prolog stack limit (the flag is put back afterwards); running
        out of it raises :class:`PrologError` and leaves the engine usable.

        :raises PrologError: on any Prolog error (its term in ``.term``);
            :class:`SearchTimeout` when ``timeout`` seconds pass first.
        """
        _check_window(alpha, beta)
        find_algorithm(algorithm)
        path = _program_path(program, algorithm)
        opts = f"{'inf' if depth is None else int(depth)} {float(timeout or 0)!r}"
        if stack_limit is not None:
            if isinstance(stack_limit, bool) or not isinstance(stack_limit, int) or stack_limit <= 0:
                raise ValueError(f"stack_limit must be a positive number of bytes, not {stack_limit!r}")
            opts += f" {stack_limit}"
        if not names and not hasattr(tree, "prolog_source"):
            raise ValueError("names=False is for implicit trees (pyab.trees, pyab.trees) only")
        with self.lock:
            self._live()
            if once and names and self._once(tree):
                out = self._solve_once(tree, path, algorithm, alpha, beta, opts, timeout)
                if out == "fail":
                    raise PrologError(f"the {algorithm} search failed on {tree.root!r} (no answer)", "fail")
                return _result(out.split("\0"), algorithm, True)[0]
            module = self._module(tree)
            if hasattr(tree, "prolog_source"):
                self._rt.call("rules_mode", [("atom", module), ("string", "names" if names else "counts")])
            args: list[tuple[str, str] | None] = [
                ("atom", module), ("atom", f"{module}_p{self._prog(path)}"), ("string", path),
                ("atom", algorithm), ("string", tree.root),
                ("string", number(alpha)), ("string", number(beta)), ("string", opts), None,
            ]
            deferred = names and not eager
            if deferred:
                # Keys are reused once freed: SWI-Prolog keeps every key the
                # recorded database has seen.
                if _KEYS["free"]:
                    key = _KEYS["free"].pop()
                else:
                    _KEYS["made"] += 1
                    key = str(_KEYS["made"])
                args.insert(8, ("string", key))
            out = self._search("solve_deferred" if deferred else "solve", timeout, args)
        if out == "fail":
            raise PrologError(f"the {algorithm} search failed on {tree.root!r} (no answer)", "fail")
        fields = out.split("\0")
        if deferred:
            return _Deferred(self, key, tree, module, algorithm).result(fields)
        result, _ = _result(fields, algorithm, names)
        return result

    def _once(self, tree: Tree) -> bool:
        """Whether ``solve_packed/11`` should load ``tree``: a fact tree not
        loaded yet, small enough that reading its packed text in Prolog
        costs less than the calls the compiled loader needs, in an engine
        that recycles."""
        return (self.recycle and not hasattr(tree, "prolog_source")
                and len(tree.names) <= _ONCE_NODES and tree not in self._modules)

    def _solve_once(self, tree: Tree, path: str, algorithm: str, alpha: Number, beta: Number,
                    opts: str, timeout: float | None) -> str:
        """One call: load ``tree`` packed into a free module, search, answer,
        empty the module (the caller holds the lock)."""
        names, shape = _packed(tree)
        module = self._free.pop() if self._free else f"pyab_t{next(self._rt.counter)}"
        try:
            return self._search("solve_packed", timeout, [
                ("atom", module), ("atom", f"{module}_p{self._prog(path)}"), ("string", path),
                ("atom", algorithm), ("string", names), ("string", shape), ("string", tree.root),
                ("string", number(alpha)), ("string", number(beta)), ("string", opts), None,
            ])
        finally:
            # Emptied by solve_packed/11, or dropped when the load or the
            # search threw (claiming the name again then makes it afresh).
            self._free.append(module)

    def solve_batch(self, cases: list[tuple[Tree, Number, Number]], algorithm: str = "bratko",
                    *, program: str | Path | None = None) -> list[tuple[Any, ...] | None]:
        """Observe ``algorithm`` on each (tree, alpha, beta) of ``cases`` in
        one call into SWI-Prolog (``solve_batch/8``), for the referee's
        random trees, where a call from Python cost more than a small
        tree's load and search together.  The trees are read, in that
        call, by the rules of ``prolog/trees/packed.pl`` from a global
        variable set to each in turn: nothing is asserted per tree, and
        the module and its program stay loaded from batch to batch.

        Returns, for each case, the observed record (best or None, the
        value, leaves, visited, pruned; the value as a number), or None
        where the search failed.  Fact trees only, with the windows checked
        by the caller (:func:`pyab.engines.both_many`).

        :raises PrologError: on any Prolog error of any tree of the batch
            (the caller may then search them one at a time to find it).
        """
        find_algorithm(algorithm)
        path = _program_path(program, algorithm)
        names: list[str] = []
        items: list[str] = []
        for tree, alpha, beta in cases:
            if hasattr(tree, "prolog_source"):
                raise ValueError("solve_batch takes fact trees only")
            _check_window(alpha, beta)
            names.append("\0".join(tree.names))
            items.append(_batch_item(tree, alpha, beta))
        with self.lock:
            self._live()
            module = self._batch_module()
            out = self._rt.call("solve_batch", [
                ("atom", module), ("atom", f"{module}_p{self._prog(path)}"), ("string", path),
                ("atom", algorithm), ("string", "\0".join(names)),
                ("string", "[" + ",".join(items) + "]"), ("string", "inf 0.0"), None,
            ], module="pyab_run")[-1] or ""
        records = _records(out.split("\0"))
        if len(records) != len(cases):
            raise PrologError(f"malformed answer: {len(records)} answers for {len(cases)} trees")
        return [None if r is None else (r[0], _parse_number(r[1]), *r[2:]) for r in records]

    def _batch_module(self) -> str:
        """The module of ``prolog/trees/packed.pl`` that :meth:`solve_batch`
        searches in, loaded on first use (the caller holds the lock)."""
        if self._batch is None:
            module = f"pyab_t{next(self._rt.counter)}"
            self._rt.call("load_rules", [("atom", module), ("string", str(PROLOG_DIR / "trees" / "packed.pl")),
                                         ("string", "")])
            self._batch = module
        return self._batch

    def solve_traced(
        self,
        tree: Tree,
        alpha: Number = -math.inf,
        beta: Number = math.inf,
        *,
        timeout: float | None = None,
        program: str | Path | None = None,
    ) -> tuple[Result, list[tuple[Any, ...]]]:
        """Run the slides' program on ``tree`` in SWI-Prolog and observe it
        step by step (``solve_traced/8`` in ``prolog/bridge/run.pl``).

        Returns the :class:`Result` and the raw events, in the order
        SWI-Prolog produced them: ``("call", pos, alpha, beta)``, ``("leaf",
        pos, val)``, ``("bounds", pos, val, alpha, beta, new_alpha,
        new_beta)``, ``("cut", pos, val, alpha, beta, "alpha"|"beta", (rest,
        ...))``, ``("return", pos, good_pos_or_None, val)``.  The traced run
        uses a program module of its own, so untraced solves are not slowed
        down.
        """
        _check_window(alpha, beta)
        path = _program_path(program, "bratko")
        opts = f"inf {float(timeout or 0)!r}"
        with self.lock:
            self._live()
            module = self._module(tree)
            out = self._search("solve_traced", timeout, [
                ("atom", module), ("atom", f"{module}_p{self._prog(path)}_trace"), ("string", path),
                ("string", tree.root), ("string", number(alpha)), ("string", number(beta)),
                ("string", opts), None,
            ])
        if out == "fail":
            raise PrologError(f"the bratko search failed on {tree.root!r} (no answer)", "fail")
        fields = out.split("\0")
        result, rest = _result(fields, "bratko", True)
        return result, _trace_events(rest)

    def _search(self, name: str, timeout: float | None, args: list[tuple[str, str] | None]) -> str:
        try:
            return self._rt.call(name, args)[-1] or ""
        except SearchTimeout as e:
            limit = f" of {timeout:g} s" if timeout else ""
            raise SearchTimeout(f"the search ran past its time limit{limit} and was stopped "
                                "(allow more time, or search a smaller tree)", e.term) from None

    # -- counting -----------------------------------------------------------

    def resource_counts(self) -> dict[str, int]:
        """What SWI-Prolog holds (all engines), after an atom garbage
        collection, for leak checks: ``modules`` (tree and program modules
        in use, free ones not counted), ``atoms`` (the atom table, blobs
        included), ``text_atoms``, ``closures`` (wrap_predicate closures:
        two per tree module ever made, never freed by SWI-Prolog 9.0.4,
        hence the recycling) and ``free`` (tree modules emptied and waiting
        for the next tree)."""
        with self.lock:
            self._live()
            counts = (self._rt.call("resource_counts_text", [None])[0] or "0 0 0 0 0").split()
            return dict(zip(("modules", "atoms", "text_atoms", "closures", "free"), map(int, counts)))

    def live_modules(self) -> int:
        """How many tree and program modules are in use (all engines, for
        leak checks); free modules kept for reuse are not counted."""
        with self.lock:
            self._live()
            return int(self._rt.call("live_modules_text", [None])[0] or 0)

    def algorithms(self) -> list[str]:
        """The algorithms the bridge knows (read by SWI-Prolog from the
        registry), in registry order."""
        with self.lock:
            return (self._rt.call("algorithms_text", [None])[0] or "").split("\0")


# The largest tree Engine.solve(once=True) loads in the same call as the
# search: above it the compiled loader's speed matters more than two calls.
_ONCE_NODES = 4096

# -- the default engine ----------------------------------------------------

_DEFAULT: Engine | None = None


def engine() -> Engine:
    """The default engine (made on first use, and again after it is closed)."""
    global _DEFAULT
    with _RUNTIME_LOCK:
        current = _DEFAULT
    if current is None or current.closed:
        fresh = Engine()
        with _RUNTIME_LOCK:
            if _DEFAULT is None or _DEFAULT.closed:
                _DEFAULT = fresh
            current = _DEFAULT
    return current


def set_default(eng: Engine) -> Engine:
    """Make ``eng`` the default engine (e.g. ``Engine(recycle=False)`` for a
    benchmark); returns the one it replaces (closed or not)."""
    global _DEFAULT
    with _RUNTIME_LOCK:
        old, _DEFAULT = _DEFAULT, eng
    return old  # type: ignore[return-value]


def solve(tree: Tree, algorithm: str = "bratko", alpha: Number = -math.inf,
          beta: Number = math.inf, **kw: Any) -> Result:
    """:meth:`Engine.solve` on the default engine."""
    return engine().solve(tree, algorithm, alpha, beta, **kw)


def solve_traced(tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf,
                 **kw: Any) -> tuple[Result, list[tuple[Any, ...]]]:
    """:meth:`Engine.solve_traced` on the default engine."""
    return engine().solve_traced(tree, alpha, beta, **kw)


def drop(tree: Tree) -> None:
    """:meth:`Engine.drop` on the default engine."""
    engine().drop(tree)


def resource_counts() -> dict[str, int]:
    """:meth:`Engine.resource_counts` (counts are for the whole runtime)."""
    return engine().resource_counts()


def live_modules() -> int:
    """:meth:`Engine.live_modules` (counts are for the whole runtime)."""
    return engine().live_modules()
