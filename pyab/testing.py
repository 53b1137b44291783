"""Referee your own alpha-beta from pytest, with Hypothesis.

    from pyab.testing import assert_same_search
    from my_search import alphabeta

    def test_my_alphabeta_searches_like_the_slides():
        assert_same_search(alphabeta, interface="pyab", algorithm="bratko")

The public face of :mod:`pyab.referee.same_search`, where the docs of each
function are; pytest also gets the fixture ``same_search`` (pyab's plugin).
Needs ``hypothesis`` (``pip install hypothesis``).
"""

from __future__ import annotations

from .referee.same_search import assert_same_search, search_with, trees, values, windows

__all__ = ["assert_same_search", "search_with", "trees", "values", "windows"]
