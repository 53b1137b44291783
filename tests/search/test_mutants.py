"""The referee bites: altered copies of prolog/alphabeta.pl are caught.

Each mutant changes one thing in a copy of the program in a temporary
directory; `check` (the Prolog run of the mutant, observed, against the
Python mirror of the real program) must report it on random trees within
a few hundred trees.  An *equivalent* mutant (one that cannot change any
answer) must not be reported: the referee does not cry wolf.
"""

from __future__ import annotations

import random
import time

import pytest

import pyab
from pyab.engines import differences
from pyab.prolog import PROLOG_DIR
from pyab.trees.randomtrees import Shape, random_tree, random_window

PROGRAM = (PROLOG_DIR / "alphabeta.pl").read_text(encoding="utf-8")

MUTANTS = {
    # goodenough/7's beta cut-off made non-strict
    "beta cut >=": [("min_to_move(Pos), Val > Beta, !", "min_to_move(Pos), Val >= Beta, !")],
    # goodenough/7's alpha cut-off made non-strict
    "alpha cut =<": [("max_to_move(Pos), Val < Alpha, !.", "max_to_move(Pos), Val =< Alpha, !.")],
    # betterof/6 keeps the earlier child on a tie
    "betterof earlier on tie": [("min_to_move(Pos), Val > Val1, !", "min_to_move(Pos), Val >= Val1, !"),
                                ("max_to_move(Pos), Val < Val1, !.", "max_to_move(Pos), Val =< Val1, !.")],
    # newbounds/6 never tightens the window
    "newbounds keeps the window": [
        ("newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-", "newbounds(Alpha, Beta, Pos, Val, Alpha, Beta) :-"),
        ("newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-", "newbounds(Alpha, Beta, Pos, Val, Alpha, Beta) :-"),
    ],
    # the window as a bare minimax: no cut-off at all
    "no cut-off": [("min_to_move(Pos), Val > Beta, !\n    ;\n    max_to_move(Pos), Val < Alpha, !.",
                    "fail.")],
}

# newbounds/6 with >= instead of >: when Val = Alpha the new alpha is Val,
# which is Alpha; nothing can change.
EQUIVALENT = {"newbounds >= (equivalent)": [("min_to_move(Pos), Val > Alpha, !.",
                                             "min_to_move(Pos), Val >= Alpha, !.")]}

SHAPE = Shape(depth=(1, 4), branching=(1, 4), values=(0, 3))


def mutate(tmp_path, name, edits):
    text = PROGRAM
    for old, new in edits:
        assert text.count(old) == 1, f"{name}: {old!r} must occur exactly once"
        text = text.replace(old, new)
    assert text != PROGRAM
    path = tmp_path / (name.replace(" ", "_").replace(">", "gt").replace("=", "eq") + ".pl")
    path.write_text(text, encoding="utf-8")
    return path


def first_disagreement(program, trees: int, seed: int = 1):
    """The number of the first random tree on which check fails, or None."""
    rng = random.Random(seed)
    for i in range(1, trees + 1):
        tree = random_tree(rng, SHAPE)
        alpha, beta = random_window(rng, tree, "random")
        mutant = pyab.solve(tree, "prolog", alpha=alpha, beta=beta, program=str(program))
        mirror = pyab.solve(tree, "python", alpha=alpha, beta=beta)
        if differences(mutant, mirror):
            return i
    return None


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught(tmp_path, name):
    program = mutate(tmp_path, name, MUTANTS[name])
    start = time.perf_counter()
    caught = first_disagreement(program, trees=500)
    assert caught is not None, f"mutant '{name}' survived 500 random trees"
    print(f"{name}: caught on tree {caught} in {time.perf_counter() - start:.2f}s")


@pytest.mark.parametrize("name", EQUIVALENT)
def test_equivalent_mutant_is_not_reported(tmp_path, name):
    program = mutate(tmp_path, name, EQUIVALENT[name])
    assert first_disagreement(program, trees=300) is None


def test_the_real_program_passes_the_same_trees():
    assert first_disagreement(PROLOG_DIR / "alphabeta.pl", trees=300) is None


# -- the same mutants through the referee's child route ---------------------------------

def _referee(program, trees: int):
    """The referee's own loop (pyab.referee.checking.run) on ``program``
    in its SWI-Prolog child, on the same random trees: its report."""
    from pyab.referee import open_route
    from pyab.referee.checking import CheckOptions, run
    options = CheckOptions(random=trees, seed=1, values=SHAPE.values, save_dir=None)
    return run(open_route(program=str(program)), options)


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught_by_the_referee_and_shrunk(tmp_path, name):
    report = _referee(mutate(tmp_path, name, MUTANTS[name]), trees=500)
    assert report.first is not None, f"mutant '{name}' survived 500 random trees in the child"
    assert report.shrunk.reproduced and report.shrunk.verdict.same(report.first)
    assert len(report.shrunk.verdict.tree) <= len(report.first.tree)


def test_the_referee_does_not_cry_wolf(tmp_path):
    for name, edits in EQUIVALENT.items():
        assert _referee(mutate(tmp_path, name, edits), trees=300).first is None
    assert _referee(PROLOG_DIR / "alphabeta.pl", trees=300).first is None
