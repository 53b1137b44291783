"""``pyab practice``: one self-contained page (no network) for practising
alpha-beta on random trees.

The page makes a tree in the browser (depth, branching, values, the
algorithm: the slides' program, AIMA's, CS188's strict cuts, or plain
minimax), searches it with its own small copy of that algorithm, and asks
the student for the value every searched inner node returns, the window
(alpha, beta) some nodes are called with, and the nodes never searched
(click them, or tick them in the table).  Check grades every answer and
says why in words; a score adds up over the rounds.

A node inside a cut-off subtree is never searched, so picking it is right:
a cut-off subtree counts as found when its root or any node in it is
picked.  The page's searches are checked against pyab's referee by
``tests/render/test_browser.py``: it plays ten rounds with a fixed seed,
exports them (``pyabPractice.export()``: each tree in pyab's list form,
the page's run and grades) and compares every run and grade with
``pyab.solve``/``pyab.render.trace`` on the same tree.
"""

from __future__ import annotations

import json

from . import assets

__all__ = ["ALGORITHMS", "page"]

ALGORITHMS = ("bratko", "aima", "strict-cut", "minimax")


def page(*, seed: int | None = None, depth: int = 3, branching: tuple[int, int] = (2, 3),
         values: tuple[int, int] = (-9, 9), algorithm: str = "bratko", title: str = "") -> str:
    """The practice page; the arguments are the form's starting values
    (``seed`` None: a new seed each time the page opens)."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"the practice page searches with {', '.join(ALGORITHMS)}, not {algorithm!r}")
    if not 1 <= depth <= 6:
        raise ValueError(f"depth {depth}: the practice page draws trees 1 to 6 levels deep")
    lo_b, hi_b = branching
    if not 1 <= lo_b <= hi_b <= 5:
        raise ValueError(f"branching {lo_b}-{hi_b}: from 1 to 5 children a node")
    lo, hi = values
    if lo > hi:
        raise ValueError(f"values {lo}:{hi}: the smallest comes first")
    options = "".join(f'<option{" selected" if a == algorithm else ""}>{a}</option>' for a in ALGORITHMS)
    head = title or "Practice alpha-beta"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{head}</title>
<style>{assets.text('practice.css')}</style>
</head>
<body>
<h1>{head}</h1>
<form onsubmit="return false">
<fieldset><legend>Tree</legend>
depth <input id="depth" type="number" min="1" max="6" value="{depth}">
children <input id="bmin" type="number" min="1" max="5" value="{lo_b}">
to <input id="bmax" type="number" min="1" max="5" value="{hi_b}">
values <input id="lo" type="number" value="{lo}"> to <input id="hi" type="number" value="{hi}">
</fieldset>
<fieldset><legend>Search</legend>
<select id="algorithm">{options}</select>
seed <input id="seed" type="number" value="{'' if seed is None else int(seed)}">
</fieldset>
<button id="new">New tree</button> <button id="check">Check</button>
</form>
<p id="round"></p>
<p>Give the value each inner node returns, the window (alpha, beta) the marked nodes are called with,
and tick the nodes alpha-beta never searches (or click them in the picture). A node inside a cut-off
subtree is never searched too, so ticking it is right. Each value, window and cut-off subtree is worth
a point; ticking a node that is searched costs one.</p>
<div id="board">
<svg id="tree" xmlns="http://www.w3.org/2000/svg"></svg>
<table><thead><tr><th>node</th><th>value</th><th>alpha</th><th>beta</th><th>never searched</th><th></th></tr></thead>
<tbody id="questions"></tbody></table>
</div>
<div id="score"></div>
<ul id="why"></ul>
<script type="application/json" id="pyab-practice">{json.dumps({"version": 1})}</script>
<script>{assets.text('practice.js')}</script>
</body>
</html>
"""
