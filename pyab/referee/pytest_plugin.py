"""pyab's pytest plugin (entry point ``pytest11``): the fixture
``same_search``, which is :func:`pyab.testing.assert_same_search`.

    def test_mine(same_search):
        same_search(my_alphabeta, interface="pyab", algorithm="bratko")

Hypothesis is imported only when a test asks for the fixture, so the plugin
costs nothing in projects that do not use it.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def same_search():
    """assert_same_search(func, interface="pyab", algorithm="bratko", ...)."""
    from .same_search import assert_same_search
    return assert_same_search
