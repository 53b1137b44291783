"""Referee an alpha-beta from your own test suite (pyab's `make test` runs it).

pytest puts this file's folder on sys.path, so the implementation under
test, slides_alphabeta.py beside it, imports as a plain module: put your
own function in its place.  Hypothesis draws the trees and windows; pyab's
game object records what the function asks, and on a disagreement the
test fails with the tree shrunk by Hypothesis and both sides printed.
"""

from pyab.testing import assert_same_search

from slides_alphabeta import alphabeta


def test_searches_like_the_slides():
    # value, best move, leaves read and nodes visited, as pyab's mirror of
    # the slides' program (and so as the slides' program in SWI-Prolog)
    assert_same_search(alphabeta, interface="pyab", algorithm="bratko", max_examples=100)


def test_its_values_are_correct_minimax_values(same_search):
    # the same through pyab's pytest fixture, asking only "is the value right?"
    same_search(alphabeta, compare="value", max_examples=50)
