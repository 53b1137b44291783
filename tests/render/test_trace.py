"""Step-by-step traces: the Prolog side observed from SWI-Prolog, the
Python side from the mirror's observe hook, compared step for step."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings, strategies as st

import pyab
from pyab.trees.randomtrees import Shape, random_tree, random_window
from pyab.render.trace import Step, reconstruct, trace

from conftest import EXAMPLES, PROLOG, SLIDES_TEXT, pyab_cli


def steps_of(tree, alpha=-math.inf, beta=math.inf):
    p = trace(tree, "prolog", "bratko", alpha, beta)
    q = trace(tree, "python", "bratko", alpha, beta)
    return p, q


def test_slides_frames_with_the_slides_window(slides):
    p, q = steps_of(slides, -1000, 1000)
    assert p.steps == q.steps and p.exact and q.exact
    s = p.steps
    # the first call: alphabeta(a, -1000, 1000, GoodPos, Val)
    assert s[0] == Step("call", "a", 0, alpha=-1000, beta=1000)
    bounds = [x for x in s if x.kind == "bounds"]
    # frame 34: after e = 3, b's window is -1000..3
    assert (bounds[0].node, bounds[0].child, bounds[0].new_alpha, bounds[0].new_beta) == ("b", "e", -1000, 3)
    # frame 37: after b = 3, a's window is 3..1000
    after_b = next(x for x in bounds if x.child == "b")
    assert (after_b.node, after_b.new_alpha, after_b.new_beta) == ("a", 3, 1000)
    # frames 39-40: h = 2 < alpha 3, an alpha cut-off, i and j never searched
    cuts = [x for x in s if x.kind == "cut"]
    assert cuts == [Step("cut", "c", 1, alpha=3, beta=1000, value=2, child="h", cut="alpha",
                         removed=("i", "j"), test="<", limit=3)]
    # frame 41: inside d, beta becomes 14 then 5
    assert [x.new_beta for x in bounds if x.node == "d"] == [14, 5]
    # frame 42: GoodPos = b, Val = 3
    assert s[-1] == Step("return", "a", 0, best="b", value=3)
    assert [x.node for x in s if x.kind == "leaf"] == list(p.result.leaves)
    assert p.best_line() == ["a", "b", "e"]
    assert p.cuts() == {"i": "alpha", "j": "alpha"}


def test_every_call_returns_once_and_nests(slides):
    p, _ = steps_of(slides)
    stack = []
    for s in p.steps:
        if s.kind == "call":
            stack.append(s.node)
        elif s.kind == "return":
            assert stack.pop() == s.node
        elif s.kind in ("bounds", "cut"):
            assert stack[-1] == s.node
    assert stack == []


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.tree")), ids=lambda p: p.name)
def test_examples_both_engines_same_steps(path):
    tree = pyab.load(path)
    for window in [(-math.inf, math.inf), (0, 5), (3, 3)]:
        p, q = steps_of(tree, *window)
        assert p.steps == q.steps, path
        assert p.result == q.result.__class__(**{**q.result.__dict__, "engine": "prolog"})


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["full", "narrow", "low", "high"]),
       ties=st.booleans())
def test_random_trees_both_engines_same_steps(seed, kind, ties):
    rng = random.Random(seed)
    shape = Shape(depth=(1, 5), branching=(1, 4), values=(-3, 3) if ties else (-50, 50),
                  decimals=not ties)
    tree = random_tree(rng, shape)
    alpha, beta = random_window(rng, tree, kind)
    p, q = steps_of(tree, alpha, beta)
    assert p.steps == q.steps
    # same number types too (3 is not 3.0): compare the JSON text
    assert json.dumps(p.to_json()["steps"]) == json.dumps(q.to_json()["steps"])
    # the trace agrees with the untraced run
    plain = pyab.solve(tree, alpha=alpha, beta=beta)
    assert (p.result.best, p.result.leaves, p.result.visited, p.result.pruned) == \
        (plain.best, plain.leaves, plain.visited, plain.pruned)
    # every cut-off subtree root is named by exactly one cut step
    removed = [r for s in p.steps if s.kind == "cut" for r in s.removed]
    assert sorted(removed) == sorted(plain.pruned)


def test_prolog_trace_is_observed_not_recomputed(tmp_path, slides):
    """A mutant program (>= for >, so a tie cuts) changes the Prolog trace
    and only the Prolog trace: the steps come from the program that ran."""
    from pyab.prolog import solve_traced
    text = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    mutant = text.replace("max_to_move(Pos), Val < Alpha, !.", "max_to_move(Pos), Val =< Alpha, !.", 1)
    assert mutant != text
    prog = tmp_path / "mutant.pl"
    prog.write_text(mutant, encoding="utf-8")
    tree = pyab.parse("a(b(e=3, f=12), c(h=3, i=1, j=20))")
    _, events = solve_traced(tree, program=prog)
    cuts = [e for e in events if e[0] == "cut"]
    assert cuts == [("cut", "h", 3, 3, math.inf, "alpha", ("i", "j"))]
    q = trace(tree, "python")  # the printed program cuts one step later
    assert [(s.child, s.removed) for s in q.steps if s.kind == "cut"] == [("i", ("j",))]


def test_leaf_root_and_min_root():
    p, q = steps_of(pyab.parse("r = 4"))
    assert p.steps == q.steps == (Step("call", "r", 0, alpha=-math.inf, beta=math.inf),
                                  Step("leaf", "r", 0, value=4), Step("return", "r", 0, value=4))
    p, q = steps_of(pyab.parse("min a(b=1, c=0)"))
    assert p.steps == q.steps
    assert p.steps[-1].best == "c" and p.steps[-1].value == 0


def test_beta_cut_is_named_beta():
    # inside MIN node b, c = 2 sets beta 2; in MAX node d, e = 9 > 2 cuts f
    tree = pyab.parse("a(b(c(x=1, y=2), d(e=9, f=0)))")
    p, q = steps_of(tree)
    assert p.steps == q.steps
    assert [(s.node, s.child, s.cut, s.removed) for s in p.steps if s.kind == "cut"] == \
        [("d", "e", "beta", ("f",))]
    assert p.cuts() == {"f": "beta"}


def test_reconstructed_trace_for_other_algorithms(slides):
    from pyab.search import ALGORITHMS
    r = pyab.solve(slides, engine="python")
    t = reconstruct(slides, r)
    assert not t.exact
    assert [s.node for s in t.steps if s.kind == "call"] == list(r.visited)
    assert [r for s in t.steps if s.kind == "cut" for r in s.removed] == ["i", "j"]
    assert t.steps[-1] == Step("return", "a", 0, best="b", value=3)
    for name in ALGORITHMS:
        tr = trace(slides, "prolog", name)
        assert tr.result.value == 3 and tr.values()["a"] == 3, name
        assert sorted(tr.cuts()) == sorted(tr.result.pruned), name


def test_trace_json_and_table_cli():
    out = pyab_cli("trace", str(EXAMPLES / "slides.tree"), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["best"] == "b" and data["value"] == 3 and data["exact"] is True
    assert data["steps"][0] == {"kind": "call", "node": "a", "depth": 0, "alpha": "-inf", "beta": "inf"}
    assert {"kind": "cut", "node": "c", "depth": 1, "alpha": 3, "beta": "inf", "value": 2,
            "child": "h", "cut": "alpha", "removed": ["i", "j"], "test": "<",
            "limit": 3} in data["steps"]
    py = pyab_cli("trace", str(EXAMPLES / "slides.tree"), "--json", "--engine", "python")
    pdata = json.loads(py.stdout)
    assert pdata["steps"] == data["steps"]
    table = pyab_cli("trace", str(EXAMPLES / "slides.tree"), "--alpha", "-1000", "--beta", "1000")
    assert table.returncode == 0, table.stderr
    assert "\x1b[" not in table.stdout  # piped: plain text
    assert "alpha cut-off (h = 2 < alpha 3): i, j never searched" in table.stdout
    assert "a returns GoodPos = b, Val = 3" in table.stdout
    bad = pyab_cli("trace", "-", stdin="a(b=1, b=2)")
    assert bad.returncode == 2 and "error:" in bad.stderr and "Traceback" not in bad.stderr


def test_timeout_then_trace_again():
    from pyab.errors import SearchTimeout
    from pyab.prolog import solve_traced
    tree = random_tree(random.Random(3), Shape(depth=(8, 8), branching=(3, 3), leaf_chance=0.0))
    with pytest.raises(SearchTimeout):
        solve_traced(tree, timeout=0.001)
    small = pyab.parse(SLIDES_TEXT)
    p, q = steps_of(small)
    assert p.steps == q.steps
    # an untraced solve of the big tree afterwards is unaffected
    assert pyab.solve(tree).visited == trace(tree, "python").result.visited


def test_dropping_a_big_traced_tree_is_safe():
    """Regression: a second wrapper on the tree's staticval/2 made
    '$destroy_module' crash SWI-Prolog ("double free") on trees this big."""
    import gc

    from pyab.prolog import bridge as prolog
    tree = random_tree(random.Random(3), Shape(depth=(8, 8), branching=(3, 3), leaf_chance=0.0))
    gc.collect()
    before = prolog.live_modules()
    p = trace(tree, "prolog")
    assert tree in prolog.engine()._modules
    assert len(p.steps) > 5000
    prolog.drop(tree)
    assert prolog.live_modules() <= before
    assert pyab.solve(pyab.parse("a(b=1, c=2)")).value == 2


def test_trace_refuses_what_solve_refuses(slides):
    with pytest.raises(ValueError, match="no depth limit"):
        trace(slides, depth=2)
    done = pyab_cli("trace", str(EXAMPLES / "slides.tree"), "--depth", "2")
    assert done.returncode == 2 and "no depth limit" in done.stderr


# -- a trace that explains ---------------------------------------------------

def _holds(op, v, limit):
    return {">": v > limit, ">=": v >= limit, "<": v < limit, "<=": v <= limit, "=": v == limit}[op]


def explained(tr):
    """Every test step's comparison is false, every cut's names its bound
    and holds, every bounds step's best so far is what the node returns
    in the end or is overtaken later; the betterof chain ends in GoodPos."""
    problems = []
    for i, s in enumerate(tr.steps):
        if s.kind == "test":
            window = s.beta if s.bound == "beta" else s.alpha
            if _holds(s.test, s.value, s.limit) or s.limit != window:
                problems.append(f"{i}: {s.text()}")
        if s.kind == "cut" and tr.exact:
            if s.cut not in ("alpha", "beta", "direct") or s.limit is None:
                problems.append(f"{i}: a cut without its bound: {s.text()}")
            elif s.cut != "direct":
                tested = s.value if s.good_value is None else s.good_value  # Hsu's m
                if s.limit != (s.beta if s.cut == "beta" else s.alpha) or not _holds(s.test, tested, s.limit):
                    problems.append(f"{i}: {s.text()}")
        if s.kind == "return" and tr.algorithm == "bratko" and i and tr.steps[i - 1].kind == "betterof":
            last = tr.steps[i - 1]
            if (last.good, last.good_value) != (s.best, s.value):
                problems.append(f"{i}: betterof chose {last.good}, the program {s.best}")
    return problems


def test_bounds_rows_show_the_best_so_far_not_the_child(slides):
    from pyab.render.table import rows
    tr = trace(slides, "prolog")
    by_text = {r[6]: r for r in rows(tr)}
    # in b (MIN) after f = 12 the best so far is still e = 3
    assert by_text["newbounds after f = 12: window kept"][4:6] == ("e", "3")
    # in a (MAX) after c = 2 the best so far is still b = 3
    assert by_text["newbounds after c = 2: window kept"][4:6] == ("b", "3")


def test_no_cut_says_which_test_failed_and_that_it_is_strict():
    tree = pyab.parse("a(b=3, c(d=3, e=5))")
    tr = trace(tree, "prolog")
    texts = [s.text() for s in tr.steps]
    assert "no cut: 3 < alpha 3 is false, the test is strict" in texts
    assert tr.result.pruned == ()
    aima = trace(tree, "prolog", "aima")  # non-strict: the same tie cuts
    assert [s.text() for s in aima.steps if s.kind == "cut"] == \
        ["alpha cut-off (d = 3 <= alpha 3): e never searched"]


def test_the_tie_rule_is_a_step_of_its_own(slides):
    texts = [s.text() for s in trace(slides, "prolog").steps]
    assert "betterof(c, 2, d, 2): 2 > 2 is false, a tie: the later d = 2 wins" in texts
    assert texts.index("betterof(b, 3, d, 2): 3 > 2 is true, so b = 3 is better") == len(texts) - 2
    tie = pyab.parse("a(b=3, c=3)")
    assert trace(tie).result.best == "c"
    aima = trace(tie, "prolog", "aima")
    assert aima.result.best == "b"
    assert [s.text() for s in aima.steps if s.kind == "tie"] == [
        "tie: c = 3 equals the best so far, b; b is kept (only a strictly better value replaces it)"]


def test_hsu_direct_cut_off_is_not_called_a_beta_cut():
    tr = trace(pyab.parse("max a(b=3, c=3, d=3)"), "prolog", "hsu-f1")
    (cut,) = [s for s in tr.steps if s.kind == "cut"]
    assert cut.cut == "direct" and cut.limit == 3 and cut.beta == math.inf
    assert "beta" not in cut.text()
    assert cut.text() == ("direct cut-off (b = 3 = the largest value the tree holds, 3: "
                          "nothing can do better): c, d never searched")


@pytest.mark.parametrize("algorithm", ["bratko", "aima", "cpw-minmax", "cpw-negamax", "cpw-failsoft",
                                       "module22", "hsu-f1", "hsu-f2", "hsu-f3", "hsu-f1-negamax",
                                       "strict-cut"])
def test_every_step_explains_itself_on_random_trees(algorithm):
    rng = random.Random(26)
    for _ in range(60):
        tree = random_tree(rng, Shape(depth=(1, 4), branching=(1, 4), values=(-3, 3)))
        alpha, beta = random_window(rng, tree, rng.choice(["full", "narrow"]))
        tr = trace(tree, "python", algorithm, alpha, beta)
        assert explained(tr) == [], (algorithm, pyab.dump(tree), alpha, beta)
        assert sorted(r for s in tr.steps if s.kind == "cut" for r in s.removed) == \
            sorted(tr.result.pruned)


def test_a_changed_cut_test_is_caught_by_the_explanations(tmp_path):
    """The slides' program with >= for > (a tie cuts): its observed cut is
    not what the printed test allows, and the explanation check says so."""
    from pyab.prolog import solve_traced
    from pyab.render.trace import from_events
    text = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    mutant = text.replace("max_to_move(Pos), Val < Alpha, !.", "max_to_move(Pos), Val =< Alpha, !.", 1)
    prog = tmp_path / "mutant.pl"
    prog.write_text(mutant, encoding="utf-8")
    tree = pyab.parse("a(b(e=3, f=12), c(h=3, i=1, j=20))")
    result, events = solve_traced(tree, program=prog)
    bad = from_events(tree, events, result, -math.inf, math.inf)
    assert explained(bad) and "h = 3 < alpha 3" in explained(bad)[0]
    assert explained(trace(tree, "prolog")) == []
