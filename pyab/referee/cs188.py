"""``--interface cs188``: a UC Berkeley CS188 ``AlphaBetaAgent`` (or
``MinimaxAgent``) graded on pyab's trees, as the course's own grader grades
it on its test trees.

The agent runs in the Python child (``pyab.referee.cs188_framework``
provides the ``util``, ``game`` and ``pacman`` it imports).  Here is the
parent's side: :class:`Observer` answers the state's questions from the
tree and records, in order, the states the agent generated and the static
values it read.  The course's grader passes a search when its root action
and its *set* of generated states (the start state included) equal the
reference's; ``--compare generated`` is that rule, against ``strict-cut``.

A tree read from a CS188 ``.test`` file keeps its edge labels (``Left``,
``Right``) and its win and lose states (:func:`pyab.trees.cs188.register`); any other tree
has its children's names as actions, and a leaf is a win when its value is
0 or more, a loss otherwise (every leaf is terminal, as the agents expect).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..errors import Error
from ..result import Result
from ..tree import Tree
from ..trees.cs188 import Labels, labels_of, register
from .protocol import QUESTIONS, Observer as _Observer
from .protocol import _show

__all__ = ["Labels", "Observer", "check_settings", "default_algorithm", "framework_copy",
           "framework_modules", "generated",
           "generated_differences", "observer_for", "register", "test_notes"]


def check_settings(agents: int | None, depth: int | None, interface: str = "cs188") -> None:
    """A CS188 agent needs K agents (the root is Pacman, MAX) and a depth in
    plies that K divides: the agent is built with ``depth = plies / K``."""
    if agents is None:
        raise ValueError(f"--interface {interface}: give --agents K (2: Pacman and one ghost, "
                         "3: two ghosts); the root is Pacman (MAX), the ghosts MIN")
    if depth is None:
        raise ValueError(f"--interface {interface}: give --depth N in plies (the agent gets "
                         f"depth = N / {agents}, CS188's rounds)")
    if depth % agents:
        raise ValueError(f"--interface {interface}: --depth {depth} plies is not a whole number "
                         f"of rounds of {agents} agents (give a multiple of {agents})")


class Observer(_Observer):
    """The parent's side of one search by a CS188 agent."""

    questions = QUESTIONS + ("actions", "successor", "outcome")

    def __init__(self, tree: Tree, label: str, labels: Labels):
        super().__init__(tree, label)
        self.labels = labels
        self.generated: list[str] = [tree.root]  # the course's set starts with the start state

    def _actions(self, i: int) -> tuple[str, ...]:
        name = self.tree.names[i]
        return self.labels.actions.get(name) or tuple(self.tree.names[k] for k in self.tree.kids[i])

    def ask(self, question: str, arg: Any) -> Any:
        if question in ("actions", "successor", "outcome") and self.bug is not None:
            raise self.bug
        if question == "actions":
            i = self.node(question, arg)
            self.rec.visit(i)
            self.given.update(self.tree.kids[i])
            answer: Any = list(self._actions(i))
        elif question == "successor":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise self.fail(f"asked successor of {_show(arg)}: expected [state, action]",
                                "protocol")
            i = self.node(question, arg[0])
            actions = self._actions(i)
            if arg[1] not in actions:
                legal = ", ".join(actions[:8]) or "none: it is a terminal state"
                raise self.fail(f"generated the successor of {arg[0]!r} by action {_show(arg[1])}, "
                                f"which is not a legal action there (legal: {legal})")
            k = self.tree.kids[i][actions.index(arg[1])]
            self.given.add(k)  # a generated state may be asked about, as a child is
            answer = self.tree.names[k]
            self.generated.append(answer)
        elif question == "outcome":
            name = self.tree.names[self.node(question, arg)]
            answer = ("win" if name in self.labels.win else
                      "lose" if name in self.labels.lose else None)
        else:
            return super().ask(question, arg)
        # the log holds text: a successor question as "state, action"
        self.log.append((question, arg if isinstance(arg, str) else ", ".join(map(str, arg)),
                         answer))
        return answer

    def result(self, best: Any, value: Any, *, value_required: bool = False) -> Result:
        """getAction's action, as the child it leads to; no value."""
        root = self.tree.index[self.tree.root]
        actions = self._actions(root)
        if best is not None and not (isinstance(best, str) and best in actions):
            raise self.fail(f"getAction returned {_show(best)}, which is not a legal action "
                            f"at the start state (legal: {', '.join(actions[:8])})")
        child = None if best is None else self.tree.names[self.tree.kids[root][actions.index(best)]]
        r = super().result(child, None, value_required=False)
        return r._replace(extra={**r.extra, "generated": tuple(self.generated),
                                 "action": best})


def default_algorithm(interface: str, files: "list[str] | tuple[str, ...]") -> str | None:
    """The reference a CS188 agent is checked against when ``--algorithm``
    is not given: ``minimax`` when every file is a ``.test`` of a
    ``MinimaxAgent``, else ``strict-cut`` (the course's alpha-beta); None
    for another interface."""
    if interface != "cs188":
        return None
    from ..trees.cs188 import REFERENCE, read_keys
    algs = set()
    for f in files:
        try:
            algs.add(read_keys(f).get("alg", ("", 0))[0] if f.endswith(".test") else "")
        except (OSError, UnicodeDecodeError, ValueError):
            algs.add("")  # the run itself says what is wrong with the file
    return REFERENCE["MinimaxAgent"] if algs == {"MinimaxAgent"} else REFERENCE["AlphaBetaAgent"]


