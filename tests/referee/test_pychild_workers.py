"""pyab's Python child runs its searches in turn on greenlets where the
greenlet package is there, on threads where not: the same lines either way."""

import pytest

from pyab.referee import pychild

TREE = {"a": ["b", "c"], "b": [], "c": [], "x": ["y"], "y": []}
VALUES = {"b": 3, "c": 5, "y": -1}


def one(job, ask):
    """A search asking the root's moves, then each child's value."""
    kids = ask("moves", job["root"])
    values = [ask("staticval", k) for k in kids]
    best = max(range(len(kids)), key=values.__getitem__)
    return {"best": kids[best], "value": values[best]}


def converse(worker):
    """pyab's side: two jobs in the first line, every question answered in
    the next, until both ended; the lines the child wrote."""
    sent = [{"jobs": [{"id": 1, "root": "a"}, {"id": 2, "root": "x"}]}]
    written = []

    def get():
        if not sent:
            raise SystemExit(0)
        return sent.pop(0)

    def put(line):
        written.append(line)
        answers = [[sid, TREE[q["moves"]] if "moves" in q else VALUES[q["staticval"]]]
                   for sid, q in line if "best" not in q]
        if answers:
            sent.append({"answers": answers})

    with pytest.raises(SystemExit):
        pychild._serve(one, put, get, worker)
    return written


def test_greenlets_and_threads_write_the_same_lines():
    green = pychild._green_worker()
    assert green is not None  # greenlet is a dependency of pyab
    lines = converse(green)
    assert lines == converse(pychild._Worker)
    assert lines == [[[1, {"moves": "a"}], [2, {"moves": "x"}]],
                     [[1, {"staticval": "b"}], [2, {"staticval": "y"}]],
                     [[1, {"staticval": "c"}], [2, {"best": "y", "value": -1}]],
                     [[1, {"best": "c", "value": 5}]]]


def test_a_search_that_exits_ends_the_child_on_greenlets():
    def leaves(job, ask):
        ask("moves", job["root"])
        raise SystemExit(7)

    sent = [{"jobs": [{"id": 1, "root": "a"}]}, {"answers": [[1, ["b", "c"]]]}]
    with pytest.raises(SystemExit) as end:
        pychild._serve(leaves, lambda line: None, lambda: sent.pop(0), pychild._green_worker())
    assert end.value.code == 7
