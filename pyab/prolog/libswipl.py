"""The link to SWI-Prolog's shared library: starting SWI-Prolog in this
process (:func:`_start`, with pyswip or without it), the one
:class:`_Runtime` every :class:`~pyab.prolog.Engine` calls through, and its
raw call of a predicate of the bridge with text arguments
(:meth:`_Runtime.call`), which raises a Prolog exception as
:class:`~pyab.errors.PrologError`.
"""

from __future__ import annotations

import atexit
import ctypes
import itertools
import os
import threading
from typing import Any

from ..errors import PrologError, SearchTimeout
from ..resources import compiled, prolog_dir
from ..tree import Tree

PROLOG_DIR = prolog_dir()

# SWI-Prolog.h (9.x) constants used below.
_PL_ATOM, _PL_STRING = 2, 6
_REP_UTF8 = 0x00100000
_CVT_ATOM, _CVT_STRING, _CVT_WRITEQ = 0x1, 0x2, 0x200
_BUF_STACK = 0x00010000
_PL_Q_NODEBUG, _PL_Q_CATCH_EXCEPTION = 0x04, 0x08

_c = ctypes
# (name, restype, argtypes) of every libswipl function used here.  Each gets
# a function object of its own (lib[name] is not cached), so pyswip's
# prototypes of the same functions (lib.name) are never changed.
_PROTOTYPES: list[tuple[str, Any, list[Any]]] = [
    ("PL_put_chars", _c.c_int, [_c.c_size_t, _c.c_int, _c.c_size_t, _c.c_char_p]),
    ("PL_get_nchars", _c.c_int, [_c.c_size_t, _c.POINTER(_c.c_size_t),
                                 _c.POINTER(_c.c_char_p), _c.c_uint]),
    ("PL_new_term_refs", _c.c_size_t, [_c.c_int]),
    ("PL_put_term", _c.c_int, [_c.c_size_t, _c.c_size_t]),
    ("PL_predicate", _c.c_void_p, [_c.c_char_p, _c.c_int, _c.c_char_p]),
    ("PL_call_predicate", _c.c_int, [_c.c_void_p, _c.c_int, _c.c_void_p, _c.c_size_t]),
    ("PL_open_query", _c.c_size_t, [_c.c_void_p, _c.c_int, _c.c_void_p, _c.c_size_t]),
    ("PL_next_solution", _c.c_int, [_c.c_size_t]),
    ("PL_cut_query", _c.c_int, [_c.c_size_t]),
    ("PL_open_foreign_frame", _c.c_size_t, []),
    ("PL_discard_foreign_frame", None, [_c.c_size_t]),
    ("PL_thread_self", _c.c_int, []),
    ("PL_thread_destroy_engine", _c.c_int, []),
    ("PL_thread_attach_engine", _c.c_int, [_c.c_void_p]),
    ("PL_exception", _c.c_size_t, [_c.c_size_t]),
    ("PL_clear_exception", None, []),
    ("PL_get_atom", _c.c_int, [_c.c_size_t, _c.POINTER(_c.c_size_t)]),
    ("PL_unregister_atom", None, [_c.c_size_t]),
    # PL_get_nchars(BUF_STACK) keeps each answer's text in a buffer that only
    # a string-buffer mark releases; outside a Prolog query nothing else does
    # (measured: 544 bytes of resident memory per call).
    ("PL_mark_string_buffers", None, [_c.POINTER(_c.c_size_t)]),
    ("PL_release_string_buffers_from_mark", None, [_c.c_size_t]),
]


# The compiled loader, looked up once (the bridge's copy of the name is the one
# tests set to None for load_packed/3 alone).
_cload = compiled("prolog._cload")


