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
  // The legend beside the picture when the tree is short and room is left
  // over at its sides, else in lines under it (a wide tree needs the width).
  const stage = document.getElementById("stage"), legend = document.getElementById("legend");
  function placeLegend() {
    const st = stage.getBoundingClientRect();
    if (st.width <= 0 || st.height <= 0 || !legend) return;
    const em = parseFloat(getComputedStyle(legend).fontSize);
    const side = baseW / baseH <= (st.width - 16 * em) / st.height;
    stage.classList.toggle("wide", !side);
    document.body.setAttribute("data-legend", side ? "beside" : "below");
  }
  function fit() {
    fitted = true;
    const w = box.clientWidth - 4;
    if (w <= 0) return;  // hidden: refit when shown
    const h = box.clientHeight - 4;
    if (h <= 0) return;
    zoom(Math.min(w / baseW, h / baseH), false);
  }
  const refit = function () { if (fitted) fit(); };
  if (window.ResizeObserver) new ResizeObserver(refit).observe(box);
  if (window.IntersectionObserver) {
    new IntersectionObserver(function (es) {
      if (es.some(function (e) { return e.isIntersecting; })) refit();
    }).observe(box);
  }
  window.addEventListener("resize", function () { placeLegend(); refit(); });
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
  placeLegend();
  fit();
})();
