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
    if (tr.actions && tr.actions.length) box.append(searchValues(tr));
  }
  return box;
}
// A trace record's row of action probabilities: the candidates' chances after the flop, the
// pre-flop rules' chances, or the equilibrium's.
function traceRow(tr) {
  if (tr.actions && tr.actions.length)
    return { actions: tr.actions.map(a => a.action), probs: tr.actions.map(a => a.probability) };
  if (tr.candidates && tr.candidates.length)
    return { actions: tr.candidates.map(c => c.action), probs: tr.candidates.map(c => c.chance) };
  const chances = (tr.preflop && tr.preflop.chances) || tr.equilibrium;
  return chances ? { actions: Object.keys(chances), probs: Object.values(chances) } : {};
}
// A searching bot's trace (vexbot's): each action's value for the hand in chips, its chance,
// and where the opponent model's estimate after it came from, with the observations behind it.
function searchValues(tr) {
  const { el } = Holdem;
  const t = el("table", { class: "search" }, el("tr", {}, el("th", {}, "action"),
    el("th", {}, "value (chips)"), el("th", {}, "chance"), el("th", {}, "model"),
    el("th", {}, "observations")));
  for (const a of tr.actions) t.append(el("tr", {}, el("td", {}, a.action),
    el("td", {}, a.value.toFixed(2)), el("td", {}, a.probability.toFixed(3)),
    el("td", {}, a.level || "-"),
    el("td", {}, a.observations === null || a.observations === undefined ? "-" : a.observations.toFixed(1))));
  return el("div", {}, el("p", {}, "search values after " + tr.hands_learned + " hands learned"), t);
}
// The 169 classes in the trace's order: pairs AA..22, then suited and offsuit hands by high
// card, then kicker, descending (agent.strength.ranges.HAND_CLASSES).
const RANKS = "AKQJT98765432";
const CLASS_ORDER = (() => {
  const out = [];
  for (let i = 0; i < 13; i++) out.push(RANKS[i] + RANKS[i]);
  for (const tail of ["s", "o"])
    for (let i = 0; i < 13; i++) for (let j = i + 1; j < 13; j++) out.push(RANKS[i] + RANKS[j] + tail);
  return out;
})();
// The 169 classes as a 13x13 grid: pairs on the diagonal, suited above, offsuit below.
function rangeGrid(r) {
  const { el } = Holdem;
  const wrap = el("div", { class: "range-box" },
    el("p", {}, "range of " + r.opponent + " (mean weight of each class's possible holdings)"));
  const grid = el("div", { class: "grid range" });
  const top = Math.max(...r.weights, 1e-9);
  for (let i = 0; i < 13; i++) for (let j = 0; j < 13; j++) {
    const name = i === j ? RANKS[i] + RANKS[j] : i < j ? RANKS[i] + RANKS[j] + "s" : RANKS[j] + RANKS[i] + "o";
    const w = r.weights[CLASS_ORDER.indexOf(name)];
    const shade = Math.round(255 - 200 * w / top);
    const cell = el("div", { class: "range-cell", title: name + ": " + w.toFixed(5) }, name);
    cell.style.background = "rgb(255," + shade + "," + shade + ")";
    grid.append(cell);
  }
  wrap.append(grid);
  return wrap;
}
