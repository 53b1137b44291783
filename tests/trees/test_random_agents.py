"""Random trees for multi-agent and depth-limited code (pyab.trees.randomtrees):
K agents in turn, static values on inner nodes, value presets."""

from __future__ import annotations

import random
import sys

import pytest

import pyab
from conftest import pyab_cli
from pyab.trees.randomtrees import VALUE_PRESETS, Shape, random_tree, value_preset, with_agents


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_agents_cycle_by_level(k):
    rng = random.Random(k)
    for _ in range(50):
        t = random_tree(rng, Shape(depth=(2, 5), agents=k))
        for i in range(len(t)):
            assert t.is_max_id(i) == (t.depth[i] % k == 0), (k, t.names[i])


def test_two_ghosts_give_two_min_levels_in_a_row():
    t = random_tree(random.Random(1), Shape(depth=(3, 3), leaf_chance=0, agents=3))
    assert t.repeated_side() is not None  # MIN after MIN
    assert t.root_side == "max"


def test_with_agents_on_a_file_tree():
    t = with_agents(pyab.parse("a(b(c(d=1, e=2)), f=3)"), 3)
    assert [t.side(n) for n in "abcdef"] == ["max", "min", "min", "max", "max", "min"]


def test_inner_values_only_when_asked():
    rng = random.Random(0)
    plain = [random_tree(rng, Shape()) for _ in range(30)]
    assert all(v is None for t in plain for i, v in enumerate(t.values) if t.kids[i])
    deep = [random_tree(rng, Shape(inner_values=True)) for _ in range(30)]
    assert all(v is not None for t in deep for v in t.values)


def test_wide_preset_reaches_the_sentinels():
    rng = random.Random(0)
    seen = {v for _ in range(300) for v in random_tree(rng, Shape(values="wide")).values}
    for s in (1000, 9999, 2**31):
        assert s in seen and -s in seen
    assert value_preset("ties") == (0, 2) and "wide" in VALUE_PRESETS
    with pytest.raises(ValueError, match="known: default, ties, wide"):
        value_preset("huge")


def test_check_random_depth_limited_strict_cut():
    # the example: was "static_value 'r_1_1' does not exist", exit 2
    r = pyab_cli("check", "--random", "20", "--depth", "2", "--algorithm", "strict-cut")
    assert r.returncode == 0, r.stdout + r.stderr
    r = pyab_cli("check", "--random", "40", "--depth", "3", "--agents", "3", "--values", "wide",
                 "--algorithm", "strict-cut", "--json")
    assert r.returncode == 0, r.stdout + r.stderr


def test_agents_refused_by_the_slides_program():
    r = pyab_cli("check", "--random", "5", "--agents", "3")
    assert r.returncode == 2 and "strict-cut" in r.stderr


def test_job_carries_depth_and_agents(tmp_path):
    prog = tmp_path / "told.py"
    prog.write_text(
        "import json, sys\n"
        "def ab(game, root, alpha, beta, depth=None, agents=None):\n"
        "    assert (depth, agents) == (2, 3) == (game.depth, game.agents), (depth, agents)\n"
        "    kids = game.children(root)\n"
        "    return kids[0], 0\n")
    r = pyab_cli("check", "--random", "3", "--depth", "2", "--agents", "3", "--algorithm",
                 "strict-cut", "--python", f"{prog}:ab", "--compare", "move", "--keep-going",
                 "--save-dir", str(tmp_path))
    assert "AssertionError" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.returncode in (0, 1)


def test_exec_job_carries_depth_and_agents(tmp_path):
    prog = tmp_path / "told.py"
    prog.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    job = json.loads(line)\n"
        "    if (job.get('depth'), job.get('agents')) != (2, 3):\n"
        "        sys.exit(5)\n"
        "    print(json.dumps({'moves': job['root']}), flush=True)\n"
        "    kids = json.loads(sys.stdin.readline())\n"
        "    print(json.dumps({'best': kids[0], 'value': 0}), flush=True)\n")
    r = pyab_cli("check", "--random", "3", "--depth", "2", "--agents", "3", "--algorithm",
                 "strict-cut", "--exec", f"{sys.executable} {prog}", "--compare", "move",
                 "--keep-going", "--save-dir", str(tmp_path))
    assert r.returncode in (0, 1), r.stdout + r.stderr  # 3 (exit 5) if not told
