"""The HTML stepper in a real headless Chromium (Debian's, driven by
Playwright for Python; the browser is never downloaded by Playwright).

Skipped, with the reason, only when no Chromium or no Playwright is there
(`make setup` installs both)."""

from __future__ import annotations

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
    from pyab.trace import trace
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
    from pyab.trace import trace
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
