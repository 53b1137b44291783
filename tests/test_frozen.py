"""Tree, Result and Algorithm behave as the frozen dataclasses they were
(pyab/frozen.py): each is checked against a real dataclass with the same
fields, and the cold command line does not import dataclasses."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import subprocess
import sys

import pytest

import pyab
from pyab.frozen import REQUIRED, Factory
from pyab.result import Result
from pyab.search import ALGORITHMS, Algorithm
from pyab.tree import Tree

from tests.conftest import ROOT, SLIDES_TEXT


def twin(cls: type) -> type:
    """The frozen dataclass ``cls`` stands for, from its field list."""
    ns: dict = {"__annotations__": {}}
    for name, default, compare, shown in cls._fields:
        ns["__annotations__"][name] = "object"
        kw = {"compare": compare, "repr": shown}
        if isinstance(default, Factory):
            kw["default_factory"] = default.make
        elif default is not REQUIRED:
            kw["default"] = default
        ns[name] = dataclasses.field(**kw)
    return dataclasses.dataclass(frozen=True, eq=cls.__eq__ is not Tree.__eq__)(
        type(cls.__name__, (), ns))


def samples() -> list:
    tree = pyab.parse(SLIDES_TEXT)
    found = pyab.solve(tree, engine="python")
    result = Result(found.best, found.value, found.leaves, found.visited, found.pruned,
                    found.engine, found.algorithm, extra={"n": 1}, horizon=("x",), window=(1, 5))
    return [tree, result, Result("b", math.inf, (), (), (), "prolog", "minimax"),
            ALGORITHMS["bratko"]]


def fields_of(obj: object) -> dict:
    return {f[0]: getattr(obj, f[0]) for f in type(obj)._fields}


@pytest.mark.parametrize("obj", samples(), ids=lambda o: type(o).__name__)
def test_same_as_the_dataclass(obj):
    Twin = twin(type(obj))
    same = Twin(**fields_of(obj))
    assert repr(obj) == repr(same).replace(Twin.__qualname__, type(obj).__qualname__, 1)
    if not isinstance(obj, Tree):  # a Tree hashes by identity (modules are keyed by object)
        assert hash(obj) == hash(same)
    assert [(f.name, f.compare, f.repr, f.default) for f in dataclasses.fields(obj)] == \
           [(f.name, f.compare, f.repr, f.default) for f in dataclasses.fields(same)]
    assert dataclasses.is_dataclass(obj) and dataclasses.asdict(obj) == dataclasses.asdict(same)
    assert type(obj).__match_args__ == Twin.__match_args__
    for probe in (pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj), copy.copy(obj),
                  dataclasses.replace(obj), obj._replace()):
        assert probe == obj and type(probe) is type(obj) and repr(probe) == repr(obj)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.engine = "other"
    first = type(obj)._fields[0][0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(obj, first)


def test_the_base_is_no_dataclass_and_leaves_its_subclasses_alone():
    from pyab.frozen import Frozen

    class Point(Frozen):
        _fields = (("x", REQUIRED, True, True), ("y", 0, True, True))

        def __init__(self, x: int, y: int = 0) -> None:
            self._set(x=x, y=y)

    assert not dataclasses.is_dataclass(Frozen) and not hasattr(Frozen, "__dataclass_fields__")
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y"]
    assert dataclasses.replace(Point(1), y=2) == Point(1, 2) and repr(Point(3)).endswith("Point(x=3, y=0)")


def test_equality_follows_the_compared_fields():
    tree, result, *_ = samples()
    assert result == result._replace(extra={"other": 2}, window=(0, 0))  # not compared
    assert result != result._replace(horizon=())
    assert hash(result) == hash(result._replace(window=(7, 8)))
    assert result != "b" and (result == "b") is False
    assert tree == pyab.parse(pyab.dump(tree)) and tree != tree._replace(root_side="min")
    assert Result("b", 3, (), (), (), "p", "a").extra is not Result("b", 3, (), (), (), "p", "a").extra
    assert dataclasses.replace(result, window=(2, 3)).window == (2, 3)
    assert Algorithm("x", "m", "f.pl", "s") == Algorithm("x", "m", "f.pl", "s", "search")


def test_a_cold_solve_imports_neither_dataclasses_nor_pyswip():
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.argv = ['pyab', 'solve', 'examples/slides.tree']\n"
         "from pyab import cli\ncode = cli.main()\n"
         "print(code, sorted(m for m in ('dataclasses', 'inspect', 'pyswip', 'lark', "
         "'importlib.resources') if m in sys.modules))"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0 []"
