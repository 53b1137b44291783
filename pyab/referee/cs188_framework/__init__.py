"""The names a CS188 ``multiAgents.py`` imports, written for pyab (no
Berkeley code), and the child's side of ``--interface cs188``.

This folder goes on ``sys.path`` in the Python child, so the student's
``import util``, ``from game import Agent, Directions`` and ``from pacman
import GameState`` find :mod:`util`, :mod:`game` and :mod:`pacman` here.
A game state is a node of pyab's tree: every method the agent calls on it
is a question to the parent (``actions``, ``successor``, ``outcome``,
``staticval``), which answers from the tree and records the states
generated; nothing the child says about its search is trusted.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["FOLDER", "call_agent", "prepare"]

FOLDER = Path(__file__).resolve().parent


def prepare() -> None:
    """Put the framework first for the student's imports: its modules are
    imported now, so a ``util.py`` or ``game.py`` lying next to the
    submission does not replace the state pyab answers through."""
    if str(FOLDER) not in sys.path:
        sys.path.insert(0, str(FOLDER))
    for name in ("util", "game", "pacman"):
        module = sys.modules.get(name)
        if module is None or Path(getattr(module, "__file__", "") or "").parent != FOLDER:
            sys.modules.pop(name, None)
            __import__(name)


def call_agent(agent_class: Callable, ask: Callable[[str, Any], Any], job: dict) -> Any:
    """One search: ``agent_class(depth=plies // agents).getAction(state)``
    on the job's root; the action it returns."""
    import pacman  # the framework's, after prepare()
    agents = int(job.get("agents") or 2)
    plies = job.get("depth")
    if plies is None or plies == "inf":
        raise ValueError("--interface cs188 needs a depth: --depth N (plies, a multiple of "
                         "the number of agents)")
    agent = agent_class(depth=int(plies) // agents)
    state = pacman.GameState(ask, job["root"], agents)
    return agent.getAction(state)
