(function () {
  // -- a seeded random stream (mulberry32), so a seed gives the same trees ----
  function stream(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const $ = function (id) { return document.getElementById(id); };
  const params = new URLSearchParams(location.hash.slice(1));
  ["seed", "depth", "bmin", "bmax", "lo", "hi", "algorithm"].forEach(function (k) {
    if (params.has(k)) $(k).value = params.get(k);
  });
  let rand = stream(parseInt($("seed").value, 10) || (Date.now() & 0xffffffff));
  $("seed").addEventListener("change", function () { rand = stream(parseInt($("seed").value, 10) || 0); });
  const int = function (lo, hi) { return lo + Math.floor(rand() * (hi - lo + 1)); };
  const num = function (x) { return x === Infinity ? "inf" : x === -Infinity ? "-inf" : String(x); };
  const shown = function (x) { return x === Infinity ? "\u221e" : x === -Infinity ? "\u2212\u221e" : String(x); };

  // -- the tree: Dewey names as pyab's list form gives them (r, r_1, r_1_2) ---
  function makeTree() {
    const depth = +$("depth").value, bmin = +$("bmin").value, bmax = +$("bmax").value;
    const lo = +$("lo").value, hi = +$("hi").value;
    const nodes = [];
    function grow(name, d, isMax) {
      const id = nodes.length, n = {id: id, name: name, kids: [], max: isMax, depth: d, value: null};
      nodes.push(n);
      if (d === depth) { n.value = int(lo, hi); return id; }
      const b = int(bmin, bmax);
      for (let k = 1; k <= b; k++) n.kids.push(grow(name + "_" + k, d + 1, !isMax));
      return id;
    }
    grow("r", 0, true);
    return nodes;
  }
  function listText(nodes, id) {
    const n = nodes[id];
    if (!n.kids.length) return String(n.value);
    return "[" + n.kids.map(function (k) { return listText(nodes, k); }).join(", ") + "]";
  }

  // -- the searches, each as its source writes it (values from MAX's side) -----
  function search(nodes, algorithm) {
    const run = {visited: [], leaves: [], values: {}, windows: {}, cuts: {}, calledAfter: {}};
    const N = function (i) { return nodes[i]; };
    function call(i, a, b) { run.visited.push(N(i).name); run.windows[N(i).name] = [a, b]; }
    function read(i) { run.leaves.push(N(i).name); return N(i).value; }
    function done(i, v) { run.values[N(i).name] = v; return v; }
    function cut(i, j, v, a, b, kind, op) {
      const ks = N(i).kids, p = N(i).name, c = N(ks[j]).name, lim = kind === "beta" ? b : a;
      const why = kind + " cut-off at " + p + ": " + c + " = " + v + " " + op + " " + kind + " " + shown(lim);
      for (let k = j + 1; k < ks.length; k++) run.cuts[N(ks[k]).name] = why;
    }
    function bratko(i, a, b) {
      call(i, a, b);
      if (!N(i).kids.length) return [null, done(i, read(i))];
      const r = bounded(i, 0, a, b);
      done(i, r[1]);
      return r;
    }
    function bounded(i, j, a, b) {   // boundedbest, goodenough, newbounds, betterof
      const ks = N(i).kids, p = ks[j], v = bratko(p, a, b)[1], childMin = !N(p).max;
      if (j === ks.length - 1) return [p, v];
      if (childMin && v > b) { cut(i, j, v, a, b, "beta", ">"); return [p, v]; }
      if (!childMin && v < a) { cut(i, j, v, a, b, "alpha", "<"); return [p, v]; }
      let na = a, nb = b;
      if (childMin && v > a) na = v; else if (!childMin && v < b) nb = v;
      const rest = bounded(i, j + 1, na, nb);
      if ((childMin && v > rest[1]) || (!childMin && v < rest[1])) return [p, v];
      return rest;
    }
    function aima(i, a, b, scored) {  // MAX-VALUE and MIN-VALUE
      call(i, a, b);
      const ks = N(i).kids;
      if (!ks.length) return done(i, read(i));
      let v = N(i).max ? -Infinity : Infinity;
      for (let j = 0; j < ks.length; j++) {
        const w = aima(ks[j], a, b, null);
        if (scored) scored.push([ks[j], w]);
        if (N(i).max) {
          v = w > v ? w : v;
          if (v >= b) { if (j < ks.length - 1) cut(i, j, w, a, b, "beta", ">="); return done(i, v); }
          a = v > a ? v : a;
        } else {
          v = w < v ? w : v;
          if (v <= a) { if (j < ks.length - 1) cut(i, j, w, a, b, "alpha", "<="); return done(i, v); }
          b = v < b ? v : b;
        }
      }
      return done(i, v);
    }
    function strict(i, a, b, prune) {  // CS188's value(): strict cut tests; minimax: none
      call(i, a, b);
      const ks = N(i).kids;
      if (!ks.length) return [null, done(i, read(i))];
      let best = null, v = N(i).max ? -Infinity : Infinity;
      for (let j = 0; j < ks.length; j++) {
        const w = strict(ks[j], a, b, prune)[1];
        if (N(i).max) {
          if (w > v) { v = w; best = ks[j]; }
          if (prune && v > b) { if (j < ks.length - 1) cut(i, j, w, a, b, "beta", ">"); break; }
          if (prune) a = v > a ? v : a;
        } else {
          if (w < v) { v = w; best = ks[j]; }
          if (prune && v < a) { if (j < ks.length - 1) cut(i, j, w, a, b, "alpha", "<"); break; }
          if (prune) b = v < b ? v : b;
        }
      }
      return [best, done(i, v)];
    }
    let best, value;
    if (algorithm === "bratko") { const r = bratko(0, -Infinity, Infinity); best = r[0]; value = r[1]; }
    else if (algorithm === "aima") {
      const scored = [];
      value = aima(0, -Infinity, Infinity, scored);
      const hit = scored.find(function (s) { return s[1] === value; });
      best = hit ? hit[0] : null;
    } else { const r = strict(0, -Infinity, Infinity, algorithm === "strict-cut"); best = r[0]; value = r[1]; }
    run.best = best === null ? null : N(best).name;
    run.value = value;
    const seen = new Set(run.visited);
    run.pruned = [];
    nodes.forEach(function (n) {  // unvisited children of visited nodes, in tree order
      if (seen.has(n.name)) n.kids.forEach(function (k) { if (!seen.has(N(k).name)) run.pruned.push(N(k).name); });
    });
    run.never = []; run.rootOf = {};
    run.pruned.forEach(function (r) {
      const todo = [nodes.find(function (n) { return n.name === r; }).id];
      while (todo.length) {
        const i = todo.pop(); run.never.push(N(i).name); run.rootOf[N(i).name] = r;
        if (N(i).name !== r) run.cuts[N(i).name] = "it lies in the subtree of " + r + ", and the " + run.cuts[r];
        N(i).kids.forEach(function (k) { todo.push(k); });
      }
    });
    return run;
  }

  // -- drawing: the notation of pyab's pictures (MAX up, MIN down) ------------
  function draw(round) {
    const nodes = round.nodes;
    const leaves = nodes.filter(function (n) { return !n.kids.length; });
    // leaves a shape apart, or wider: their names side by side on one row
    // (about 10.5 px a character at 18 px), never staggered
    const longest = Math.max.apply(null, leaves.map(function (n) { return n.name.length; }));
    const DX = Math.max(58, Math.ceil(longest * 10.5) + 14), DY = 100, R = 20, M = 40;
    const x = {};
    leaves.forEach(function (n, k) { x[n.id] = M + k * DX; });
    for (let i = nodes.length - 1; i >= 0; i--) {
      const ks = nodes[i].kids;
      if (ks.length) x[i] = (x[ks[0]] + x[ks[ks.length - 1]]) / 2;
    }
    const y = function (n) { return M + n.depth * DY; };
    const width = M * 2 + (leaves.length - 1) * DX + 60, height = M + (+$("depth").value) * DY + 70;
    const svg = $("tree");
    svg.setAttribute("width", width); svg.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.textContent = "";
    const el = function (tag, attrs, text) {
      const e = document.createElementNS(svg.namespaceURI, tag);
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const checked = round.checked, run = round.run;
    nodes.forEach(function (n) {
      n.kids.forEach(function (k) {
        const c = nodes[k], isCut = checked && run.pruned.indexOf(c.name) >= 0;
        svg.appendChild(el("line", {"class": "edge" + (isCut ? " cut" : ""), x1: x[n.id], y1: y(n) + R,
                                    x2: x[k], y2: y(c) - R, "data-edge": n.name + "\t" + c.name}));
      });
    });
    nodes.forEach(function (n) {
      const g = el("g", {"data-node": n.name, transform: "translate(" + x[n.id] + "," + y(n) + ")"});
      const cls = [];
      if (round.picks.has(n.name)) cls.push("picked");
      if (checked && run.never.indexOf(n.name) >= 0) cls.push("never");
      g.setAttribute("class", cls.join(" "));
      const pts = n.max ? "0," + (-R - 3) + " " + (R + 5) + "," + (R - 4) + " " + (-R - 5) + "," + (R - 4)
                        : "0," + (R + 3) + " " + (R + 5) + "," + (-R + 4) + " " + (-R - 5) + "," + (-R + 4);
      g.appendChild(el("polygon", {"class": "shape", points: pts}));
      let v = !n.kids.length ? String(n.value) : checked && n.name in run.values ? String(run.values[n.name]) : "";
      g.appendChild(el("text", {"class": "val", y: n.max ? 9 : 3}, v));
      const low = R + 24;
      g.appendChild(el("text", {x: n.kids.length ? R + 8 : 0, y: n.kids.length ? 6 : low,
                                "text-anchor": n.kids.length ? "start" : "middle"}, n.name));
      if (checked && round.marks[n.name]) {
        g.appendChild(el("text", {x: -R - 8, y: -R, "text-anchor": "end", "class": "val mark"}, round.marks[n.name]));
      }
      g.addEventListener("click", function () { pick(n.name); });
      svg.appendChild(g);
    });
  }

  // -- a round: ask, check, say why ---------------------------------------------
  const rounds = [];
  let round = null, total = 0, right = 0;
  function pick(name) {
    if (!round || round.checked || name === "r") return;
    if (round.picks.has(name)) round.picks.delete(name); else round.picks.add(name);
    const box = document.querySelector('input.never[data-node="' + CSS.escape(name) + '"]');
    if (box) box.checked = round.picks.has(name);
    draw(round);
  }
  function newRound() {
    const nodes = makeTree(), algorithm = $("algorithm").value;
    const run = search(nodes, algorithm);
    const searchedInner = nodes.filter(function (n) { return n.kids.length && n.name in run.values; });
    // a few nodes to give the window of (minimax keeps no window)
    const windows = algorithm === "minimax" ? [] :
      searchedInner.filter(function () { return rand() < 0.5; }).slice(0, 3).map(function (n) { return n.name; });
    if (!windows.length && searchedInner.length && algorithm !== "minimax") {
      windows.push(searchedInner[searchedInner.length - 1].name);
    }
    round = {nodes: nodes, algorithm: algorithm, run: run, tree: listText(nodes, 0), picks: new Set(),
             asked: {values: searchedInner.map(function (n) { return n.name; }), windows: windows},
             checked: false, marks: {}, grades: []};
    const body = $("questions");
    body.textContent = "";
    nodes.forEach(function (n) {
      const tr = document.createElement("tr");
      const td = function (html) {
        const c = document.createElement("td"); if (html) c.appendChild(html); tr.appendChild(c); return c;
      };
      const input = function (cls, what) {
        const i = document.createElement("input"); i.className = cls; i.setAttribute("data-node", n.name);
        if (what) i.setAttribute("data-what", what);
        if (cls !== "never") i.type = "text"; else i.type = "checkbox";
        return i;
      };
      td(document.createTextNode("\u00a0".repeat(2 * n.depth) + n.name + (n.max ? " \u25b2" : " \u25bc")));
      td(n.kids.length ? input("val") : document.createTextNode(String(n.value)));
      if (windows.indexOf(n.name) >= 0) { td(input("win", "alpha")); td(input("win", "beta")); } else { td(); td(); }
      if (n.name !== "r") {
        const box = input("never");
        box.addEventListener("change", function () { if (box.checked !== round.picks.has(n.name)) pick(n.name); });
        td(box);
      } else td();
      tr.appendChild(Object.assign(document.createElement("td"), {className: "mark"}));
      body.appendChild(tr);
    });
    $("why").textContent = "";
    $("round").textContent = "Round " + (rounds.length + 1) + ": " + algorithm +
      ", MAX moves at r, window \u2212\u221e .. \u221e";
    $("check").disabled = false;
    rounds.push(round);
    draw(round);
  }
  function parse(text) {
    const t = text.trim().replace("\u2212", "-").replace("\u221e", "inf");
    if (t === "") return null;
    if (t === "inf" || t === "+inf") return Infinity;
    if (t === "-inf") return -Infinity;
    const v = Number(t);
    return Number.isFinite(v) ? v : NaN;
  }
  function check() {
    if (!round || round.checked) return;
    round.checked = true;
    const run = round.run, grades = [], answers = {values: {}, windows: {}, never: [...round.picks]};
    const get = function (sel) { const e = document.querySelector(sel); return e ? e.value : ""; };
    const q = function (name) { return '[data-node="' + CSS.escape(name) + '"]'; };
    // Points: one for each value, window and cut-off subtree asked about (the
    // round's maximum, fixed by the tree); a pick is worth nothing when right
    // (its subtree's point counts it) and costs one when wrong.
    const grade = function (kind, node, ok, why) {
      const scored = kind !== "pick";
      grades.push({kind: kind, node: node, right: ok, why: why,
                   points: ok ? (scored ? 1 : 0) : (scored ? 0 : -1), max: scored ? 1 : 0});
    };
    round.asked.values.forEach(function (name) {
      const given = parse(get("input.val" + q(name))), want = run.values[name];
      answers.values[name] = given === null ? null : num(given);
      const n = round.nodes.find(function (m) { return m.name === name; });
      const kids = n.kids.map(function (k) { return round.nodes[k].name; });
      const seen = kids.filter(function (k) { return k in run.values; });
      const how = (n.max ? "as MAX it returns the largest" : "as MIN it returns the smallest") +
        " of what its searched children returned: " +
        seen.map(function (k) { return k + " = " + run.values[k]; }).join(", ") +
        (seen.length < kids.length ?
          " (" + kids.filter(function (k) { return seen.indexOf(k) < 0; }).join(", ") + " never searched)" : "");
      if (given === want) grade("value", name, true, name + " returns " + want + ".");
      else {
        grade("value", name, false, name + " returns " + want +
              (given === null ? " (no answer)" : ", not " + num(given)) + ": " + how + ".");
      }
    });
    round.asked.windows.forEach(function (name) {
      const a = parse(get("input.win[data-what=alpha]" + q(name)));
      const b = parse(get("input.win[data-what=beta]" + q(name)));
      const w = run.windows[name];
      answers.windows[name] = [a === null ? null : num(a), b === null ? null : num(b)];
      const text = "[" + shown(w[0]) + ", " + shown(w[1]) + "]";
      if (a === w[0] && b === w[1]) grade("window", name, true, name + " is called with " + text + ".");
      else {
        grade("window", name, false, name + " is called with " + text + ": its parent passes on its window " +
              "as it stands when " + name + " is called (alpha raised by a MAX parent, beta lowered by a MIN " +
              "parent, by the children before it).");
      }
    });
    const never = new Set(run.never);
    round.picks.forEach(function (name) {
      if (never.has(name)) grade("pick", name, true, name + " is never searched: " + run.cuts[name] + ".");
      else {
        grade("pick", name, false, name + " is searched: it is called with [" +
              shown(run.windows[name][0]) + ", " + shown(run.windows[name][1]) + "].");
      }
    });
    run.pruned.forEach(function (root) {
      const inside = run.never.filter(function (n) { return run.rootOf[n] === root; });
      if (inside.some(function (n) { return round.picks.has(n); })) {
        grade("cut", root, true, "the subtree of " + root + " is cut off: " + run.cuts[root] + ".");
      } else {
        grade("cut", root, false, "the subtree of " + root + " is never searched: " + run.cuts[root] + ".");
      }
    });
    // One mark a node, from all its grades, for the picture, the table and the
    // list alike: ? a cut-off subtree missed, else a cross if any answer is
    // wrong, a tick only if every answer is right.
    grades.forEach(function (g) {
      const sign = g.kind === "cut" && !g.right ? "?" : g.right ? "\u2713" : "\u2717";
      const had = round.marks[g.node];
      if (had === undefined || had === "\u2713" || sign === "?") round.marks[g.node] = sign;
    });
    round.grades = grades;
    round.answers = answers;
    const got = grades.reduce(function (t, g) { return t + g.points; }, 0);
    const max = grades.reduce(function (t, g) { return t + g.max; }, 0);
    round.score = [Math.max(0, got), max];
    total += max; right += round.score[0];
    $("score").textContent = "This round " + round.score[0] + " of " + max + "; in all " + right + " of " + total + ".";
    const list = $("why");
    list.textContent = "";
    grades.forEach(function (g) {
      const li = document.createElement("li"), missed = g.kind === "cut" && !g.right;
      li.className = g.right ? "right" : "wrong";
      li.setAttribute("data-node", g.node);
      li.textContent = (missed ? "? missed: " : g.right ? "\u2713 right: " : "\u2717 wrong: ") + g.why;
      list.appendChild(li);
    });
    $("check").disabled = true;
    document.querySelectorAll("#questions tr").forEach(function (tr, k) {
      tr.lastChild.textContent = round.marks[round.nodes[k].name] || "";
    });
    draw(round);
  }
  $("new").addEventListener("click", newRound);
  $("check").addEventListener("click", check);
  window.pyabPractice = {
    rounds: rounds,
    current: function () { return round; },
    export: function () {
      const plain = function (x) { return typeof x === "number" && !Number.isFinite(x) ? num(x) : x; };
      return JSON.stringify(rounds.map(function (r) {
        const windows = {};
        Object.keys(r.run.windows).forEach(function (k) { windows[k] = r.run.windows[k].map(plain); });
        return {algorithm: r.algorithm, tree: r.tree, asked: r.asked, answers: r.answers || null,
                grades: r.grades, score: r.score || null, run: {best: r.run.best, value: r.run.value, visited: r.run.visited,
                leaves: r.run.leaves, pruned: r.run.pruned, values: r.run.values, windows: windows}};
      }));
    },
  };
  newRound();
})();
