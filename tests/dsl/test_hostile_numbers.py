"""Numbers at the edges: integers beyond 64 bits, decimals, -0.0, huge and
tiny exponents, nan/inf.  A number is carried exactly through the DSL, the
fact file, SWI-Prolog and back, in both engines, or refused with the place
named; never a wrong value.

SWI-Prolog 9.0 compares an integer with a float by turning the integer into
a float first; Python compares exactly.  The two disagree only on integers a
float cannot hold (2**53 + 1, or anything from 2**1024 up, which SWI turns
into inf), so ``pyab.tree.build`` refuses such an integer next to a decimal
and ``pyab.solve`` refuses a window that would mix them.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyab
from pyab.dsl import dump, parse
from pyab.prolog.facts import facts, number
from pyab.tree import build

from conftest import pyab_cli, swipl

BIG = [2**63, 2**63 - 1, -(2**63) - 1, 2**64 + 1, 2**70, 2**70 + 1, -(2**100) - 7, 10**300 + 3,
       2**1023 * 2 - 1, -(2**1024) + 1]
ENGINES = ["prolog", "python"]


def leaves_tree(values, side: str = "max") -> pyab.Tree:
    """A root with one leaf per value, named v0, v1, ..."""
    kids = [(f"v{i}", (1, i + 1)) for i in range(len(values))]
    return build([("r", (1, 1), kids)], [(f"v{i}", v, (1, i + 1)) for i, v in enumerate(values)], side)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("big", BIG, ids=[f"big{i}" for i in range(len(BIG))])
def test_big_integer_comes_back_exactly(big, engine):
    for side in ("max", "min"):
        t = leaves_tree([big, 0] if big > 0 else [0, big], side)
        r = pyab.solve(t, engine=engine)
        want = max(big, 0) if side == "max" else min(big, 0)
        assert type(r.value) is int and r.value == want


@pytest.mark.parametrize("engine", ENGINES)
def test_neighbouring_big_integers_are_told_apart(engine):
    """2**70 and 2**70 + 1 are the same float; as integers MAX must pick the larger."""
    t = parse(f"a(b(c={2**70 + 1}), d(e={2**70}))")
    r = pyab.solve(t, engine=engine)
    assert (r.best, r.value) == ("b", 2**70 + 1)
    t = parse(f"min a(b(c={2**70 + 1}), d(e={2**70}))")
    assert pyab.solve(t, engine=engine).best == "d"


def test_big_integers_in_the_fact_file_read_back_exactly(tmp_path):
    t = leaves_tree(BIG)
    path = tmp_path / "big.pl"
    path.write_text(facts(t))
    out = swipl("-q", "-g", f"consult('{path}'), forall(staticval(N, V), format('~w ~d~n', [N, V]))",
                "-t", "halt")
    assert out.returncode == 0, out.stderr
    got = dict(line.split() for line in out.stdout.splitlines())
    assert {k: int(v) for k, v in got.items()} == {f"v{i}": v for i, v in enumerate(BIG)}


def test_big_integers_in_json_output(tmp_path):
    path = tmp_path / "big.tree"
    path.write_text(f"a(b = {2**200 + 1}, c = {-(2**200)})\n")
    for engine in ENGINES:
        out = pyab_cli("solve", str(path), "--engine", engine, "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["value"] == 2**200 + 1
        assert str(2**200 + 1) in out.stdout


def test_dump_parse_keeps_big_integers():
    t = leaves_tree(BIG)
    for form in ("nested", "flat"):
        assert parse(dump(t, form)).values == t.values


DECIMALS = [0.1, -0.0, 0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
            -1.7976931348623157e308, 1e22, 1e-7, 123456789.123456789, 2.0**53, 0.30000000000000004,
            1 / 3]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("x", DECIMALS, ids=[repr(x) for x in DECIMALS])
def test_decimal_comes_back_bit_for_bit(x, engine):
    t = leaves_tree([x])
    r = pyab.solve(t, engine=engine)
    assert type(r.value) is float
    assert r.value == x and math.copysign(1, r.value) == math.copysign(1, x)
    assert parse(dump(t)).values == t.values
    assert math.copysign(1, parse(dump(t)).values[1]) == math.copysign(1, x)


@pytest.mark.parametrize("engine", ENGINES)
def test_minus_zero_and_zero_tie_the_same_way(engine):
    """-0.0 == 0: betterof keeps the later sibling on a tie in both engines."""
    r = pyab.solve(parse("a(b = -0.0, c = 0.0)"), engine=engine)
    assert r.best == "c" and math.copysign(1, r.value) == 1
    r = pyab.solve(parse("a(b = 0.0, c = -0.0)"), engine=engine)
    assert r.best == "c" and math.copysign(1, r.value) == -1


@pytest.mark.parametrize("text, where, words", [
    ("a(b = 1e309, c = 1)", (1, 3), "not finite"),
    ("a(b = 1, c = -2.5e400)", (1, 10), "not finite"),
    ("a(b = 1, c = 1" + "0" * 400 + ")", (1, 10), "too large"),
    ("a(b = 1, c = " + "9" * 5000 + ")", (1, 14), "too large"),
    ("a(b = 9007199254740993, c = 0.5)", (1, 3), "decimals"),
    ("a(b = 0.5, c = -9007199254740993)", (1, 12), "decimals"),
    ("a(b = nan, c = 1)", (1, 7), "expected a number"),
    ("a(b = inf, c = 1)", (1, 7), "expected a number"),
    ("a(b = 1.0Inf, c = 1)", (1, 10), "unexpected"),
])
def test_numbers_refused_with_the_place(text, where, words):
    with pytest.raises(pyab.DSLError) as info:
        parse(text, "t.tree")
    assert (info.value.line, info.value.column) == where, str(info.value)
    assert words in info.value.message


def test_tiny_exponent_underflows_to_zero_and_is_kept():
    t = parse("a(b = 1e-400, c = -1)")
    assert t.values[1] == 0.0
    assert pyab.check(t).value == 0.0


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, True, "3", None])
def test_build_refuses_non_numbers_naming_the_place(bad):
    with pytest.raises(pyab.TreeError) as info:
        build([("r", (1, 1), [("x", (4, 2))])], [("x", bad, (4, 2))])
    assert info.value.pos == (4, 2)
    assert isinstance(info.value, pyab.Error)


def test_exactly_representable_big_integers_may_sit_next_to_decimals():
    t = parse(f"a(b = {2**60}, c = {float(2**60)!r}, d = 0.5)")
    assert pyab.check(t).best == "c"  # a tie: the later sibling is kept


@pytest.mark.parametrize("alpha, beta", [(0.5, math.inf), (-math.inf, 1e19)])
def test_window_mixing_is_refused_in_both_engines(alpha, beta):
    t = leaves_tree([2**64 + 1, 3])
    for engine in ENGINES:
        with pytest.raises(pyab.TreeError, match="decimal"):
            pyab.solve(t, engine=engine, alpha=alpha, beta=beta)
    t = leaves_tree([0.5, 3.5])
    for engine in ENGINES:
        with pytest.raises(pyab.TreeError, match="round"):
            pyab.solve(t, engine=engine, alpha=2**64 + 1)


def test_window_mixing_is_refused_by_the_cli(tmp_path):
    path = tmp_path / "big.tree"
    path.write_text(f"a(b = {2**64 + 1}, c = 3)\n")
    out = pyab_cli("solve", str(path), "--alpha", "0.5")
    assert out.returncode == 2 and out.stderr.startswith("error: ") and "Traceback" not in out.stderr


# -- both engines agree on whatever build accepts -----------------------------

numbers = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([2**53, 2**53 + 1, -(2**53) - 1, 2**64, 2**64 + 1, 0, -0.0, 0.0]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=2.0**52, max_value=2.0**64, allow_nan=False),
)


@st.composite
def number_trees(draw):
    n = draw(st.integers(2, 4))
    groups = [draw(st.lists(numbers, min_size=1, max_size=3)) for _ in range(n)]
    edges = [("r", (1, 1), [(f"g{i}", (1, 1)) for i in range(n)])]
    values = []
    for i, g in enumerate(groups):
        edges.append((f"g{i}", (1, 1), [(f"g{i}_{j}", (1, 1)) for j in range(len(g))]))
        values += [(f"g{i}_{j}", v, (1, 1)) for j, v in enumerate(g)]
    side = draw(st.sampled_from(["max", "min"]))
    try:
        return build(edges, values, side)
    except pyab.TreeError as err:
        assert "decimals" in err.message  # the only refusal these numbers can earn
        return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number_trees())
def test_engines_agree_on_mixed_numbers(tree):
    if tree is None:
        return
    r = pyab.check(tree)  # raises Mismatch on any difference
    assert number(r.value) == number(pyab.solve(tree, engine="python").value)
