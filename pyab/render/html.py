"""One self-contained HTML page that steps through a search like the slides.

No network: the SVG (``pyab.render.model``, the picture every format
draws), the style and the script are inline.  The page shows the tree, the
current step in words, the slides' frame (Pos, Alpha, Beta, GoodPos, Val),
the clause or pseudo-code line being run with its variables
(``pyab.render.code``) and the stack of open calls with their windows as
they are now.  Each node keeps the window it was *called* with.

Keys: → / Space / PageDown (a presentation clicker) next step, ← / PageUp /
Backspace previous, End last, Home first, P autoplay (the speed slider sets
its pace), F zoom to fit, + / - zoom, 0 full size, Q quiz; drag the picture
to pan.  The picture refits whenever its box changes size or comes into
view (a ResizeObserver and an IntersectionObserver), until you zoom by
hand; F fits it again.  There is no zoom cap.

``presentation=True`` is the lecture-hall page: the picture drawn with
18-pixel labels (``font``), every text on the page 18 pixels or more,
black on white, the title you give, the caption only when asked for, and
everything laid out to fill one screen.

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
from .svg import svg, write
from .table import rows

__all__ = ["page"]

_CSS = """
body { font-family: 'Liberation Sans', Arial, sans-serif; margin: 1em; color: #111; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 .3em 0; }
.sub { color: #333; font-size: .95em; margin-bottom: .6em; }
#controls button { font-size: 1em; min-width: 3em; margin-right: .3em; }
#controls label { margin-left: .6em; }
#counter { margin-left: .8em; font-weight: bold; }
#what { margin: .6em 0; min-height: 1.4em; font-family: 'Liberation Mono', monospace; font-size: 1.05em; }
#panels { display: flex; gap: 1.5em; align-items: flex-start; margin-bottom: .8em; flex-wrap: wrap; }
table { border-collapse: collapse; font-size: .95em; }
th, td { border: 1px solid #888; padding: .15em .6em; text-align: right; }
th { background: #eee; }
caption { font-weight: bold; text-align: left; padding-bottom: .2em; white-space: nowrap; }
#stack td:first-child { text-align: left; }
#vars { margin-top: .3em; }
#code { font-size: .95em; }
#code pre { margin: 0; font-family: 'Liberation Mono', monospace; font-size: 1em; line-height: 1.3; }
#code pre span { display: block; white-space: pre; padding: 0 .3em; }
#code pre span.now { background: #ffd200; font-weight: bold; }
#code-note { color: #333; font-size: .85em; }
#picture { overflow: auto; border: 1px solid #bbb; max-height: 75vh; cursor: grab; }
#picture.dragging { cursor: grabbing; user-select: none; }
#picture svg { display: block; margin: 0 auto; }
#quiz-bar { display: none; margin: .4em 0; padding: .3em .6em; background: #fff4d6; border: 1px solid #a07000; }
body.quiz #quiz-bar { display: block; }
body.quiz #picture [data-node] { cursor: pointer; }
#quiz-result { font-weight: bold; margin-left: 1em; }
#quiz-why { margin: .3em 0 0 0; padding-left: 1.2em; }
.keys { font-size: .85em; color: #333; margin-top: .4em; }
body.present { margin: 8px; font-size: 22px; display: flex; flex-direction: column; height: calc(100vh - 16px);
  overflow: hidden; box-sizing: border-box; }
body.present h1 { font-size: 32px; margin: 0; }
body.present .sub { font-size: 20px; color: #000; margin: 0; }
body.present #controls { font-size: 20px; margin: 4px 0; }
body.present #controls button { font-size: 20px; }
body.present #what { font-size: 22px; margin: 4px 0; font-weight: bold; }
body.present #picture { flex: 1 1 auto; max-height: none; min-height: 0; border-color: #000; }
body.present #panels { flex: 0 0 auto; margin: 4px 0 0 0; font-size: 20px; flex-wrap: nowrap; min-height: 250px; }
body.present table, body.present #code, body.present #code-note, body.present .keys { font-size: 20px; }
body.present th, body.present td { border-color: #000; }
body.present .keys { display: none; }
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
  const kids = DATA.kids;
  const num = function (x) {
    if (x === null || x === undefined) return "";
    return String(x);
  };
  const win = function (x) {
    if (x === "inf") return "\u221e";
    if (x === "-inf") return "\u2212\u221e";
    return num(x);
  };
  let at = 0, quiz = false, checked = false, timer = null, scale = 1, fitted = true;
  let delay = DATA.delay;
  const guesses = new Set();
  const svgEl = document.querySelector("#picture svg"), box = document.getElementById("picture");
  const baseW = parseFloat(svgEl.getAttribute("width")), baseH = parseFloat(svgEl.getAttribute("height"));

  function below(name, out) {
    const todo = (kids[name] || []).slice();
    while (todo.length) { const k = todo.pop(); out.add(k); (kids[k] || []).forEach(function (c) { todo.push(c); }); }
  }

  function showCode(k) {
    // the clause (or routine) being run: its head, and the lines around the current one
    const code = DATA.code, here = k > 0 ? code.at[k - 1] : null;
    const pre = document.getElementById("code-lines"), vars = document.getElementById("vars");
    pre.textContent = ""; vars.textContent = "";
    document.getElementById("code-title").textContent = here ? here[0] : "";
    if (!here) return;
    const lines = code.routines[here[0]] || [], at = here[1];
    let start = at, end = at + 1;
    while (start > 0 && /^\s/.test(lines[start])) start--;
    while (end < lines.length && /^\s/.test(lines[end])) end++;
    let shown = [];
    for (let i = start; i < end; i++) shown.push(i);
    if (shown.length > 6) {
      shown = [start].concat(shown.filter(function (i) { return i > start && i >= at - 2 && i <= at + 2; }));
    }
    shown.forEach(function (i) {
      const span = document.createElement("span");
      span.textContent = (i === at ? "\u25b6 " : "  ") + lines[i];
      if (i === at) span.className = "now";
      pre.appendChild(span);
    });
    const names = Object.keys(here[2]);
    const head = document.createElement("tr"), row = document.createElement("tr");
    names.forEach(function (name) {
      const th = document.createElement("th"); th.textContent = name; head.appendChild(th);
      const td = document.createElement("td"); td.textContent = String(here[2][name]); row.appendChild(td);
    });
    const cap = document.createElement("caption"); cap.textContent = "Its variables";
    vars.appendChild(cap); vars.appendChild(head); vars.appendChild(row);
  }

  function show(k) {
    at = Math.max(0, Math.min(N, k));
    const visited = new Set(), pruned = new Set(), cutoff = new Set(), cutKind = {}, horizon = new Set();
    const value = {}, best = {}, stack = [], called = {}, cutLast = new Set();
    for (let i = 0; i < at; i++) {
      const s = steps[i];
      if (s.kind === "call") {
        visited.add(s.node);
        stack.push({node: s.node, alpha: s.alpha, beta: s.beta});
        if (s.alpha !== undefined && !(s.node in called)) called[s.node] = [s.alpha, s.beta];
      } else if (s.kind === "leaf") {
        value[s.node] = s.value;
      } else if (s.kind === "bounds") {
        const top = stack[stack.length - 1];
        if (top) { top.alpha = s.new_alpha; top.beta = s.new_beta; }
      } else if (s.kind === "horizon") {
        (s.removed || []).forEach(function (r) { horizon.add(r); });
      } else if (s.kind === "cut") {
        (s.removed || []).forEach(function (r) { pruned.add(r); cutKind[r] = s.cut || ""; below(r, cutoff); });
        if (s.removed && s.removed.length) cutLast.add(s.removed[s.removed.length - 1]);
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
      const w = called[name], wt = g.querySelector(".window");
      if (wt) wt.textContent = w ? "[" + win(w[0]) + ", " + win(w[1]) + "]" : "";
    });
    edges.forEach(function (e, key) {
      const pc = key.split("\t"), child = pc[1];
      e.classList.toggle("searched", visited.has(child));
      e.classList.toggle("cut", pruned.has(child));
      e.classList.toggle("horizon", horizon.has(child));
      e.classList.toggle("best", line.has(child) && line.has(pc[0]));
    });
    labels.forEach(function (t, child) {
      t.classList.toggle("shown", pruned.has(child) && cutLast.has(child));
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
    showCode(at);
    document.body.setAttribute("data-step", String(at));
    if (!fitted && cur && nodes.has(cur) && nodes.get(cur).scrollIntoView) {
      nodes.get(cur).scrollIntoView({block: "nearest", inline: "nearest"});
    }
  }

  // -- zoom and pan: refit whenever the box changes, until zoomed by hand -----
  function zoom(k, byHand) {
    if (byHand) fitted = false;
    scale = Math.max(0.05, k);
    svgEl.setAttribute("width", String(Math.round(baseW * scale)));
    svgEl.setAttribute("height", String(Math.round(baseH * scale)));
    document.getElementById("zoom-level").textContent = Math.round(scale * 100) + "%";
    document.body.setAttribute("data-zoom", scale.toFixed(3));
  }
  function fit() {
    fitted = true;
    const w = box.clientWidth - 4;
    if (w <= 0) return;  // hidden: refit when shown
    const present = document.body.classList.contains("present");
    const h = present ? box.clientHeight - 4 : Math.max(200, window.innerHeight * 0.75 - 4);
    zoom(Math.min(w / baseW, h / baseH), false);
  }
  const refit = function () { if (fitted) fit(); };
  if (window.ResizeObserver) new ResizeObserver(refit).observe(box);
  if (window.IntersectionObserver) {
    new IntersectionObserver(function (es) {
      if (es.some(function (e) { return e.isIntersecting; })) refit();
    }).observe(box);
  }
  window.addEventListener("resize", refit);
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

  // -- autoplay, at the speed the slider sets -------------------------------
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on && !(quiz && !checked)) {
      if (at >= N) show(0);
      timer = setInterval(function () { if (at >= N) play(false); else show(at + 1); }, delay);
    }
    document.getElementById("play").textContent = timer ? "Pause" : "Play";
    document.body.setAttribute("data-playing", timer ? "yes" : "no");
  }
  const speed = document.getElementById("speed");
  speed.addEventListener("input", function () {
    delay = parseInt(speed.value, 10);
    document.getElementById("speed-shown").textContent = (delay / 1000).toFixed(1) + " s";
    document.body.setAttribute("data-delay", String(delay));
    if (timer) play(true);
  });

  // -- quiz: which nodes will alpha-beta never search? -----------------------
  const never = new Set(DATA.never);
  function mark(name, sign) {
    const g = nodes.get(name);
    let t = g.querySelector(".mark");
    if (!sign) { if (t) t.remove(); return; }
    if (!t) {
      t = document.createElementNS(svgEl.namespaceURI, "text");
      t.setAttribute("class", "mark");
      t.setAttribute("x", String(-DATA.mark)); t.setAttribute("y", String(-DATA.mark * 0.9));
      t.setAttribute("text-anchor", "end"); g.appendChild(t);
    }
    t.textContent = sign;
  }
  function setQuiz(on) {
    play(false);
    quiz = on; checked = false; guesses.clear();
    document.body.classList.toggle("quiz", on);
    document.body.setAttribute("data-quiz", on ? "asking" : "off");
    nodes.forEach(function (g, name) {
      g.classList.remove("guess", "quiz-right", "quiz-wrong", "quiz-missed");
      mark(name, "");
      if (on && name !== DATA.root) g.setAttribute("tabindex", "0"); else g.removeAttribute("tabindex");
    });
    document.getElementById("quiz-result").textContent = "";
    document.getElementById("quiz-why").textContent = "";
    show(0);
  }
  function guess(name) {
    if (!quiz || checked || name === DATA.root) return;
    if (guesses.has(name)) guesses.delete(name); else guesses.add(name);
    nodes.get(name).classList.toggle("guess", guesses.has(name));
    mark(name, guesses.has(name) ? "\u25cf" : "");
  }
  function check() {
    if (!quiz || checked) return;
    checked = true;
    let right = 0, wrong = 0, found = 0;
    const why = [];
    nodes.forEach(function (g, name) {
      const picked = guesses.has(name), ok = never.has(name);
      g.classList.toggle("quiz-right", picked && ok);
      g.classList.toggle("quiz-wrong", picked && !ok);
      if (picked && ok) { right++; mark(name, "\u2713"); why.push("\u2713 " + name + ": right. " + DATA.why[name]); }
      if (picked && !ok) { wrong++; mark(name, "\u2717"); why.push("\u2717 " + name + ": wrong. " + DATA.why[name]); }
    });
    DATA.pruned.forEach(function (root) {
      const inside = new Set([root]); below(root, inside);
      if ([...inside].some(function (n) { return guesses.has(n); })) { found++; return; }
      nodes.get(root).classList.add("quiz-missed"); mark(root, "?");
      why.push("? " + root + ": missed. " + DATA.why[root]);
    });
    document.getElementById("quiz-result").textContent =
      found + " of " + DATA.pruned.length + " cut-off subtrees found, " + wrong + " wrong" +
      (found === DATA.pruned.length && wrong === 0 ? ": all right!" : "");
    const list = document.getElementById("quiz-why");
    why.forEach(function (w) { const li = document.createElement("li"); li.textContent = w; list.appendChild(li); });
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
  on("zoom-in", function () { zoom(scale * 1.25, true); });
  on("zoom-out", function () { zoom(scale / 1.25, true); });
  on("quiz", function () { setQuiz(!quiz); });
  on("check", check);
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target && ev.target.tagName === "INPUT") return;
    const k = ev.key;
    if (k === "q" || k === "Q") setQuiz(!quiz);
    else if ((k === "c" || k === "C") && quiz) check();
    else if (k === "f" || k === "F") fit();
    else if (k === "+" || k === "=") zoom(scale * 1.25, true);
    else if (k === "-") zoom(scale / 1.25, true);
    else if (k === "0") zoom(1, true);
    else if (!stepping()) return;
    else if (k === "ArrowRight" || k === "PageDown" || (k === " " && !ev.shiftKey)) { play(false); show(at + 1); }
    else if (k === "ArrowLeft" || k === "PageUp" || k === "Backspace" || (k === " " && ev.shiftKey)) {
      play(false); show(at - 1);
    }
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
                f"<title>{escape(head)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
                f"<h1>{escape(head)}</h1>\n<div id=\"picture\">\n{svg(tree, None, **options)}\n</div>\n"
                f"</body>\n</html>\n")
    tree = trace.tree
    if presentation:
        options = {"font": 18, "max_width": 1860, **options}
    if caption is None:
        caption = not presentation
    from .model import model
    m = model(tree, trace, final=False, caption=False, **options)
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
<style>{_CSS}</style>
</head>
<body data-step="0" data-delay="{delay_ms}"{' class="present"' if presentation else ''}>
<h1>{escape(head)}</h1>
{f'<div class="sub">{escape(sub)}</div>' if sub else ''}
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
</div>
<div id="quiz-bar">Quiz: which nodes will alpha-beta never search? Click them (or Tab to a node and press Enter), then
<button id="check" title="C">Check</button><span id="quiz-result"></span><ul id="quiz-why"></ul></div>
<div id="picture">
{write(m)}
</div>
<div id="what"></div>
<div id="panels">
<table id="frame"><caption>Frame</caption>
<tr><th>Pos</th><th>Alpha</th><th>Beta</th><th>GoodPos</th><th>Val</th></tr>
<tr><td id="f-pos"></td><td id="f-alpha"></td><td id="f-beta"></td><td id="f-good"></td><td id="f-val"></td></tr>
</table>
<div id="code"><b>Running: <span id="code-title"></span></b>
<pre id="code-lines"></pre>{f'<div id="code-note">{escape(note)}</div>' if note else ''}
<table id="vars"></table></div>
<table id="stack"><caption>Open calls, windows now</caption>
<thead><tr><th>Pos</th><th>Alpha</th><th>Beta</th></tr></thead><tbody></tbody>
</table>
</div>
<div class="keys">Keys: &#x2192; Space PageDown next, &#x2190; PageUp back, Home End, P play, F fit,
+ - zoom, Q quiz; drag to pan.</div>
<script type="application/json" id="pyab-data">{_script_json(data)}</script>
<script>{_JS}</script>
</body>
</html>
"""
