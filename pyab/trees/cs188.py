r"""CS188 test files, read as they are: ``.test`` and ``.solution``.

The format of UC Berkeley's CS188 Pacman autograder: a ``#`` starts a
comment; a line ``key: "value"`` sets a key; a line ``key:`` followed by
three double quotes starts a block that runs to a line holding only three
double quotes.  A ``GraphGameTreeTest``
(class ``GraphGameTreeTest``) describes a game tree:

* ``alg``: the agent class graded (``AlphaBetaAgent``, ``MinimaxAgent``);
* ``depth``: how deep it searches, in rounds (every agent moves once);
* ``num_agents``: Pacman (MAX, agent 0) and ``num_agents - 1`` ghosts (MIN);
* ``start_state``, ``win_states``, ``lose_states`` (space-separated);
* ``successors``: lines ``STATE ACTION NEXT``, each state's actions in order;
* ``evaluation``: lines ``STATE VALUE``, the static values.

As in the course's grader, only the states reachable from ``start_state``
count: others (some of the course's own files list them) are left out and
named in :attr:`CS188Test.unreachable`.

Its ``.solution`` holds ``action`` (the root action) and ``generated``
(the states the reference search generated, sorted, space-separated).
:func:`load_test` turns a ``GraphGameTreeTest`` into a pyab tree whose
nodes are the states, whose sides follow the agents level by level, and
whose edge labels are kept as the actions (:class:`Labels`, read by
:mod:`pyab.referee.cs188`).
Any other class is returned with the reason it is skipped.
"""

from __future__ import annotations

import re
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DSLError
from ..tree import Tree, TreeError, build

__all__ = ["CS188Test", "Labels", "REFERENCE", "labels_of", "load_folder", "load_test", "read_keys",
           "register"]

#: The agent class a GraphGameTreeTest names -> pyab's reference algorithm.
REFERENCE = {"AlphaBetaAgent": "strict-cut", "MinimaxAgent": "minimax"}

_ONE = re.compile(r'^([^"]*?):\s*"([^"]*)"\s*$')
_BLOCK = re.compile(r'^([^"]*?):\s*"""\s*$')
_END = re.compile(r'^\s*"""\s*$')


@dataclass
class CS188Test:
    """One ``.test`` file: ``tree`` is None when ``skipped`` says why."""

    path: str
    name: str
    cls: str
    alg: str = ""
    tree: Tree | None = None
    rounds: int = 0
    agents: int = 0
    action: str | None = None          # the .solution's, when there is one
    generated: tuple[str, ...] | None = None
    skipped: str = ""
    keys: dict[str, str] | None = None      # a PacmanGameTreeTest's, for the game's judge
    solution: dict[str, str] | None = None
    unreachable: tuple[str, ...] = ()  # listed states no successor reaches: left out
    labels: Any = field(default=None, repr=False)  # Labels

    @property
    def plies(self) -> int:
        return self.rounds * self.agents

    @property
    def algorithm(self) -> str:
        return REFERENCE.get(self.alg, "")


def read_keys(path: str | Path) -> dict[str, tuple[str, int]]:
    """The keys of a test or solution file: key -> (text, line of the key).
    :raises DSLError: naming the line that is neither form."""
    text = Path(path).read_text(encoding="utf-8")
    raw = text.split("\n")
    keys: dict[str, tuple[str, int]] = {}
    i = 0
    while i < len(raw):
        line = raw[i].split("#", 1)[0]
        if not line.strip():
            i += 1
            continue
        if m := _ONE.match(line):
            keys[m.group(1).strip()] = (m.group(2), i + 1)
            i += 1
            continue
        if m := _BLOCK.match(line):
            start, body = i + 1, []
            i += 1
            while i < len(raw) and not _END.match(raw[i]):
                body.append(raw[i])
                i += 1
            if i == len(raw):
                raise DSLError(f'the block {m.group(1).strip()!r} is never closed by a line """',
                               str(path), start, 1, raw)
            keys[m.group(1).strip()] = ("\n".join(body), start)
            i += 1
            continue
        raise DSLError('expected key: "value" or key: """ (a block)', str(path), i + 1, 1, raw)
    return keys


