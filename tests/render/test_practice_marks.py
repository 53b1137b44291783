"""``pyab practice`` in Chromium: each node's mark is the same in the
picture, the table and the list of reasons, a cross when any of its answers
is wrong and a tick only when all are right; a round's maximum is fixed by
the tree, so ticking more nodes can only lose points."""

from __future__ import annotations

import itertools
import math
import os
from pathlib import Path

from test_browser import browser  # noqa: F401  (the fixture)

TICK, CROSS = "\u2713", "\u2717"
# (value, window, picked) for a node asked both; blank: no answer given
BOTH = list(itertools.product(["right", "wrong", "blank"], ["right", "wrong"], [False, True]))
VALUE_ONLY = list(itertools.product(["right", "wrong", "blank"], [False, True]))

MARKS_JS = """() => {
  const picture = {}, table = {}, list = {};
  document.querySelectorAll('#tree [data-node]').forEach((g) => {
    const signs = [...g.querySelectorAll('text')].map((t) => t.textContent)
      .filter((t) => ['\u2713', '\u2717', '?'].includes(t));
    picture[g.getAttribute('data-node')] = signs.join(''); });
  document.querySelectorAll('#questions tr').forEach((tr) => {
    const name = tr.firstChild.textContent.replace(/[\\u00a0\\u25b2\\u25bc]/g, '').trim();
    table[name] = tr.lastChild.textContent; });
  document.querySelectorAll('#why li').forEach((li) => {
    const n = li.getAttribute('data-node'); (list[n] = list[n] || []).push(li.textContent[0]); });
  return {picture, table, list, score: document.getElementById('score').textContent};
}"""


def _text(x: float) -> str:
    return "inf" if x == math.inf else "-inf" if x == -math.inf else str(x)


def test_practice_marks_agree_everywhere_and_the_maximum_is_fixed(browser, tmp_path):  # noqa: F811
    import pyab
    from pyab.render.practice import page as practice_page
    from pyab.render.trace import trace
    path = tmp_path / "practice.html"
    path.write_text(practice_page(seed=1, values=(0, 5)), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    both, value_only = list(BOTH), list(VALUE_ONLY)
    try:
        page.goto(path.as_uri())
        for k in range(40):
            if not both and not value_only and k >= 4:
                break
            if k:
                page.click("#new")
            cur = page.evaluate("(() => { const r = window.pyabPractice.current();"
                                " return {tree: r.tree, asked: r.asked}; })()")
            tree = pyab.parse(cur["tree"])
            tr = trace(tree, "python", "bratko")
            values, called = tr.values(), tr.called()
            never: dict[str, str] = {}
            for root in tr.result.pruned:
                todo = [root]
                while todo:
                    n = todo.pop()
                    never[n] = root
                    todo.extend(tree.children(n))
            want: dict[str, str] = {}
            picks: list[str] = []
            points = 0
            for n in cur["asked"]["values"]:
                # the root cannot be ticked: it takes a combination without a tick
                todo = both if n in cur["asked"]["windows"] else value_only
                fits = [c for c in todo if n != tree.root or not c[-1]]
                if fits:
                    todo.remove(fits[0])
                    choice = fits[0]
                else:
                    choice = (BOTH if todo is both else VALUE_ONLY)[0]
                value, window, picked = choice if len(choice) == 3 else (choice[0], None, choice[1])
                if value != "blank":
                    page.fill(f'input.val[data-node="{n}"]', str(values[n] + (value == "wrong")))
                if window is not None:
                    a, b = called[n]
                    page.fill(f'input.win[data-what="alpha"][data-node="{n}"]', _text(a))
                    page.fill(f'input.win[data-what="beta"][data-node="{n}"]',
                              _text(b) if window == "right" else "0.5")
                if picked:
                    picks.append(n)
                ok = value == "right" and window in (None, "right") and not picked
                want[n] = TICK if ok else CROSS
                points += (value == "right") + (window == "right") - picked
            for j, root in enumerate(tr.result.pruned):  # the root, a node below it, or none
                inside = [n for n, r in never.items() if r == root]
                choice = [[root], [n for n in inside if n != root][:1] or [root], inside, []][(j + k) % 4]
                picks += choice
                for n in choice:
                    want[n] = TICK
                want[root] = TICK if choice else "?"
                points += bool(choice)
            for j, n in enumerate(picks):  # in the picture, or ticked in the table
                if j % 2:
                    page.dispatch_event(f'#tree [data-node="{n}"]', "click")
                else:
                    page.check(f'input.never[data-node="{n}"]')
            page.click("#check")
            got = page.evaluate(MARKS_JS)
            for n in tree.names:
                mark = want.get(n, "")
                assert got["picture"][n] == mark, (cur["tree"], n, "picture", got["picture"][n], mark)
                assert got["table"][n] == mark, (cur["tree"], n, "table", got["table"][n], mark)
            for n in tree.names:
                mark = want.get(n, "")
                listed = got["list"].get(n, [])
                if mark == TICK:
                    assert listed and set(listed) == {TICK}, (cur["tree"], n, listed)
                elif mark == CROSS:
                    assert CROSS in listed and "?" not in listed, (cur["tree"], n, listed)
                elif mark == "?":
                    assert listed == ["?"], (cur["tree"], n, listed)
                else:
                    assert listed == [], (cur["tree"], n, listed)
            asked = len(cur["asked"]["values"]) + len(cur["asked"]["windows"]) + len(tr.result.pruned)
            assert got["score"].startswith(f"This round {max(0, points)} of {asked};"), (got["score"], points)
        assert not both and not value_only, (both, value_only)  # every combination was answered
        assert errors == []
        shot = os.environ.get("PYAB_SCREENSHOT_DIR")
        if shot:
            page.screenshot(path=str(Path(shot) / "practice-marks.png"), full_page=True)
    finally:
        page.close()


def test_ticking_more_never_raises_the_maximum(browser, tmp_path):  # noqa: F811
    """The issue's round (seed 1, values 0 to 5): every node inside each
    cut-off subtree ticked scores no more than the subtree's root alone, and
    the maximum stays the number of questions the tree asks."""
    from pyab.render.practice import page as practice_page
    path = tmp_path / "practice.html"
    path.write_text(practice_page(seed=1, values=(0, 5)), encoding="utf-8")
    scores = []
    for everything in (False, True):
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        try:
            page.goto(path.as_uri())
            r = page.evaluate("(() => { const r = window.pyabPractice.current();"
                              " return {never: r.run.never, pruned: r.run.pruned, asked: r.asked}; })()")
            assert r["pruned"], "the round has a cut-off subtree"
            for n in (r["never"] if everything else r["pruned"]):
                page.check(f'input.never[data-node="{n}"]')
            page.click("#check")
            scores.append(page.locator("#score").text_content())
            asked = len(r["asked"]["values"]) + len(r["asked"]["windows"]) + len(r["pruned"])
            assert scores[-1].startswith(f"This round {len(r['pruned'])} of {asked};"), scores[-1]
        finally:
            page.close()
    assert scores[0] == scores[1]
