"""Where the registered algorithms differ: the smallest tree that shows it.

    python -m tools.algorithms_doc > docs/algorithms.md

searches small trees (MAX to move at the root) in a fixed order and, for
every pair of algorithms and every aspect (returned value, best move, leaves
read), keeps the first input on which the two differ.  The order is
"smallest first": fewer nodes, then shape, then leaf values, then window.

1. every ordered tree of 2..6 nodes, leaf values 1..3, each with the
   windows in ``WINDOWS`` (full first);
2. every tree of 7 nodes, leaf values 1..2, full window (deep cut-offs
   need four levels);
3. the trees in ``KNOWN``, full window: cases worked out by hand, each
   smaller than what the random part finds;
4. ``RANDOM_TREES`` random trees of 8..11 nodes (seeded), values 1..4,
   sorted by size, full window.  The smallest tree on which Hsu's one-sided
   F2 misses a deep cut-off has 8 nodes and three distinct values (with
   fewer, his "m is max" cut-offs stop F1 first), e.g. ``[3, [[[2, 4]]], 1]``.

Algorithms that never differ on any of these inputs are reported as one
class.  The search runs the Python mirrors; every example printed is then
run in SWI-Prolog too, and the generator stops with an error unless both
engines agree on it.  ``tests/docs/test_variants_doc.py`` regenerates the file
and compares it with the committed one.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from pyab.text import number
from pyab.result import Result
from pyab.search import ALGORITHMS, python_search
from pyab.tree import Number, Tree, from_nested

__all__ = ["Example", "find", "main", "render"]

INF = math.inf
# Windows, simplest first: full, one-sided, closed, empty (alpha = beta).
# (A longer list, with (-inf, 2), (3, inf), (2, 3), (1, 3) and (3, 3), gave
# the same examples at five times the cost.)
WINDOWS: tuple[tuple[Number, Number], ...] = (
    (-INF, INF),
    (-INF, 1), (2, INF),
    (1, 2),
    (1, 1), (2, 2),
)
# "leaves, full window" looks at the full window only: the plainest case.
ASPECTS = ("value", "best", "leaves", "leaves, full window")
RANDOM_TREES = 3000
# Worked out by hand: a deep cut-off (at r_2_1_1, on the root's alpha 3)
# that Hsu's one-sided F2 cannot make; 1 and 4 keep his "m is max/min"
# direct cut-offs out of the way.
KNOWN: tuple[Any, ...] = ([3, [[[2, 4]]], 1],)
SEED = 2024

Shape = Any  # None for a leaf, a tuple of shapes for an inner node


def _shapes(n: int) -> list[Shape]:
    """Every ordered tree with n nodes, in a fixed order."""
    if n == 1:
        return [None]
    return [tuple(f) for f in _forests(n - 1)]


def _forests(m: int) -> list[list[Shape]]:
    if m == 0:
        return [[]]
    out = []
    for k in range(1, m + 1):
        for first in _shapes(k):
            for rest in _forests(m - k):
                out.append([first, *rest])
    return out


def _leaf_count(shape: Shape) -> int:
    return 1 if shape is None else sum(_leaf_count(s) for s in shape)


def _fill(shape: Shape, values: Iterator[Number]) -> Any:
    """The shape with its leaves replaced by values: a nested list."""
    return next(values) if shape is None else [_fill(s, values) for s in shape]


def list_text(nested: Any) -> str:
    if isinstance(nested, list):
        return "[" + ", ".join(list_text(c) for c in nested) + "]"
    return number(nested)


def _inputs() -> Iterator[tuple[Any, tuple[Number, Number]]]:
    """(nested list, window) in the search order described above."""
    for n in range(2, 7):
        for shape in _shapes(n):
            for values in itertools.product((1, 2, 3), repeat=_leaf_count(shape)):
                nested = _fill(shape, iter(values))
                for window in WINDOWS:
                    yield nested, window
    for shape in _shapes(7):
        for values in itertools.product((1, 2), repeat=_leaf_count(shape)):
            yield _fill(shape, iter(values)), WINDOWS[0]
    for nested in KNOWN:
        yield nested, WINDOWS[0]
    rng = random.Random(SEED)
    sampled = []
    for _ in range(RANDOM_TREES):
        n = rng.randint(8, 11)
        shape = rng.choice(_random_shapes(rng, n))
        values = [rng.randint(1, 4) for _ in range(_leaf_count(shape))]
        sampled.append((n, _fill(shape, iter(values))))
    sampled.sort(key=lambda p: p[0])  # stable: by size, then draw order
    for _, nested in sampled:
        yield nested, WINDOWS[0]


def _random_shapes(rng: random.Random, n: int) -> list[Shape]:
    """One random ordered tree with n nodes (as a one-element list)."""
    def grow(m: int) -> Shape:
        if m == 1:
            return None
        sizes, left = [], m - 1
        while left:
            k = rng.randint(1, left)
            sizes.append(k)
            left -= k
        return tuple(grow(k) for k in sizes)
    return [grow(n)]


def _key(r: Result, aspect: str) -> Any:
    if aspect == "value":
        return number(r.value)
    return getattr(r, aspect.split(",")[0])


@dataclass(frozen=True)
class Example:
    """The first input on which ``a`` and ``b`` differ in ``aspect``."""

    a: str
    b: str
    aspect: str
    nested: Any
    window: tuple[Number, Number]
    index: int  # position in the search order


def find(names: Sequence[str] | None = None) -> tuple[dict[tuple[str, str, str], Example], int]:
    """Search; returns the examples by (a, b, aspect) and the number of inputs."""
    names = list(names or ALGORITHMS)
    searches = [python_search(n) for n in names]
    pairs = list(itertools.combinations(range(len(names)), 2))
    found: dict[tuple[str, str, str], Example] = {}
    count = 0
    for count, (nested, (alpha, beta)) in enumerate(_inputs(), 1):
        tree = from_nested(nested)
        results = [s(tree, alpha, beta, depth=None) for s in searches]
        for aspect in ASPECTS:
            if aspect.endswith("full window") and (alpha, beta) != WINDOWS[0]:
                continue
            keys = [_key(r, aspect) for r in results]
            for i, j in pairs:
                if keys[i] != keys[j]:
                    k = (names[i], names[j], aspect)
                    if k not in found:
                        found[k] = Example(names[i], names[j], aspect, nested, (alpha, beta), count)
    return found, count


def _classes(names: Sequence[str], found: dict) -> list[list[str]]:
    """Algorithms that never differed, grouped (in registry order)."""
    classes: list[list[str]] = []
    for n in names:
        for c in classes:
            if not any((c[0], n, a) in found or (n, c[0], a) in found for a in ASPECTS):
                c.append(n)
                break
        else:
            classes.append([n])
    return classes


def _window_text(w: tuple[Number, Number]) -> str:
    def one(x: Number) -> str:
        return ("-inf" if x < 0 else "inf") if isinstance(x, float) and math.isinf(x) else number(x)
    return f"{one(w[0])} .. {one(w[1])}"


def _minimax(tree: Tree, node: int = 0) -> Number:
    kids = tree.kids_of(node)
    if not kids:
        return tree.value_of(node)  # type: ignore[return-value]
    vals = [_minimax(tree, k) for k in kids]
    return max(vals) if tree.is_max(node) else min(vals)


def _cell(aspect: str, r: Result, tree: Tree) -> str:
    """What one algorithm did, for the table."""
    if aspect == "value":
        return number(r.value)
    if aspect == "best":
        if r.best is None:
            return "(no move)"
        return f"{r.best} (worth {number(_minimax(tree, tree.index[r.best]))})"
    return " ".join(r.leaves) or "(none)"


def _verify(tree: Tree, name: str, window: tuple[Number, Number]) -> Result:
    """The Prolog run, checked against the mirror."""
    from pyab.engines import check
    return check(tree, name, window[0], window[1])


def _check_prose(found: dict) -> None:
    """The guide's general sentences must hold for the examples found."""
    for ex in found.values():
        if ex.aspect == "value" and ex.window == WINDOWS[0]:
            raise AssertionError(f"{ex.a} and {ex.b} differ in value under the full window: "
                                 f"{list_text(ex.nested)}; rewrite 'Reading the tables'")
        if ex.aspect == "best" and ex.window == WINDOWS[0]:
            tree = from_nested(ex.nested)
            ra = python_search(ex.a)(tree, *ex.window)
            rb = python_search(ex.b)(tree, *ex.window)
            if None not in (ra.best, rb.best) and (
                    _minimax(tree, tree.index[ra.best]) != _minimax(tree, tree.index[rb.best])):
                raise AssertionError(f"{ex.a} and {ex.b} pick moves of different worth on "
                                     f"{list_text(ex.nested)}; rewrite 'Reading the tables'")