def _need(keys: dict, key: str, path: str, raw: list[str]) -> tuple[str, int]:
    if key not in keys:
        raise DSLError(f"no {key!r} key (a GraphGameTreeTest needs class, alg, depth, num_agents, "
                       "start_state, win_states, lose_states, successors, evaluation)",
                       path, 1, 1, raw)
    return keys[key]


def _int(keys: dict, key: str, path: str, raw: list[str], least: int) -> int:
    text, line = _need(keys, key, path, raw)
    try:
        n = int(text)
    except ValueError:
        n = least - 1
    if n < least:
        raise DSLError(f"{key} must be a whole number of at least {least}, not {text!r}",
                       path, line, 1, raw)
    return n


@dataclass(frozen=True)
class Labels:
    """A tree's CS188 face: ``actions[node]`` labels its children in order;
    ``win`` and ``lose``: the terminal states' outcomes."""

    actions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    win: frozenset[str] = frozenset()
    lose: frozenset[str] = frozenset()


# By the tree itself, and by its shape (names and children): the same tree
# given other sides (``with_agents``, as every verdict does) keeps its
# labels (the last registered of that shape: the course's tests of one shape
# share theirs); a shrunk tree, another shape, gets the default ones.
_OWN: "weakref.WeakKeyDictionary[Tree, Labels]" = weakref.WeakKeyDictionary()
_LABELS: "OrderedDict[tuple, Labels]" = OrderedDict()
_KEEP = 1024  # shapes remembered (a suite's .test files, a check run's)


def register(tree: Tree, labels: Labels) -> Tree:
    """Give ``tree`` its edge labels and outcomes (a tree read from a
    ``.test`` file); returns the tree."""
    _OWN[tree] = labels
    key = (tree.names, tree.kids)
    _LABELS[key] = labels
    _LABELS.move_to_end(key)
    while len(_LABELS) > _KEEP:
        _LABELS.popitem(last=False)
    return tree


def labels_of(tree: Tree) -> Labels:
    """The registered labels, or the default: actions are the children's
    names; a leaf wins with a value of 0 or more and loses below."""
    labels = _OWN.get(tree) or _LABELS.get((tree.names, tree.kids))
    if labels is not None:
        return labels
    leaves = {tree.names[i]: v for i, v in enumerate(tree.values)
              if not tree.kids[i] and v is not None}  # every leaf has a value
    return Labels({}, frozenset(n for n, v in leaves.items() if v >= 0),
                  frozenset(n for n, v in leaves.items() if v < 0))


