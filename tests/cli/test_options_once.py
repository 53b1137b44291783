"""Each option several commands share is defined once (pyab/commands/_common.py)
and so has one type and one validation in every command that has it."""

from __future__ import annotations

import argparse
import ast
from collections import defaultdict
from pathlib import Path

import pytest

from pyab import cli

COMMANDS = Path(cli.__file__).parent / "commands"

# The same name for a different option: unavoidable while the names stay
# (they are part of the outside contract).  Each entry: the files allowed.
DIFFERENT_OPTIONS = {
    # _common: the search's depth limit (any integer); practice: the levels
    # of its random trees (check calls that --tree-depth); experiment: the
    # range of depths a table runs (knuth-moore, random-order: D0-D1).
    "--depth": {"_common.py", "practice.py", "experiment.py"},
    # _common: a range of children per node of random trees (check,
    # practice); experiment: the grid's axis, one B (knuth-moore) or a list
    # B,... (random-order).
    "--branching": {"_common.py", "experiment.py"},
    # check: a range or a named preset (sentinels), read as it is parsed;
    # practice: a range only, read by the page's generator.
    "--values": {"check.py", "practice.py"},
    # autograder: the zip or repository folder it writes (with -o); grade:
    # the folder of the gradebook (no -o: the contract has none).
    "--out": {"autograder.py", "grade.py"},
}


def definitions() -> dict[str, list[str]]:
    """Every --option string given to add_argument in pyab/commands, with
    each place (file:line) that gives it."""
    places: dict[str, list[str]] = defaultdict(list)
    for path in sorted(COMMANDS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "add_argument"):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and str(arg.value).startswith("--"):
                        places[arg.value].append(f"{path.name}:{node.lineno}")
    return places


def duplicated(places: dict[str, list[str]]) -> dict[str, list[str]]:
    return {opt: where for opt, where in places.items() if len(where) > 1}


def test_the_scan_finds_the_definitions():
    found = definitions()
    assert {"--timeout", "--engine", "--algorithm", "--untrusted", "--json"} <= set(found)
    # a second definition is seen (the test below could fail)
    assert duplicated({"--x": ["a.py:1", "b.py:2"], "--y": ["a.py:3"]}) == {"--x": ["a.py:1", "b.py:2"]}


def test_each_option_is_defined_once():
    found = definitions()
    twice = {opt: where for opt, where in duplicated(found).items()
             if not {w.split(":")[0] for w in where} <= DIFFERENT_OPTIONS.get(opt, set())}
    assert not twice, f"options defined in more than one place (use pyab/commands/_common.py): {twice}"
    assert set(DIFFERENT_OPTIONS) <= set(duplicated(found)), "an exception no longer needed"


def _actions() -> dict[str, list[tuple[str, argparse.Action]]]:
    """Every command's (and experiment's tables') actions by option string."""
    out: dict[str, list[tuple[str, argparse.Action]]] = defaultdict(list)

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, subparser in action.choices.items():
                    walk(subparser, f"{name} {sub}".strip())
            for opt in action.option_strings:
                out[opt].append((name, action))
    walk(cli.build_parser(), "")
    return out


@pytest.mark.parametrize("opt", ["--algorithm", "--engine", "--timeout", "--untrusted", "--jobs",
                                 "--seed", "--agents", "--disk", "--scheduler", "--title",
                                 "--output", "--final-windows"])
def test_a_shared_option_has_one_type_everywhere(opt):
    actions = _actions()[opt]
    assert len(actions) >= 2, f"{opt} is not shared"
    kinds = {(type(a).__name__, a.type, a.nargs, tuple(a.option_strings)) for _, a in actions}
    assert len(kinds) == 1, f"{opt} differs between commands: {actions}"


def test_a_command_narrows_the_algorithms_only_to_pyabs():
    from pyab.commands import _common
    _common.add_algorithm(argparse.ArgumentParser(), choices=("bratko", "minimax"))
    with pytest.raises(ValueError, match="nosuch"):
        _common.add_algorithm(argparse.ArgumentParser(), choices=("bratko", "nosuch"))


def _refusal(capsys, argv: list[str]) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    return err.splitlines()[-1].split("error: ", 1)[1]


@pytest.mark.parametrize("value, says", [("0", "must be a positive number of seconds"),
                                         ("-1", "must be a positive number of seconds"),
                                         ("inf", "must be a positive number of seconds"),
                                         ("x", "not a number of seconds")])
def test_timeout_is_refused_the_same_way_everywhere(capsys, value, says):
    # before, solve/trace/show/draw read --timeout as any float (0, -1 and inf passed)
    commands = {name for name, _ in _actions()["--timeout"]}
    assert {"check", "grade", "solve", "trace", "show", "draw"} <= commands
    positional = {"grade": ["suite.toml"], "check": []}
    said = {c: _refusal(capsys, [c, *positional.get(c, ["x.tree"]), f"--timeout={value}"])
            for c in sorted(commands)}
    assert len(set(said.values())) == 1, said
    assert says in next(iter(said.values()))


@pytest.mark.parametrize("opt, value", [("--jobs", "0"), ("--agents", "0"), ("--disk", "0"),
                                        ("--seed", "x"), ("--algorithm", "nosuch"),
                                        ("--engine", "nosuch")])
def test_shared_options_are_refused_the_same_way_everywhere(capsys, opt, value):
    positional = {"grade": ["suite.toml"], "experiment best-order": ["x.tree"],
                  "experiment knuth-moore": ["--branching", "2", "--depth", "1"],
                  "experiment random-order": [], "check": [], "practice": ["-o", "x.html"],
                  "game": ["tictactoe"]}
    said = {}
    for name, _ in _actions()[opt]:
        said[name] = _refusal(capsys, [*name.split(), *positional.get(name, ["x.tree"]),
                                       f"{opt}={value}"])
    assert len(said) >= 2
    # the same words, up to the list of choices a command narrows
    assert len({s.split("(choose from")[0] for s in said.values()}) == 1, said
