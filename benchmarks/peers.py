"""The Python mirror beside the pure-Python peers, in one process.

    python -m benchmarks.peers            # 10-ary depth 6 (1.1M nodes) and implicit trees
    python -m benchmarks.peers --quick    # 10-ary depth 5 and smaller implicit trees

On the same trees, in the same run, leaves read per CPU second by

* aima-python's ``alphabeta_search`` (AIMA Figure 5.7), as packaged for
  Python 3 on PyPI by the ``aima3`` project (PyPI's ``aima`` is a 2015
  Python 2 snapshot that does not import on Python 3);
* easyAI's ``Negamax`` (alpha-beta nega-max, no transposition table);
* pyab's Python mirrors (``pyab.search``): every algorithm, each with its
  full observation (names of the leaves read and the nodes visited, in
  order, and the pruned nodes) in a ``Result``.

A mirror's ``Result`` names its nodes when a caller first reads them, so
each mirror is timed three ways in one run, each time counting from the
start of the search: ``search`` (names not read yet), ``+ names`` (the
names of the leaves and of the visited nodes read: the observation the aim
is judged on) and ``--json`` (what ``pyab solve --json`` reads: also the
pruned nodes and the horizon, after ``pyab.result.finish``).  The last
column says whether the ``+ names`` figure meets the aim, at least
aima-python's leaves per CPU second.

The peers run on thin adapters over the same tree (a node is an int; moves
are the tuple the Tree holds, or the ``range`` a uniform tree computes), so
they read the same leaves from the same data.  Their leaf counts come from
a second, counting run outside the timed one.  Times are
``time.process_time`` (this process's CPU), the median of ``--repeat``
runs.  Install the peers with ``pip install -e '.[bench]'`` and
``pip install --no-deps aima3`` (``make bench`` does both).
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import statistics
import sys
import time
from typing import Any, Callable

from pyab.search.common import access
from pyab.tree import Tree

__all__ = ["AIM", "MODES", "explicit_tree", "main", "rows"]


def explicit_tree(b: int, d: int, seed: int = 1) -> Tree:
    """The complete ``b``-ary tree of depth ``d``, nodes in depth-first
    order named ``n0``, ``n1``, ...; leaf values from a seeded generator in
    -999..999."""
    rng = random.Random(seed)
    sizes = [sum(b ** k for k in range(d - level + 1)) for level in range(d + 1)]
    n = sizes[0]
    kids: list[tuple[int, ...]] = [()] * n
    values: list[int | None] = [None] * n
    depth = [0] * n
    stack = [(0, 0)]
    while stack:
        i, level = stack.pop()
        depth[i] = level
        if level == d:
            values[i] = rng.randint(-999, 999)
            continue
        step = sizes[level + 1]
        ks = kids[i] = tuple(range(i + 1, i + 1 + b * step, step))
        stack.extend((k, level + 1) for k in reversed(ks))
    names = tuple(f"n{i}" for i in range(n))
    return Tree(names=names, kids=tuple(kids), values=tuple(values),
                index=dict(zip(names, range(n))), depth=tuple(depth))


# -- adapters: the same tree behind each peer's game interface --------------


class AimaGame:
    """aima-python's Game protocol over a pyab tree (explicit or implicit)."""

    def __init__(self, tree: Any, count: bool = False):
        # The tree's own lookups, as fast as the mirror gets them.
        self.kids, self.value, self.is_max = access(tree)
        self.initial = tree.root_node
        self.read = 0
        if count:
            plain = self.value

            def counted(node: Any) -> Any:
                self.read += 1
                return plain(node)
            self.value = counted

    def actions(self, state):
        return self.kids(state)

    def result(self, state, move):
        return move

    def terminal_test(self, state):
        return not self.kids(state)

    def utility(self, state, player):
        v = self.value(state)
        return v if player == "MAX" else -v

    def to_move(self, state):
        return "MAX" if self.is_max(state) else "MIN"


class EasyGame:
    """easyAI's TwoPlayerGame protocol over a pyab tree: the position is a
    stack of nodes, moves are children, ``unmake_move`` pops."""

    def __init__(self, tree: Any):
        self.tree = tree
        self.kids = access(tree)[0]
        self.path = [tree.root_node]
        self.current_player = 1
        self.read = 0

    def possible_moves(self):
        return list(self.kids(self.path[-1]))

    def make_move(self, move):
        self.path.append(move)

    def unmake_move(self, move):
        self.path.pop()

    def switch_player(self):
        self.current_player = 3 - self.current_player

    def is_over(self):
        return not self.kids(self.path[-1])


def _easy_scoring(tree: Any, count: list[int] | None = None) -> Callable[[EasyGame], Any]:
    _, value, is_max = access(tree)

    def scoring(game: EasyGame) -> Any:
        node = game.path[-1]
        if count is not None:
            count[0] += 1
        v = value(node)
        return v if is_max(node) else -v
    return scoring


