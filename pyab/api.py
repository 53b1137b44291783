"""Checks at the doors of the public functions: a wrong argument is named
with what was expected and how to get it, instead of failing somewhere
inside (``pyab.solve('a(b=1)')`` once said "cannot create weak reference
to 'str' object").

    >>> import pyab
    >>> pyab.solve("a(b=1)")
    Traceback (most recent call last):
    ...
    pyab.errors.ArgumentError: pyab.solve: expected a Tree, got a str: use pyab.parse(text) \
(or pyab.load(path) for a file)
"""

from __future__ import annotations

import os
from typing import Any

from .errors import ArgumentError

__all__ = ["expect_path", "expect_text", "expect_tree", "kind"]


def kind(obj: Any) -> str:
    name = type(obj).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def expect_tree(obj: Any, where: str) -> None:
    """A Tree, or a tree with the node protocol (``pyab.trees``)."""
    from .tree import Tree
    if isinstance(obj, Tree) or (hasattr(obj, "kids_of") and hasattr(obj, "root_node")):
        return
    if isinstance(obj, str):
        how = "use pyab.parse(text) (or pyab.load(path) for a file)"
    elif isinstance(obj, (os.PathLike, bytes)):
        how = "use pyab.load(path)"
    else:
        how = "use pyab.parse(text) or pyab.load(path)"
    raise ArgumentError(f"{where}: expected a Tree, got {kind(obj)}: {how}")


def expect_text(obj: Any, where: str) -> None:
    if not isinstance(obj, str):
        how = " (decode it first: data.decode('utf-8'))" if isinstance(obj, bytes) else \
            "; for a file use pyab.load(path)" if isinstance(obj, os.PathLike) else ""
        raise ArgumentError(f"{where}: expected the tree's text (a str), got {kind(obj)}{how}")


def expect_path(obj: Any, where: str) -> None:
    if not isinstance(obj, (str, os.PathLike)):
        raise ArgumentError(f"{where}: expected a file path (str or pathlib.Path), got {kind(obj)}")
