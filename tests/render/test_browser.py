"""The HTML stepper in a real headless Chromium (Debian's, driven by
Playwright for Python; the browser is never downloaded by Playwright).

Skipped, with the reason, only when no Chromium or no Playwright is there
(`make setup` installs both)."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest

from conftest import SLIDES_TEXT

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str | None:
    for exe in (os.environ.get("PYAB_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                shutil.which("chromium-browser")):
        if exe and Path(exe).is_file():
            return exe
    return None


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed (make setup installs it)")
    exe = _chromium()
    if exe is None:
        if os.environ.get("CI"):  # CI can install it (make setup): a missing browser is a failure
            pytest.fail("no Chromium at /usr/bin/chromium on CI: `make setup` should have installed it")
        pytest.skip("no Chromium at /usr/bin/chromium (make setup installs Debian's `chromium`)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS, headless=True)
        yield b
        b.close()


def _page_file(tmp_path: Path, text: str, algorithm: str = "bratko", engine: str = "prolog",
               alpha=None, beta=None) -> Path:
    import math

    import pyab
    from pyab.render.html import page
    from pyab.render.trace import trace
    tree = pyab.parse(text)
    tr = trace(tree, engine, algorithm, -math.inf if alpha is None else alpha,
               math.inf if beta is None else beta)
    out = tmp_path / f"{algorithm}-{engine}.html"
    out.write_text(page(tr), encoding="utf-8")
    return out


def _open(browser, path: Path):
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return page, requests, errors


def _pruned(page) -> list[str]:
    return sorted(page.eval_on_selector_all("[data-node].pruned",
                                            "els => els.map(e => e.getAttribute('data-node'))"))


def _value(page, node: str) -> str:
    return page.locator(f'[data-node="{node}"] .value').text_content().strip()


def test_slides_page_steps_to_the_end(browser, tmp_path):
    path = _page_file(tmp_path, SLIDES_TEXT)
    page, requests, errors = _open(browser, path)
    try:
        assert _pruned(page) == []
        assert _value(page, "a") == ""
        n = int(page.locator("#counter").text_content().split("/")[1])
        page.keyboard.press("ArrowRight")
        assert page.locator("body").get_attribute("data-step") == "1"
        assert "alphabeta(a" in page.locator("#what").text_content()
        page.keyboard.press("End")
        assert page.locator("body").get_attribute("data-step") == str(n)
        assert _pruned(page) == ["i", "j"]
        assert _value(page, "a") == "3"
        # the chosen line a-b-e is marked, and only it
        best = page.eval_on_selector_all("[data-node].best", "els => els.map(e => e.getAttribute('data-node'))")
        assert sorted(best) == ["a", "b", "e"]
        shot = tmp_path / "slides-end.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 5000
        keep = os.environ.get("PYAB_SCREENSHOT")  # e.g. /tmp/slides-end.png, to look at it
        if keep:
            shutil.copy(shot, keep)
        # Home goes back to the start: nothing cut, no value
        page.keyboard.press("Home")
        assert _pruned(page) == [] and _value(page, "a") == ""
        assert errors == []
        assert all(u.startswith("file:") for u in requests), requests  # no network
    finally:
        page.close()


def test_pruned_appears_at_the_cutting_step_and_goes_back(browser, tmp_path):
    import pyab
    from pyab.render.trace import trace
    tr = trace(pyab.parse(SLIDES_TEXT), "python")
    cut_at = next(i for i, s in enumerate(tr.steps, 1) if s.kind == "cut")
    page, _, errors = _open(browser, _page_file(tmp_path, SLIDES_TEXT))
    try:
        for _ in range(cut_at - 1):
            page.keyboard.press("ArrowRight")
        assert _pruned(page) == []
        page.click("#next")
        assert _pruned(page) == ["i", "j"]
        assert "alpha cut-off" in page.locator("#what").text_content()
        # the open calls at the cut: a and c (innermost first)
        stack = page.eval_on_selector_all("#stack tbody tr td:first-child", "els => els.map(e => e.textContent)")
        assert stack == ["c", "a"]
        page.click("#prev")
        assert _pruned(page) == []
        page.click("#last")
        assert _value(page, "a") == "3"
        page.click("#first")
        assert page.locator("body").get_attribute("data-step") == "0"
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("algorithm", ["bratko", "minimax", "aima"])
def test_every_algorithm_gets_a_working_page(browser, tmp_path, algorithm):
    from pyab.search import ALGORITHMS
    if algorithm not in ALGORITHMS:
        pytest.skip(f"algorithm {algorithm!r} is not registered yet")
    import pyab
    r = pyab.solve(pyab.parse(SLIDES_TEXT), algorithm=algorithm)
    page, _, errors = _open(browser, _page_file(tmp_path, SLIDES_TEXT, algorithm))
    try:
        page.keyboard.press("End")
        assert _pruned(page) == sorted(r.pruned)
        assert _value(page, "a") == "3"
        assert errors == []
    finally:
        page.close()


def test_hostile_names_stay_text(browser, tmp_path):
    text = "root('<b>x</b>'=1, 'a\"b'=2, '</script><script>alert(1)</script>'=0)"
    page, _, errors = _open(browser, _page_file(tmp_path, text))
    try:
        page.keyboard.press("End")
        names = page.eval_on_selector_all("[data-node]", "els => els.map(e => e.getAttribute('data-node'))")
        assert sorted(names) == sorted(["root", "<b>x</b>", 'a"b', "</script><script>alert(1)</script>"])
        assert _value(page, "root") == "2"
        assert errors == []
    finally:
        page.close()


# -- layout: every label readable and next to its own node ---------------------
LABELS_JS = (Path(__file__).parents[1] / "js" / "labels.js").read_text(encoding="utf-8")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _long_333() -> str:
    """A 3x3x3 tree whose names are long (as generated positions often are)."""
    def leaf(i, j, k):
        return f"leaf_{i}{j}{k}_position_name = {(i * 7 + j * 5 + k * 3) % 17}"
    return "a(" + ", ".join(
        f"branch_{i}_long_move_name(" + ", ".join(
            f"reply_{i}_{j}_long(" + ", ".join(leaf(i, j, k) for k in range(3)) + ")"
            for j in range(3)) + ")" for i in range(3)) + ")"


LAYOUT_CASES = {
    "aima-list-tree": ((EXAMPLES / "aima.tree").read_text(encoding="utf-8"), "aima", None),
    "aima-list-tree-bratko": ((EXAMPLES / "aima.tree").read_text(encoding="utf-8"), "bratko", None),
    "long-names-3x3x3": (_long_333(), "aima", None),
    "depth-limited-aima": ((EXAMPLES / "depth-limited.tree").read_text(encoding="utf-8"), "aima", 1),
}


@pytest.mark.parametrize("case", sorted(LAYOUT_CASES))
@pytest.mark.parametrize("width", [1280, 700])
def test_no_two_labels_overlap_and_names_sit_by_their_node(browser, tmp_path, case, width):
    import pyab
    from pyab.render.html import page as html_page
    from pyab.render.trace import _num, trace
    text, algorithm, depth = LAYOUT_CASES[case]
    tr = trace(pyab.parse(text), "prolog", algorithm, depth=depth)
    assert tr.frames in ("observed", "mirror")  # values and windows, not a rebuilt trace
    path = tmp_path / f"{case}.html"
    path.write_text(html_page(tr), encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(path.as_uri())
        page.keyboard.press("End")
        for zoomed in ("fit", "1"):
            page.keyboard.press("f" if zoomed == "fit" else "0")
            got = page.evaluate(LABELS_JS)
            # every name, and the value and window of every node searched
            assert got["labels"] >= len(tr.tree) + 2 * len(tr.result.visited), got["labels"]
            assert got["overlaps"] == [], (zoomed, got["overlaps"][:5])
            assert got["strays"] == [], (zoomed, got["strays"][:5])
        if depth is not None:  # a depth-limited node shows the static value it was scored by
            assert _value(page, "b") == _num(tr.tree.value("b"))
        assert errors == []
    finally:
        page.close()


def test_zoom_to_fit_makes_a_wide_tree_fit_and_drag_pans(browser, tmp_path):
    text = "[" + ", ".join("[" + ", ".join(str((i * 3 + j) % 11) for j in range(4)) + "]"
                           for i in range(20)) + "]"  # 101 nodes, 80 leaves
    page, _, errors = _open(browser, _page_file(tmp_path, text, engine="python"))
    try:
        box = page.locator("#picture")
        svg_box = lambda: page.locator("#picture svg").bounding_box()  # noqa: E731
        assert svg_box()["width"] <= box.bounding_box()["width"]  # fitted on load
        page.keyboard.press("0")  # full size: wider than the window, scrolls
        assert svg_box()["width"] > box.bounding_box()["width"]
        before = page.evaluate("document.getElementById('picture').scrollLeft")
        b = box.bounding_box()
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + 60)
        page.mouse.down()
        page.mouse.move(b["x"] + b["width"] / 2 - 300, b["y"] + 60, steps=5)
        page.mouse.up()
        after = page.evaluate("document.getElementById('picture').scrollLeft")
        assert after > before + 200, (before, after)
        page.click("#fit")
        assert svg_box()["width"] <= box.bounding_box()["width"]
        assert errors == []
    finally:
        page.close()


def test_space_and_pagedown_step_like_a_clicker_and_autoplay_runs(browser, tmp_path):
    import pyab
    from pyab.render.html import page as html_page
    from pyab.render.trace import trace
    tr = trace(pyab.parse(SLIDES_TEXT), "python")
    path = tmp_path / "fast.html"
    path.write_text(html_page(tr, delay_ms=30), encoding="utf-8")
    page, _, errors = _open(browser, path)
    step = lambda: int(page.locator("body").get_attribute("data-step"))  # noqa: E731
    try:
        page.keyboard.press("Space")
        page.keyboard.press("PageDown")
        assert step() == 2
        page.keyboard.press("PageUp")
        assert step() == 1
        page.keyboard.press("p")  # autoplay to the end, then it stops by itself
        page.wait_for_function(f"document.body.getAttribute('data-step') === '{len(tr.steps)}'",
                               timeout=5000)
        page.wait_for_function("document.body.getAttribute('data-playing') === 'no'", timeout=2000)
        assert _pruned(page) == ["i", "j"]
        assert errors == []
    finally:
        page.close()


def test_quiz_with_the_mouse(browser, tmp_path):
    page, _, errors = _open(browser, _page_file(tmp_path, SLIDES_TEXT))
    try:
        page.click("#quiz")
        assert page.locator("body").get_attribute("data-quiz") == "asking"
        # the run is hidden, the leaves' static values are shown, stepping is off
        assert _value(page, "a") == "" and _value(page, "e") == "3" and _value(page, "j") == "20"
        page.keyboard.press("ArrowRight")
        assert page.locator("body").get_attribute("data-step") == "0"
        for node in ("i", "m", "e"):
            page.click(f'[data-node="{node}"]')
        page.click('[data-node="e"]')  # a second click takes the pick back
        page.click("#check")
        assert page.locator("body").get_attribute("data-quiz") == "checked"
        marks = lambda cls: sorted(page.eval_on_selector_all(  # noqa: E731
            f"[data-node].{cls}", "els => els.map(e => e.getAttribute('data-node'))"))
        assert marks("quiz-right") == ["i"]
        assert marks("quiz-wrong") == ["m"]
        assert marks("quiz-missed") == ["j"]
        assert marks("guess") == ["i", "m"]
        assert page.locator("#quiz-result").text_content().startswith("1 of 2 cut-off subtrees found, 1 wrong")
        assert _pruned(page) == ["i", "j"] and _value(page, "a") == "3"  # then the real run is shown
        assert errors == []
    finally:
        page.close()


def test_quiz_with_the_keyboard(browser, tmp_path):
    page, _, errors = _open(browser, _page_file(tmp_path, SLIDES_TEXT))
    try:
        page.keyboard.press("q")
        order = []
        for _ in range(30):  # Tab past the buttons through the nodes (the root is not a choice)
            page.keyboard.press("Tab")
            name = page.evaluate("document.activeElement && document.activeElement.getAttribute('data-node')")
            order.append(name)
            if name in ("i", "j"):
                page.keyboard.press("Enter")
            if name == "m":
                break
        assert "i" in order and "j" in order and "a" not in order
        page.keyboard.press("c")
        assert page.locator("#quiz-result").text_content() == "2 of 2 cut-off subtrees found, 0 wrong: all right!"
        page.keyboard.press("q")  # leave the quiz: the stepper is back
        assert page.locator("body").get_attribute("data-quiz") == "off"
        page.keyboard.press("ArrowRight")
        assert page.locator("body").get_attribute("data-step") == "1"
        assert errors == []
    finally:
        page.close()


# -- the lecture hall (issue 26) -------------------------------------------------
TEXTS_JS = """() => {
  const svg = document.querySelector('#picture svg');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const out = [];
  document.querySelectorAll('body *').forEach((el) => {
    if (el.closest('script, style, title')) return;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) return;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') return;
    const b = el.getBoundingClientRect();
    if (b.width === 0 || b.height === 0) return;
    const px = parseFloat(cs.fontSize) * (el instanceof SVGElement ? k : 1);
    out.push({text: el.textContent.trim().slice(0, 40), px: px, x1: b.right, y1: b.bottom});
  });
  return {texts: out, w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight, k: k};
}"""


def _page(tmp_path, tree_text_or_tree, name="p", **kw) -> Path:
    import pyab
    from pyab.render.html import page
    from pyab.render.trace import trace
    tree = pyab.parse(tree_text_or_tree) if isinstance(tree_text_or_tree, str) else tree_text_or_tree
    out = tmp_path / f"{name}.html"
    out.write_text(page(trace(tree, "python"), **kw), encoding="utf-8")
    return out


def _zoom(page) -> float:
    return float(page.locator("body").get_attribute("data-zoom"))


def test_the_stepper_refits_after_a_resize(browser, tmp_path):
    page = browser.new_page(viewport={"width": 800, "height": 500})
    try:
        page.goto(_page(tmp_path, SLIDES_TEXT).as_uri())
        small = _zoom(page)
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_function(f"parseFloat(document.body.getAttribute('data-zoom')) > {small * 1.5}", timeout=3000)
        big = _zoom(page)
        assert big > 1.5, big  # no zoom cap: the slides' tree fills the wider screen
        box = page.locator("#picture").bounding_box()
        svg = page.locator("#picture svg").bounding_box()
        assert svg["width"] <= box["width"] and svg["height"] <= box["height"]
        assert svg["width"] > 0.9 * box["width"] or svg["height"] > 0.9 * box["height"]  # fitted, not left small
        page.keyboard.press("+")  # zoomed by hand: a resize leaves it alone
        hand = _zoom(page)
        page.set_viewport_size({"width": 1000, "height": 700})
        page.wait_for_timeout(300)
        assert _zoom(page) == hand
        page.keyboard.press("f")  # fit again, and it follows the window again
        assert _zoom(page) < hand
    finally:
        page.close()


def test_the_stepper_refits_when_it_is_shown(browser, tmp_path):
    """Loaded inside a hidden container (a notebook exported to HTML, a tab
    shown later), the stepper fits when the container is shown."""
    inner = _page(tmp_path, SLIDES_TEXT, name="inner")
    host = tmp_path / "host.html"
    host.write_text(f'<!DOCTYPE html><html><body><div id="box" style="display:none">'
                    f'<iframe id="f" src="{inner.name}" style="width:1800px;height:1000px;border:0"></iframe>'
                    f'</div></body></html>', encoding="utf-8")
    page = browser.new_page(viewport={"width": 1900, "height": 1060})
    try:
        page.goto(host.as_uri())
        frame = page.frame_locator("#f")
        frame.locator("body[data-step='0']").wait_for(state="attached")
        page.evaluate("document.getElementById('box').style.display = 'block'")
        inner_page = page.frames[1]
        inner_page.wait_for_function("parseFloat(document.body.getAttribute('data-zoom')) > 1.2", timeout=3000)
        svg = frame.locator("#picture svg").bounding_box()
        assert svg["width"] > 700, svg  # not the 10 % it drew at while hidden
    finally:
        page.close()


QUIZ_TREE = "a(b(e=3, f=12, g=8), c(h=2, i(x=1, y=4), j=20), d(k=14, l=5, m=2))"


def test_the_quiz_grades_nodes_inside_cut_subtrees_right_and_says_why(browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(_page(tmp_path, QUIZ_TREE).as_uri())
        page.keyboard.press("q")
        for node in ("x", "m"):  # x lies inside the cut subtree i; m is searched
            page.click(f'[data-node="{node}"]')
        page.click("#check")
        marks = lambda cls: sorted(page.eval_on_selector_all(  # noqa: E731
            f"[data-node].{cls}", "els => els.map(e => e.getAttribute('data-node'))"))
        assert marks("quiz-right") == ["x"] and marks("quiz-wrong") == ["m"] and marks("quiz-missed") == ["j"]
        assert page.locator("#quiz-result").text_content().startswith("1 of 2 cut-off subtrees found, 1 wrong")
        why = page.eval_on_selector_all("#quiz-why li", "els => els.map(e => e.textContent)")
        assert any(w.startswith("\u2713 x: right. Never searched: it lies in the subtree of i")
                   and "alpha cut-off (h = 2 < alpha 3)" in w for w in why), why
        assert any(w.startswith("\u2717 m: wrong. It is searched: step") and "alphabeta(m, 3, 5)" in w
                   for w in why), why
        assert any(w.startswith("? j: missed.") for w in why), why
        # right and wrong are signs as well as colours
        sign = lambda n: page.locator(f'[data-node="{n}"] .mark').text_content()  # noqa: E731
        assert (sign("x"), sign("m"), sign("j")) == ("\u2713", "\u2717", "?")
        assert errors == []
    finally:
        page.close()


def test_the_code_panel_shows_the_clause_and_its_variables(browser, tmp_path):
    import pyab
    from pyab.render.trace import trace
    tr = trace(pyab.parse(SLIDES_TEXT), "python")
    cut_at = next(i for i, s in enumerate(tr.steps, 1) if s.kind == "cut")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(_page(tmp_path, SLIDES_TEXT).as_uri())
        page.evaluate(f"window.pyabStep({cut_at})")
        assert page.locator("#code-title").text_content() == "goodenough"
        assert page.locator("#code-lines .now").text_content().strip() == "\u25b6     max_to_move(Pos), Val < Alpha, !."
        head = page.eval_on_selector_all("#vars th", "els => els.map(e => e.textContent)")
        vals = page.eval_on_selector_all("#vars td", "els => els.map(e => e.textContent)")
        assert dict(zip(head, vals)) == {"Pos": "h", "Val": "2", "Alpha": "3", "Beta": "inf", "test": "true: cut"}
        page.evaluate("window.pyabStep(7)")  # newbounds after e = 3: clause 2 (max_to_move(e), 3 < inf)
        assert page.locator("#code-title").text_content() == "newbounds"
        assert "max_to_move(Pos), Val < Beta, !." in page.locator("#code-lines .now").text_content()
    finally:
        page.close()


def test_the_speed_control_sets_the_pace(browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(_page(tmp_path, SLIDES_TEXT, delay_ms=3000).as_uri())
        page.locator("#speed").fill("100")
        assert page.locator("body").get_attribute("data-delay") == "100"
        page.click("#play")
        page.wait_for_function("document.body.getAttribute('data-playing') === 'no'", timeout=8000)
        assert int(page.locator("body").get_attribute("data-step")) > 40
    finally:
        page.close()


def _sixty():
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from test_pictures import sixty_nodes
    return sixty_nodes()


@pytest.mark.parametrize("which", ["slides", "sixty"])
def test_presentation_mode_fits_1080p_with_text_of_18_px(browser, tmp_path, which):
    import pyab
    from pyab.render.trace import trace
    tree = pyab.parse(SLIDES_TEXT) if which == "slides" else _sixty()
    assert len(tree) == (13 if which == "slides" else 60)
    path = _page(tmp_path, tree, name=which, presentation=True, title="Lecture 7: alpha-beta")
    n = len(trace(tree, "python").steps)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(path.as_uri())
        assert page.locator("h1").text_content() == "Lecture 7: alpha-beta"
        assert page.locator(".sub").count() == 0  # the caption only when asked for
        for k in sorted({0, 1, 5, n // 3, n // 2, n - 2, n}):
            page.evaluate(f"window.pyabStep({k})")
            page.wait_for_timeout(50)
            got = page.evaluate(TEXTS_JS)
            small = [t for t in got["texts"] if t["px"] < 17.99]
            assert small == [], (k, small[:5])
            out = [t for t in got["texts"] if t["x1"] > 1920.5 or t["y1"] > 1080.5]
            assert out == [] and got["w"] <= 1920 and got["h"] <= 1080, (k, out[:5], got["w"], got["h"])
        shot = os.environ.get("PYAB_SCREENSHOT_DIR")
        if shot:
            page.screenshot(path=str(Path(shot) / f"presentation-{which}.png"))
        assert errors == []
    finally:
        page.close()


LABEL_EDGES_JS = """() => {
  const texts = [...document.querySelectorAll('#picture text')].filter((t) => {
    const cs = getComputedStyle(t);
    return t.textContent.trim() && cs.visibility !== 'hidden' && cs.display !== 'none'; });
  const boxes = texts.map((t) => {
    const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, t.textContent]; });
  const hits = [];
  document.querySelectorAll('#picture line[data-edge]').forEach((l) => {
    const m = l.getScreenCTM();
    const p = (x, y) => {
      const q = l.ownerSVGElement.createSVGPoint(); q.x = x; q.y = y; return q.matrixTransform(m); };
    const a = p(l.x1.baseVal.value, l.y1.baseVal.value), b = p(l.x2.baseVal.value, l.y2.baseVal.value);
    boxes.forEach((bx) => {
      for (let i = 0; i <= 100; i++) {
        const x = a.x + (b.x - a.x) * i / 100, y = a.y + (b.y - a.y) * i / 100;
        if (x > bx[0] + 1 && x < bx[2] - 1 && y > bx[1] + 1 && y < bx[3] - 1) {
          hits.push([l.getAttribute('data-edge'), bx[4]]); break; }
      }
    });
  });
  return hits;
}"""


@pytest.mark.parametrize("which", ["slides", "sixty", "aima"])
def test_no_label_lies_on_an_edge(browser, tmp_path, which):
    import pyab
    tree = {"slides": lambda: pyab.parse(SLIDES_TEXT), "sixty": _sixty,
            "aima": lambda: pyab.load(EXAMPLES / "aima.tree")}[which]()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(_page(tmp_path, tree, name=which, presentation=which == "sixty").as_uri())
        page.keyboard.press("End")
        assert page.evaluate(LABEL_EDGES_JS) == []
    finally:
        page.close()


# -- pyab practice: the page's searches and grades against pyab's referee --------
def _expected_grades(tree, algorithm: str, answers: dict, asked: dict) -> list[tuple[str, str, bool]]:
    """The grades the page must give, worked out from pyab's own search."""
    import pyab
    from pyab.render.trace import trace
    tr = trace(tree, "prolog", algorithm)
    values, called = tr.values(), tr.called()
    never: dict[str, str] = {}
    for root in tr.result.pruned:
        todo = [root]
        while todo:
            n = todo.pop()
            never[n] = root
            todo.extend(tree.children(n))
    num = lambda x: None if x is None else float(x)  # noqa: E731
    out = []
    for n in asked["values"]:
        out.append(("value", n, num(answers["values"][n]) == values[n]))
    for n in asked["windows"]:
        a, b = answers["windows"][n]
        out.append(("window", n, (num(a), num(b)) == tuple(float(x) for x in called[n])))
    picks = answers["never"]
    for n in picks:
        out.append(("pick", n, n in never))
    for root in tr.result.pruned:
        out.append(("cut", root, any(never.get(p) == root for p in picks)))
    del pyab
    return out


