"""Trees and rules as courses use them (issue 14): sides per node, the
strict-cut search, the depth horizon apart from cut-offs, bound flags, and
the arguments every search refuses.  The golden vectors are
tests/vectors/courses.json, which prolog/tests/courses.plt reads too."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import minimax, trees, windows

import pyab
from pyab.errors import SearchArgumentError
from pyab.engines import differences
from pyab.dsl.flatscan import scan
from pyab.prolog import PROLOG_DIR
from pyab.result import bound_of
from pyab.search import ALGORITHMS
from pyab.tree import with_sides

ROOT = Path(__file__).parents[2]
TABLE = json.loads((Path(__file__).parents[1] / "vectors" / "courses.json").read_text(encoding="utf-8"))
FIELDS = ("best", "value", "leaves", "visited", "pruned", "horizon", "bound")


def _bound(x):
    return {"inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x


def _solve(v, engine, **kw):
    tree = pyab.parse("\n".join(v["tree"]))
    return pyab.solve(tree, engine, v["algorithm"], _bound(v["alpha"]), _bound(v["beta"]),
                      depth=v["depth"], **kw)


# -- the golden vectors --------------------------------------------------------

@pytest.mark.parametrize("engine", ["prolog", "python"])
@pytest.mark.parametrize("v", TABLE["vectors"], ids=lambda v: v["name"])
def test_vector(v, engine):
    r = _solve(v, engine)
    got = {f: list(x) if isinstance(x, tuple) else x for f in FIELDS for x in [getattr(r, f)]}
    assert got == {f: v[f] for f in FIELDS}
    js = r.to_json()
    assert (js["horizon"], js["bound"], js["pruned"]) == (v["horizon"], v["bound"], v["pruned"])


def test_the_table_holds_the_asked_for_cases():
    names = {v["name"] for v in TABLE["vectors"]}
    assert {"cs188-6-tied-root", "tie-at-root-first-wins", "equality-at-alpha-does-not-cut",
            "equality-at-beta-does-not-cut", "depth-horizon", "two-min-layers"} <= names
    assert {v["bound"] for v in TABLE["vectors"]} == {"exact", "upper", "lower"}
    assert any(v["horizon"] and v["pruned"] for v in TABLE["vectors"])


@pytest.mark.parametrize("v", TABLE["refused"], ids=lambda v: v["name"])
def test_refused(v):
    tree = pyab.parse("\n".join(v["tree"]))
    assert not tree.alternating
    for engine in ("prolog", "python"):
        with pytest.raises(SearchArgumentError, match=v["says"].replace("(", r"\(")):
            pyab.solve(tree, engine, v["algorithm"])
    assert pyab.solve(tree, "python", "strict-cut").value == 2  # the one that asks each node


# -- a mutant: the cross-check catches `>` made `>=` in strict_cut.pl -----------

@pytest.mark.parametrize("old, new", [
    ("(   V1 > Beta                               % strictly above beta: cut",
     "(   V1 >= Beta                              % strictly above beta: cut"),
    ("(   V1 < Alpha                              % strictly below alpha: cut",
     "(   V1 =< Alpha                             % strictly below alpha: cut"),
    ("    (   W > V0                                  % only a strictly better move",
     "    (   W >= V0                                 % only a strictly better move"),
])
def test_mutant_is_caught_by_the_vectors(tmp_path, old, new):
    text = (PROLOG_DIR / "strict_cut.pl").read_text(encoding="utf-8")
    assert old in text
    mutant = tmp_path / "strict_cut.pl"
    mutant.write_text(text.replace(old, new), encoding="utf-8")
    caught = []
    for v in TABLE["vectors"]:
        if v["algorithm"] != "strict-cut":
            continue
        real = _solve(v, "python")
        observed = _solve(v, "prolog", program=str(mutant))
        if differences(observed, real):
            caught.append(v["name"])
    assert caught, "the mutant passed every strict-cut vector"


# -- sides per node in the DSL ---------------------------------------------------

def sides(tree):
    return [tree.side(n) for n in tree]


def test_marks_nested_and_flat_give_the_same_tree():
    nested = pyab.parse("a(min b(min c(d = 3)), e = 1)")
    flat = pyab.parse("a -> b, e\nmin b -> c\nmin c -> d\nd = 3\ne = 1")
    assert nested.names == flat.names and sides(nested) == sides(flat)
    assert sides(nested) == ["max", "min", "min", "max", "min"]
    assert not nested.alternating and nested.repeated_side() == "c"


def test_unmarked_nodes_take_the_opposite_of_their_parent():
    t = pyab.parse("min a(max b(c(d = 1)), e = 2)")
    assert sides(t) == ["min", "max", "min", "max", "max"]


def test_a_leaf_may_be_marked():
    t = pyab.parse("a -> b, c\nmax b = 3\nc = 1")
    assert sides(t) == ["max", "max", "min"]


def test_flat_first_mark_is_the_roots_side_as_before():
    # README, "Sides per node": the keyword before a flat file's first
    # declaration says who moves at the root, whichever node it names.
    t = pyab.parse("min b -> c\na -> b\nc = 1")
    assert t.root == "a" and sides(t) == ["min", "max", "min"] and t.alternating


def test_max_and_min_stay_names_where_no_name_follows():
    t = pyab.parse("a(min = 1, max = 2)\n")
    assert t.children("a") == ("min", "max") and t.alternating
    t = pyab.parse("max min(max max = 1)")
    assert t.names == ("min", "max") and sides(t) == ["max", "max"]


def test_two_different_marks_on_one_node_are_refused_with_the_place():
    with pytest.raises(pyab.DSLError) as err:
        pyab.parse("a -> b\nmin b -> c\nmax b = 3\nc = 1", "t.tree")
    assert str(err.value).startswith("t.tree:3:5: 'b' is marked min (at 2:5) and max")


@pytest.mark.parametrize("text", [
    "a(min b(min c(d = 3)), e = 1)",
    "min a(max b(c = 1, max d = 2), e = 3)",
    "'King e1'(min 'x y'(min z = 1))",
])
def test_dump_keeps_sides_in_both_forms(text):
    t = pyab.parse(text)
    for form in ("nested", "flat"):
        back = pyab.parse(pyab.dump(t, form))
        assert back.names == t.names and back.kids == t.kids and sides(back) == sides(t)


def test_flat_fast_path_defers_to_lark_for_marks():
    text = "a -> b\nmin b -> c\nmin c -> d\nd = 3"
    assert scan(text) is None  # the mark after the first line: lark reads it
    assert scan("min a -> b\nb = 1") == ({"a": ["b"]}, {"b": 1}, "min")  # the old leading keyword
    assert sides(pyab.parse(text)) == ["max", "min", "min", "max"]


def test_readme_sides_example_both_forms_agree():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("**Sides per node.**", 1)[1].split("```", 2)[1]
    nested, flat = block.strip().split("\n\n")
    a, b = pyab.parse(nested), pyab.parse(flat)
    assert a.names == b.names and sides(a) == sides(b) == ["max", "min", "min", "min", "max", "max", "max"]


def test_facts_carry_each_nodes_side():
    t = pyab.parse("a(min b(min c(d = 3)), e = 1)")
    text = pyab.facts(t)
    for line in ("max_to_move(a).", "min_to_move(b).", "min_to_move(c).", "max_to_move(d).",
                 "min_to_move(e)."):
        assert line in text


@st.composite
def marked_trees(draw):
    """A tree from tests/strategies.py with a random side on every node."""
    tree = draw(trees(forms=("nested",)))
    picks = draw(st.lists(st.sampled_from(["max", "min", None]), min_size=len(tree),
                          max_size=len(tree)))
    return with_sides(tree, [(n, s, (0, 0)) for n, s in zip(tree.names, picks) if s])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(marked_trees())
def test_marked_trees_round_trip_through_the_text(tree):
    for form in ("nested", "flat"):
        back = pyab.parse(pyab.dump(tree, form))
        assert back.names == tree.names and sides(back) == sides(tree)
        assert pyab.facts(back) == pyab.facts(tree)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(marked_trees(), st.data())
def test_strict_cut_agrees_in_both_engines_and_with_minimax(tree, data):
    alpha, beta = data.draw(windows(tree))
    r = pyab.check(tree, "strict-cut", alpha, beta)
    true = minimax(tree)
    if alpha == -math.inf and beta == math.inf:
        assert r.value == true and r.bound == "exact"
    assert {"exact": r.value == true, "upper": true <= r.value,
            "lower": true >= r.value}[r.bound]


# -- bound flags -------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.data())
def test_the_bound_flag_is_true_for_every_algorithm(tree, data):
    """The flag never overstates: "exact" is the minimax value, "upper" at
    least it, "lower" at most it (the python engine; both engines agree on
    the value, tests/search/test_variants_algorithms.py)."""
    alpha, beta = data.draw(windows(tree))
    true = minimax(tree)
    for name in ALGORITHMS:
        r = pyab.solve(tree, "python", name, alpha, beta)
        ok = {"exact": r.value == true, "upper": true <= r.value, "lower": true >= r.value,
              "unknown": alpha == beta == r.value}
        assert ok[r.bound], (name, r.value, r.bound, true, alpha, beta)


def test_bound_flags_by_hand():
    kind = {name: alg.bound for name, alg in ALGORITHMS.items()}
    assert [bound_of(kind["bratko"], v, 3, 10) for v in (2, 3, 10, 11)] == ["upper", "exact", "exact", "lower"]
    assert [bound_of(kind["cpw-minmax"], v, 3, 10) for v in (3, 4, 10)] == ["upper", "exact", "lower"]
    assert bound_of(kind["minimax"], 99, 3, 10) == "exact"
    # a null window: fail-hard returns the bound either way; strict cuts still know
    assert bound_of(kind["cpw-minmax"], 3, 3, 3) == "unknown" and bound_of(kind["bratko"], 3, 3, 3) == "exact"
    # the registry says it, row by row (docs/courses.md argues each)
    assert {n for n, k in kind.items() if k == "closed"} == {"bratko", "strict-cut"}
    assert {n for n, k in kind.items() if k == "exact"} == {"minimax", "minimax-negamax"}


# -- the arguments every search refuses, in the API and the CLI ---------------------

SLIDES = ROOT / "examples" / "slides.tree"


@pytest.mark.parametrize("kw, says", [
    (dict(alpha=5, beta=3), "inverted window: alpha 5 is above beta 3"),
    (dict(algorithm="aima", depth=-1), "depth must be 0 or more plies, not -1"),
    (dict(algorithm="aima", depth=1.5), "depth must be a whole number of plies, not 1.5"),
    (dict(algorithm="aima", depth=True), "depth must be a whole number"),
    (dict(timeout=0), "timeout must be more than 0 seconds"),
    (dict(timeout=-1.5), "timeout must be more than 0 seconds, not -1.5"),
    (dict(alpha=math.nan), "alpha cannot be NaN"),
    (dict(depth=2), "bratko has no depth limit"),
])
def test_api_refuses(kw, says):
    tree = pyab.load(SLIDES)
    for engine in ("prolog", "python"):
        with pytest.raises(SearchArgumentError, match=says.replace("(", r"\(")):
            pyab.solve(tree, engine, **kw)
    with pytest.raises(ValueError):  # a pyab.Error that is also a ValueError
        pyab.solve(tree, "python", **kw)


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "pyab", *args], capture_output=True, text=True,
                          cwd=ROOT, input=stdin, timeout=120)


@pytest.mark.parametrize("args, says", [
    (["--alpha", "5", "--beta", "3"], "error: inverted window: alpha 5 is above beta 3"),
    (["--algorithm", "aima", "--depth", "-1"], "error: depth must be 0 or more plies, not -1"),
    (["--algorithm", "aima", "--depth", "1.5"], "invalid int value: '1.5'"),
    (["--timeout", "0"], "argument --timeout: must be a positive number of seconds, not '0'"),
])
def test_cli_refuses_with_exit_2(args, says):
    for command in ("solve", "trace"):
        out = _cli(command, str(SLIDES), *args)
        assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_cli_refuses_bratko_on_two_min_layers():
    out = _cli("solve", "-", stdin="a(g = 2, min b(min c(d = 1, e = 5), f = 9))")
    assert out.returncode == 2
    assert "infers the side to move from the child" in out.stderr
    assert "--algorithm strict-cut" in out.stderr


# -- horizon and bound shown ---------------------------------------------------------

HORIZON = "\n".join(next(v for v in TABLE["vectors"] if v["name"] == "depth-horizon")["tree"])


def test_solve_text_says_horizon_and_bound():
    out = _cli("solve", "-", "--algorithm", "strict-cut", "--depth", "2", stdin=HORIZON)
    assert out.returncode == 0, out.stderr
    assert "cut off      1: g" in out.stdout and "horizon      3: h i j" in out.stdout
    out = _cli("solve", str(SLIDES), "--alpha", "5", "--beta", "10")
    assert "value        3  (upper bound)" in out.stdout
    assert "the root failed low (below alpha 5)" in out.stdout


def test_trace_and_pictures_show_the_horizon_apart():
    tree = pyab.parse(HORIZON)
    from pyab.render.svg import svg
    from pyab.render.trace import trace
    tr = trace(tree, "python", "strict-cut", depth=2)
    kinds = [(s.kind, s.node, s.removed) for s in tr.steps if s.kind in ("cut", "horizon")]
    assert kinds == [("horizon", "d", ("h", "i")), ("horizon", "f", ("j",)), ("cut", "c", ("g",))]
    picture = svg(tree, tr)
    assert 'class="node max horizon" data-node="h"' in picture.replace("min horizon", "max horizon")
    assert 'class="node max pruned" data-node="g"' in picture
    assert "Val = 3 is exact" in picture


def test_svg_says_a_failed_low_root():
    from pyab.render.svg import svg
    from pyab.render.trace import trace
    picture = svg(pyab.load(SLIDES), trace(pyab.load(SLIDES), "python", alpha=5, beta=10))
    assert "Val = 3 is an upper bound: the root failed low (below alpha 5)" in picture
