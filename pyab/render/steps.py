"""A search step by step: :class:`Step` (its kinds: :data:`KINDS`) and
:class:`Trace`, the steps of one search with its result.  How a trace is
made, observed or rebuilt, and what each kind of step means, is
:mod:`pyab.render.trace`."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..result import Result, bound_text, json_number
from ..tree import Number, Tree


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
