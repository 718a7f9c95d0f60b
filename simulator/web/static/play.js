"use strict";
// A table against the bots: one game per tab, stepped by this page at its own pace.
(async () => {
  const { el, api, card, params } = Holdem;
  const main = document.getElementById("play");
  const pace = Math.max(0, Number(params.get("pace") || 600));
  const error = el("div", { class: "error", id: "error" });
  const felt = el("div", { class: "felt", id: "table" });
  const controls = el("div", { class: "controls", id: "controls" });
  const result = el("div", { id: "result" });
  const chart = el("div", { id: "chart" });
  const log = el("div", { class: "log", id: "log" });
  const reasoning = el("div", { id: "reasoning" });
  main.append(error, felt, controls, result, chart, reasoning, el("h3", {}, "Log"), log);
  const request = {
    variant: params.get("variant") || "nolimit",
    blinds: (params.get("blinds") || "1,2").split(",").map(Number),
    stack: Number(params.get("stack") || 200),
    opponents: (params.get("opponents") || "heuristic").split(",").map(s => s.trim())
      .filter(Boolean).map(bot => ({ bot })),
    seed: Number(params.get("seed") || Math.floor(Math.random() * 1e9)),
  };
  let game;
  try { game = (await api("/api/games", request)).id; }
  catch (e) { error.textContent = e.message; return; }
  const call = verb => "/api/games/" + game + "/" + verb;
  window.addEventListener("pagehide", () =>
    navigator.sendBeacon(call("close") + "?token=" + encodeURIComponent(Holdem.token)));
  setInterval(() => { if (waiting) api(call("view"), {}).catch(() => {}); }, 5000);
  let waiting = false;

  function render(v) {
    felt.replaceChildren();
    // Which bot action the table shows, stamped by the server when the bot returned: a
    // benchmark reads it to time the page (experiments/bench/bench_serve.py).
    felt.dataset.returned = v.returned_at ? String(v.returned_at) : "";
    v.seats.forEach((s, i) => {
      const cls = "seat" + (v.actor === i ? " actor" : "") + (s.active ? "" : " out");
      const cards = el("div", {}, ...(s.cards ? s.cards.map(card) : [card(""), card("")]));
      felt.append(el("div", { class: cls, id: "seat-" + i },
        el("div", {}, s.name + (s.button ? " (D)" : "")), cards,
        el("div", {}, "stack ", el("span", { class: "stack" }, s.stack)),
        el("div", {}, "bet ", el("span", { class: "bet" }, s.bet))));
    });
    felt.append(el("div", { class: "middle" }, "pot ", el("span", { id: "pot" }, v.pot), "  ",
                   el("span", { id: "board" }, ...v.board.map(card))));
    log.replaceChildren(...v.log.map(line => el("div", {}, line)));
    controls.replaceChildren();
    if (v.stopped) { error.textContent = v.stopped; return; }
    if (v.legal) {
      const L = v.legal;
      if (L.fold) controls.append(button("fold", "Fold", () => act({ kind: "fold" })));
      controls.append(button("call", L.call ? "Call " + L.call : "Check", () => act({ kind: "call" })));
      if (L.raise) {
        const [lo, hi] = L.raise;
        const amount = el("input", { id: "amount", type: "number", min: lo, max: hi, value: lo });
        if (lo !== hi) {
          const slider = el("input", { id: "slider", type: "range", min: lo, max: hi, value: lo });
          slider.addEventListener("input", () => { amount.value = slider.value; });
          controls.append(slider);
        }
        controls.append(amount, button("raise", L.raise_word + " (" + lo + (lo === hi ? "" : ".." + hi) + ")",
          () => act({ kind: "raise", amount: Number(amount.value) })));
      }
      controls.append(button("hint", "Hint", hint));
    }
    if (v.finished && v.result) {
      const r = v.result;
      result.replaceChildren(el("h3", {}, "Hand " + (v.hand + 1) + " over"),
        ...r.shown.map(s => el("div", { class: "shown" }, s.name + ": ", ...s.cards.map(card), " " + s.hand)),
        el("div", { id: "net" }, v.names.map((n, i) => n + " " + Holdem.fmt(r.net[i], 0)).join(", ")),
        el("div", {}, "winner: " + r.winners.join(", ")),
        el("div", {}, "your running result: ", el("b", { id: "total" }, v.total)));
      chart.replaceChildren();
      drawChart(chart, v.totals.map((_, i) => i + 1), [{ name: "you", y: v.totals }], "your result by hand");
      reasoning.replaceChildren(el("h3", {}, "The bots' reasoning"), ...(v.reasoning || []).map(renderReasoning));
      controls.append(button("next", "Next hand", () => run(api(call("deal"), {}))));
    }
  }
  function button(id, text, fn) {
    const b = el("button", { id: "btn-" + id, type: "button" }, text);
    b.addEventListener("click", fn); return b;
  }
  async function act(action) {
    error.textContent = "";
    try { await run(api(call("act"), action)); } catch (e) { error.textContent = e.message; }
  }
  async function hint() {
    try {
      const h = await api(call("hint"), {});
      const box = el("div", { id: "hint" }, el("h3", {}, "Hint from " + h.bot));
      box.append(renderReasoning({ name: "hint", street: "now", chosen: "?", actions: h.actions, probs: h.probs }));
      reasoning.replaceChildren(box);
    } catch (e) { error.textContent = e.message; }
  }
  // Step the bots until it is the person's turn or the hand is over, pacing each action.
  async function run(first) {
    let v = await first;
    waiting = false;
    render(v);
    while (!v.finished && v.actor !== 0 && !v.stopped) {
      if (pace) await new Promise(r => setTimeout(r, pace));
      v = await api(call("step"), {});
      render(v);
    }
    if (!v.finished) result.replaceChildren(), reasoning.replaceChildren();
    waiting = true;
    document.body.dataset.state = v.finished ? "over" : "yours";
  }
  try { await run(api(call("deal"), {})); } catch (e) { error.textContent = e.message; }
})();
