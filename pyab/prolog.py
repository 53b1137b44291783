"""The pyswip bridge: one SWI-Prolog engine per process, one module per tree.

Data crosses only as string arguments of fixed predicates in
``prolog/pyab_bridge.pl`` (through the C interface that pyswip loads), never
as query text.  Answers come back as one string with NUL-separated fields,
which sidesteps pyswip's slow list conversion and its 64-bit integer
wrapping (numbers travel as their Prolog text).

A tree is loaded into module ``pyab_t<N>`` the first time it is solved and
stays there while the :class:`~pyab.tree.Tree` object lives.  When the object
is garbage-collected, the next call recycles the module of a fact tree: it is
emptied (``recycle/1`` in the bridge) and kept, with its observation wrappers
and program modules, on a free list for the next tree to load into.  (SWI-Prolog
9.0.4 never frees a wrapper's closure, so destroying a module leaked about
2 Kb.)  The module of a tree given as rules (``prolog_source()``), or one whose
load failed, is destroyed instead.  Calls are serialised by one lock.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import re
import threading
import weakref
from pathlib import Path
from typing import Any

from .errors import PrologError, SearchTimeout
from .facts import facts, number
from .resources import prolog_dir
from .result import Result
from .search import algorithm as find_algorithm
from .tree import Number, Tree

__all__ = ["PROLOG_DIR", "engine", "solve"]

PROLOG_DIR = prolog_dir()

# SWI-Prolog.h (9.x) constants used below.
_PL_ATOM, _PL_STRING = 2, 6
_REP_UTF8 = 0x00100000
_CVT_ATOM, _CVT_STRING, _CVT_EXCEPTION = 0x1, 0x2, 0x1000
_BUF_STACK = 0x00010000
_PL_Q_NODEBUG, _PL_Q_CATCH_EXCEPTION = 0x04, 0x08

_INT = re.compile(r"[+-]?\d+\Z")


def _parse_number(text: str) -> Number:
    if _INT.match(text):
        return int(text)
    if text.endswith("Inf"):
        return -math.inf if text.startswith("-") else math.inf
    if text.endswith("NaN"):
        return math.nan
    return float(text)


class _Engine:
    """The process's SWI-Prolog, reached through pyswip's C bindings."""

    def __init__(self) -> None:
        import pyswip.prolog  # noqa: F401  (initialises SWI-Prolog)
        from pyswip import core

        if threading.current_thread() is not threading.main_thread():
            # SWI-Prolog's main engine now belongs to this thread.  When it has
            # ended, pyswip's PL_cleanup() at exit (from the main thread) cannot
            # stop that engine and prints "Failed to stop Prolog threads".
            # Nothing pyab loads needs SWI's cleanup, so skip it.
            import atexit
            atexit.unregister(core.cleanupProlog)
        lib = core._lib
        self._lib = lib
        lib.PL_put_chars.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p]
        lib.PL_put_chars.restype = ctypes.c_int
        lib.PL_get_nchars.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t),
                                      ctypes.POINTER(ctypes.c_char_p), ctypes.c_uint]
        lib.PL_get_nchars.restype = ctypes.c_int
        lib.PL_new_term_refs.argtypes = [ctypes.c_int]
        lib.PL_new_term_refs.restype = ctypes.c_size_t
        lib.PL_predicate.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
        lib.PL_predicate.restype = ctypes.c_void_p
        lib.PL_call_predicate.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
        lib.PL_call_predicate.restype = ctypes.c_int
        lib.PL_open_foreign_frame.restype = ctypes.c_size_t
        lib.PL_discard_foreign_frame.argtypes = [ctypes.c_size_t]
        lib.PL_thread_self.restype = ctypes.c_int
        lib.PL_thread_destroy_engine.restype = ctypes.c_int
        lib.PL_thread_attach_engine.argtypes = [ctypes.c_void_p]
        lib.PL_thread_attach_engine.restype = ctypes.c_int
        lib.PL_exception.argtypes = [ctypes.c_size_t]
        lib.PL_exception.restype = ctypes.c_size_t
        # Own function objects (lib[...] is not cached): pyswip calls these
        # two with other argument types.
        self._get_atom = lib["PL_get_atom"]
        self._get_atom.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
        self._get_atom.restype = ctypes.c_int
        self._unregister_atom = lib["PL_unregister_atom"]
        self._unregister_atom.argtypes = [ctypes.c_size_t]
        self._unregister_atom.restype = None
        lib.PL_clear_exception.restype = None
        # PL_get_nchars(BUF_STACK) keeps each answer's text in a buffer that
        # only a string-buffer mark releases; outside a Prolog query nothing
        # else does (measured: 544 bytes of resident memory per call).
        lib.PL_mark_string_buffers.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
        lib.PL_mark_string_buffers.restype = None
        lib.PL_release_string_buffers_from_mark.argtypes = [ctypes.c_size_t]
        lib.PL_release_string_buffers_from_mark.restype = None
        self._preds: dict[tuple[str, int, str], int] = {}

        self.call("set_prolog_flag", [("atom", "debug_on_error"), ("atom", "false")], module="system")
        self.call("set_prolog_flag", [("atom", "report_error"), ("atom", "false")], module="system")
        self.call("ensure_loaded", [("atom", str(PROLOG_DIR / "pyab_bridge.pl"))], module="user")

    def _pred(self, name: str, arity: int, module: str) -> int:
        key = (name, arity, module)
        if key not in self._preds:
            self._preds[key] = self._lib.PL_predicate(name.encode(), arity, module.encode())
        return self._preds[key]

    def call(self, name: str, args: list[tuple[str, str] | None], module: str = "pyab_bridge") -> list[str | None]:
        """Call ``module:name/len(args)``; each argument is ``("atom"|"string",
        text)`` or ``None`` for an output variable.  Returns the outputs'
        text.  Raises PrologError when the goal fails or raises."""
        lib = self._lib
        if lib.PL_thread_self() == -1:  # a Python thread SWI-Prolog has not met
            if lib.PL_thread_attach_engine(None) < 0:
                raise PrologError("cannot attach a SWI-Prolog engine to this thread")
            _THREAD.engine = _Detach(lib)
        mark = ctypes.c_size_t()
        lib.PL_mark_string_buffers(ctypes.byref(mark))  # PL_STRINGS_MARK()
        frame = lib.PL_open_foreign_frame()
        try:
            t0 = lib.PL_new_term_refs(len(args))
            for i, arg in enumerate(args):
                if arg is not None:
                    kind, text = arg
                    data = text.encode("utf-8")
                    flags = (_PL_ATOM if kind == "atom" else _PL_STRING) | _REP_UTF8
                    if not lib.PL_put_chars(t0 + i, flags, len(data), data):
                        raise PrologError(f"cannot pass {kind} argument {i + 1} to {name}")
                    if kind == "atom":
                        # PL_put_chars(PL_ATOM) keeps the reference textToAtom()
                        # took (pl-fli.c, SWI 9.0), so the atom could never be
                        # collected: one leaked atom per call.  Drop it as
                        # PL_put_atom_nchars() does; the term still holds the atom.
                        atom = ctypes.c_size_t()
                        if self._get_atom(t0 + i, ctypes.byref(atom)):
                            self._unregister_atom(atom.value)
            ok = lib.PL_call_predicate(None, _PL_Q_NODEBUG | _PL_Q_CATCH_EXCEPTION,
                                       self._pred(name, len(args), module), t0)
            if not ok:
                exc = lib.PL_exception(0)
                if exc:
                    lib.PL_clear_exception()
                    raise PrologError(f"{module}:{name}/{len(args)} raised an error")
                raise PrologError(f"{module}:{name}/{len(args)} failed")
            out: list[str | None] = []
            for i, arg in enumerate(args):
                if arg is None:
                    size = ctypes.c_size_t()
                    buf = ctypes.c_char_p()
                    if not lib.PL_get_nchars(t0 + i, ctypes.byref(size), ctypes.byref(buf),
                                             _CVT_ATOM | _CVT_STRING | _REP_UTF8 | _BUF_STACK):
                        raise PrologError(f"{name}: output {i + 1} is not text")
                    out.append(ctypes.string_at(buf, size.value).decode("utf-8"))
                else:
                    out.append(None)
            return out
        finally:
            lib.PL_discard_foreign_frame(frame)
            lib.PL_release_string_buffers_from_mark(mark.value)  # PL_STRINGS_RELEASE()


class _Detach:
    """Held in a thread-local slot of each Python thread that got an engine:
    when the thread ends, the slot is cleared in that thread and the engine
    is destroyed (else SWI-Prolog warns "Failed to stop Prolog threads" at
    exit and keeps their memory)."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib

    def __del__(self) -> None:
        with _LOCK:
            self.lib.PL_thread_destroy_engine()


