() => {
  const visible = (el) => {
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    return el.textContent.trim() !== "" && cs.visibility !== "hidden" && cs.display !== "none" && r.width > 0;
  };
  const owner = (el) => { const g = el.closest("[data-node]"); return g ? g.getAttribute("data-node") : "cut:" + el.getAttribute("data-cut-for"); };
  const labels = [...document.querySelectorAll("#picture text.name, #picture text.value, #picture text.window, #picture text.cutlabel")].filter(visible);
  const boxes = labels.map((e) => { const r = e.getBoundingClientRect(); return {kind: e.getAttribute("class"), node: owner(e), text: e.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; });
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    if (w > 0.5 && h > 0.5) overlaps.push([a.kind + " " + a.node + " '" + a.text + "'", b.kind + " " + b.node + " '" + b.text + "'"]);
  }
  const centres = new Map();
  document.querySelectorAll("#picture [data-node]").forEach((g) => {
    const r = g.querySelector(".shape").getBoundingClientRect();
    centres.set(g.getAttribute("data-node"), [(r.left + r.right) / 2, (r.top + r.bottom) / 2]);
  });
  const strays = [];
  document.querySelectorAll("#picture text.name").forEach((t) => {
    const r = t.getBoundingClientRect(), cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    let best = null, bd = Infinity;
    centres.forEach((c, n) => { const d = Math.hypot(c[0] - cx, c[1] - cy); if (d < bd) { bd = d; best = n; } });
    if (best !== owner(t)) strays.push([owner(t), best]);
  });
  return {labels: boxes.length, names: centres.size, overlaps: overlaps, strays: strays};
}
