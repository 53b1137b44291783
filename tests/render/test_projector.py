"""The stepper at any projector, in Chromium.  A tree's size on screen is the
bounding box of its drawn nodes (the ``[data-node]`` elements), the larger
of its width and height shares of the window.  Presentation mode fits
1280x720, 1366x768, 1920x1080 and 3840x2160 with no scrolling of the page,
the tree at least 60 %, no text under 18 px at 1080p (scaled by the window
at the others), quiz marks and feedback too; the normal stepper at
1920x1080 shows the tree, the code and its variables without scrolling;
the legend names every mark the page uses; leaf names sit on one row.
A screenshot is taken at every size (kept with PYAB_SCREENSHOT_DIR=DIR)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from conftest import SLIDES_TEXT
from test_browser import LABELS_JS, _long_333, browser  # noqa: F401  (browser: the fixture)

SIZES = [(1280, 720), (1366, 768), (1920, 1080), (3840, 2160)]

MEASURE_JS = """() => {
  const W = innerWidth, H = innerHeight;
  const boxes = [...document.querySelectorAll('#picture [data-node]')].map((g) => g.getBoundingClientRect());
  const l = Math.min(...boxes.map((b) => b.left)), r = Math.max(...boxes.map((b) => b.right));
  const t = Math.min(...boxes.map((b) => b.top)), b = Math.max(...boxes.map((b) => b.bottom));
  const texts = [];
  document.querySelectorAll('body *').forEach((el) => {
    if (el.closest('script, style, title')) return;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) return;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') return;
    const bb = el.getBoundingClientRect();
    if (bb.width === 0 || bb.height === 0) return;
    const svg = el instanceof SVGElement ? el.ownerSVGElement : null;
    const k = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
    texts.push({text: el.textContent.trim().slice(0, 30), px: parseFloat(cs.fontSize) * k,
                mark: el.classList.contains('mark'), feedback: !!el.closest('#quiz-bar'),
                out: bb.right > W + 0.5 || bb.bottom > H + 0.5});
  });
  const rect = (id) => { const e = document.getElementById(id); if (!e) return null;
    const q = e.getBoundingClientRect(); return {left: q.left, top: q.top, right: q.right, bottom: q.bottom}; };
  return {tree: Math.max((r - l) / W, (b - t) / H), texts,
          sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
          picture: rect('picture'), code: rect('code-lines'), vars: rect('vars'), frame: rect('frame')};
}"""


def _sixty():
    sys.path.insert(0, str(Path(__file__).parent))
    from test_pictures import sixty_nodes
    return sixty_nodes()


def _write(tmp_path: Path, tree, name: str, **kw) -> tuple[Path, int]:
    from pyab.render.html import page
    from pyab.render.trace import trace
    tr = trace(tree, "python")
    out = tmp_path / f"{name}.html"
    out.write_text(page(tr, **kw), encoding="utf-8")
    return out, len(tr.steps)


def _shot(page, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000, name
    keep = os.environ.get("PYAB_SCREENSHOT_DIR")
    if keep:
        shutil.copy(path, Path(keep) / path.name)


@pytest.mark.parametrize("which", ["slides", "sixty"])
def test_presentation_mode_fits_every_projector(browser, tmp_path, which):  # noqa: F811
    import pyab
    tree = pyab.parse(SLIDES_TEXT) if which == "slides" else _sixty()
    path, n = _write(tmp_path, tree, which, presentation=True, title="Lecture 7: alpha-beta")
    for width, height in SIZES:
        scale = min(width / 1920, height / 1080)
        page = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(path.as_uri())
            for k in (0, n // 2, n):
                page.evaluate(f"window.pyabStep({k})")
                page.wait_for_timeout(50)
                got = page.evaluate(MEASURE_JS)
                where = (which, width, height, k)
                assert got["sw"] <= width and got["sh"] <= height, (where, got["sw"], got["sh"])
                assert got["tree"] >= 0.6, (where, got["tree"])
                small = [t for t in got["texts"] if t["px"] < 18 * scale - 0.05]
                assert small == [], (where, small[:5])
                assert [t for t in got["texts"] if t["out"]] == [], where
                if k == n // 2:
                    _shot(page, tmp_path, f"present-{which}-{width}x{height}")
            page.keyboard.press("q")  # the quiz: its marks and feedback are as large
            names = page.eval_on_selector_all("#picture [data-node]",
                                              "els => els.map(e => e.getAttribute('data-node'))")
            for name in names[1:4]:
                page.dispatch_event(f'#picture [data-node="{name}"]', "click")
            page.click("#check")
            got = page.evaluate(MEASURE_JS)
            marks = [t for t in got["texts"] if t["mark"]]
            feedback = [t for t in got["texts"] if t["feedback"]]
            assert marks and feedback, (which, width)
            assert min(t["px"] for t in marks + feedback) >= 18 * scale - 0.05, (which, width, marks + feedback)
            assert got["sw"] <= width and got["sh"] <= height, (which, width, "quiz", got["sw"], got["sh"])
            _shot(page, tmp_path, f"present-{which}-{width}x{height}-quiz")
            assert errors == []
        finally:
            page.close()


@pytest.mark.parametrize("which", ["slides", "sixty"])
def test_the_normal_stepper_shows_tree_code_and_variables_at_1080p(browser, tmp_path, which):  # noqa: F811
    import pyab
    tree = pyab.parse(SLIDES_TEXT) if which == "slides" else _sixty()
    path, n = _write(tmp_path, tree, which)
    page = browser.new_page(viewport={"width": 800, "height": 500})
    try:
        page.goto(path.as_uri())
        page.set_viewport_size({"width": 1920, "height": 1080})  # the window grows
        page.wait_for_function("document.getElementById('picture').clientHeight > 600", timeout=3000)
        page.wait_for_timeout(200)
        page.evaluate(f"window.pyabStep({n // 2})")
        got = page.evaluate(MEASURE_JS)
        assert got["sw"] <= 1920 and got["sh"] <= 1080, (got["sw"], got["sh"])
        for part in ("picture", "code", "vars", "frame"):
            assert got[part]["bottom"] <= 1080 and got[part]["right"] <= 1920, (part, got[part])
        # the panels side by side: the code beside the frame, its variables beside the code
        assert got["code"]["left"] >= got["frame"]["right"] and got["vars"]["left"] >= got["code"]["right"]
        assert got["tree"] >= 0.6, got["tree"]
        _shot(page, tmp_path, f"stepper-{which}-1920x1080")
    finally:
        page.close()


def test_the_stepper_loaded_hidden_fills_its_frame_when_shown(browser, tmp_path):  # noqa: F811
    import pyab
    inner, _ = _write(tmp_path, pyab.parse(SLIDES_TEXT), "inner")
    host = tmp_path / "host.html"
    host.write_text(f'<!DOCTYPE html><html><body style="margin:0"><div id="box" style="display:none">'
                    f'<iframe id="f" src="{inner.name}" style="width:1600px;height:900px;border:0"></iframe>'
                    f'</div></body></html>', encoding="utf-8")
    page = browser.new_page(viewport={"width": 1700, "height": 1000})
    try:
        page.goto(host.as_uri())
        page.frame_locator("#f").locator("body[data-step='0']").wait_for(state="attached")
        page.evaluate("document.getElementById('box').style.display = 'block'")
        frame = page.frames[1]
        frame.wait_for_function("parseFloat(document.body.getAttribute('data-zoom')) > 1.2", timeout=3000)
        page.wait_for_timeout(200)
        got = frame.evaluate(MEASURE_JS)  # shares of the frame's 1600x900 window
        assert got["tree"] >= 0.5, got["tree"]
        _shot(page, tmp_path, "stepper-hidden-then-shown-1600x900")
    finally:
        page.close()


# the page's marks: node classes and edge classes, and the legend key that explains each
KEY = {"visited": "visited", "current": "current", "open": "open", "best": "best", "pruned": "faded",
       "cutoff": "faded", "horizon": "horizon", "cut": "cut", "guess": "guess", "quiz-right": "quiz-right",
       "quiz-wrong": "quiz-wrong", "quiz-missed": "quiz-missed"}


@pytest.mark.parametrize("case", ["slides", "depth-limited"])
def test_the_legend_explains_every_mark_used(browser, tmp_path, case):  # noqa: F811
    import pyab
    from pyab.render.html import page as html_page
    from pyab.render.trace import trace
    from conftest import EXAMPLES
    tree = pyab.load(EXAMPLES / f"{case}.tree")
    tr = trace(tree, "python", "aima", depth=1) if case == "depth-limited" else trace(tree, "python")
    path = tmp_path / f"{case}.html"
    path.write_text(html_page(tr), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(path.as_uri())
        keys = set(page.eval_on_selector_all("#legend [data-kind]", "els => els.map(e => e.dataset.kind)"))
        used: set[str] = set()
        for k in range(len(tr.steps) + 1):
            page.evaluate(f"window.pyabStep({k})")
            used |= set(page.evaluate("""() => [...document.querySelectorAll(
                '#picture [data-node], #picture [data-edge]')].flatMap((e) => [...e.classList])"""))
        page.keyboard.press("q")  # the quiz's marks, after a check
        names = page.eval_on_selector_all("#picture [data-node]", "els => els.map(e => e.getAttribute('data-node'))")
        for name in names[1:] if case == "slides" else names[1:2]:
            page.dispatch_event(f'#picture [data-node="{name}"]', "click")
        used |= set(page.evaluate("() => [...document.querySelectorAll('#picture [data-node]')]"
                                  ".flatMap((e) => [...e.classList])"))
        page.click("#check")
        used |= set(page.evaluate("() => [...document.querySelectorAll('#picture [data-node]')]"
                                  ".flatMap((e) => [...e.classList])"))
        shown = set(page.eval_on_selector_all("#legend [data-kind]",
                                              "els => els.filter(e => e.offsetParent).map(e => e.dataset.kind)"))
        assert {"guess", "quiz-right", "quiz-wrong"} & used <= shown, used
        marks = {KEY[c] for c in used if c in KEY}
        assert {"visited", "current", "open"} <= marks, marks
        assert marks - keys == set(), (marks - keys, keys)
        if case == "depth-limited":
            assert "horizon" in marks
    finally:
        page.close()


def test_leaf_names_sit_on_one_row_and_never_overlap(browser, tmp_path):  # noqa: F811
    """A 40-node tree with long names: in the stepper every leaf name on one
    row (the picture widens), in presentation mode (18 px labels within
    1920 px) the compact leaves, their names in a tooltip and the legend;
    and the practice page's deepest trees: one row, no overlap."""
    import pyab
    leaves_js = """() => [...document.querySelectorAll('#picture [data-node]')]
        .filter((g) => !document.querySelector(
            '#picture [data-edge^="' + CSS.escape(g.getAttribute('data-node')) + '\\t"]'))
        .map((g) => g.querySelector('.name') ? Math.round(g.querySelector('.name').getBoundingClientRect().top)
                                             : null)"""
    for present in (False, True):
        path, _ = _write(tmp_path, pyab.parse(_long_333()), f"long-{present}", presentation=present)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        try:
            page.goto(path.as_uri())
            page.keyboard.press("End")
            rows = page.evaluate(leaves_js)
            assert len(rows) == 27
            if present:
                assert set(rows) == {None}  # compact: no names under the leaves
                assert page.locator('#legend [data-kind="compact"]').count() == 1
            else:
                assert len(set(rows)) == 1 and None not in rows, sorted(set(rows))  # one row
            got = page.evaluate(LABELS_JS)
            assert got["overlaps"] == [], got["overlaps"][:5]
            _shot(page, tmp_path, f"{'present' if present else 'stepper'}-long-names-1920x1080")
        finally:
            page.close()
    from pyab.render.practice import page as practice_page
    path = tmp_path / "practice.html"
    path.write_text(practice_page(seed=3, depth=4, branching=(2, 3)), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(path.as_uri())
        boxes = page.evaluate("""() => [...document.querySelectorAll('#tree [data-node]')]
            .filter((g) => !document.querySelector('#tree [data-edge^="' + g.getAttribute('data-node') + '\\t"]'))
            .map((g) => { const t = [...g.querySelectorAll('text')].pop().getBoundingClientRect();
                          return [t.left, t.top, t.right]; })""")
        assert len({round(b[1]) for b in boxes}) == 1, boxes[:6]
        boxes.sort()
        assert all(a[2] <= b[0] for a, b in zip(boxes, boxes[1:])), boxes
    finally:
        page.close()
