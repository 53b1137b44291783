"""A big explicit game tree in the DSL's flat form, made to measure.

Node ``n<i>`` has the children ``n<b*i+1>`` .. ``n<b*i+b>`` (those below
``size``), so the tree has exactly ``size`` nodes, is as shallow as a
``b``-ary tree can be, and its text is the same for the same arguments.
Leaf values come from a seeded generator (range -99..99, so ties happen).
"""

from __future__ import annotations

import random

__all__ = ["flat_text"]


def flat_text(size: int = 1_000_000, branching: int = 10, seed: int = 1) -> str:
    """The flat-form text of the tree: edges first, then leaf values."""
    rng = random.Random(seed)
    edges, values = [], []
    for i in range(size):
        first = branching * i + 1
        if first < size:
            kids = range(first, min(first + branching, size))
            edges.append(f"n{i} -> " + ", ".join(f"n{k}" for k in kids))
        else:
            values.append(f"n{i} = {rng.randint(-99, 99)}")
    return "\n".join(edges + values) + "\n"
