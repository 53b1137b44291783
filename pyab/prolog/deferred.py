"""Deferred answers: the names of an observed search, kept in SWI-Prolog
until a :class:`~pyab.result.Result` first reads them."""

from __future__ import annotations

import weakref
from typing import Any

from ..errors import Error
from ..result import Result
from .answers import _parse_number, _result

Engine = Any  # pyab.prolog.bridge.Engine, which imports this module


# The recorded-database keys of deferred answers (integers as text), for the
# whole runtime (every engine shares it and its lock): made, and erased ones
# to reuse.
_KEYS: dict[str, Any] = {"made": 0, "free": []}


class _Deferred:
    """The names of one observed search, kept in SWI-Prolog (solve_deferred/10)
    until first read.  Holds the tree, so its module is neither recycled nor
    reused meanwhile; when the Results holding it go unread, a finalizer queues the
    record to be freed by the engine's next call (finalizers may run in any
    thread, at any moment, so they only append to a list)."""

    def __init__(self, eng: Engine, key: str, tree: Any, module: str, algorithm: str) -> None:
        self.engine, self.key, self.tree, self.module, self.algorithm = eng, key, tree, module, algorithm
        self.fields: tuple[tuple[str, ...], ...] | None = None
        eng._pending[key] = self
        # On self, not on the Result: finish() makes a new Result sharing the thunks.
        self.finalizer = weakref.finalize(self, _unread, eng, key)

    def result(self, head: list[str]) -> Result:
        _, flag, best, value = head[:4]
        res = Result.deferred(best if flag == "1" else None, _parse_number(value), "prolog",
                              self.algorithm, {"leaves": lambda: self.get(0),
                                               "visited": lambda: self.get(1),
                                               "pruned": lambda: self.get(2)})
        return res

    def get(self, i: int) -> tuple[str, ...]:
        if self.fields is None:
            with self.engine.lock:
                if self.fields is None:
                    if self.engine.closed:
                        raise Error("the Prolog engine was closed before these names were read")
                    self.read()
        assert self.fields is not None
        return self.fields[i]

    def read(self) -> None:
        """Build the names now (the caller holds the engine's lock)."""
        if self.fields is not None:
            return
        out = self.engine._rt.call("deferred_answer", [("string", self.key), None])[-1] or ""
        _KEYS["free"].append(self.key)
        r, _ = _result(out.split("\0"), self.algorithm, True)
        self.fields = (r.leaves, r.visited, r.pruned)
        self.engine._pending.pop(self.key, None)
        self.tree = None
        self.finalizer.detach()


def _unread(eng: Engine, key: str) -> None:
    eng._unread.append(key)  # the weak entry in eng._pending is gone already
