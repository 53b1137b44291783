"""The search algorithms: one Python home and one Prolog home for each.

``ALGORITHMS`` maps the name used on the command line (``--algorithm``) to
where each side lives.  It is read from the registry ``algorithms.json`` in
the Prolog directory, the same table the bridge reads for its entry goals
(``prolog/bridge/run.pl``), so the two languages cannot list different
algorithms.  The Python side is a module in this package with a
``search(tree, alpha, beta, *, depth=None) -> Result`` function; the Prolog
side is a plain file next to the registry.  docs/adding-an-algorithm.md
says how to add one.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from typing import Any, Callable

from ..frozen import REQUIRED, Frozen
from ..resources import prolog_dir
from ..result import Result
from ..tree import Number, Tree

__all__ = ["ALGORITHMS", "Algorithm", "REGISTRY", "algorithm", "python_search", "solve_python"]

#: The registry, next to the Prolog programs (the bridge finds it there too).
REGISTRY = prolog_dir() / "algorithms.json"


class Algorithm(Frozen):
    """One row of the registry (immutable: :mod:`pyab.frozen`).

    ``entry`` is the Prolog goal that runs the algorithm, as text over the
    variables ``Root``, ``Alpha``, ``Beta``, ``Depth``, ``Best`` and ``Val``
    (e.g. ``alphabeta(Root, Alpha, Beta, Best, Val)``).
    """

    name: str
    module: str        # pyab.search.<module>, holding `function`
    prolog_file: str   # file next to the registry
    summary: str
    function: str = "search"  # the search function in that module
    depth_limit: bool = True   # does it take a depth limit (--depth)?
    entry: str = ""            # the entry goal template (Prolog text)
    any_sides: bool = False    # does it ask each node who moves (trees whose sides do not alternate)?
    bound: str = "open"        # how far its root value can be trusted: pyab.result.bound_of
    value_range: bool = False  # does it read the range of the stored values (staticval/2's facts)?

    _fields = (("name", REQUIRED, True, True), ("module", REQUIRED, True, True),
               ("prolog_file", REQUIRED, True, True), ("summary", REQUIRED, True, True),
               ("function", "search", True, True), ("depth_limit", True, True, True),
               ("entry", "", True, True), ("any_sides", False, True, True),
               ("bound", "open", True, True), ("value_range", False, True, True))
    __match_args__ = ("name", "module", "prolog_file", "summary", "function", "depth_limit",
                      "entry", "any_sides", "bound", "value_range")

    def __init__(self, name: str, module: str, prolog_file: str, summary: str,
                 function: str = "search", depth_limit: bool = True, entry: str = "",
                 any_sides: bool = False, bound: str = "open", value_range: bool = False) -> None:
        self._set(name=name, module=module, prolog_file=prolog_file, summary=summary,
                  function=function, depth_limit=depth_limit, entry=entry, any_sides=any_sides,
                  bound=bound, value_range=value_range)


#: What a registry row's "bound" may say (pyab.result.bound_of).
BOUND_KINDS = ("closed", "open", "exact")


def _read_registry(path: Path) -> dict[str, Algorithm]:
    rows = json.loads(path.read_text(encoding="utf-8"))["algorithms"]
    table: dict[str, Algorithm] = {}
    for row in rows:
        module, _, function = row["python"].partition(":")
        table[row["name"]] = Algorithm(
            name=row["name"], module=module, prolog_file=row["prolog"], summary=row["summary"],
            function=function or "search", depth_limit=bool(row["depth_limit"]), entry=row["entry"],
            any_sides=bool(row.get("any_sides", False)), bound=row.get("bound", "open"),
            value_range=bool(row.get("value_range", False)))
        if table[row["name"]].bound not in BOUND_KINDS:
            raise ValueError(f"{path}: {row['name']}: bound must be one of {', '.join(BOUND_KINDS)}")
    return table


ALGORITHMS: dict[str, Algorithm] = _read_registry(REGISTRY)


def algorithm(name: str) -> Algorithm:
    """The algorithm called ``name``; ValueError listing the known ones."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        known = ", ".join(ALGORITHMS)
        raise ValueError(f"unknown algorithm {name!r} (known: {known})") from None


def python_search(name: str) -> Callable[..., Result]:
    alg = algorithm(name)  # looked up each time, as is the function: either may be replaced
    module = _MODULES.get(alg.module)
    if module is None:
        module = _MODULES[alg.module] = importlib.import_module(f"{__name__}.{alg.module}")
    return getattr(module, alg.function)


_MODULES: dict[str, Any] = {}  # python_search's: importlib costs more than a referee's tree


def solve_python(tree: Tree, name: str = "bratko", alpha: Number = -math.inf,
                 beta: Number = math.inf, depth: int | None = None) -> Result:
    return python_search(name)(tree, alpha, beta, depth=depth)
