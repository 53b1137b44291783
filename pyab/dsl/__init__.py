"""The tree language: text in, :class:`pyab.tree.Tree` out, and back.

``grammar.lark`` is the definition and the source of every error message
(``reader``); ``flatscan``, ``treescan`` and the optional C scanner
``_cscan`` read what lark would read, faster; ``quoted`` undoes Prolog's
escapes in quoted names.
"""

from __future__ import annotations

from .reader import dump, load, parse

__all__ = ["dump", "load", "parse"]