_THREAD = threading.local()
_LOCK = threading.RLock()
_ENGINE: _Engine | None = None
_COUNTER = itertools.count(1)
_MODULES: "weakref.WeakKeyDictionary[Tree, str]" = weakref.WeakKeyDictionary()
_PROGRAMS: dict[str, int] = {}  # program file -> number, for program module names
# (module, recyclable) of trees that have been garbage-collected; the weakref
# callbacks only append here, everything else happens under _LOCK.
_GONE: list[tuple[str, bool]] = []
_FINALIZERS: dict[str, weakref.finalize] = {}  # module in use -> its tree's finalizer
_FREE: list[str] = []  # emptied fact-tree modules (recycle/1 accepted them)
_RECYCLE = True  # False: destroy every module, as before (benchmarks/recycle.py)


def engine() -> _Engine:
    """The process's engine, started on first use."""
    global _ENGINE
    with _LOCK:
        if _ENGINE is None:
            _ENGINE = _Engine()
        return _ENGINE


def _drop_gone(eng: _Engine) -> None:
    while _GONE:
        module, recyclable = _GONE.pop()
        _FINALIZERS.pop(module, None)
        _release(eng, module, recyclable)


def _release(eng: _Engine, module: str, recyclable: bool) -> None:
    """Recycle a fact tree's module onto the free list, or drop it."""
    if recyclable and _RECYCLE:
        try:
            eng.call("recycle", [("atom", module)])  # fails after dropping it
        except PrologError:
            return
        _FREE.append(module)
    else:
        eng.call("drop", [("atom", module)])