class _Runtime:
    """The process's SWI-Prolog, reached through libswipl (started by :func:`_start`).
    One per process; every :class:`Engine` calls through it."""

    def __init__(self) -> None:
        lib = _start()
        self.lib = lib
        self._bound: Any = None  # the compiled loader bound to lib's functions
        self.lock = threading.RLock()
        self.counter = itertools.count(1)  # module names are per process
        self.thread = threading.local()
        f: dict[str, Any] = {}
        for name, restype, argtypes in _PROTOTYPES:
            fn = lib[name]
            fn.restype, fn.argtypes = restype, argtypes
            f[name] = fn
        self.f = f
        self._preds: dict[tuple[str, int, str], int] = {}
        self.call("set_prolog_flag", [("atom", "debug_on_error"), ("atom", "false")], module="system")
        self.call("set_prolog_flag", [("atom", "report_error"), ("atom", "false")], module="system")
        # Already there when SWI-Prolog started from the bridge's saved state
        # (then this finds it loaded and returns at once).
        self.call("ensure_loaded", [("atom", str(PROLOG_DIR / "pyab_bridge.pl"))], module="user")
        if _cload is not None:
            self._register_compiled(_cload)

    def _pred(self, name: str, arity: int, module: str) -> int:
        key = (name, arity, module)
        if key not in self._preds:
            self._preds[key] = self.f["PL_predicate"](name.encode(), arity, module.encode())
        return self._preds[key]

    def _text(self, term: int, flags: int) -> str | None:
        size, buf = ctypes.c_size_t(), ctypes.c_char_p()
        if not self.f["PL_get_nchars"](term, ctypes.byref(size), ctypes.byref(buf),
                                       flags | _REP_UTF8 | _BUF_STACK):
            return None
        return ctypes.string_at(buf, size.value).decode("utf-8")

    def call(self, name: str, args: list[tuple[str, str] | None],
             module: str = "pyab_bridge") -> list[str | None]:
        """Call ``module:name/len(args)``; each argument is ``("atom"|"string",
        text)`` or ``None`` for an output variable.  Returns the outputs'
        text.

        :raises PrologError: when the goal fails, or with the exception's
            term (``.term``, as ``writeq`` prints it) and message when it
            raises one.
        """
        f = self.f
        self._attach()
        mark = ctypes.c_size_t()
        f["PL_mark_string_buffers"](ctypes.byref(mark))  # PL_STRINGS_MARK()
        frame = f["PL_open_foreign_frame"]()
        try:
            t0 = f["PL_new_term_refs"](len(args))
            for i, arg in enumerate(args):
                if arg is not None:
                    kind, text = arg
                    data = text.encode("utf-8")
                    flags = (_PL_ATOM if kind == "atom" else _PL_STRING) | _REP_UTF8
                    if not f["PL_put_chars"](t0 + i, flags, len(data), data):
                        raise PrologError(f"cannot pass {kind} argument {i + 1} to {name}")
                    if kind == "atom":
                        # PL_put_chars(PL_ATOM) keeps the reference textToAtom()
                        # took (pl-fli.c, SWI 9.0), so the atom could never be
                        # collected: one leaked atom per call.  Drop it as
                        # PL_put_atom_nchars() does; the term still holds the atom.
                        atom = ctypes.c_size_t()
                        if f["PL_get_atom"](t0 + i, ctypes.byref(atom)):
                            f["PL_unregister_atom"](atom.value)
            # A query of our own (not PL_call_predicate, after which
            # PL_exception(0) is empty on SWI-Prolog 9.0.4): its exception is
            # copied out before the query is closed.
            exc = f["PL_new_term_refs"](1)
            qid = f["PL_open_query"](None, _PL_Q_NODEBUG | _PL_Q_CATCH_EXCEPTION,
                                     self._pred(name, len(args), module), t0)
            ok = f["PL_next_solution"](qid)
            raised = False
            if not ok:
                term = f["PL_exception"](qid)
                if term:
                    raised = bool(f["PL_put_term"](exc, term))
            f["PL_cut_query"](qid)
            if not ok:
                if raised:
                    raise self._error(exc)
                raise PrologError(f"{module}:{name}/{len(args)} failed", "fail")
            out: list[str | None] = []
            for i, arg in enumerate(args):
                if arg is None:
                    got = self._text(t0 + i, _CVT_ATOM | _CVT_STRING)
                    if got is None:
                        raise PrologError(f"{name}: output {i + 1} is not text")
                    out.append(got)
                else:
                    out.append(None)
            return out
        finally:
            f["PL_discard_foreign_frame"](frame)
            f["PL_release_string_buffers_from_mark"](mark.value)  # PL_STRINGS_RELEASE()

    def _attach(self) -> None:
        """Give this thread a SWI-Prolog engine if it has none."""
        f = self.f
        if f["PL_thread_self"]() == -1:  # a Python thread SWI-Prolog has not met
            if f["PL_thread_attach_engine"](None) < 0:
                raise PrologError("cannot attach a SWI-Prolog engine to this thread")
            self.thread.engine = _Detach(self)

    def _bind(self, loader: Any) -> None:
        """Give the compiled extension the functions of the library SWI-Prolog
        runs from (once per extension)."""
        if self._bound is not loader:
            loader.bind(tuple(ctypes.cast(self.lib[name], ctypes.c_void_p).value
                              for name in loader.functions()))
            self._bound = loader

    def _register_compiled(self, loader: Any) -> None:
        """Define the compiled recorder of observe.pl's names mode
        (pyab/_cload.c: ``pyab_observe:'$crec_begin'/2`` ...) and the tree
        table's predicates (pyab/_ctable.c: ``pyab_table:kids/3`` ...);
        without them (no extension, ``PYAB_PURE_PYTHON``) observe.pl records
        in Prolog and no tree is read from a table."""
        self._attach()
        self._bind(loader)
        loader.register_recorder()
        loader.register_table()

    def load_compiled(self, loader: Any, module: str, tree: Tree) -> None:
        """Load fact tree ``tree`` into ``module`` with the compiled loader
        (pyab/_cload.c): ``load_claim/1``, the loader's asserts,
        ``load_finish/1``; the clauses of ``load_packed/3``, in its order.
        Whatever fails drops the module again.

        :raises PrologError: when Prolog refuses (the exception's term and
            message, as :meth:`call` raises them)."""
        self._bind(loader)
        self.call("load_claim", [("atom", module)])  # attaches this thread too
        try:
            f = self.f
            frame = f["PL_open_foreign_frame"]()
            try:
                if not loader.load(module, tree.names, tree.kids, tree.values, tree.sides,
                                   tree.depth, tree.root_side == "max"):
                    exc = f["PL_new_term_refs"](1)
                    term = f["PL_exception"](0)
                    if term and f["PL_put_term"](exc, term):
                        raise self._error(exc)
                    raise PrologError(f"the compiled loader could not load the tree into {module}")
            finally:
                f["PL_discard_foreign_frame"](frame)
            self.call("load_finish", [("atom", module)])
        except BaseException:
            self.call("drop", [("atom", module)])
            raise

    def _error(self, exc: int) -> PrologError:
        """An exception term as a PrologError: its text and SWI-Prolog's
        message for it (``message_text/2`` in the bridge)."""
        f = self.f
        f["PL_clear_exception"]()
        t = f["PL_new_term_refs"](2)
        f["PL_put_term"](t, exc)
        term = self._text(t, _CVT_WRITEQ) or "?"
        message = ""
        if f["PL_call_predicate"](None, _PL_Q_NODEBUG | _PL_Q_CATCH_EXCEPTION,
                                  self._pred("message_text", 2, "pyab_bridge"), t):
            message = self._text(t + 1, _CVT_ATOM | _CVT_STRING) or ""
        else:
            f["PL_clear_exception"]()
        if "time_limit_exceeded" in term:
            return SearchTimeout("the search ran past its time limit and was stopped "
                                 "(allow more time, or search a smaller tree)", term)
        return PrologError(message.strip() or term, term)


