"""Pictures: every format of the one picture model (svg/png/pdf/tex/dot), the
terminal tree, notebook SVG, the HTML page's markup (its behaviour is tested
in test_browser.py)."""

from __future__ import annotations

import json
import random
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import pyab
from pyab.trees.randomtrees import Shape, random_tree
from pyab.render.trace import trace

from conftest import EXAMPLES, pyab_cli

SVG = "{http://www.w3.org/2000/svg}"


def _dot(tr):
    from pyab.render.output import render
    return render(tr.tree, tr, "dot")


def test_dot_marks_sides_cuts_and_best_line(slides):
    text = _dot(trace(slides))
    ids = {name: f"n{i}" for i, name in enumerate(slides.names)}
    node = {n: re.search(rf"^  {ids[n]} \[(.*)\];$", text, re.M).group(1) for n in slides.names}
    # the notation of every picture: triangles up for MAX, down for MIN, the value inside
    assert "shape=triangle" in node["a"] and "shape=invtriangle" in node["b"]
    assert 'label="3"' in node["a"] and 'xlabel="a\\n[\u2212\u221e, \u221e]"' in node["a"]  # called with
    assert 'xlabel="b\\n[\u2212\u221e, \u221e]"' in node["b"]
    assert 'xlabel="l\\n[3, 14]"' in node["l"]
    assert "penwidth=3" in node["a"] and "penwidth=3" in node["b"] and "penwidth=3" in node["e"]
    assert "penwidth=3" not in node["c"]
    assert "gray" in node["i"] and "gray" not in node["h"]
    def edge(p, c):
        return re.search(rf"^  {ids[p]} -> {ids[c]}(.*);$", text, re.M).group(1)
    assert "style=dashed" in edge("c", "i") and 'label="\u03b1-cut"' in edge("c", "j")
    assert "style=dashed" not in edge("c", "h")
    assert "penwidth=4" in edge("a", "b") and "penwidth" not in edge("a", "c")


def test_dot_beta_cut_label():
    text = _dot(trace(pyab.parse("a(b(c(x=1, y=2), d(e=9, f=0)))"), "python"))
    assert 'label="\u03b2-cut"' in text


def test_dot_quotes_hostile_names():
    tree = pyab.parse("r('a\"b'=1, 'c\\\\'=2)")
    text = _dot(trace(tree, "python"))
    assert 'xlabel="a\\"b\\n' in text and 'xlabel="c\\\\\\n' in text


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf", "tex", "dot"])
def test_draw_cli_every_format(tmp_path, fmt):
    if fmt in ("png", "pdf") and shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert is not installed (make setup installs librsvg2-bin)")
    out = tmp_path / f"slides.{fmt}"
    done = pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(out), "--json")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["format"] == fmt and info["pruned"] == ["i", "j"]
    data = out.read_bytes()
    if fmt == "png":
        assert data.startswith(b"\x89PNG")
    elif fmt == "pdf":
        assert data.startswith(b"%PDF")
    elif fmt == "svg":
        root = ET.fromstring(data)
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert "\u03b1-cut" in texts and "[3, 5]" in texts
    elif fmt == "tex":
        text = data.decode("utf-8")
        assert "\\begin{tikzpicture}" in text and "{$\\alpha$-cut}" in text
        assert "{[3, 5]}" in text and "\\bfseries] at" in text
    else:
        assert data.startswith(b"digraph pyab {")


def test_draw_a_few_hundred_nodes(tmp_path):
    tree = random_tree(random.Random(7), Shape(depth=(5, 5), branching=(3, 3), leaf_chance=0.0))
    assert len(tree) == 364
    out = tmp_path / "big.svg"
    done = pyab_cli("draw", "-", "-o", str(out), "--engine", "python", stdin=pyab.dump(tree, "flat"))
    assert done.returncode == 0, done.stderr
    root = ET.fromstring(out.read_bytes())
    assert len([g for g in root.iter(f"{SVG}g") if "node" in (g.get("class") or "").split()]) == 364


def test_draw_cli_html_is_self_contained(tmp_path):
    out = tmp_path / "slides.html"
    done = pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html and "<link" not in html and "src=" not in html
    names = re.findall(r'data-node="([^"]*)"', html)
    assert sorted(names) == sorted("abcdefghijklm")


