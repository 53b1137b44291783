"""A grading suite: a TOML file (read with tomllib) of one ``[grader]``
table and ``[[tests]]`` groups.

    [grader]
    route = "python"            # python | exec | program
    entry = "AlphaBetaAgent"    # the function, class or command in each submission
    interface = "cs188"         # pyab | aima | cs188
    algorithm = "strict-cut"
    untrusted = true
    timeout = 5                 # per search, seconds

    [[tests]]
    name = "random trees, one ghost"
    points = 4
    random = 300
    seed = 1
    agents = 2
    depth = 4                   # plies

    [[tests]]
    name = "CS188 q3"
    points = 6
    cs188 = "test_cases/q3"     # a folder of CS188 .test/.solution files

A group is ``random = N`` trees, ``trees = [...]`` (.tree files), or a
``cs188`` folder.  Every mistake is a :class:`SuiteError` naming the
file and the line of the key (or of the table) it is about.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Error

if sys.version_info >= (3, 11):
    import tomllib
else:  # the same parser, from PyPI (a dependency on 3.10 only)
    import tomli as tomllib

__all__ = ["GRADER_KEYS", "Grader", "Group", "Suite", "SuiteError", "TEST_KEYS", "load_suite"]

ROUTES = ("python", "exec", "program")
INTERFACES = ("pyab", "aima", "cs188")

# key: (type(s), meaning); the tables' keys, for the error messages and docs.
GRADER_KEYS: dict[str, tuple[Any, str]] = {
    "route": (str, "python, exec or program"),
    "entry": (str, ("the function or class (python), the command with {file} (exec), "
                    "unused (program)")),
    "file": (str, ("in a submission folder, the file to grade (default: multiAgents.py for "
                   "cs188, else the only .py/.pl file)")),
    "interface": (str, "pyab, aima or cs188 (python only)"),
    "algorithm": (str, "the reference algorithm"),
    "untrusted": (bool, "run each submission sandboxed"),
    "timeout": ((int, float), "seconds per search"),
    "memory": (int, "MB for the child process"),
    "disk": (int, "untrusted: MB of writable space for each of the folder, /tmp, /dev/shm"),
    "modules": (list, "untrusted python: modules of pyab's environment a submission may import"),
    "compare": (str, "what must agree: one or a comma-separated list of all, value, move, "
                     "optimal-move, leaves, visited, generated"),
    "framework": (str, "cs188: the course's project folder; its modules replace pyab's stand-in"),
}
TEST_KEYS: dict[str, tuple[Any, str]] = {
    "name": (str, "the group's name in the reports"),
    "points": ((int, float), "the group's points"),
    "all_or_nothing": (bool, "no partial credit"),
    "random": (int, "how many random trees"),
    "seed": (int, "the random trees' seed"),
    "agents": (int, "K agents in turn (root MAX, K-1 MIN levels)"),
    "depth": (int, "depth limit in plies"),
    "values": ((str, list), "a preset (default, ties, wide) or [LO, HI]"),
    "tree_depth": (list, "[D0, D1] depth range of random trees"),
    "branching": (list, "[B0, B1] children per inner node"),
    "ragged": ((int, float), "chance a branch stops early"),
    "windows": (str, "full, narrow, low, high or random"),
    "trees": (list, ".tree files"),
    "cs188": (str, "a folder of CS188 .test/.solution files"),
    "algorithm": (str, "this group's reference algorithm"),
    "compare": (str, "this group's comparison"),
}


class SuiteError(Error, ValueError):
    """A suite that cannot be used: ``path:line: message``."""

    def __init__(self, message: str, path: str, line: int = 0):
        self.message, self.path, self.line = message, path, line
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


@dataclass
class Grader:
    route: str = "python"
    entry: str = "alphabeta"
    file: str = ""
    interface: str = "pyab"
    algorithm: str = "bratko"
    untrusted: bool = False
    timeout: float | None = None
    memory: int | None = None
    compare: str | None = None
    disk: int | None = None
    modules: list | None = None
    framework: str | None = None  # cs188: the course's project folder (its modules only)


@dataclass
class Group:
    name: str
    points: float
    line: int = 0
    all_or_nothing: bool = False
    random: int | None = None
    seed: int = 0
    agents: int | None = None
    depth: int | None = None
    values: Any = (-9, 9)
    tree_depth: tuple[int, int] = (1, 4)
    branching: tuple[int, int] = (1, 4)
    ragged: float = 0.2
    windows: str = "random"
    trees: list[str] = field(default_factory=list)  # .tree files
    cs188: str | None = None
    algorithm: str | None = None
    compare: str | None = None

    @property
    def kind(self) -> str:
        return "cs188" if self.cs188 else "trees" if self.trees else "random"


@dataclass
class Suite:
    path: str
    grader: Grader
    tests: list[Group]

    @property
    def max_score(self) -> float:
        return sum(g.points for g in self.tests)


class _Lines:
    """Where a table or a key is in the text (tomllib gives no positions)."""

    def __init__(self, text: str):
        self.lines = text.split("\n")

    def table(self, header: str, nth: int = 0) -> int:
        pat = re.compile(r"^\s*\[\[?\s*" + re.escape(header) + r"\s*\]\]?")
        hits = [i + 1 for i, line in enumerate(self.lines) if pat.match(line)]
        return hits[nth] if nth < len(hits) else 0

    def key(self, start: int, key: str) -> int:
        """The line of ``key`` in the table whose header is line ``start``."""
        pat = re.compile(r"^\s*\"?" + re.escape(key) + r"\"?\s*=")
        for i in range(start, len(self.lines)):
            if self.lines[i].lstrip().startswith("["):
                break
            if pat.match(self.lines[i]):
                return i + 1
        return start


def _typed(value: Any, types: Any, key: str, fail) -> Any:
    ts = types if isinstance(types, tuple) else (types,)
    if (isinstance(value, bool) and bool not in ts) or not isinstance(value, ts):
        fail(key, f"{key} must be {_type_name(types)}, not {value!r}")
    return value


def _type_name(types: Any) -> str:
    names = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
             list: "a list"}
    ts = types if isinstance(types, tuple) else (types,)
    return " or ".join(dict.fromkeys(names[t] for t in ts))


def _pair(value: Any, key: str, fail) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not
                                                                 isinstance(v, bool) for v in value)
            and value[0] <= value[1]):
        fail(key, f"{key} must be [LOW, HIGH], two whole numbers, not {value!r}")
    return value[0], value[1]


def load_suite(path: str | Path) -> Suite:
    """Read and check a suite.  :raises SuiteError: naming file and line."""
    from ..trees.randomtrees import VALUE_PRESETS, WINDOWS
    from ..referee.verdict import parse_compare
    from ..search import ALGORITHMS
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise SuiteError(f"cannot read the suite: {err.strerror or err}", path) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"\(at line (\d+), column \d+\)", str(err))
        raise SuiteError(f"not valid TOML: {re.sub(r' [(]at line.*', '', str(err))}", path,
                         int(m.group(1)) if m else 0) from None
    where = _Lines(text)
    base = Path(path).resolve().parent
    for key in data:
        if key not in ("grader", "tests"):
            raise SuiteError(f"unknown table or key {key!r} (a suite has [grader] and [[tests]])",
                             path, where.table(key) or where.key(0, key))
    g = data.get("grader")
    if not isinstance(g, dict):
        raise SuiteError("no [grader] table (route, entry, interface, algorithm, ...)", path)
    gline = where.table("grader")

    def gfail(key: str, message: str) -> None:
        raise SuiteError(message, path, where.key(gline, key))

    for key, value in g.items():
        if key not in GRADER_KEYS:
            gfail(key, f"unknown key {key!r} in [grader] (known: {', '.join(GRADER_KEYS)})")
        _typed(value, GRADER_KEYS[key][0], key, gfail)
    grader = Grader(**{k: v for k, v in g.items()})
    if grader.route not in ROUTES:
        gfail("route", f"route must be one of {', '.join(ROUTES)}, not {grader.route!r}")
    if grader.interface not in INTERFACES:
        gfail("interface", f"interface must be one of {', '.join(INTERFACES)}, "
                           f"not {grader.interface!r}")
    if grader.interface != "pyab" and grader.route != "python":
        gfail("interface", "interface applies to route = \"python\"")
    if grader.algorithm not in ALGORITHMS:
        gfail("algorithm", f"unknown algorithm {grader.algorithm!r} "
                           f"(known: {', '.join(ALGORITHMS)})")
    if grader.compare is not None:
        try:
            parse_compare(grader.compare)
        except ValueError as err:
            gfail("compare", str(err).replace("--compare", "compare ="))
    if grader.timeout is not None and grader.timeout <= 0:
        gfail("timeout", "timeout must be more than 0 seconds")
    if grader.disk is not None and grader.disk < 1:
        gfail("disk", "disk must be at least 1 MB")
    if grader.modules is not None:
        if not all(isinstance(m, str) for m in grader.modules):
            gfail("modules", 'modules is a list of module names, like ["numpy"]')
        from ..referee.sandbox import allowed_modules
        try:
            allowed_modules(tuple(grader.modules))
        except ValueError as err:
            gfail("modules", str(err).replace("--allow-module ", "modules: "))
    if grader.route == "exec" and "{file}" not in grader.entry:
        gfail("entry", 'with route = "exec", entry is the command, with {file} where the '
                       'submission goes (e.g. "node {file}")')
    if grader.route == "python" and not grader.entry.isidentifier():
        gfail("entry", f"entry must be a function or class name, not {grader.entry!r}")
    if grader.framework is not None:
        from ..referee.cs188 import framework_modules
        if grader.interface != "cs188":
            gfail("framework", 'framework is for interface = "cs188"')
        grader.framework = str(base / grader.framework)
        try:
            framework_modules(grader.framework)
        except ValueError as err:
            gfail("framework", str(err).replace("--cs188-framework", "framework ="))

    tests = data.get("tests")
    if not isinstance(tests, list) or not tests:
        raise SuiteError("no [[tests]] groups", path)
    groups: list[Group] = []
    for n, t in enumerate(tests):
        tline = where.table("tests", n)

        def fail(key: str, message: str, tline: int = tline, n: int = n) -> None:
            raise SuiteError(f"[[tests]] {n + 1}: {message}", path, where.key(tline, key))

        for key, value in t.items():
            if key not in TEST_KEYS:
                fail(key, f"unknown key {key!r} (known: {', '.join(TEST_KEYS)})")
            _typed(value, TEST_KEYS[key][0], key, fail)
        for key in ("name", "points"):
            if key not in t:
                raise SuiteError(f"[[tests]] {n + 1}: no {key!r}", path, tline)
        kinds = [k for k in ("random", "trees", "cs188") if k in t]
        if len(kinds) != 1:
            raise SuiteError(f"[[tests]] {n + 1}: give one of random = N, trees = [...], "
                             f"cs188 = \"FOLDER\" (found {', '.join(kinds) or 'none'})",
                             path, tline)
        kw = dict(t)
        for key in ("tree_depth", "branching"):
            if key in kw:
                kw[key] = _pair(kw[key], key, fail)
        if isinstance(kw.get("values"), list):
            kw["values"] = _pair(kw["values"], "values", fail)
        elif "values" in kw and kw["values"] not in VALUE_PRESETS:
            fail("values", f"values must be one of {', '.join(VALUE_PRESETS)} or [LO, HI]")
        group = Group(line=tline, **kw)
        if group.points < 0:
            fail("points", "points must be 0 or more")
        if group.random is not None and group.random < 1:
            fail("random", "random must be 1 or more trees")
        if group.agents is not None and group.agents < 1:
            fail("agents", "agents must be 1 or more")
        if group.depth is not None and group.depth < 0:
            fail("depth", "depth must be 0 or more plies")
        if group.windows not in WINDOWS:
            fail("windows", f"windows must be one of {', '.join(WINDOWS)}")
        if group.algorithm is not None and group.algorithm not in ALGORITHMS:
            fail("algorithm", f"unknown algorithm {group.algorithm!r}")
        if group.compare is not None:
            try:
                parse_compare(group.compare)
            except ValueError as err:
                fail("compare", str(err).replace("--compare", "compare ="))
        algorithm = ALGORITHMS[group.algorithm or grader.algorithm]
        if group.agents not in (None, 2) and not algorithm.any_sides:
            fail("agents", f"{group.agents} agents make a side move twice in a row, and "
                           f"{algorithm.name} infers sides by alternation; use algorithm = "
                           "\"strict-cut\" (or \"minimax\" with MinimaxAgent)")
        if grader.interface == "cs188" and group.kind != "cs188":
            from ..referee.cs188 import check_settings
            try:
                check_settings(group.agents, group.depth, "cs188")
            except ValueError as err:
                fail("agents" if group.agents is None else "depth",
                     str(err).replace("--interface cs188: ", "").replace("--agents K", "agents = K")
                     .replace("--depth N", "depth = N").replace("--depth ", "depth = "))
        if group.cs188 is not None:
            if grader.interface != "cs188":
                fail("cs188", 'a cs188 group needs interface = "cs188" in [grader]')
            folder = (base / group.cs188)
            if not folder.is_dir() or not any(folder.glob("*.test")):
                fail("cs188", f"no folder of .test files at {group.cs188!r} "
                              "(relative to the suite)")
            from ..errors import DSLError
            from ..trees.cs188 import load_folder
            try:
                load_folder(folder)  # a broken .test file is the suite's fault: named now
            except DSLError as err:
                raise SuiteError(err.message, err.source, err.line) from None
            group.cs188 = str(folder)
        if group.trees:
            resolved = []
            for f in group.trees:
                p = base / str(f)
                if not p.is_file():
                    fail("trees", f"no file {f!r} (relative to the suite)")
                resolved.append(str(p))
            group.trees = resolved
        if any(g.name == group.name for g in groups):
            fail("name", f"two groups are called {group.name!r}")
        groups.append(group)
    return Suite(path, grader, groups)
