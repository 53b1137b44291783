"""Decoding the bridge's answers: one string of NUL-separated fields per
search (``answer/5`` in ``prolog/bridge/run.pl``) into a
:class:`~pyab.result.Result`, numbers from their Prolog text, and the events
of a traced search."""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

from ..errors import PrologError
from ..result import Result
from ..tree import Number

_INT = re.compile(r"[+-]?\d+\Z")


def _parse_number(text: str) -> Number:
    if _INT.match(text):
        return int(text)
    if text.endswith("Inf"):
        return -math.inf if text.startswith("-") else math.inf
    if text.endswith("NaN"):
        return math.nan
    return float(text)


# A flag per visited node, "1" for a leaf read once (see answer_/5 in
# prolog/bridge/run.pl), as the bytes itertools.compress wants.
_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def _result(fields: list[str], algorithm: str, names: bool) -> tuple[Result, list[str]]:
    """Decode solve/9's answer; also the fields after it (trace events)."""
    _, flag, best, value, nl, nv, _ = fields[:7]
    best_or_none = best if flag == "1" else None
    if not names:
        return Result(best=best_or_none, value=_parse_number(value), leaves=(), visited=(),
                      pruned=(), engine="prolog", algorithm=algorithm,
                      extra={"leaves_count": int(nl), "visited_count": int(nv)}), []
    leaves, visited, pruned, end = _names(fields, 0)
    return Result(
        best=best_or_none,
        value=_parse_number(value),
        leaves=leaves,
        visited=visited,
        pruned=pruned,
        engine="prolog",
        algorithm=algorithm,
    ), fields[end:]


def _names(fields: list[str], i: int) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int]:
    """The leaves, visited and pruned of the answer at ``fields[i]``, and
    where the fields after it start."""
    nl, nv, np_ = fields[i + 4:i + 7]
    nv_, np2 = int(nv), int(np_)
    i += 7
    if nl.startswith("f"):  # the leaves: the visited nodes flagged in one more field
        visited = tuple(fields[i:i + nv_])
        pruned = tuple(fields[i + nv_:i + nv_ + np2])
        flags = fields[i + nv_ + np2]
        leaves = tuple(itertools.compress(visited, flags.encode("ascii").translate(_FLAGS)))
        if len(flags) != nv_ or len(leaves) != int(nl[1:]):
            raise PrologError(f"malformed answer: {len(leaves)} leaves flagged, {nl[1:]} counted")
        return leaves, visited, pruned, i + nv_ + np2 + 1
    nl_ = int(nl)
    return (tuple(fields[i:i + nl_]), tuple(fields[i + nl_:i + nl_ + nv_]),
            tuple(fields[i + nl_ + nv_:i + nl_ + nv_ + np2]), i + nl_ + nv_ + np2)


def _records(fields: list[str]) -> list[tuple[str | None, str, tuple[str, ...], tuple[str, ...],
                                              tuple[str, ...]] | None]:
    """Decode solve_batch/8's answers, one after the other: for each tree
    (best or None, the value's text, leaves, visited, pruned) as observed,
    or None where the search failed ("fail")."""
    out: list[tuple[str | None, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None] = []
    i, end = 0, len(fields)
    while i < end:
        if fields[i] == "fail":
            out.append(None)
            i += 1
            continue
        flag, best, value = fields[i + 1:i + 4]
        leaves, visited, pruned, i = _names(fields, i)
        out.append((best if flag == "1" else None, value, leaves, visited, pruned))
    return out


def _result_of(record: tuple[Any, ...], algorithm: str) -> Result:
    """A Prolog :class:`Result` of one record of :meth:`Engine.solve_batch`."""
    best, value, leaves, visited, pruned = record
    return Result(best=best, value=value, leaves=leaves, visited=visited, pruned=pruned,
                  engine="prolog", algorithm=algorithm)


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