def _packed(tree: Tree) -> tuple[str, str]:
    """The tree for load_packed_safe/4: the names joined by NUL, and the text
    of shape(Sides, Kids, Values) (see prolog/pyab_bridge.pl).  It yields
    the clauses of :func:`pyab.facts.facts` in the same order, about five
    times faster than reading that text for a big tree (docs/performance.md)."""
    if tree.sides is None:  # sides alternate by depth
        first, second = ("x", "n") if tree.root_side == "max" else ("n", "x")
        sides = "".join([first, second][d & 1] for d in tree.depth)
    else:  # a side per node (pyab.tree.with_sides)
        sides = "".join("x" if s else "n" for s in tree.sides)
    kids = ",".join(f"{i}-[{','.join(map(str, [k + 1 for k in ks]))}]"
                    for i, ks in enumerate(tree.kids, 1) if ks)
    values = ",".join("n" if v is None else str(v) if type(v) is int else number(v)
                      for v in tree.values)
    return "\0".join(tree.names), f'shape("{sides}", [{kids}], [{values}])'


def _module(eng: _Engine, tree: Tree) -> str:
    module = _MODULES.get(tree)
    if module is None:
        recyclable = not hasattr(tree, "prolog_source")
        if recyclable:
            names, shape = _packed(tree)  # before a free module is taken
            # A free module if there is one; a load that fails drops it for good.
            module = _FREE.pop() if _FREE else f"pyab_t{next(_COUNTER)}"
            out = eng.call("load_packed_safe", [("atom", module), ("string", names),
                                                ("string", shape), None])[-1]
        else:  # an implicit tree (pyab.trees, pyab.games)
            rules, params = tree.prolog_source()
            module = f"pyab_t{next(_COUNTER)}"
            out = eng.call("load_rules_safe", [("atom", module), ("string", rules),
                                               ("string", params), None])[-1]
        _raise_if_error(out or "")
        _MODULES[tree] = module
        _FINALIZERS[module] = weakref.finalize(tree, _GONE.append, (module, recyclable))
    return module


def _raise_if_error(out: str, timeout: float | None = None) -> None:
    if out.startswith("error\0"):
        _, message, term = out.split("\0", 2)
        if "time_limit_exceeded" in term:
            limit = f" of {timeout:g} s" if timeout else ""
            raise SearchTimeout(f"the search ran past its time limit{limit} and was stopped "
                                "(allow more time, or search a smaller tree)", term)
        raise PrologError(message.strip() or term, term)