def test_practice_page_searches_and_grades_as_pyab_does(browser, tmp_path):
    """Ten random trees (fixed seed), each algorithm in turn, answers right
    and wrong on purpose: every run the page made equals pyab's observed
    Prolog run, and every grade equals the one worked out from it."""
    import json as _json

    import pyab
    from pyab.render.practice import page as practice_page
    from pyab.render.trace import trace
    path = tmp_path / "practice.html"
    path.write_text(practice_page(seed=26, depth=3, branching=(1, 3), values=(-3, 3)), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    algorithms = ["bratko", "aima", "strict-cut", "minimax"]
    try:
        page.goto(path.as_uri())
        for k in range(10):
            if k:
                page.select_option("#algorithm", algorithms[k % 4])
                page.click("#new")
            cur = page.evaluate("(() => { const r = window.pyabPractice.current();"
                                " return {tree: r.tree, asked: r.asked, algorithm: r.algorithm}; })()")
            tree = pyab.parse(cur["tree"])
            tr = trace(tree, "prolog", cur["algorithm"])
            values, called = tr.values(), tr.called()
            for j, n in enumerate(cur["asked"]["values"]):  # every other answer off by one
                page.fill(f'input.val[data-node="{n}"]', str(values[n] + (j + k) % 2))
            for j, n in enumerate(cur["asked"]["windows"]):
                a, b = called[n]
                page.fill(f'input.win[data-what="alpha"][data-node="{n}"]', "-inf" if a == -math.inf else str(a))
                page.fill(f'input.win[data-what="beta"][data-node="{n}"]',
                          ("inf" if b == math.inf else str(b)) if j % 2 == 0 else "0.5")
            # picks: the deepest node inside each cut subtree (never wrong), and one searched leaf
            for root in tr.result.pruned:
                deepest = root
                while tree.children(deepest):
                    deepest = tree.children(deepest)[-1]
                if k % 3 != 2:  # sometimes leave them all to be missed
                    page.dispatch_event(f'#tree [data-node="{deepest}"]', 'click')
            searched_leaf = tr.result.leaves[-1]
            if k % 2 and searched_leaf != tree.root:
                page.dispatch_event(f'#tree [data-node="{searched_leaf}"]', 'click')
            page.click("#check")
        rounds = _json.loads(page.evaluate("window.pyabPractice.export()"))
        assert len(rounds) == 10 and errors == []
        assert all(u.startswith("file:") for u in requests), requests  # no network
        cuts_inside = 0
        for r in rounds:
            tree = pyab.parse(r["tree"])
            ref = pyab.solve(tree, algorithm=r["algorithm"])  # the referee: observed in SWI-Prolog
            run = r["run"]
            assert (run["best"], run["value"], tuple(run["visited"]), tuple(run["leaves"]), tuple(run["pruned"])) == \
                (ref.best, ref.value, ref.visited, ref.leaves, ref.pruned), r["tree"]
            tr = trace(tree, "prolog", r["algorithm"])
            assert run["values"] == {n: v for n, v in tr.values().items()}, r["tree"]
            if r["algorithm"] != "minimax":
                called = {n: [("inf" if w == math.inf else "-inf" if w == -math.inf else w) for w in ab]
                          for n, ab in tr.called().items()}
                assert run["windows"] == called, r["tree"]
            got = [(g["kind"], g["node"], g["right"]) for g in r["grades"]]
            assert got == _expected_grades(tree, r["algorithm"], r["answers"], r["asked"]), r["tree"]
            assert all(g["why"] for g in r["grades"])
            cuts_inside += sum(1 for g in r["grades"] if g["kind"] == "pick" and g["right"]
                               and g["node"] not in ref.pruned)
        assert cuts_inside > 0  # some picks lay inside cut subtrees, below their roots, and were right
        assert {r["algorithm"] for r in rounds} == set(algorithms)
        shot = os.environ.get("PYAB_SCREENSHOT_DIR")
        if shot:
            page.screenshot(path=str(Path(shot) / "practice.png"), full_page=True)
    finally:
        page.close()


def test_the_stepper_at_its_end_shows_the_labels_of_every_other_format(browser, tmp_path):
    """The HTML page, stepped to the end, writes the same value, name and
    called window on every node as the SVG (and so the PNG, PDF and TikZ)."""
    import pyab
    from pyab.render.model import model
    from pyab.render.trace import trace
    tree = pyab.parse(QUIZ_TREE)
    tr = trace(tree, "python")
    want = {n.name: (n.value, n.name, n.window) for n in model(tree, tr).nodes}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(_page(tmp_path, QUIZ_TREE).as_uri())
        page.keyboard.press("End")
        got = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#picture [data-node]')]
            .map((g) => [g.getAttribute('data-node'), ['.value', '.name', '.window']
            .map((c) => g.querySelector(c).textContent)]))""")
        assert {k: tuple(v) for k, v in got.items()} == want
    finally:
        page.close()