def load_test(path: str | Path) -> CS188Test:
    """A ``.test`` file (and its ``.solution`` next to it, if any).

    :raises DSLError: for a file that is not in the format, or a tree that
        cannot be built, naming the file and line."""
    from .randomtrees import with_agents
    path = str(path)
    raw = Path(path).read_text(encoding="utf-8").split("\n")
    keys = read_keys(path)
    cls = keys.get("class", ("", 0))[0]
    test = CS188Test(path=path, name=Path(path).stem, cls=cls, alg=keys.get("alg", ("", 0))[0])
    if cls == "PacmanGameTreeTest":  # played through the course's framework, when given
        test.keys = {k: v for k, (v, _) in keys.items()}
        solution = Path(path).with_suffix(".solution")
        test.solution = ({k: v for k, (v, _) in read_keys(solution).items()}
                         if solution.is_file() else None)
    if cls != "GraphGameTreeTest":
        test.skipped = (f"class {cls or '(none)'}: only GraphGameTreeTest files are trees pyab can "
                        "search (PacmanGameTreeTest plays the Pacman game itself: pyab grade plays "
                        "it with the course's framework, suite key framework, and its .solution)")
        return test
    if test.alg not in REFERENCE:
        test.skipped = (f"alg {test.alg or '(none)'}: pyab grades {' and '.join(REFERENCE)} "
                        "(no reference for this agent)")
        return test
    test.rounds = _int(keys, "depth", path, raw, 0)
    test.agents = _int(keys, "num_agents", path, raw, 1)
    start = _need(keys, "start_state", path, raw)[0].strip()
    win = frozenset(_need(keys, "win_states", path, raw)[0].split())
    lose = frozenset(_need(keys, "lose_states", path, raw)[0].split())
    kids: dict[str, list[tuple[str, int]]] = {}
    actions: dict[str, list[str]] = {}
    text, first = _need(keys, "successors", path, raw)
    for n, line in enumerate(text.split("\n")):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 3:
            raise DSLError("a successor line is STATE ACTION NEXT", path, first + 1 + n, 1, raw)
        state, action, nxt = words
        if action in actions.get(state, []):
            raise DSLError(f"state {state!r} has the action {action!r} twice", path,
                           first + 1 + n, 1, raw)
        kids.setdefault(state, []).append((nxt, first + 1 + n))
        actions.setdefault(state, []).append(action)
    values = []
    text, first = _need(keys, "evaluation", path, raw)
    for n, line in enumerate(text.split("\n")):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if len(words) != 2:
                raise ValueError
            value = float(words[1])  # the course's grader reads every value as a float
        except ValueError:
            raise DSLError("an evaluation line is STATE VALUE (a number)", path, first + 1 + n, 1,
                           raw) from None
        values.append((words[0], value, (first + 1 + n, 1)))
    if start not in kids:
        raise DSLError(f"start_state {start!r} has no successor line: there is nothing to search",
                       path, keys["start_state"][1], 1, raw)
    # The course's grader walks from the start state only: a state no
    # successor line reaches from it is never visited, so it is left out.
    reached, todo = {start}, [start]
    while todo:
        for k, _ in kids.get(todo.pop(), []):
            if k not in reached:
                reached.add(k)
                todo.append(k)
    listed = {*kids, *(k for ks in kids.values() for k, _ in ks), *(v[0] for v in values)}
    test.unreachable = tuple(sorted(listed - reached))
    kids = {s: ks for s, ks in kids.items() if s in reached}
    actions = {s: a for s, a in actions.items() if s in reached}
    values = [v for v in values if v[0] in reached]
    edges = [(s, (ks[0][1], 1), [(k, (line, 1)) for k, line in ks]) for s, ks in kids.items()]
    try:
        tree = build(edges, values, "max")
    except TreeError as err:
        raise DSLError(f"this tree cannot be searched: {err.message}", path, err.pos[0],
                       max(err.pos[1], 1), raw) from None
    if tree.root != start:
        raise DSLError(f"start_state {start!r} is not the root of the successors (the root is "
                       f"{tree.root!r})", path, keys["start_state"][1], 1, raw)
    for state in sorted((win | lose) & kids.keys()):
        raise DSLError(f"{state!r} is a win or lose state with successors: an agent stops at it, "
                       "a search would not", path, kids[state][0][1], 1, raw)
    test.tree = with_agents(tree, test.agents)
    test.labels = Labels({s: tuple(a) for s, a in actions.items()}, win, lose)
    register(test.tree, test.labels)
    solution = Path(path).with_suffix(".solution")
    if solution.is_file():
        sol = read_keys(solution)
        test.action = sol["action"][0] if "action" in sol else None
        test.generated = tuple(sol["generated"][0].split()) if "generated" in sol else None
    return test


def load_folder(folder: str | Path) -> list[CS188Test]:
    """Every ``.test`` file of ``folder``, by name."""
    paths = sorted(Path(folder).glob("*.test"))
    if not paths:
        raise ValueError(f"no .test files in {folder}")
    return [load_test(p) for p in paths]
