"""Issue 15's promises outside the browser: names printed to a terminal
never carry control characters, output that scales, frames (values,
windows, cuts) for every algorithm, one picture function, API errors that
say what was expected, trees equal by content, Graphviz options."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import pyab
from conftest import EXAMPLES, SLIDES_TEXT, pyab_cli
from pyab.text import printable, shorten
from strategies import trees

# -- printable ------------------------------------------------------------------
HOSTILE = {
    "esc": "\x1b[2J\x1b[31mred",     # clear screen, colour
    "bel": "ding\x07",
    "cr": "over\rwrite",
    "backspace": "ab\x08c",
    "del": "x\x7f",
    "csi-c1": "c1\x9b31m",           # the 8-bit CSI some terminals obey
    "bidi": "abc\u202edef",          # right-to-left override
    "isolate": "\u2066x\u2069",
    "line-sep": "a\u2028b",
    "tab-nl": "a\tb\nc",
}
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_printable_escapes_controls_and_is_idempotent(name):
    text = HOSTILE[name]
    shown = printable(text)
    assert not UNSAFE.search(shown) and "\t" not in shown and "\n" not in shown
    assert printable(shown) == shown
    assert shown != text


def test_printable_keeps_ordinary_text():
    for text in ["r_1_1", "King e1", "Zürich ♔ 王", "a b", ""]:
        assert printable(text) == text
    assert printable("\x1b") == "\\x1b" and printable("\u202e") == "\\u202e"


def test_shorten_keeps_ends_and_counts_the_middle():
    names = [f"n{i}" for i in range(1000)]
    s = shorten(names, keep=3)
    assert s == "n0 n1 n2 ... (994 more) ... n997 n998 n999"
    assert shorten(names[:7], keep=3) == " ".join(names[:7])  # short lists stay whole


def _hostile_tree_file(tmp_path: Path) -> Path:
    kids = ", ".join(f"'{v}' = {i}" for i, v in enumerate(HOSTILE.values()) if "\n" not in v)
    tree = pyab.parse(f"root(left({kids}), '\x1b]0;title\x07right'(x = 1, y = 2))")
    path = tmp_path / "hostile.tree"
    path.write_text(pyab.dump(tree), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["solve"], ["solve", "--full"], ["show"], ["trace"],
                                     ["check"], ["variants"]])
def test_terminal_output_escapes_every_hostile_name(tmp_path, command):
    path = _hostile_tree_file(tmp_path)
    done = pyab_cli(command[0], str(path), *command[1:])
    assert done.returncode == 0, done.stderr
    body = done.stdout.replace("\n", "")
    assert not UNSAFE.search(body), [m.group() for m in UNSAFE.finditer(body)]
    assert "\t" not in body
    if command[0] in ("solve", "show", "trace"):
        assert "\\x1b" in done.stdout  # the names are shown, escaped


def test_json_keeps_names_exact(tmp_path):
    import json
    path = _hostile_tree_file(tmp_path)
    done = pyab_cli("solve", str(path), "--json")
    assert "\x1b[2J\x1b[31mred" in json.loads(done.stdout)["leaves"]


def test_check_diff_escapes_names():
    from pyab.engines import differences
    from pyab.result import Result
    a = Result("\x1b[2Jb", 3, ("e\u202e",), ("a",), (), "prolog", "bratko")
    b = Result("c", 3, ("f\x07",), ("a",), (), "python", "bratko")
    lines = differences(a, b)
    assert lines and all(not UNSAFE.search(line.replace("\n", "")) for line in lines)
    assert "\\x1b[2Jb" in lines[0] and "\\u202e" in lines[1]


def test_error_excerpt_escapes_and_keeps_the_caret_under_the_place(tmp_path):
    bad = tmp_path / "bad.tree"
    bad.write_text("a('\x1b[2J\x07' = 1, b = )\n", encoding="utf-8")
    done = pyab_cli("solve", str(bad))
    assert done.returncode == 2
    assert not UNSAFE.search(done.stderr.replace("\n", ""))
    line, caret = done.stderr.splitlines()[1:3]
    assert line.strip().startswith("a('\\x1b[2J\\x07'")
    assert line[caret.index("^")] == ")"  # the caret still points at the offending token


# -- output that scales ------------------------------------------------------------
BIG = "[" + ", ".join("[" + ", ".join(f"[{i}, {j}, {(i * j) % 7}]" for j in range(6)) + "]"
                      for i in range(8)) + "]"  # 8 x 6 x 3: 200 nodes, 144 leaves


def test_solve_shortens_long_lists_and_full_gives_all(tmp_path):
    path = tmp_path / "big.tree"
    path.write_text(BIG, encoding="utf-8")
    short = pyab_cli("solve", str(path), "--engine", "python").stdout
    full = pyab_cli("solve", str(path), "--engine", "python", "--full").stdout
    r = pyab.solve(pyab.parse(BIG), engine="python")
    leaves_line = next(l for l in short.splitlines() if "leaves read" in l)
    assert f"({len(r.leaves) - 16} more)" in leaves_line
    assert leaves_line.split(": ", 1)[1].split()[:8] == list(r.leaves[:8])
    assert leaves_line.split()[-8:] == list(r.leaves[-8:])
    full_line = next(l for l in full.splitlines() if "leaves read" in l)
    assert full_line.split(": ", 1)[1].split() == list(r.leaves)


def test_show_cuts_breadth_first_keeps_the_chosen_line_and_counts_right(tmp_path):
    from pyab.render.terminal import rich_tree
    from pyab.render.trace import trace
    from rich.console import Console
    tree = pyab.parse(BIG)
    tr = trace(tree, "python")
    console = Console(width=10_000, no_color=True)
    with console.capture() as cap:
        console.print(rich_tree(tr, max_nodes=30))
    lines = cap.get().splitlines()
    shown = [l for l in lines if "MAX " in l or "MIN " in l]
    hidden = [int(m.group(1)) for l in lines for m in [re.search(r"\.\.\. (\d+) more nodes? here", l)] if m]
    assert len(shown) == 30
    assert len(shown) + sum(hidden) == len(tree)  # every node shown or counted once
    for name in tr.best_line():  # the chosen line is there, down to its leaf
        assert any(re.search(rf"\b{name}\b", l) for l in shown), name
    depths = [tree.level(re.search(r"(r[_\d]*)", l.split("MA" if "MAX" in l else "MI")[1]).group(1))
              for l in shown]
    line = set(tr.best_line())
    off_line = [d for l, d in zip(shown, depths) if not any(f" {n} " in l or f" {n} =" in l for n in line)]
    assert max(off_line) <= 2  # breadth first: the top levels before any deeper node


def test_show_max_nodes_option(tmp_path):
    path = tmp_path / "big.tree"
    path.write_text(BIG, encoding="utf-8")
    done = pyab_cli("show", str(path), "--engine", "python", "--max-nodes", "20")
    assert done.returncode == 0
    assert sum(1 for l in done.stdout.splitlines() if "MAX " in l or "MIN " in l) == 20
    assert "more nodes here" in done.stdout


# -- frames for every algorithm ----------------------------------------------------
from pyab.search import ALGORITHMS  # noqa: E402


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_every_algorithm_gets_values_windows_and_cuts(algorithm):
    from pyab.render.trace import trace
    tree = pyab.load(EXAMPLES / "aima.tree")
    tr = trace(tree, "prolog", algorithm)
    assert tr.result.engine == "prolog"
    assert tr.frames == ("observed" if algorithm == "bratko" else "mirror")
    values = tr.values()
    assert set(tr.result.visited) <= set(values)  # every node searched has a value
    for leaf in tr.result.leaves:
        assert values[leaf] == tree.value(leaf)
    if not algorithm.startswith("minimax"):  # minimax keeps no window
        assert set(tr.result.visited) <= set(tr.windows())
    cut = {r for s in tr.steps if s.kind == "cut" for r in s.removed}
    assert cut == set(tr.result.pruned)
    assert all(s.cut in ("alpha", "beta") for s in tr.steps if s.kind == "cut")
    calls = [s.node for s in tr.steps if s.kind == "call"]
    assert calls == list(tr.result.visited)


def test_frames_are_refused_when_the_mirror_disagrees(monkeypatch):
    """The mirror's frames are only used for the run they describe: a
    mirror that reads one leaf differently leaves a rebuilt trace."""
    from pyab.search import common
    from pyab.render.trace import trace
    real = common.Recorder.result

    def lying(self, best, value, **extra):
        r = real(self, best, value, **extra)
        return r.__class__(r.best, r.value, r.leaves[:-1], r.visited, r.pruned, r.engine, r.algorithm)

    monkeypatch.setattr(common.Recorder, "result", lying)
    tr = trace(pyab.load(EXAMPLES / "aima.tree"), "prolog", "aima")
    assert tr.frames == "rebuilt" and not tr.exact
    assert "rebuilt" in tr.source


def test_a_mutated_mirror_cut_is_caught(monkeypatch):
    """A `>` turned into `>=` in the mirror's cut test changes what it reads
    on the AIMA tree with ties; the frames are then not used."""
    from pyab.render.trace import trace
    tree = pyab.load(EXAMPLES / "aima-tie.tree")
    good = trace(tree, "prolog", "bratko")
    assert good.frames == "observed"
    import pyab.search.aima as aima_mod
    src = Path(aima_mod.__file__).read_text(encoding="utf-8")
    assert "if v >= beta:" in src
    ns: dict = {"__name__": "pyab.search.aima_mutant", "__package__": "pyab.search"}
    code = compile(src.replace("if v >= beta:", "if v > beta:").replace("if v <= alpha:", "if v < alpha:"),
                   aima_mod.__file__, "exec")
    exec(code, ns)
    monkeypatch.setattr(aima_mod, "search", ns["search"])
    tr = trace(tree, "prolog", "aima")
    r = pyab.solve(tree, "prolog", "aima")
    mutant = ns["search"](tree)
    from pyab.engines import differences
    if differences(r, mutant):
        assert tr.frames == "rebuilt"
    else:
        pytest.skip("this tree does not tell the mutant apart")


def test_depth_limited_frames_score_the_horizon_by_static_value():
    from pyab.render.trace import trace
    tree = pyab.load(EXAMPLES / "depth-limited.tree")
    tr = trace(tree, "prolog", "aima", depth=1)
    assert tr.frames == "mirror"
    assert {s.node for s in tr.steps if s.kind == "leaf"} == set(tree.children(tree.root))
    assert not [s for s in tr.steps if s.kind == "cut" and s.node != tree.root]


# -- one picture function -----------------------------------------------------------
def _shown(obj):
    """What a Jupyter/IPython shell shows for ``obj`` as SVG (None: no picture)."""
    from IPython.core.interactiveshell import InteractiveShell
    from pyab.render.notebook import register_ipython
    shell = InteractiveShell.instance()
    assert register_ipython()
    data, _ = shell.display_formatter.format(obj)
    return data.get("image/svg+xml")


def test_result_picture_is_the_render_picture():
    from pyab.render import picture
    tree = pyab.load(EXAMPLES / "aima.tree")
    for alg in ("bratko", "aima", "hsu-f2"):
        r = pyab.solve(tree, algorithm=alg)
        pic = picture(tree, r)
        assert _shown(r) == pic._repr_svg_()
        assert pic.trace.frames == "mirror"  # the Prolog run, explained by the mirror
        # and it draws as much as a fresh search does
        fresh = picture(tree, algorithm=alg)
        assert pic.trace.windows() == fresh.trace.windows()
        assert pic.trace.values() == fresh.trace.values()


def test_result_picture_of_a_window_search_uses_that_window():
    from pyab.render import picture
    tree = pyab.parse(SLIDES_TEXT)
    r = pyab.solve(tree, alpha=4, beta=10)
    tr = picture(tree, r).trace
    assert tr.frames == "mirror" and (tr.alpha, tr.beta) == (4, 10)


def test_tree_shows_bare_and_stepper_embeds_the_page():
    from pyab.render import picture
    tree = pyab.parse(SLIDES_TEXT)
    shown = _shown(tree)
    assert shown.startswith("<svg") and "node max visited" not in shown and "pruned\"" not in shown
    html = picture(tree, engine="python").stepper()._repr_html_()
    assert html.startswith("<iframe srcdoc=") and "pyab-data" in html and 'sandbox="allow-scripts"' in html


# -- API errors ------------------------------------------------------------------
def _api_calls():
    from pyab.render import picture
    from pyab.render.trace import trace
    t = pyab.parse("a(b=1)")
    return {
        "solve": lambda x: pyab.solve(x),
        "check": lambda x: pyab.check(x),
        "facts": lambda x: pyab.facts(x),
        "dump": lambda x: pyab.dump(x),
        "trace": lambda x: trace(x),
        "picture": lambda x: picture(x),
        "picture-result": lambda x: picture(t, x),
        "parse": lambda x: pyab.parse(x if not isinstance(x, str) else x.encode()),
        "load": lambda x: pyab.load(3.5),
    }


@pytest.mark.parametrize("name", sorted(_api_calls()))
def test_api_misuse_says_what_was_expected(name):
    call = _api_calls()[name]
    with pytest.raises(pyab.ArgumentError) as info:
        call("a(b=1)")
    msg = str(info.value)
    assert "expected" in msg and "weak reference" not in msg
    assert isinstance(info.value, TypeError) and isinstance(info.value, pyab.Error)
    if name in ("solve", "check", "facts", "dump", "trace", "picture"):
        assert "expected a Tree" in msg and "use pyab.parse(text)" in msg


def test_tree_lookups_by_name_name_the_missing_node():
    t = pyab.parse(SLIDES_TEXT)
    assert (t.children("b"), t.value("e"), t.is_leaf("e"), t.side("b"), t.parent("e"), t.level("e")) == \
        (("e", "f", "g"), 3, True, "min", "b", 2)
    for lookup in (t.children, t.value, t.is_leaf, t.side, t.parent, t.level, t.id_of):
        with pytest.raises(KeyError, match="no node named 'zz'"):
            lookup("zz")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(trees())
def test_parse_dump_round_trip_is_equal(tree):
    for form in ("nested", "flat"):
        back = pyab.parse(pyab.dump(tree, form))
        assert back == tree and back is not tree
    other = pyab.parse(pyab.dump(tree).replace("max ", "", 1))
    assert (other == tree) == (other.root_side == tree.root_side)


def test_equal_trees_keep_their_own_identity_for_the_engine():
    a, b = pyab.parse(SLIDES_TEXT), pyab.parse(SLIDES_TEXT)
    assert a == b and hash(a) != hash(b) and len({a, b}) == 2
    assert pyab.solve(a) == pyab.solve(b)
    assert a != pyab.parse("min " + SLIDES_TEXT)
    assert a != pyab.parse(SLIDES_TEXT.replace("20", "21"))


# -- Graphviz ---------------------------------------------------------------------
def test_dpi_goes_into_the_graph_and_only_for_png(tmp_path):
    out = tmp_path / "s.dot"
    from pyab.render.dot import render
    from pyab.render.trace import trace
    tr = trace(pyab.parse(SLIDES_TEXT), "python")
    render(tr, out, "dot", dpi=240)
    assert "dpi=240;" in out.read_text(encoding="utf-8")
    done = pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(tmp_path / "s.svg"), "--dpi", "200")
    assert done.returncode == 2 and "--dpi" in done.stderr


@pytest.mark.skipif(not os.path.exists("/usr/bin/dot"), reason="Graphviz is not installed")
def test_png_dpi_and_pdf(tmp_path):
    import struct
    sizes = {}
    for dpi in (96, 192):
        out = tmp_path / f"s{dpi}.png"
        assert pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(out), "--dpi", str(dpi),
                        "--engine", "python").returncode == 0
        sizes[dpi] = struct.unpack(">II", out.read_bytes()[16:24])
    assert sizes[192][0] > 1.8 * sizes[96][0]
    pdf = tmp_path / "s.pdf"
    assert pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(pdf)).returncode == 0
    assert pdf.read_bytes().startswith(b"%PDF")


def test_graphviz_warnings_are_shown(tmp_path):
    """A `dot` that warns (here a stand-in on PATH that writes its output
    and one warning, as Graphviz does when it scales a picture down)."""
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text(f"#!{sys.executable}\nimport sys\nout = sys.argv[sys.argv.index('-o') + 1]\n"
                    "open(out, 'w').write('<svg/>')\n"
                    "sys.stderr.write('Warning: graph too large for cairo-renderer bitmaps. Scaling by 0.5\\n')\n",
                    encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env_path = f"{fake.parent}{os.pathsep}{os.environ['PATH']}"
    import subprocess
    done = subprocess.run([sys.executable, "-m", "pyab", "draw", str(EXAMPLES / "slides.tree"),
                           "-o", str(tmp_path / "s.svg"), "--engine", "python"],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PATH=env_path))
    assert done.returncode == 0, done.stderr
    assert "warning: graphviz: Warning: graph too large" in done.stderr


def test_picture_save_writes_each_format(tmp_path):
    from pyab.render import picture
    pic = picture(pyab.parse(SLIDES_TEXT), engine="python")
    assert pic.save(tmp_path / "p.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "digraph pyab" in pic.save(tmp_path / "p.dot").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="cannot tell the format"):
        pic.save(tmp_path / "p.gif")
    with pytest.raises(ValueError, match="has no steps"):
        picture(pic.tree, search=False).html()
