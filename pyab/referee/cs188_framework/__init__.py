"""The names a CS188 ``multiAgents.py`` imports, written for pyab (no
Berkeley code), and the child's side of ``--interface cs188``.

This folder goes on ``sys.path`` in the Python child, so the student's
``import util``, ``from game import Agent, Directions`` and ``from pacman
import GameState`` find :mod:`util`, :mod:`game` and :mod:`pacman` here.
A game state is a node of pyab's tree: every method the agent calls on it
is a question to the parent (``actions``, ``successor``, ``outcome``,
``staticval``), which answers from the tree and records the states
generated; nothing the child says about its search is trusted.  With the
course's own framework (``--cs188-framework``) the agent imports the
course's ``util``, ``game`` and ``pacman`` instead, and still searches a
tree through this package's state.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["FOLDER", "call_agent", "prepare"]

FOLDER = Path(__file__).resolve().parent


def prepare(course: str | None = None) -> None:
    """Put the framework first for the student's imports: its modules are
    imported now, so a ``util.py`` or ``game.py`` lying next to the
    submission does not replace them.  ``course``: a folder holding the
    course's own modules (a read-only copy), used instead of pyab's."""
    folder = Path(course).resolve() if course else FOLDER
    if str(folder) in sys.path:
        sys.path.remove(str(folder))
    sys.path.insert(0, str(folder))
    for name in ("util", "game", "pacman"):
        module = sys.modules.get(name)
        if module is None or Path(getattr(module, "__file__", "") or "").parent != folder:
            sys.modules.pop(name, None)
            __import__(name)


def _tree_state() -> Any:
    """pyab's GameState over a tree node: the stand-in ``pacman``'s, also
    when the course's own ``pacman`` is the one the agent imports."""
    module = sys.modules.get("pacman")
    if module is not None and Path(getattr(module, "__file__", "") or "").parent == FOLDER:
        return module.GameState
    import importlib.util
    spec = importlib.util.spec_from_file_location("pyab_cs188_tree_state", FOLDER / "pacman.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.GameState


def call_agent(agent_class: Callable, ask: Callable[[str, Any], Any], job: dict) -> Any:
    """One search: ``agent_class(depth=plies // agents).getAction(state)``
    on the job's root; the action it returns."""
    agents = int(job.get("agents") or 2)
    plies = job.get("depth")
    if plies is None or plies == "inf":
        raise ValueError("--interface cs188 needs a depth: --depth N (plies, a multiple of "
                         "the number of agents)")
    agent = agent_class(depth=int(plies) // agents)
    state = _tree_state()(ask, job["root"], agents)
    return agent.getAction(state)
