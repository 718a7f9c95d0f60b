"use strict";
// A run's, league's or exploit run's page; offline, its data is inside the file.
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
  }
  if (data.notes && data.notes.length) main.append(el("h3", {}, "Notes"), el("ul", {}, ...data.notes.map(n => el("li", {}, n))));
})();
