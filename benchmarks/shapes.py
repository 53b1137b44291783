"""Generated trees of several shapes and name styles, for the parse
benchmark (``benchmarks/parse.py``) and the C floor (``benchmarks/floor.c``).

Every generator is deterministic (seeded) and returns DSL text:

- ``dfs``: the issue's tree -- ``b``-ary, depth ``d`` (10 and 6: 1,111,111
  nodes), names ``n0``, ``n1``, ... in depth-first order, leaf values
  -999..999, flat form (edges first, then values);
- ``quoted``: the same shape with long quoted names (spaces, ``''``, ``#``
  and ``%`` inside them) and comments that hold apostrophes;
- ``ragged``: random branching 1..12 and uneven depth, flat form with
  declarations in a shuffled order and decimal values mixed in;
- ``nested``: the ``dfs`` tree in the nested form ``n0(n1(n2 = 5, ...), ...)``;
- ``listform``: the ``dfs`` tree in the list form ``[[[5, -3, ...], ...]]``;
- ``deep_list``: a list-form chain ``[[[...[1]...]]]`` ``depth`` deep.
"""

from __future__ import annotations

import random

__all__ = ["SHAPES", "deep_list", "dfs", "listform", "nested", "quoted", "ragged"]


def _dfs_kids(branching: int, depth: int) -> list[list[int]]:
    """Children of each node of the complete tree, numbered depth-first."""
    kids: list[list[int]] = []
    work: list[tuple[int, int | None]] = [(0, None)]  # (depth, parent), in pre-order
    while work:
        d, parent = work.pop()
        i = len(kids)
        kids.append([])
        if parent is not None:
            kids[parent].append(i)
        if d < depth:
            work.extend([(d + 1, i)] * branching)
    return kids


def _values(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(-999, 999) for _ in range(n)]


def _flat(names: list[str], kids: list[list[int]], values: dict[int, object]) -> str:
    edges = [f"{names[i]} -> " + ", ".join(names[k] for k in ks) for i, ks in enumerate(kids) if ks]
    vals = [f"{names[i]} = {v}" for i, v in values.items()]
    return "\n".join(edges + vals) + "\n"


def dfs(branching: int = 10, depth: int = 6, seed: int = 1) -> str:
    """The issue's tree: flat form, depth-first names, values -999..999."""
    kids = _dfs_kids(branching, depth)
    rng = random.Random(seed)
    leaves = [i for i, ks in enumerate(kids) if not ks]
    return _flat([f"n{i}" for i in range(len(kids))], kids, dict(zip(leaves, _values(rng, len(leaves)))))


def quoted(branching: int = 10, depth: int = 5, seed: int = 2) -> str:
    """Long quoted names, quotes in comments, flat form."""
    kids = _dfs_kids(branching, depth)
    rng = random.Random(seed)
    names = [f"'position {i} after 1. e4 e5 2. Nf3 it''s #{i % 97} at 50%'" for i in range(len(kids))]
    leaves = [i for i, ks in enumerate(kids) if not ks]
    text = _flat(names, kids, dict(zip(leaves, _values(rng, len(leaves)))))
    return "# the engine's tree, written by 'hand'\n" + text.replace(
        "\n", "  % it's a comment with a ' quote\n", 1000)


def ragged(size: int = 200_000, seed: int = 3) -> str:
    """Random branching and depth, shuffled declarations, some decimals."""
    rng = random.Random(seed)
    kids: list[list[int]] = [[]]
    frontier = [0]
    count = 1
    while count < size:
        i = frontier.pop(rng.randrange(len(frontier))) if rng.random() < 0.7 else frontier.pop()
        for _ in range(min(rng.randint(1, 12), size - count)):
            kids.append([])
            kids[i].append(count)
            frontier.append(count)
            count += 1
        if not frontier:
            break
    names = [f"p{rng.randrange(10**6)}x{i}" for i in range(len(kids))]
    values = {i: (rng.randint(-999, 999) if rng.random() < 0.9 else round(rng.uniform(-9, 9), 3))
              for i, ks in enumerate(kids) if not ks}
    lines = _flat(names, kids, values).splitlines()
    rng.shuffle(lines)
    return "\n".join(lines) + "\n"


def nested(branching: int = 10, depth: int = 6, seed: int = 1) -> str:
    """The ``dfs`` tree in the nested form."""
    rng = random.Random(seed)
    out: list[str] = []
    count = 0
    work: list[object] = [0]
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        d = item
        i = count
        count += 1
        if d == depth:
            out.append(f"n{i} = {rng.randint(-999, 999)}")
            continue
        out.append(f"n{i}(")
        work.append(")")
        for j in range(branching):
            work.append(d + 1)
            if j < branching - 1:
                work.append(", ")
    return "".join(out) + "\n"


def listform(branching: int = 10, depth: int = 6, seed: int = 1) -> str:
    """The ``dfs`` tree in the list form."""
    rng = random.Random(seed)
    out: list[str] = []
    work: list[object] = [0]
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        d = item
        if d == depth:
            out.append(str(rng.randint(-999, 999)))
            continue
        out.append("[")
        work.append("]")
        for j in range(branching):
            work.append(d + 1)
            if j < branching - 1:
                work.append(", ")
    return "".join(out) + "\n"


def deep_list(depth: int = 50_000) -> str:
    """A chain ``depth`` lists deep around one leaf."""
    return "[" * depth + "1" + "]" * depth + "\n"


# name -> (generator, description); the benchmark runs each at these sizes.
SHAPES = {
    "dfs": (dfs, "flat, 10-ary, depth-first names n0, n1, ..."),
    "quoted": (quoted, "flat, 10-ary, long quoted names, quotes in comments"),
    "ragged": (ragged, "flat, ragged (branching 1..12), shuffled, some decimals"),
    "nested": (nested, "nested form, 10-ary"),
    "list": (listform, "list form, 10-ary"),
}