def solve(
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
) -> Result:
    """Run ``algorithm`` on ``tree`` in SWI-Prolog and observe it.

    ``tree`` may also be an implicit tree with ``prolog_source()`` (see
    :mod:`pyab.trees`); for those ``names=False`` skips the lists of names
    and returns only ``extra["leaves_count"]`` and ``extra["visited_count"]``
    (the lists stay empty), which is what big experiments need.

    ``program`` replaces the algorithm's Prolog file (e.g. your own
    alphabeta/5, or a mutant in a test); it is loaded unchanged.
    ``stack_limit`` (bytes) runs this one search under a smaller SWI-Prolog
    stack limit (the flag is put back afterwards); running out of it raises
    :class:`PrologError` and leaves the engine usable.
    :raises PrologError: on any Prolog error; :class:`SearchTimeout` when
        ``timeout`` seconds pass first.
    """
    for bound in (alpha, beta):
        if isinstance(bound, float) and math.isnan(bound):
            raise ValueError("a window bound cannot be NaN")
    alg = find_algorithm(algorithm)
    path = str(Path(program).resolve() if program else PROLOG_DIR / alg.prolog_file)
    if not Path(path).is_file():
        raise PrologError(f"no Prolog program at {path}")
    opts = f"{'inf' if depth is None else int(depth)} {float(timeout or 0)!r}"
    if stack_limit is not None:
        if isinstance(stack_limit, bool) or not isinstance(stack_limit, int) or stack_limit <= 0:
            raise ValueError(f"stack_limit must be a positive number of bytes, not {stack_limit!r}")
        opts += f" {stack_limit}"
    with _LOCK:
        eng = engine()
        _drop_gone(eng)
        module = _module(eng, tree)
        if hasattr(tree, "prolog_source"):
            eng.call("rules_mode", [("atom", module), ("string", "names" if names else "counts")])
        elif not names:
            raise ValueError("names=False is for implicit trees (pyab.trees, pyab.games) only")
        prog_no = _PROGRAMS.setdefault(path, len(_PROGRAMS) + 1)
        out = eng.call("solve", [
            ("atom", module), ("atom", f"{module}_p{prog_no}"), ("string", path),
            ("atom", algorithm), ("string", tree.root),
            ("string", number(alpha)), ("string", number(beta)), ("string", opts), None,
        ])[-1] or ""
    _raise_if_error(out, timeout)
    if out == "fail":
        raise PrologError(f"the {algorithm} search failed on {tree.root!r} (no answer)", "fail")
    fields = out.split("\0")
    _, flag, best, value, nl, nv, np_ = fields[:7]
    if not names:
        return Result(best=best if flag == "1" else None, value=_parse_number(value),
                      leaves=(), visited=(), pruned=(), engine="prolog", algorithm=algorithm,
                      extra={"leaves_count": int(nl), "visited_count": int(nv)})
    names = fields[7:]
    nl_, nv_ = int(nl), int(nv)
    return Result(
        best=best if flag == "1" else None,
        value=_parse_number(value),
        leaves=tuple(names[:nl_]),
        visited=tuple(names[nl_:nl_ + nv_]),
        pruned=tuple(names[nl_ + nv_:nl_ + nv_ + int(np_)]),
        engine="prolog",
        algorithm=algorithm,
    )


def resource_counts() -> dict[str, int]:
    """What SWI-Prolog holds, after an atom garbage collection, for leak
    checks: ``modules`` (tree and program modules in use, free ones not
    counted), ``atoms`` (the atom table, blobs included), ``text_atoms``,
    ``closures`` (wrap_predicate closures: two per tree module ever made,
    never freed by SWI-Prolog 9.0.4, hence the recycling) and ``free`` (tree
    modules emptied and waiting for the next tree)."""
    with _LOCK:
        eng = engine()
        _drop_gone(eng)
        counts = (eng.call("resource_counts_text", [None])[0] or "0 0 0 0 0").split()
        return dict(zip(("modules", "atoms", "text_atoms", "closures", "free"), map(int, counts)))


def live_modules() -> int:
    """How many tree and program modules are in use (for leak checks); the
    free modules kept for reuse and their program modules are not counted."""
    with _LOCK:
        eng = engine()
        _drop_gone(eng)
        return int(eng.call("live_modules_text", [None])[0] or 0)