def _fn(lib: ctypes.CDLL, name: str, restype: Any, argtypes: list[Any]) -> Any:
    fn = lib[name]  # a function object of its own (see _PROTOTYPES)
    fn.restype, fn.argtypes = restype, argtypes
    return fn


_ARGV: list[Any] = []  # PL_initialise's arguments, kept alive for SWI-Prolog


def _start() -> ctypes.CDLL:
    """Start SWI-Prolog in this process; its shared library.

    When SWI-Prolog's home and library are known without pyswip
    (:func:`pyab.prolog.home.locate`) and nobody has started it yet, pyab
    loads the library and calls ``PL_initialise`` itself, with the
    bridge's saved state (:mod:`pyab.prolog.state`) as ``-x STATE`` when
    there is one, and pyswip is not imported (its import costs more than
    SWI-Prolog's own start, and hooks ``sys.exit``).  The arguments are
    pyswip's (``-q --nosignals --home=HOME``), and, as pyswip does,
    ``PL_cleanup`` runs at exit.  A pyswip imported later in the same
    process finds SWI-Prolog running and works on.  Otherwise (pyswip
    imported first, or SWI-Prolog not found but by pyswip) pyswip starts
    it, as before, and the bridge loads from source.
    """
    import sys
    from .home import locate
    found = locate()
    if found is None or "pyswip.core" in sys.modules:
        return _start_with_pyswip()
    home, path = found
    c = ctypes
    lib = c.CDLL(path, mode=c.RTLD_GLOBAL)
    if not hasattr(lib, "PL_version_info"):  # SWI-Prolog before 8.5.2: as before
        return _start_with_pyswip()
    if _fn(lib, "PL_is_initialised", c.c_int, [c.c_void_p, c.c_void_p])(None, None):
        return lib  # started by other code in this process: the bridge loads from source
    from .state import state
    version = _fn(lib, "PL_version_info", c.c_uint, [c.c_int])(1)  # PL_VERSION_SYSTEM
    saved = state(home, path, version, PROLOG_DIR / "pyab_bridge.pl")
    args = [b"./", b"-q", b"--nosignals", b"--home=" + os.fsencode(home)]
    if saved is not None:
        args += [b"-x", os.fsencode(saved)]
    argv = (c.c_char_p * (len(args) + 1))(*args, None)
    _ARGV.append(argv)
    if not _fn(lib, "PL_initialise", c.c_int, [c.c_int, c.POINTER(c.c_char_p)])(len(args), argv):
        raise PrologError("SWI-Prolog could not start (PL_initialise failed)")
    if threading.current_thread() is threading.main_thread():
        # Not when another thread started it: that thread owns SWI-Prolog's
        # main engine, and PL_cleanup() from the main thread at exit could
        # not stop it ("Failed to stop Prolog threads").
        atexit.register(_cleanup, lib)
    return lib