def _cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median CPU seconds of ``repeat`` runs of ``fn`` and its last answer."""
    times, out = [], None
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return statistics.median(times), out


def _peers() -> dict[str, Callable[[Any], tuple[Callable[[], Any], int]]]:
    """name -> (tree -> (timed call, leaves it reads)); a peer that is not
    installed is left out and named on stderr."""
    out: dict[str, Callable[[Any], tuple[Callable[[], Any], int]]] = {}
    try:
        from aima3.games import alphabeta_search
    except ImportError as err:
        print(f"aima-python (aima3) not installed, left out: {err}", file=sys.stderr)
    else:
        def aima(tree):
            counting = AimaGame(tree, count=True)
            alphabeta_search(counting.initial, counting)
            game = AimaGame(tree)
            return (lambda: alphabeta_search(game.initial, game)), counting.read
        out["aima-python alphabeta_search"] = aima
    try:
        from easyAI import Negamax
    except ImportError as err:
        print(f"easyAI not installed, left out: {err}", file=sys.stderr)
    else:
        def easy(tree):
            depth = _height(tree)
            count = [0]
            Negamax(depth, _easy_scoring(tree, count))(EasyGame(tree))
            ai = Negamax(depth, _easy_scoring(tree))
            return (lambda: ai(EasyGame(tree))), count[0]
        out["easyAI Negamax"] = easy
    return out


def _height(tree: Any) -> int:
    node, d = tree.root_node, 0
    while tree.kids_of(node):
        node, d = tree.kids_of(node)[0], d + 1
    return d


def trees(quick: bool) -> list[tuple[str, Callable[[], Any]]]:
    from pyab.trees import Uniform
    big = (10, 5) if quick else (10, 6)
    return [
        (f"explicit {big[0]}-ary depth {big[1]} (random values)", lambda: explicit_tree(*big)),
        ("implicit b=10 d=5 random(1)", lambda: Uniform(10, 5, "random(1)")),
        ("implicit b=40 d=4 random(1)", lambda: Uniform(40, 4, "random(1)")),
    ]


#: How much of a mirror's observation each figure reads (see the module docstring).
MODES = ("search", "+ names", "--json")
AIM = 1.0  # the mirror's leaves/s with names, as a multiple of aima-python's


def _mirror_cpu(search: Callable[..., Any], tree: Any, repeat: int
                ) -> tuple[dict[str, float], int]:
    """Median CPU seconds, per mode, of ``repeat`` runs of ``search`` on
    ``tree``, each mode timed from the start of the same run; and the
    leaves it read."""
    from pyab.engines import finish
    times: dict[str, list[float]] = {m: [] for m in MODES}
    leaves = 0
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        r = search(tree, -math.inf, math.inf)
        t1 = time.process_time()
        r.leaves, r.visited  # noqa: B018 - reading them names them
        t2 = time.process_time()
        finish(r, tree, -math.inf, math.inf).to_json()
        t3 = time.process_time()
        for m, t in zip(MODES, (t1, t2, t3)):
            times[m].append(t - t0)
        leaves = len(r.leaves)
    return {m: statistics.median(v) for m, v in times.items()}, leaves


def rows(quick: bool = False, repeat: int | None = None,
         algorithms: list[str] | None = None) -> list[dict[str, Any]]:
    from pyab.search import ALGORITHMS, python_search
    repeat = repeat or (3 if quick else 5)
    names = algorithms or list(ALGORITHMS)
    peers = _peers()
    out = []
    for label, make in trees(quick):
        tree = make()
        base = None
        for peer, prepare in peers.items():
            call, leaves = prepare(tree)
            secs, _ = _cpu(call, repeat)
            out.append({"tree": label, "engine": peer, "mode": "-", "leaves": leaves,
                        "seconds": secs})
            base = base or out[-1]
        for name in names:
            secs_by_mode, leaves = _mirror_cpu(python_search(name), tree, repeat)
            for mode, secs in secs_by_mode.items():
                out.append({"tree": label, "engine": f"pyab mirror {name}", "mode": mode,
                            "leaves": leaves, "seconds": secs})
        for row in out:
            if row["tree"] == label:
                row["leaves_per_s"] = row["leaves"] / row["seconds"]
                row["vs_aima"] = (row["leaves_per_s"] / base["leaves_per_s"]) if base else None
                row["aim_met"] = (None if row["mode"] != "+ names" or row["vs_aima"] is None
                                  else row["vs_aima"] >= AIM)
        del tree
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.peers",
                                description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="10-ary depth 5 instead of depth 6")
    p.add_argument("--repeat", type=int, default=None, help="runs per figure (median)")
    p.add_argument("--algorithm", action="append", help="only these mirrors (repeatable)")
    args = p.parse_args([] if argv is None else argv)
    print("the Python mirror beside aima-python and easyAI: leaves read per CPU second "
          "(median of runs, same process); a mirror is timed from the start of its search "
          "to: search = the search (names not read yet), + names = the names of the leaves "
          "and visited nodes read, --json = everything pyab solve --json prints")
    table = [(r["tree"], r["engine"], r["mode"], f"{r['leaves']:,}", f"{r['seconds']:.3f}",
              f"{r['leaves_per_s']:,.0f}",
              "-" if r["vs_aima"] is None else f"{r['vs_aima']:.2f}x",
              "-" if r["aim_met"] is None else ("yes" if r["aim_met"] else "NO"))
             for r in rows(args.quick, args.repeat, args.algorithm)]
    head = ("tree", "engine", "observation", "leaves", "CPU s", "leaves/s", "vs aima-python",
            f"aim >= {AIM:.1f}x (+ names)")
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(head)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for t in table:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(t, widths)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
