"""The tree language: text in, :class:`pyab.tree.Tree` out, and back.

``grammar.lark`` is the definition and the source of every error message
(``reader``); ``flatscan``, ``treescan`` and the optional C scanner
``_cscan`` read what lark would read, faster; ``quoted`` undoes Prolog's
escapes in quoted names; ``factsfile`` reads a facts file (``.pl``) back
into a tree without running it.  prolog/tree_dsl.pl is the same grammar
read in SWI-Prolog, held to ``reader`` by tests/dsl/test_tree_dsl.py.
"""

from __future__ import annotations

from .reader import dump, load, parse

__all__ = ["dump", "load", "parse"]
