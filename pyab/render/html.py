"""One self-contained HTML page that steps through a search like the slides.

No network: the SVG (``pyab.render.model``, the picture every format
draws), the style and the script (``pyab/render/assets/stepper.*``) are
inline.  The page is one screen: the tree filling what the rest leaves,
its legend (every mark the page uses) beside or under it, the current step
in words, the slides' frame (Pos, Alpha, Beta, GoodPos, Val), the clause
or pseudo-code line being run with its variables (``pyab.render.code``)
and the stack of open calls with their windows as they are now.  Each
node keeps the window it was *called* with.

Keys: → / Space / PageDown (a presentation clicker) next step, ← / PageUp /
Backspace previous, End last, Home first, P autoplay (the speed slider sets
its pace), F zoom to fit, + / - zoom, 0 full size, Q quiz; drag the picture
to pan.  The picture refits whenever its box changes size or comes into
view (a ResizeObserver and an IntersectionObserver), until you zoom by
hand; F fits it again.  There is no zoom cap.

``presentation=True`` is the lecture-hall page: the picture drawn with
18-pixel labels (``font``), every text on the page scaled with the window
(20 pixels at 1920x1080, never under 18 there), black on white, the title
you give, the caption only when asked for.

The quiz hides the run, shows the leaves' static values and asks which
nodes alpha-beta will never search.  Check (C) marks each pick with a sign
and a colour (✓ right, ✗ wrong, ? a cut-off subtree not picked) and says
why in words: a node inside a cut-off subtree is never searched, so
picking it is right; a wrong pick names the step that searched it.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from ..result import json_number, value_words
from .trace import Trace, _num
from ..tree import Tree
from .code import panel
from .svg import legend_mark, svg, write
from .table import rows
from . import assets

__all__ = ["page"]


def _script_json(obj: Any) -> str:
    """JSON that is safe inside a <script> element."""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _why(trace: Trace) -> tuple[list[str], dict[str, str]]:
    """Every node never searched, and for every node why it is or is not, in words."""
    tree = trace.tree
    why: dict[str, str] = {}
    for i, s in enumerate(trace.steps, 1):
        if s.kind == "call" and s.node not in why:
            why[s.node] = f"It is searched: step {i}, {s.text()}."
    never: list[str] = []
    for i, s in enumerate(trace.steps, 1):
        if s.kind != "cut":
            continue
        for r in s.removed:
            todo = [r]
            while todo:
                n = todo.pop()
                never.append(n)
                where = "" if n == r else f" it lies in the subtree of {r}, and"
                why[n] = f"Never searched:{where} step {i} cuts it off: {s.text()}."
                todo.extend(tree.children(n))
    for i, s in enumerate(trace.steps, 1):
        if s.kind == "horizon":
            for r in s.removed:
                why.setdefault(r, f"Not searched, but not cut either: step {i}, {s.text()}.")
    for n in tree.names:
        why.setdefault(n, "Not searched.")
    return never, why


def _legend(m: Any, trace: Trace) -> str:
    """The picture's legend as a line of the page: every mark the stepper
    uses, the current node and the open calls too, each drawn as the
    picture draws it."""
    from .model import legend_items
    f = m.font
    keys = []
    for kind, text in legend_items(trace, "final" if m.final_windows else "called", m.compact, stepping=True):
        mark = legend_mark(m, kind, 0.15 * f, 0)
        keys.append(f'<span class="key" data-kind="{kind}"><svg viewBox="0 {-1.0 * f:.1f} {2.0 * f:.1f} '
                    f'{2.0 * f:.1f}" aria-hidden="true"><g class="pyab-tree">{mark}</g></svg>{escape(text)}</span>')
    for kind, text in _QUIZ:  # shown while the quiz is on
        keys.append(f'<span class="key quiz-only" data-kind="{kind}"><svg viewBox="0 {-1.0 * f:.1f} {2.0 * f:.1f} '
                    f'{2.0 * f:.1f}" aria-hidden="true"><g class="pyab-tree">{legend_mark(m, kind, 0.15 * f, 0)}'
                    f'</g></svg>{escape(text)}</span>')
    return '<div id="legend">' + "".join(keys) + "</div>"


_QUIZ = [("guess", "your pick (\u25cf)"), ("quiz-right", "\u2713 right: never searched"),
         ("quiz-wrong", "\u2717 wrong: it is searched"), ("quiz-missed", "? a cut-off subtree not picked")]


def page(trace: Trace | None, title: str = "", delay_ms: int = 900, *, tree: Tree | None = None,
         presentation: bool = False, caption: bool | str | None = None, **options: Any) -> str:
    """The HTML page for ``trace`` (see the module docstring); for a bare
    ``tree`` (``trace`` None) a page with its picture.  ``options`` go to
    the picture model (``windows``, ``font``, ``max_width``).  ``caption``:
    a line of your own, True for pyab's (the default, except in
    presentation mode), False for none."""
    if trace is None:
        if tree is None:
            raise ValueError("page() needs a trace or a tree")
        head = title or f"the tree {tree.root}"
        options.pop("title", None)
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f"<title>{escape(head)}</title>\n<style>{assets.text('stepper.css')}</style>\n</head>\n<body>\n"
                f"<h1>{escape(head)}</h1>\n<div id=\"picture\">\n{svg(tree, None, **options)}\n</div>\n"
                f"</body>\n</html>\n")
    tree = trace.tree
    if presentation:
        options = {"font": 18, "max_width": 1860, **options}
    if caption is None:
        caption = not presentation
    from .model import model
    m = model(tree, trace, final=False, caption=False, legend=False, **options)
    never, why = _why(trace)
    data = {
        "root": tree.root,
        "alpha": json_number(trace.alpha),
        "beta": json_number(trace.beta),
        "root_value_known": True,
        "kids": {n: list(tree.children(n)) for n, ks in zip(tree.names, tree.kids) if ks},
        "steps": [dict(s.to_json(), text=s.text()) for s in trace.steps],
        "rows": [list(r) for r in rows(trace)],
        "pruned": list(trace.result.pruned),
        "never": never,
        "why": why,
        "static": {n: json_number(v) for n, ks, v in zip(tree.names, tree.kids, tree.values)
                   if not ks and v is not None},
        "code": panel(trace),
        "delay": delay_ms,
        "mark": round(m.r * 1.1, 1),
    }
    r = trace.result
    head = title or f"{trace.algorithm} on {tree.root}"
    if isinstance(caption, str):
        sub = caption
    elif caption:
        sub = (f"{trace.algorithm} in {trace.engine}, window {_num(trace.alpha)} .. {_num(trace.beta)}. "
               f"Result: GoodPos = {r.best if r.best is not None else '(none)'}, "
               f"Val = {_num(r.value)}; cut off: {', '.join(r.pruned) or 'nothing'}"
               + (f"; horizon (depth limit): {', '.join(r.horizon)}" if r.horizon else "")
               + f". {value_words(r)}. Steps: {trace.source}.")
    else:
        sub = ""
    note = data["code"].get("note", "")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(head)}</title>
<style>{assets.text('stepper.css')}</style>
</head>
<body data-step="0" data-delay="{delay_ms}"{' class="present"' if presentation else ''}>
<div id="head"><h1>{escape(head)}</h1>
<div id="controls">
<button id="first" title="Home">Home</button><button id="prev" title="Left arrow">&#x2190;</button>
<button id="next" title="Right arrow">&#x2192;</button><button id="last" title="End">End</button>
<span id="counter"></span>
<button id="play" title="P">Play</button>
<label>speed <input id="speed" type="range" min="100" max="3000" step="100" value="{delay_ms}"></label>
<span id="speed-shown">{delay_ms / 1000:.1f} s</span>
<button id="zoom-out" title="-">&#x2212;</button><button id="fit" title="F">Fit</button>
<button id="zoom-in" title="+">+</button>
<span id="zoom-level">100%</span>
<button id="quiz" title="Q">Quiz</button>
</div></div>
{f'<div class="sub">{escape(sub)}</div>' if sub else ''}
<div id="quiz-bar">Quiz: which nodes will alpha-beta never search? Click them (or Tab to a node and press Enter), then
<button id="check" title="C">Check</button><span id="quiz-result"></span><ul id="quiz-why"></ul></div>
<div id="stage"><div id="picture">
{write(m)}
</div>
{_legend(m, trace)}</div>
<div id="what"></div>
<div id="panels">
<table id="frame"><caption>Frame</caption>
<tr><th>Pos</th><th>Alpha</th><th>Beta</th><th>GoodPos</th><th>Val</th></tr>
<tr><td id="f-pos"></td><td id="f-alpha"></td><td id="f-beta"></td><td id="f-good"></td><td id="f-val"></td></tr>
</table>
<div id="code"><b>Running: <span id="code-title"></span></b>
<div id="code-body"><pre id="code-lines"></pre><table id="vars"></table></div>
{f'<div id="code-note">{escape(note)}</div>' if note else ''}</div>
<table id="stack"><caption>Open calls, windows now</caption>
<thead><tr><th>Pos</th><th>Alpha</th><th>Beta</th></tr></thead><tbody></tbody>
</table>
</div>
<div class="keys">Keys: &#x2192; Space PageDown next, &#x2190; PageUp back, Home End, P play, F fit,
+ - zoom, Q quiz; drag to pan.</div>
<script type="application/json" id="pyab-data">{_script_json(data)}</script>
<script>{assets.text('stepper.js')}</script>
</body>
</html>
"""
