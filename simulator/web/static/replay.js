"use strict";
// Step through any hand of a run, league pair, exploit run or play session.
(async () => {
  const { el, api, card, params } = Holdem;
  const main = document.getElementById("replay");
  const ref = params.get("ref") || "";
  const error = el("div", { class: "error", id: "error" });
  main.append(el("h2", {}, "Hands of " + ref), error);
  let list;
  try { list = await api("/api/hands?ref=" + encodeURIComponent(ref)); }
  catch (e) { error.textContent = e.message; return; }
  const picker = el("select", { id: "picker" }, ...list.hands.map(h =>
    el("option", { value: h.index }, "hand " + h.hand + ": " + h.players.join(" v ") +
       (h.net ? " (" + h.net.join(", ") + ")" : ""))));
  const felt = el("div", { class: "felt", id: "table" });
  const where = el("div", { id: "where" });
  const back = el("button", { id: "back", type: "button" }, "◀ back");
  const fwd = el("button", { id: "forward", type: "button" }, "forward ▶");
  const why = el("div", { id: "step-reasoning" });
  main.append(el("p", {}, picker), el("div", { class: "controls" }, back, fwd, where), felt, why);
  let hand = null, at = 0;
  function show() {
    const s = hand.steps[at];
    felt.replaceChildren();
    hand.names.forEach((n, i) => felt.append(el("div", { class: "seat" + (s.active[i] ? "" : " out") + (s.actor === i ? " actor" : "") },
      el("div", {}, n), el("div", {}, ...(s.holes[i] ? s.holes[i].map(card) : [card(""), card("")])),
      el("div", {}, "stack ", el("span", { class: "stack" }, s.stacks[i])),
      el("div", {}, "bet ", el("span", { class: "bet" }, s.bets[i])))));
    felt.append(el("div", { class: "middle" }, "pot ", el("span", { id: "pot" }, s.pot), "  ",
                   ...s.board.map(card)));
    where.textContent = "step " + at + " of " + (hand.steps.length - 1) + ": " + s.what;
    back.disabled = at === 0; fwd.disabled = at === hand.steps.length - 1;
    why.replaceChildren();
    if (s.reasoning) {
      const tr = s.reasoning.trace;
      why.append(renderReasoning({ name: hand.names[s.reasoning.seat], street: tr.street,
                                   chosen: tr.chosen, ...traceRow(tr), trace: tr }));
    } else if (hand.traced === false && at > 0) {
      why.append(el("p", { class: "note" }, "No reasoning for this hand: the heuristic agent " +
        "writes it with params: {trace: true}."));
    }
  }
  async function load() {
    try { hand = await api("/api/hand?ref=" + encodeURIComponent(ref) + "&index=" + picker.value); }
    catch (e) { error.textContent = e.message; return; }
    at = 0; show();
  }
  back.addEventListener("click", () => { if (at > 0) { at--; show(); } });
  fwd.addEventListener("click", () => { if (at < hand.steps.length - 1) { at++; show(); } });
  picker.addEventListener("change", load);
  if (list.hands.length) await load();
})();
