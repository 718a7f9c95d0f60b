"use strict";
// The reasoning of a decision: its policy row, and the heuristic agent's trace when present.
function renderReasoning(d) {
  const { el } = Holdem;
  const box = el("div", { class: "reasoning decision" });
  box.append(el("b", {}, d.name + ", " + d.street + ": " + d.chosen));
  if (d.actions) {
    const t = el("table", { class: "policy" });
    d.actions.forEach((a, i) => t.append(el("tr", {}, el("td", {}, a),
      el("td", { class: "prob" }, d.probs[i].toFixed(4)))));
    const sum = d.probs.reduce((x, y) => x + y, 0);
    box.append(t, el("div", { class: "row-sum" }, "row sums to " + sum.toFixed(4)));
  }
  const tr = d.trace;
  if (tr) {
    if (tr.strength) {
      const s = tr.strength;
      box.append(el("p", {}, "HS " + s.hs.map(x => x.toFixed(3)).join(", ") + "; PPOT " +
        s.ppot.toFixed(3) + "; NPOT " + s.npot.toFixed(3) + "; EHS " + s.ehs.toFixed(3)));
    }
    if (tr.candidates && tr.candidates.length) {
      const keys = ["E", "Pw", "ESw", "EBw", "Pvf", "ESvf", "EBvf", "Phf", "EBhf"];
      const t = el("table", {}, el("tr", {}, el("th", {}, "action"),
        ...keys.map(k => el("th", {}, k)), el("th", {}, "source"), el("th", {}, "chance")));
      for (const c of tr.candidates) t.append(el("tr", {}, el("td", {}, c.action),
        ...keys.map(k => el("td", {}, c[k].toFixed(3))), el("td", {}, c.source),
        el("td", {}, c.chance.toFixed(3))));
      box.append(t);
    }
    if (tr.preflop) box.append(el("p", {}, "pre-flop: income rate " + tr.preflop.ir +
      " (table " + tr.preflop.table + ")"));
    for (const r of (tr.ranges || [])) box.append(rangeGrid(r));
  }
  return box;
}
// The 169 classes as a 13x13 grid: pairs on the diagonal, suited above, offsuit below.
function rangeGrid(r) {
  const { el } = Holdem;
  const ranks = "AKQJT98765432";
  const wrap = el("div", {}, el("p", {}, "range of " + r.opponent + " (weight per class)"));
  const grid = el("div", { class: "grid range" });
  const top = Math.max(...r.weights, 1e-9);
  for (let i = 0; i < 13; i++) for (let j = 0; j < 13; j++) {
    const name = i === j ? ranks[i] + ranks[j] : i < j ? ranks[i] + ranks[j] + "s" : ranks[j] + ranks[i] + "o";
    const w = r.weights[r.classes.indexOf(name)];
    const shade = Math.round(255 - 200 * w / top);
    const cell = el("div", { title: name + ": " + w.toFixed(4) }, name);
    cell.style.background = "rgb(255," + shade + "," + shade + ")";
    grid.append(cell);
  }
  wrap.append(grid);
  return wrap;
}
