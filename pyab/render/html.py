"""One self-contained HTML page that steps through a search like the slides.

No network: the SVG, the style and the script are inline.  The page shows
the tree (``svg.svg`` markup), the current step in words, the slides' frame
(Alpha, Beta, GoodPos, Val) and the stack of open alphabeta/5 calls with
their windows.  Keys: → / Space / PageDown (a presentation clicker) next
step, ← / PageUp / Backspace previous, End last, Home first, P autoplay,
F zoom to fit, + / - zoom, 0 full size, Q quiz; drag the picture to pan.
The buttons do the same.  The quiz hides the run, shows the leaves' static
values and asks the student to pick (click, or Tab then Enter) the nodes
whose subtrees will never be searched; Check (C) marks each pick right,
wrong or missed against the recorded run and then shows that run.  The script replays the steps from the start on every
move (cheap for a few thousand steps) and sets, per node element
(``[data-node]``): ``visited``, ``open`` (on the stack), ``current``,
``pruned`` (a cut-off subtree's root, from the step that cuts it on),
``cutoff`` (below such a root) and ``best`` (the chosen line, once the
root has returned); its ``.value`` and ``.window`` texts show the value
backed up so far and the window of the open call.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from ..result import json_number, value_words
from .trace import Trace, _num
from .svg import svg
from .table import rows

__all__ = ["page"]

_CSS = """
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.2em; margin: 0 0 .3em 0; }
.sub { color: #555; font-size: .9em; margin-bottom: .6em; }
#controls button { font-size: 1em; min-width: 3em; margin-right: .3em; }
#counter { margin-left: .8em; font-weight: bold; }
#what { margin: .6em 0; min-height: 1.4em; font-family: monospace; font-size: 1.05em; }
#panels { display: flex; gap: 2em; align-items: flex-start; margin-bottom: .8em; }
table { border-collapse: collapse; font-size: .9em; }
th, td { border: 1px solid #bbb; padding: .15em .6em; text-align: right; }
th { background: #eee; }
caption { font-weight: bold; text-align: left; padding-bottom: .2em; white-space: nowrap; }
#stack td:first-child { text-align: left; }
#picture { overflow: auto; border: 1px solid #ddd; max-height: 75vh; cursor: grab; }
#picture.dragging { cursor: grabbing; user-select: none; }
#controls .sep { display: inline-block; width: .8em; }
#quiz-bar { display: none; margin: .4em 0; padding: .3em .6em; background: #fff4d6; border: 1px solid #e0c070; }
body.quiz #quiz-bar { display: block; }
body.quiz #picture [data-node] { cursor: pointer; }
#quiz-result { font-weight: bold; margin-left: 1em; }
.legend { font-size: .8em; color: #555; margin-top: .4em; }
"""

_JS = r"""
(function () {
  const DATA = JSON.parse(document.getElementById("pyab-data").textContent);
  const steps = DATA.steps, N = steps.length;
  const nodes = new Map(), edges = new Map(), labels = new Map();
  document.querySelectorAll("#picture [data-node]").forEach(function (g) {
    nodes.set(g.getAttribute("data-node"), g);
  });
  document.querySelectorAll("#picture [data-edge]").forEach(function (e) {
    edges.set(e.getAttribute("data-edge"), e);
  });
  document.querySelectorAll("#picture [data-cut-for]").forEach(function (t) {
    labels.set(t.getAttribute("data-cut-for"), t);
  });
  const kids = DATA.kids, parent = {};
  Object.keys(kids).forEach(function (p) { kids[p].forEach(function (k) { parent[k] = p; }); });
  const num = function (x) {
    if (x === null || x === undefined) return "";
    if (x === "inf" || x === "-inf") return x;
    return String(x);
  };
  let at = 0, quiz = false, checked = false, timer = null, scale = 1;
  const guesses = new Set();
  const svgEl = document.querySelector("#picture svg"), box = document.getElementById("picture");
  const baseW = parseFloat(svgEl.getAttribute("width")), baseH = parseFloat(svgEl.getAttribute("height"));

  function below(name, out) {
    const todo = (kids[name] || []).slice();
    while (todo.length) { const k = todo.pop(); out.add(k); (kids[k] || []).forEach(function (c) { todo.push(c); }); }
  }

  function show(k) {
    at = Math.max(0, Math.min(N, k));
    const visited = new Set(), pruned = new Set(), cutoff = new Set(), cutKind = {}, horizon = new Set();
    const value = {}, best = {}, stack = [], win = {}, cutFirst = new Set();
    for (let i = 0; i < at; i++) {
      const s = steps[i];
      if (s.kind === "call") {
        visited.add(s.node);
        stack.push({node: s.node, alpha: s.alpha, beta: s.beta});
        if (s.alpha !== undefined) win[s.node] = [s.alpha, s.beta];
      } else if (s.kind === "leaf") {
        value[s.node] = s.value;
      } else if (s.kind === "bounds") {
        const top = stack[stack.length - 1];
        if (top) { top.alpha = s.new_alpha; top.beta = s.new_beta; }
        win[s.node] = [s.new_alpha, s.new_beta];
      } else if (s.kind === "horizon") {
        (s.removed || []).forEach(function (r) { horizon.add(r); });
      } else if (s.kind === "cut") {
        (s.removed || []).forEach(function (r) { pruned.add(r); cutKind[r] = s.cut || ""; below(r, cutoff); });
        if (s.removed && s.removed.length) cutFirst.add(s.removed[0]);
      } else if (s.kind === "return") {
        if (s.value !== undefined) value[s.node] = s.value;
        if (s.best !== undefined) best[s.node] = s.best;
        while (stack.length && stack[stack.length - 1].node !== s.node) stack.pop();
        stack.pop();
      }
    }
    const open = new Map(stack.map(function (f) { return [f.node, f]; }));
    const cur = at > 0 ? steps[at - 1].node : null;
    const line = new Set();
    if (at === N && DATA.root_value_known) {
      let n = DATA.root; line.add(n);
      while (best[n] !== undefined && !line.has(best[n])) { n = best[n]; line.add(n); }
    }
    nodes.forEach(function (g, name) {
      const c = g.classList;
      c.toggle("visited", visited.has(name));
      c.toggle("open", open.has(name));
      c.toggle("current", name === cur);
      c.toggle("pruned", pruned.has(name));
      c.toggle("cutoff", cutoff.has(name));
      c.toggle("horizon", horizon.has(name));
      c.toggle("best", line.has(name));
      const shown = quiz && !checked && name in DATA.static ? DATA.static[name] : value[name];
      g.querySelector(".value").textContent = shown !== undefined ? num(shown) : "";
      const w = win[name], wt = g.querySelector(".window");
      wt.textContent = w ? "[" + num(w[0]) + ", " + num(w[1]) + "]" : "";
      wt.classList.toggle("closed", !open.has(name));
    });
    edges.forEach(function (e, key) {
      const pc = key.split("\t"), child = pc[1];
      e.classList.toggle("searched", visited.has(child));
      e.classList.toggle("cut", pruned.has(child));
      e.classList.toggle("horizon", horizon.has(child));
      e.classList.toggle("best", line.has(child) && line.has(pc[0]));
    });
    labels.forEach(function (t, child) {
      t.classList.toggle("shown", pruned.has(child) && cutFirst.has(child));
      t.textContent = cutKind[child] === "alpha" ? "\u03b1-cut" : cutKind[child] === "beta" ? "\u03b2-cut" : "cut";
    });
    document.getElementById("counter").textContent = "step " + at + " / " + N;
    document.getElementById("what").textContent = at > 0 ? steps[at - 1].text :
      "Press \u2192 to start: alphabeta(" + DATA.root + ", " + num(DATA.alpha) + ", " + num(DATA.beta) + ")";
    const row = at > 0 ? DATA.rows[at - 1] : ["", "", num(DATA.alpha), num(DATA.beta), "", "", ""];
    ["f-pos", "f-alpha", "f-beta", "f-good", "f-val"].forEach(function (id, j) {
      document.getElementById(id).textContent = row[[1, 2, 3, 4, 5][j]].trim();
    });
    const body = document.querySelector("#stack tbody");
    body.textContent = "";
    stack.slice().reverse().forEach(function (f) {
      const tr = document.createElement("tr");
      [f.node, num(f.alpha), num(f.beta)].forEach(function (v) {
        const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    document.body.setAttribute("data-step", String(at));
    if (cur && nodes.has(cur) && nodes.get(cur).scrollIntoView) {
      nodes.get(cur).scrollIntoView({block: "nearest", inline: "nearest"});
    }
  }

  // -- zoom and pan ---------------------------------------------------------
  function zoom(k) {
    scale = Math.max(0.1, Math.min(4, k));
    svgEl.setAttribute("width", String(Math.round(baseW * scale)));
    svgEl.setAttribute("height", String(Math.round(baseH * scale)));
    document.getElementById("zoom-level").textContent = Math.round(scale * 100) + "%";
    document.body.setAttribute("data-zoom", scale.toFixed(3));
  }
  function fit() {
    const w = box.clientWidth - 4, h = Math.max(200, window.innerHeight * 0.75 - 4);
    zoom(Math.min(1.5, w / baseW, h / baseH));
  }
  let drag = null;
  box.addEventListener("mousedown", function (ev) {
    if (quiz && !checked && ev.target.closest("[data-node]")) return;
    drag = {x: ev.clientX, y: ev.clientY, left: box.scrollLeft, top: box.scrollTop};
    box.classList.add("dragging");
  });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) return;
    box.scrollLeft = drag.left - (ev.clientX - drag.x);
    box.scrollTop = drag.top - (ev.clientY - drag.y);
  });
  window.addEventListener("mouseup", function () { drag = null; box.classList.remove("dragging"); });

  // -- autoplay -------------------------------------------------------------
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on && !(quiz && !checked)) {
      if (at >= N) show(0);
      timer = setInterval(function () { if (at >= N) play(false); else show(at + 1); }, DATA.delay);
    }
    document.getElementById("play").textContent = timer ? "Pause" : "Play";
    document.body.setAttribute("data-playing", timer ? "yes" : "no");
  }

  // -- quiz: which subtrees will be cut off? -------------------------------
  function setQuiz(on) {
    play(false);
    quiz = on; checked = false; guesses.clear();
    document.body.classList.toggle("quiz", on);
    document.body.setAttribute("data-quiz", on ? "asking" : "off");
    nodes.forEach(function (g, name) {
      g.classList.remove("guess", "quiz-right", "quiz-wrong", "quiz-missed");
      if (on && name !== DATA.root) g.setAttribute("tabindex", "0"); else g.removeAttribute("tabindex");
    });
    document.getElementById("quiz-result").textContent = "";
    show(0);
  }
  function guess(name) {
    if (!quiz || checked || name === DATA.root) return;
    if (guesses.has(name)) guesses.delete(name); else guesses.add(name);
    nodes.get(name).classList.toggle("guess", guesses.has(name));
  }
  function check() {
    if (!quiz || checked) return;
    checked = true;
    const truth = new Set(DATA.pruned);
    let right = 0, wrong = 0;
    nodes.forEach(function (g, name) {
      const picked = guesses.has(name), cut = truth.has(name);
      g.classList.toggle("quiz-right", picked && cut);
      g.classList.toggle("quiz-wrong", picked && !cut);
      g.classList.toggle("quiz-missed", !picked && cut);
      if (picked && cut) right++;
      if (picked && !cut) wrong++;
    });
    document.getElementById("quiz-result").textContent =
      right + " of " + truth.size + " cut-off subtrees found, " + wrong + " wrong" +
      (right === truth.size && wrong === 0 ? ": all right!" : "");
    document.body.setAttribute("data-quiz", "checked");
    show(N);
  }
  nodes.forEach(function (g, name) {
    g.addEventListener("click", function () { guess(name); });
    g.addEventListener("keydown", function (ev) {
      if (quiz && !checked && (ev.key === "Enter" || ev.key === " ")) {
        guess(name); ev.preventDefault(); ev.stopPropagation();
      }
    });
  });

  window.pyabStep = show;
  window.pyabFit = fit;
  const stepping = function () { return !(quiz && !checked); };
  const on = function (id, f) { document.getElementById(id).onclick = f; };
  on("first", function () { if (stepping()) show(0); });
  on("prev", function () { if (stepping()) show(at - 1); });
  on("next", function () { if (stepping()) show(at + 1); });
  on("last", function () { if (stepping()) show(N); });
  on("play", function () { play(!timer); });
  on("fit", fit);
  on("zoom-in", function () { zoom(scale * 1.25); });
  on("zoom-out", function () { zoom(scale / 1.25); });
  on("quiz", function () { setQuiz(!quiz); });
  on("check", check);
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (k === "q" || k === "Q") setQuiz(!quiz);
    else if ((k === "c" || k === "C") && quiz) check();
    else if (k === "f" || k === "F") fit();
    else if (k === "+" || k === "=") zoom(scale * 1.25);
    else if (k === "-") zoom(scale / 1.25);
    else if (k === "0") zoom(1);
    else if (!stepping()) return;
    else if (k === "ArrowRight" || k === "PageDown" || (k === " " && !ev.shiftKey)) { play(false); show(at + 1); }
    else if (k === "ArrowLeft" || k === "PageUp" || k === "Backspace" || (k === " " && ev.shiftKey)) { play(false); show(at - 1); }
    else if (k === "End") { play(false); show(N); }
    else if (k === "Home") { play(false); show(0); }
    else if (k === "p" || k === "P") play(!timer);
    else return;
    ev.preventDefault();
  });
  show(0);
  fit();
})();
"""


def _script_json(obj: Any) -> str:
    """JSON that is safe inside a <script> element."""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def page(trace: Trace, title: str = "", delay_ms: int = 900) -> str:
    """The HTML page for ``trace`` (see the module docstring)."""
    tree = trace.tree
    data = {
        "root": tree.root,
        "alpha": json_number(trace.alpha),
        "beta": json_number(trace.beta),
        "root_value_known": True,
        "kids": {n: list(tree.children(n)) for n, ks in zip(tree.names, tree.kids) if ks},
        "steps": [dict(s.to_json(), text=s.text()) for s in trace.steps],
        "rows": [list(r) for r in rows(trace)],
        "pruned": list(trace.result.pruned),
        "static": {n: json_number(v) for n, ks, v in zip(tree.names, tree.kids, tree.values)
                   if not ks and v is not None},
        "delay": delay_ms,
    }
    r = trace.result
    how = trace.source
    head = title or f"{trace.algorithm} on {tree.root}"
    sub = (f"{trace.algorithm} in {trace.engine}, window {_num(trace.alpha)} .. {_num(trace.beta)}; "
           f"{how}. Result: GoodPos = {r.best if r.best is not None else '(none)'}, "
           f"Val = {_num(r.value)}; cut off: {', '.join(r.pruned) or 'nothing'}"
           + (f"; horizon (depth limit): {', '.join(r.horizon)}" if r.horizon else "")
           + f". {value_words(r)}.")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(head)}</title>
<style>{_CSS}</style>
</head>
<body data-step="0">
<h1>{escape(head)}</h1>
<div class="sub">{escape(sub)}</div>
<div id="controls">
<button id="first" title="Home">Home</button><button id="prev" title="Left arrow">&#x2190;</button><button id="next" title="Right arrow">&#x2192;</button><button id="last" title="End">End</button>
<span id="counter"></span><span class="sep"></span>
<button id="play" title="P">Play</button><span class="sep"></span>
<button id="zoom-out" title="-">&#x2212;</button><button id="fit" title="F">Fit</button><button id="zoom-in" title="+">+</button>
<span id="zoom-level">100%</span><span class="sep"></span>
<button id="quiz" title="Q">Quiz</button>
</div>
<div id="quiz-bar">Quiz: which subtrees will alpha-beta never search? Click them (or Tab to a node and press Enter), then
<button id="check" title="C">Check</button><span id="quiz-result"></span></div>
<div id="what"></div>
<div id="panels">
<table id="frame"><caption>Frame</caption>
<tr><th>Pos</th><th>Alpha</th><th>Beta</th><th>GoodPos</th><th>Val</th></tr>
<tr><td id="f-pos"></td><td id="f-alpha"></td><td id="f-beta"></td><td id="f-good"></td><td id="f-val"></td></tr>
</table>
<table id="stack"><caption>Open calls (innermost first)</caption>
<thead><tr><th>Pos</th><th>Alpha</th><th>Beta</th></tr></thead><tbody></tbody>
</table>
</div>
<div id="picture">
{svg(tree, trace, final=False)}
</div>
<div class="legend">&#x25B2; MAX to move, &#x25BC; MIN to move; the value inside, the name and [alpha, beta] window under each node;
yellow: the current node; orange outline: open calls; blue window: its call is open; faded: cut off (dashed edge, &#x3b1;-cut or &#x3b2;-cut); green: the chosen line.
Keys: &#x2192; Space PageDown next, &#x2190; PageUp back, Home End, P play, F fit, + - zoom, Q quiz; drag to pan.</div>
<script type="application/json" id="pyab-data">{_script_json(data)}</script>
<script>{_JS}</script>
</body>
</html>
"""