def drop(tree: Tree) -> None:
    """Release ``tree``'s module now instead of when the object is collected
    (a fact tree's module is recycled; the tree is loaded again if solved)."""
    with _LOCK:
        module = _MODULES.pop(tree, None)
        if module is not None:
            # The finalizer must not release the module a second time: by
            # then another tree may be using it.
            _FINALIZERS.pop(module).detach()
            _release(engine(), module, not hasattr(tree, "prolog_source"))


def solve_traced(
    tree: Tree,
    alpha: Number = -math.inf,
    beta: Number = math.inf,
    *,
    timeout: float | None = None,
    program: str | Path | None = None,
) -> tuple[Result, list[tuple[Any, ...]]]:
    """Run the slides' program on ``tree`` in SWI-Prolog and observe it step
    by step (``solve_traced/8`` in ``prolog/pyab_bridge.pl``).

    Returns the :class:`Result` and the raw events, in the order SWI-Prolog
    produced them: ``("call", pos, alpha, beta)``, ``("leaf", pos, val)``,
    ``("bounds", pos, val, alpha, beta, new_alpha, new_beta)``, ``("cut",
    pos, val, alpha, beta, "alpha"|"beta", (rest, ...))``, ``("return",
    pos, good_pos_or_None, val)``.  The traced run uses a program module of
    its own, so untraced solves are not slowed down.
    """
    for bound in (alpha, beta):
        if isinstance(bound, float) and math.isnan(bound):
            raise ValueError("a window bound cannot be NaN")
    path = str(Path(program).resolve() if program else PROLOG_DIR / find_algorithm("bratko").prolog_file)
    if not Path(path).is_file():
        raise PrologError(f"no Prolog program at {path}")
    opts = f"inf {float(timeout or 0)!r}"
    with _LOCK:
        eng = engine()
        _drop_gone(eng)
        module = _module(eng, tree)
        prog_no = _PROGRAMS.setdefault(path, len(_PROGRAMS) + 1)
        out = eng.call("solve_traced", [
            ("atom", module), ("atom", f"{module}_p{prog_no}_trace"), ("string", path),
            ("string", tree.root), ("string", number(alpha)), ("string", number(beta)),
            ("string", opts), None,
        ])[-1] or ""
    _raise_if_error(out)
    if out == "fail":
        raise PrologError(f"the bratko search failed on {tree.root!r} (no answer)", "fail")
    fields = out.split("\0")
    _, flag, best, value, nl, nv, np_ = fields[:7]
    nl_, nv_, np2 = int(nl), int(nv), int(np_)
    names = fields[7:7 + nl_ + nv_ + np2]
    result = Result(
        best=best if flag == "1" else None,
        value=_parse_number(value),
        leaves=tuple(names[:nl_]),
        visited=tuple(names[nl_:nl_ + nv_]),
        pruned=tuple(names[nl_ + nv_:]),
        engine="prolog",
        algorithm="bratko",
    )
    return result, _trace_events(fields[7 + nl_ + nv_ + np2:])


def _trace_events(fields: list[str]) -> list[tuple[Any, ...]]:
    """Decode solve_traced/8's event fields (see its PlDoc)."""
    num = _parse_number
    events: list[tuple[Any, ...]] = []
    i = 0
    while i < len(fields):
        kind = fields[i]
        if kind == "call":
            events.append(("call", fields[i + 1], num(fields[i + 2]), num(fields[i + 3])))
            i += 4
        elif kind == "leaf":
            events.append(("leaf", fields[i + 1], num(fields[i + 2])))
            i += 3
        elif kind == "bounds":
            events.append(("bounds", fields[i + 1], *(num(f) for f in fields[i + 2:i + 7])))
            i += 7
        elif kind == "cut":
            n = int(fields[i + 6])
            events.append(("cut", fields[i + 1], num(fields[i + 2]), num(fields[i + 3]),
                           num(fields[i + 4]), fields[i + 5], tuple(fields[i + 7:i + 7 + n])))
            i += 7 + n
        elif kind == "return":
            best = fields[i + 3] if fields[i + 2] == "1" else None
            events.append(("return", fields[i + 1], best, num(fields[i + 4])))
            i += 5
        else:
            raise PrologError(f"unexpected trace field {kind!r}")
    return events