def test_notes(files: "list[str] | tuple[str, ...]") -> list[str]:
    """What reading each ``.test`` file left out, one line each (``check
    --verbose``): the states no successor line reaches, as the course's
    grader never visits them either."""
    from ..trees.cs188 import load_test
    out = []
    for f in files:
        if not f.endswith(".test"):
            continue
        try:
            test = load_test(f)
        except (Error, OSError, ValueError):
            continue  # the run itself says it
        if test.unreachable:
            out.append(f"{f}: left out, as the course's grader never reaches them from "
                       f"start_state {test.tree.root if test.tree else '?'}: "
                       f"{' '.join(test.unreachable)}")
        if test.tree is not None:
            out.append(f"{f}: {test.agents} agents, depth {test.rounds} "
                       f"({test.plies} plies), {test.alg}")
    return out


#: What makes a folder the course's project folder.
COURSE_MODULES = ("util.py", "game.py", "pacman.py")


def framework_modules(folder: str) -> list[Path]:
    """The course's Python modules in its project ``folder`` (``--cs188-
    framework``, suite key ``framework``): its top-level ``*.py`` files but
    ``multiAgents.py`` (the student's, whose own copy is graded; the
    course's may be a solution).  Never its test cases or solutions, which
    are folders and ``.test``/``.solution`` files.  A link is never
    followed.  :raises ValueError: naming what is missing."""
    d = Path(folder)
    if not d.is_dir():
        raise ValueError(f"--cs188-framework {folder}: no such folder")
    missing = [m for m in COURSE_MODULES if not (d / m).is_file() or (d / m).is_symlink()]
    if missing:
        raise ValueError(f"--cs188-framework {folder}: not the course's project folder "
                         f"(no {', '.join(missing)})")
    return sorted(f for f in d.iterdir() if f.suffix == ".py" and f.name != "multiAgents.py"
                  and f.is_file() and not f.is_symlink())


def framework_copy(folder: str) -> Path:
    """A read-only copy of :func:`framework_modules` in a new temporary
    folder (the caller removes it with :func:`remove_copy`)."""
    import shutil
    import tempfile
    modules = framework_modules(folder)  # refused before anything is made
    out = Path(tempfile.mkdtemp(prefix="pyab-cs188-framework-"))
    for f in modules:
        shutil.copyfile(f, out / f.name)
        (out / f.name).chmod(0o444)
    out.chmod(0o555)
    return out


def remove_copy(path: Path) -> None:
    import shutil
    try:
        path.chmod(0o755)
    except OSError:
        return
    shutil.rmtree(path, ignore_errors=True)


def observer_for(tree: Tree, label: str, depth: int | None, agents: int | None) -> Observer:
    check_settings(agents, depth)
    return Observer(tree, label, labels_of(tree))


def generated(result: Result) -> frozenset[str]:
    """The set of states a search generated, as the course's grader counts
    them: what a CS188 agent asked to generate, plus the start state; for
    any other search, every node it entered (expanded or read)."""
    if "generated" in result.extra:
        return frozenset(result.extra["generated"])
    return frozenset(result.visited) | frozenset(result.leaves)


def action_of(tree: Tree | None, node: str | None) -> str | None:
    """The action label that leads from the root to ``node``."""
    if node is None or tree is None:
        return node
    labels = labels_of(tree).actions.get(tree.root)
    if not labels:
        return node
    return labels[tree.children(tree.root).index(node)]


def generated_differences(tree: Tree | None, ref: Result, yours: Result, ref_label: str,
                          your_label: str) -> list[str]:
    """The course grader's rule: the same root action and the same set of
    generated states.  Readable lines, one per difference."""
    out = []
    width = max(len(ref_label), len(your_label)) + 1
    a, b = action_of(tree, ref.best), action_of(tree, yours.best)
    if a != b:
        out.append(f"action:\n    {ref_label + ':':<{width}} {a or '(none)'}"
                   f"\n    {your_label + ':':<{width}} {b or '(none)'}")
    ga, gb = generated(ref), generated(yours)
    if ga != gb:
        order = {n: i for i, n in enumerate(tree.names if tree else sorted(ga | gb))}
        line = (f"generated states:\n    {ref_label + ':':<{width}} {' '.join(sorted(ga))}"
                f"\n    {your_label + ':':<{width}} {' '.join(sorted(gb))}")
        extra = sorted(gb - ga, key=lambda n: order[n])
        missing = sorted(ga - gb, key=lambda n: order[n])
        if extra:
            line += (f"\n    generated too: {' '.join(extra)} "
                     "(the reference does not: a cut it missed?)")
        if missing:
            line += (f"\n    never generated: {' '.join(missing)} "
                     "(the reference does: a cut too many?)")
        out.append(line)
    return out


def minimax(tree: Tree, depth: int | None = None) -> Result:
    """Exhaustive minimax asking every node who moves (what ``MinimaxAgent``
    does with several ghosts in a row), ``depth`` plies deep; the first
    strictly better child is the move.  The registry's ``minimax`` assumes
    alternating sides, so :func:`pyab.referee.verdict.reference` uses this
    one on a tree whose sides repeat."""
    from ..search.common import Recorder
    rec = Recorder(tree, "minimax")

    def value(pos: int, d: int | None) -> tuple[int | None, float]:
        rec.enter(pos)
        if d == 0 or not tree.kids[pos]:
            return None, rec.read(pos)
        rec.visit(pos)
        sign = 1 if tree.is_max(pos) else -1
        best, v = None, -math.inf
        for k in tree.kids[pos]:
            _, w = value(k, None if d is None else d - 1)
            rec.back(k, None, w)
            if sign * w > v:
                best, v = k, sign * w
        return best, sign * v

    best, v = value(tree.root_node, depth)
    return rec.result(best, v)