def _cleanup(lib: ctypes.CDLL) -> None:
    """At exit, what pyswip does: PL_cleanup() if SWI-Prolog still runs
    (a pyswip imported later may have cleaned it up already)."""
    c = ctypes
    if _fn(lib, "PL_is_initialised", c.c_int, [c.c_void_p, c.c_void_p])(None, None):
        _fn(lib, "PL_cleanup", c.c_int, [c.c_int])(0)


def _start_with_pyswip() -> ctypes.CDLL:
    """SWI-Prolog started by importing pyswip (the way before pyab started it
    itself); its library."""
    from .home import configure
    configure()  # so that pyswip starts no swipl to find SWI-Prolog
    import pyswip.prolog  # noqa: F401  (initialises SWI-Prolog)
    from pyswip import core

    if threading.current_thread() is not threading.main_thread():
        # SWI-Prolog's main engine now belongs to this thread.  When it has
        # ended, pyswip's PL_cleanup() at exit (from the main thread) cannot
        # stop that engine and prints "Failed to stop Prolog threads".
        # Nothing pyab loads needs SWI's cleanup, so skip it.
        atexit.unregister(core.cleanupProlog)
    return core._lib


class _Detach:
    """Held in a thread-local slot of each Python thread that got an engine:
    when the thread ends, the slot is cleared in that thread and the engine
    is destroyed (else SWI-Prolog warns "Failed to stop Prolog threads" at
    exit and keeps their memory)."""

    def __init__(self, runtime: _Runtime) -> None:
        self.runtime = runtime

    def __del__(self) -> None:
        with self.runtime.lock:
            self.runtime.f["PL_thread_destroy_engine"]()


_RUNTIME: _Runtime | None = None
_RUNTIME_LOCK = threading.Lock()


def _runtime() -> _Runtime:
    global _RUNTIME
    with _RUNTIME_LOCK:
        if _RUNTIME is None:
            _RUNTIME = _Runtime()
        return _RUNTIME