def test_draw_cli_bad_output(tmp_path):
    done = pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(tmp_path / "x.jpg"))
    assert done.returncode == 2 and "extension" in done.stderr and "Traceback" not in done.stderr
    done = pyab_cli("draw", str(EXAMPLES / "slides.tree"), "-o", str(tmp_path / "no" / "x.html"))
    assert done.returncode == 2 and "cannot write" in done.stderr


def test_show_piped_is_plain_text():
    done = pyab_cli("show", str(EXAMPLES / "slides.tree"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "\x1b[" not in out
    lines = out.splitlines()
    assert lines[0] == "MAX a = 3  [-inf, inf]"  # the window it was called with
    assert any("MIN b = 3  [-inf, inf]  \u25c0 chosen" in l for l in lines)
    assert any("MIN d = 2  [3, inf]" in l for l in lines)
    assert lines[-1].endswith("windows: as each node was called")
    final = pyab_cli("show", str(EXAMPLES / "slides.tree"), "--final-windows").stdout.splitlines()
    assert final[0] == "MAX a = 3  [3, inf]" and any("MIN d = 2  [3, 5]" in l for l in final)
    assert any(l.rstrip().endswith("MAX i  \u2702 alpha-cut") for l in lines)
    assert "cut off: i, j" in lines[-1]


def test_show_in_colour_on_a_terminal(slides):
    from rich.console import Console

    from pyab.render.terminal import print_tree
    console = Console(force_terminal=True, color_system="standard", width=100, record=True)
    print_tree(trace(slides), console=console)
    ansi = console.export_text(styles=True)
    assert "\x1b[" in ansi
    # the cut-off nodes are dim (SGR 2), the chosen line bold green (1;32)
    i_line = next(l for l in ansi.splitlines() if "i\x1b" in l or " i " in l)
    assert "\x1b[2" in i_line


def test_notebook_svg(slides):
    from pyab.render import picture
    svg = picture(slides)._repr_svg_()
    root = ET.fromstring(svg)
    nodes = {g.get("data-node"): g for g in root.iter(f"{SVG}g") if g.get("data-node")}
    assert set(nodes) == set(slides.names)
    assert sorted(n for n, g in nodes.items() if "pruned" in g.get("class").split()) == ["i", "j"]
    def value(n):
        return next(t.text for t in nodes[n].iter(f"{SVG}text") if t.get("class") == "value")
    assert value("a") == "3" and value("c") == "2"
    assert "max" in nodes["a"].get("class") and "min" in nodes["b"].get("class")
    # the tree alone (no search) shows the leaves' values
    bare = ET.fromstring(picture(slides, search=False)._repr_svg_())
    assert len([g for g in bare.iter(f"{SVG}g") if g.get("data-node")]) == 13
    # a result from any engine/algorithm draws too
    r = pyab.solve(slides, engine="python")
    assert "pruned" in picture(slides, r)._repr_svg_()


def test_practice_cli_writes_a_self_contained_page(tmp_path):
    out = tmp_path / "practice.html"
    done = pyab_cli("practice", "-o", str(out), "--seed", "7", "--depth", "2", "--branching", "2-4",
                    "--values", "0:5", "--algorithm", "aima", "--json")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["command"] == "practice" and info["branching"] == [2, 4] and info["values"] == [0, 5]
    html = out.read_text(encoding="utf-8")
    assert "https://" not in html and "<link" not in html and "src=" not in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert 'id="seed" type="number" value="7"' in html and "<option selected>aima</option>" in html
    for bad in (["--values", "5"], ["--values", "5:1"], ["--depth", "9"], ["--branching", "0-9"]):
        done = pyab_cli("practice", "-o", str(out), *bad)
        assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr, bad


def test_draw_refuses_what_it_cannot_do(tmp_path):
    slides = str(EXAMPLES / "slides.tree")
    for args, words in ((["-o", str(tmp_path / "x.png"), "--present"], "--present"),
                        (["--frames", str(tmp_path / "f"), "--format", "html"], "--frames"),
                        (["-o", str(tmp_path / "x.html"), "--step", "3"], "--step"),
                        (["-o", str(tmp_path / "x.svg"), "--frames", str(tmp_path / "f")], "-o OUT")):
        done = pyab_cli("draw", slides, *args)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, args
