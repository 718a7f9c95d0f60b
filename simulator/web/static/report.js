"use strict";
// A run's, league's, exploit run's or sit-and-go's page; offline, its data is inside the file.
(async () => {
  const { el, interval } = Holdem;
  const main = document.getElementById("report");
  const embedded = document.getElementById("report-data");
  const ref = Holdem.params.get("ref") || "";
  let data;
  try {
    data = embedded ? JSON.parse(embedded.textContent)
                    : await Holdem.api("/api/report?ref=" + encodeURIComponent(ref));
  } catch (e) { main.append(el("div", { class: "error" }, e.message)); return; }
  const link = (href, text) => data.offline ? el("span", {}, text) : el("a", { href }, text);
  if (data.kind === "run") {
    main.append(el("h2", {}, "Run " + ref + ": " + data.deals + " deals, " + data.blocks + " blocks (" + data.unit.replace(/_/g, " ") + " per hand)"));
    const t = el("table", { id: "winrates" }, el("tr", {}, ...["player", "hands", "raw [95% CI]",
      "luck-adjusted", "AIVAT", "faults"].map(h => el("th", {}, h))));
    for (const r of data.rows) t.append(el("tr", {}, el("td", {}, r.name), el("td", {}, r.hands),
      el("td", {}, interval(r.raw)), el("td", {}, interval(r.luck)), el("td", {}, interval(r.aivat)),
      el("td", {}, r.faults)));
    main.append(t, el("h3", {}, "Cumulative winnings (95% band)"));
    const chart = el("div", { id: "chart" }); main.append(chart);
    drawChart(chart, data.chart.hands, data.chart.series, "hover the chart for the figures");
    if (data.has_hands && !data.offline) main.append(el("p", {}, link("/replay?ref=" + encodeURIComponent(ref), "replay its hands")));
  } else if (data.kind === "league") {
    main.append(el("h2", {}, "League " + ref + " (" + data.unit.replace(/_/g, " ") + " per hand, row vs column)"));
    const t = el("table", { id: "crosstable" }, el("tr", {}, el("th", {}, ""), ...data.bots.map(b => el("th", {}, b))));
    for (const a of data.bots) {
      const row = el("tr", {}, el("th", {}, a));
      for (const b of data.bots) {
        const c = data.cells.find(x => x.row === a && x.column === b);
        const td = el("td", { class: "cell", "data-row": a, "data-column": b });
        if (c) td.append(c.pair ? link("/report?ref=" + encodeURIComponent(c.pair), interval([c.mean, c.low, c.high]))
                                : interval([c.mean, c.low, c.high]));
        row.append(td);
      }
      t.append(row);
    }
    main.append(t);
  } else if (data.kind === "exploit") {
    main.append(el("h2", {}, "LBR against " + data.bot + " (" + data.unit.replace(/_/g, " ") + " per hand)"), el("p", {}, data.sign));
    const t = el("table", { id: "lbr" }, el("tr", {}, ...["mode", "hands", "per hand [95% CI]", "mbb/g", "AIVAT mbb/g", "faults"].map(h => el("th", {}, h))));
    for (const r of data.runs) t.append(el("tr", {}, el("td", {}, link("/report?ref=" + encodeURIComponent(r.run), r.mode + (r.mode === data.headline ? " (headline)" : ""))),
      el("td", {}, r.hands), el("td", {}, interval(r.per_hand)), el("td", {}, interval(r.mbb)),
      el("td", {}, interval(r.aivat_mbb)), el("td", {}, r.faults)));
    main.append(t);
  } else if (data.kind === "sng") {
    sngPage(main, data, ref, link);
  }
  if (data.notes && data.notes.length) main.append(el("h3", {}, "Notes"), el("ul", {}, ...data.notes.map(n => el("li", {}, n))));
})();

