"""The loop's window of announced searches (:class:`Lookahead`)."""

import pytest

from pyab.referee.checking import Lookahead


@pytest.mark.parametrize("k", [0, 1, 2, 5, 9])
def test_each_item_is_announced_once_in_order_and_before_its_turn(k):
    seen, announced = [], []
    for item, fresh in Lookahead(range(7), k):
        assert all(later > item for later in fresh)  # behind the item, never the item
        assert all(i < item for i in seen) and item not in announced[len(announced):]
        seen.append(item)
        announced += fresh
        assert len([a for a in announced if a > item]) <= k  # at most k under way
    assert seen == list(range(7))
    assert announced == list(range(1, 7)) if k else announced == []


def test_rest_is_what_the_loop_has_not_had():
    cases = Lookahead(iter(range(10)), 3)
    for item, _ in cases:
        if item == 2:
            break
    assert cases.rest() == [3, 4, 5, 6, 7, 8, 9]