def render(found: dict, count: int, names: Sequence[str] | None = None) -> str:
    names = list(names or ALGORITHMS)
    _check_prose(found)
    classes = _classes(names, found)
    out = [
        "# How the alpha-beta variants differ",
        "",
        "<!-- Generated by `python -m tools.algorithms_doc > docs/algorithms.md`;",
        "     tests/docs/test_variants_doc.py regenerates it and compares. Do not edit. -->",
        "",
        "Every algorithm `pyab` knows (`--algorithm NAME`), and for each pair that",
        "behaves differently, the smallest tree found on which the difference shows:",
        "in the value returned, in the move chosen, or in the leaves read.  The trees",
        "are in the list form of the DSL (nodes are named by Dewey path: `r`, `r_1`,",
        "`r_1_2`, ...), MAX moves at the root, and the window is `alpha .. beta`.",
        "Run any of them with",
        "`pyab variants FILE --alpha A --beta B --leaves`.",
        "",
        f"Searched, smallest first, {count} inputs (tree and window):",
        "every tree of 2 to 6 nodes with leaf values 1 to 3 under the windows",
        ", ".join(f"`{_window_text(w)}`" for w in WINDOWS) + ";",
        "every tree of 7 nodes with leaf values 1 and 2 under the full window;",
        ", ".join(f"`{list_text(t)}`" for t in KNOWN) + ", worked out by hand (a deep cut-off),",
        "under the full window;",
        f"{RANDOM_TREES} random trees of 8 to 11 nodes, leaf values 1 to 4 (seed {SEED}),",
        "under the full window.  Examples from this last, random part are the",
        "smallest among the random trees, not necessarily the smallest there are.",
        "The search runs the Python mirrors; each example below was then run in",
        "SWI-Prolog as well, and both engines agree on it.",
        "",
        "## The algorithms",
        "",
        "| algorithm | what it is |",
        "| --- | --- |",
    ]
    out += [f"| `{n}` | {ALGORITHMS[n].summary} |" for n in names]
    out += [
        "",
        "## Reading the tables",
        "",
        "* **value** differs only when the window is narrower than the values: with",
        "  the full window every algorithm returns the minimax value (a property",
        "  the tests check).  A search that fails low or high returns the bound it",
        "  failed on (fail-hard: `cpw-minmax`, `cpw-negamax`, `hsu-f1`), the best",
        "  value it saw (fail-soft: `aima`, `cpw-failsoft`, `hsu-f3`), or, in the",
        "  slides' program, the value of the child that caused the cut.  `minimax`",
        "  ignores the window.",
        "* **best**, under the full window, differs only on ties (the slides'",
        "  `betterof/6` keeps the later of two equal children, the others the",
        "  first) or where one search chooses no move (`module22` when every move is",
        "  worth exactly its starting threshold).  Under a narrower window a search",
        "  that fails high at the root stops at the first move that reaches beta,",
        "  not necessarily the best one, and a fail-hard search whose root fails",
        "  low chooses no move.",
        "* **leaves** differ through the cut tests: strict (`bratko` cuts only on a",
        "  value strictly outside the window) or not (`>= beta`, `<= alpha`); the",
        "  tree's largest and smallest values as bounds (`module22`'s starting",
        "  thresholds, Hsu's \"m is max\" cut-offs); one-sided bounds (`hsu-f2` passes",
        "  only one bound down, so it has no deep cut-offs).",
        "",
        "Why each algorithm reads its source the way it does is written in its",
        "Prolog file (`prolog/aima.pl`, `prolog/cpw.pl`, `prolog/module22.pl`,",
        "`prolog/hsu.pl`, `prolog/minimax.pl`, `prolog/alphabeta.pl`).",
        "",
        "## Choices where the sources are silent",
        "",
        "Made the same way in the Prolog file and in its Python mirror:",
        "",
        "* **Vocabulary.** `aima`, the `cpw-*` routines and `module22` use only the",
        "  tree's `moves/2`, `staticval/2`, `min_to_move/1` and `max_to_move/1`;",
        "  they ask `moves/2` once per position searched and call `staticval/2`",
        "  once per value used (prolog/tests/variants.plt checks it), so `leaves`",
        "  and `visited` are observed, not inferred.",
        "* **Windows and sides.** The window and the value are from MAX's point of",
        "  view.  With MIN to move at the root, AIMA starts with MIN-VALUE and",
        "  `cpw-minmax` with alphaBetaMin; the negamax forms search from MIN's point",
        "  of view with the window negated and swapped, and negate the result back.",
        "* **Depth** (`--depth N`).  A node N plies down is scored by its own static",
        "  value without asking for its moves (AIMA's CUTOFF-TEST, the wiki's",
        "  `depthleft == 0`, the module's `Over`); such inner nodes need a value in",
        "  the tree file (`b = 5 (e = 3, f = 1)`), or the search stops with an error",
        "  naming the node.  A leaf above the limit is scored by its static value.",
        "* **Best move.** `aima`: the first successor whose value, as the root's",
        "  loop received it, equals v.  `cpw-*`: the move that last raised alpha",
        "  (lowered beta, in alphaBetaMin) or caused the cut-off; fail-hard leaves",
        "  none when no move beat the bound.  `module22`: the first step of the",
        "  path, none when the path is NULL.",
        "* **The wiki's C routines.** evaluate() in the min/max pair is `staticval/2`",
        "  in both routines (the printed `-evaluate()` in alphaBetaMin presumes an",
        "  evaluation relative to the side to move); `quiesce()` is the static score",
        "  from the side to move's point of view (a game tree has nothing to",
        "  quiesce).",
        "* **module22.** The printed cut-off test `If CurrentThreshold > ChildSEF`",
        "  is inverted: taken literally it stops at an improving child that is",
        "  still below CurrentThreshold, and on `[1, 2, 3]` it returns 2, not 3.",
        "  The module's prose and alpha-beta's own rule cut when the improved",
        "  threshold reaches CurrentThreshold: `ChildSEF >= CurrentThreshold`,",
        "  which runs here.  The starting thresholds, \"the maximum and minimum value SEF can",
        "  compute\", are the tree's largest and smallest static values, read from",
        "  the `staticval/2` facts with `clause/2` (a fact of the game, not a",
        "  position searched, so not observed as a leaf); -inf and +inf for a tree",
        "  given by rules; a finite `--alpha`/`--beta` replaces them.  The futility",
        "  margin M (`module22_path/7` in Prolog, `margin=` in",
        "  `pyab.search.module22.search`; the command line runs M = 0) counts a",
        "  child as better only above NextThreshold + M and stops a node at",
        "  CurrentThreshold - M.",
    ]
    out += ["", "## Algorithms that behaved the same on every input", ""]
    same = [c for c in classes if len(c) > 1]
    if same:
        out += [f"* {', '.join(f'`{n}`' for n in c)}" for c in same]
        out += ["", "(Same value, same best move and the same leaves in the same order, on",
                "every input searched: a finding, not a proof.)"]
    else:
        out.append("None: every pair differed somewhere.")
    out += ["", "## Pairs that differ", "",
            "Each class is named by its first member; the examples hold for every",
            "member.  One row per aspect: the smallest input on which the two differ",
            "in it, and what each returns, picks (with the minimax value of the move)",
            "or reads."]
    for ca, cb in itertools.combinations(classes, 2):
        a, b = ca[0], cb[0]
        out += ["", f"### `{a}` vs `{b}`", "",
                f"| differs in | tree | window | `{a}` | `{b}` |",
                "| --- | --- | --- | --- | --- |"]
        for aspect in ASPECTS:
            ex = found.get((a, b, aspect))
            if ex is None:
                out.append(f"| {aspect} | never, on every input searched | | | |")
                continue
            tree = from_nested(ex.nested)
            ra, rb = _verify(tree, a, ex.window), _verify(tree, b, ex.window)
            out.append(f"| {aspect} | `{list_text(ex.nested)}` | {_window_text(ex.window)} | "
                       f"{_cell(aspect, ra, tree)} | {_cell(aspect, rb, tree)} |")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    found, count = find()
    sys.stdout.write(render(found, count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