// A field of sit-and-gos: per-bot figures with their intervals, the place distribution (hover
// a cell for its interval), the chip stacks of one tournament.
function sngPage(main, data, ref, link) {
  const { el } = Holdem;
  const pct = signed => x => (signed && x >= 0 ? "+" : "") + (100 * x).toFixed(1) + "%";
  const num = digits => x => x.toFixed(digits);
  const shown = (v, f) => !v ? "-" : f(v[0]) + (v[1] === null ? "" : " [" + f(v[1]) + ", " + f(v[2]) + "]");
  // a figure's cell: its mean, and its interval in smaller type (kept on one line)
  const cell = (cls, v, f) => el("td", { class: cls }, !v ? "-" : f(v[0]),
    ...(v && v[1] !== null ? [" ", el("span", { class: "ci" }, "[" + f(v[1]) + ", " + f(v[2]) + "]")] : []));
  const ordinal = k => k + (k === 1 ? "st" : k === 2 ? "nd" : k === 3 ? "rd" : "th");
  main.append(el("h2", {}, "Sit-and-gos " + ref + ": " + data.tournaments + " tournaments (" +
    data.units + (data.duplicate ? " duplicate sets" : " independent") + "), " + data.hands +
    " hands; buy-in " + data.buy_in + ", payouts " + data.payouts.join("/") + "%"));
  const heads = ["bot", "ROI [95% CI]", "average place", "in the money", "prize", "chips"];
  if (data.has_variance_factor) heads.push("variance factor (duplicate)");
  const t = el("table", { id: "sng" }, el("tr", {}, ...heads.map(h => el("th", {}, h))));
  for (const r of data.rows) {
    const row = el("tr", { "data-bot": r.name }, el("td", {}, r.name),
      cell("roi", r.roi, pct(true)), cell("place", r.average_place, num(2)),
      cell("itm", r.in_the_money, pct(false)), cell("prize", r.prize, num(1)),
      cell("chips", r.chips, num(0)));
    if (data.has_variance_factor) row.append(el("td", { class: "factor" },
      r.variance_factor === null ? "-" : r.variance_factor.toFixed(2) + "x"));
    t.append(row);
  }
  main.append(t);
  if (data.best_vs_second && data.best_vs_second.roi_difference) {
    const b = data.best_vs_second;
    main.append(el("p", { id: "best" }, "Best ROI: " + b.best + "; its paired ROI difference to " +
      b.second + " over the same tournaments: " + shown(b.roi_difference, pct(true))));
  }
  main.append(el("p", {}, "Bot faults: " + data.faults));
  main.append(el("h3", {}, "Finishing places (share of tournaments; hover for the 95% interval)"));
  const places = Math.max(0, ...data.rows.map(r => r.places.length));
  const tip = el("div", { class: "tip", id: "places-tip" }, "hover a cell for its figures");
  const d = el("table", { id: "places" }, el("tr", {}, el("th", {}, "bot"),
    ...Array.from({ length: places }, (_, k) => el("th", {}, ordinal(k + 1)))));
  for (const r of data.rows) {
    const row = el("tr", { "data-bot": r.name }, el("td", {}, r.name));
    r.places.forEach((v, k) => {
      const text = shown(v, pct(false));
      const td = el("td", { title: r.name + ", " + ordinal(k + 1) + ": " + text }, v ? pct(false)(v[0]) : "-");
      // a bar's shade of the share, through the CSSOM (the CSP refuses style attributes)
      if (v) td.style.backgroundColor = "rgba(31, 119, 180, " + (0.6 * Math.min(1, Math.max(0, v[0]))).toFixed(3) + ")";
      td.addEventListener("mouseover", () => { tip.textContent = r.name + ", " + ordinal(k + 1) + " place: " + text; });
      row.append(td);
    });
    d.append(row);
  }
  main.append(d, tip);
  if (data.chart.hands.length) {
    main.append(el("h3", {}, "Chip stacks over tournament " + data.chart.tournament + " (rotation 0; a round is one hand at each table)"));
    const chart = el("div", { id: "chart" }); main.append(chart);
    drawChart(chart, data.chart.hands, data.chart.series, "hover the chart for the stacks");
  }
  if (data.has_hands && !data.offline) main.append(el("p", {}, link("/replay?ref=" + encodeURIComponent(ref), "replay its hands")));
}
