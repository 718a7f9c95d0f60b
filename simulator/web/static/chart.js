"use strict";
// A line chart drawn in the page as SVG: series with optional 95% bands, hover shows figures.
function drawChart(container, xs, series, label) {
  const W = 720, H = 300, L = 50, B = 24, NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "chart"); svg.setAttribute("width", W); svg.setAttribute("height", H);
  const tip = Holdem.el("div", { class: "tip" }, label || "");
  container.append(svg, tip);
  if (!xs.length) { tip.textContent = "no hands to chart"; return; }
  let lo = 0, hi = 0;
  for (const s of series) s.y.forEach((y, i) => {
    const b = s.band ? s.band[i] : 0; lo = Math.min(lo, y - b); hi = Math.max(hi, y + b); });
  if (hi === lo) hi = lo + 1;
  const xmax = xs[xs.length - 1] || 1;
  const px = x => L + (W - L - 10) * x / xmax, py = y => 10 + (H - B - 10) * (hi - y) / (hi - lo);
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                   "#7f7f7f", "#bcbd22", "#17becf"];
  const add = (tag, attrs) => { const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); svg.append(n); return n; };
  add("line", { x1: L, x2: W - 10, y1: py(0), y2: py(0), stroke: "#999" });
  add("text", { x: 2, y: 14, "font-size": 11 }).textContent = hi.toFixed(1);
  add("text", { x: 2, y: H - B, "font-size": 11 }).textContent = lo.toFixed(1);
  add("text", { x: W - 60, y: H - 6, "font-size": 11 }).textContent = "hand " + xmax;
  series.forEach((s, k) => {
    const c = colours[k % colours.length];
    if (s.band) {
      const up = xs.map((x, i) => px(x) + "," + py(s.y[i] + s.band[i]));
      const down = xs.map((x, i) => px(x) + "," + py(s.y[i] - s.band[i])).reverse();
      add("polygon", { points: up.concat(down).join(" "), fill: c, "fill-opacity": 0.12 });
    }
    add("polyline", { points: xs.map((x, i) => px(x) + "," + py(s.y[i])).join(" "),
                      fill: "none", stroke: c, "stroke-width": 1.6 });
  });
  // which line is whose, without hovering: each name in its line's colour
  // (set through the CSSOM: the page's CSP refuses style attributes)
  const legend = Holdem.el("div", { class: "legend" });
  series.forEach((s, k) => {
    const key = Holdem.el("span", {}, "\u2014 " + s.name + "   ");
    key.style.color = colours[k % colours.length];
    legend.append(key);
  });
  container.insertBefore(legend, svg);
  const cursor = add("line", { x1: 0, x2: 0, y1: 10, y2: H - B, stroke: "#555",
                               "stroke-dasharray": "3,3", visibility: "hidden" });
  svg.addEventListener("mousemove", ev => {
    const box = svg.getBoundingClientRect();
    const x = (ev.clientX - box.left - L) / (W - L - 10) * xmax;
    let i = 0; while (i < xs.length - 1 && xs[i] < x) i++;
    cursor.setAttribute("x1", px(xs[i])); cursor.setAttribute("x2", px(xs[i]));
    cursor.setAttribute("visibility", "visible");
    tip.textContent = "hand " + xs[i] + ": " + series.map(s => s.name + " " +
      Holdem.fmt(s.y[i]) + (s.band ? " ± " + s.band[i].toFixed(2) : "")).join(", ");
  });
}
