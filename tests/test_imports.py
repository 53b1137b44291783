"""No import circle inside pyab: the modules depend one way (text -> Tree ->
engines -> Result -> renderers), never back.  Imports inside functions count
too; ``from . import x`` counts as importing ``pyab.x``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pyab"


def import_graph(root: Path) -> dict[str, set[str]]:
    mods: dict[str, Path] = {}
    for f in root.rglob("*.py"):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names = [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target
                         for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            edges[m] |= {n for n in names if n in mods and n != m and not m.startswith(n + ".")}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in edges:
        if v not in index:
            visit(v)
    return out


def test_the_walk_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_in_pyab():
    edges = import_graph(PACKAGE)
    assert "pyab.render" in edges["pyab.render.notebook"] or edges["pyab.render.notebook"]
    assert cycles(edges) == []


def test_tree_and_result_know_nothing_of_the_renderers():
    edges = import_graph(PACKAGE)
    for m in ("pyab.tree", "pyab.result"):
        assert not {e for e in edges[m] if e.startswith("pyab.render")}, m


# The floors of the house, lowest first: a module may import from its own
# floor and the floors below, never from one above.  The first pattern that
# matches a module places it (a name, or a package with everything in it).
LAYERS = [
    ("base", ["pyab.errors", "pyab.frozen", "pyab.text", "pyab.resources"]),
    ("model", ["pyab.tree", "pyab.result", "pyab.api"]),
    ("text", ["pyab.dsl"]),
    ("searches", ["pyab.search", "pyab.trees.uniform", "pyab.trees.tictactoe",
                  "pyab.trees.randomtrees"]),
    ("prolog", ["pyab.prolog"]),
    ("engines", ["pyab.engines"]),
    ("uses", ["pyab.render", "pyab.referee", "pyab.trees", "pyab.grade"]),
    ("face", ["pyab", "pyab.testing"]),
    ("command line", ["pyab.commands", "pyab.cli", "pyab.__main__"]),
]


def floor(module: str) -> int:
    best = None
    for i, (_, patterns) in enumerate(LAYERS):
        for p in patterns:
            if module == p or module.startswith(p + "."):
                if best is None or len(p) > best[1]:
                    best = (i, len(p))
    assert best is not None, f"{module} is on no floor of tests/test_imports.py"
    return best[0]


def test_the_floor_test_can_fail():
    assert floor("pyab.trees.experiments") > floor("pyab.engines") > floor("pyab.prolog.bridge")
    assert floor("pyab.dsl.quoted") < floor("pyab.search.bratko") < floor("pyab.prolog.facts")


def test_no_import_from_a_lower_floor_to_a_higher_one():
    edges = import_graph(PACKAGE)
    up = sorted((m, e) for m, out in edges.items() for e in out if floor(e) > floor(m))
    assert up == [], "imports that run back up: " + ", ".join(
        f"{m} ({LAYERS[floor(m)][0]}) -> {e} ({LAYERS[floor(e)][0]})" for m, e in up)


def test_the_library_never_imports_the_command_line():
    """Nothing under pyab/ but cli.py and commands/ imports the command line
    or argparse: the API takes values, not an argparse Namespace."""
    bad = []
    for f in PACKAGE.rglob("*.py"):
        rel = f.relative_to(PACKAGE.parent).with_suffix("")
        module = ".".join(rel.parts).removesuffix(".__init__")
        if module in ("pyab.cli", "pyab.__main__") or module.startswith("pyab.commands"):
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = module.split(".")[: len(module.split(".")) - node.level + (f.name == "__init__.py")]
                    base = ".".join(pkg + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            for n in names:
                if n == "argparse" or n in ("pyab.cli",) or n.startswith("pyab.commands"):
                    bad.append(f"{module} imports {n}")
    assert bad == []


def test_the_top_level_holds_at_most_twelve_modules():
    top = sorted(f.name for f in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


def room(module: str) -> str:
    """The room a module stands in when the house is drawn folder by folder:
    a subpackage of pyab with all it holds (``pyab.referee``), else the
    module itself (``pyab.engines``, ``pyab`` for pyab/__init__.py)."""
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()):
        return ".".join(parts[:2])
    return module


def rooms(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m, targets in edges.items():
        out.setdefault(room(m), set())
        out[room(m)] |= {room(t) for t in targets if room(t) != room(m)}
    return out


def test_the_room_walk_finds_an_arrow_up():
    # pyab.tree.builder -> pyab.dsl and pyab.dsl.reader -> pyab.tree: no
    # module circle, but the two rooms import each other, so one arrow
    # must run back up however the rooms are stacked.
    edges = {"pyab.tree.builder": {"pyab.dsl.quoted"}, "pyab.dsl.quoted": set(),
             "pyab.dsl.reader": {"pyab.tree.model"}, "pyab.tree.model": set()}
    assert cycles(edges) == []
    assert cycles(rooms(edges)) == [["pyab.dsl", "pyab.tree"]]


def test_no_arrow_runs_back_up_between_rooms():
    """Drawn folder by folder (each subpackage one room), the house can be
    stacked so that every import runs down: the rooms' graph has no circle.
    A circle there means some arrow runs back up whatever the order."""
    assert cycles(rooms(import_graph(PACKAGE))) == []
