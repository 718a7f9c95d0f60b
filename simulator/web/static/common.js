"use strict";
// Helpers of every page: the token of the printed address, JSON calls, elements.
const Holdem = (() => {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  async function api(path, body) {
    const options = { headers: { "x-holdem-token": token } };
    if (body !== undefined) {
      options.method = "POST";
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || ("status " + response.status));
    return data;
  }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  function card(text) {
    const red = text && (text[1] === "h" || text[1] === "d");
    return el("span", { class: "card" + (red ? " red" : "") }, text || "??");
  }
  function fmt(x, digits) { return (x >= 0 ? "+" : "") + x.toFixed(digits === undefined ? 2 : digits); }
  function interval(v) { return v ? fmt(v[0]) + " [" + fmt(v[1]) + ", " + fmt(v[2]) + "]" : "-"; }
  return { params, token, api, el, card, fmt, interval };
})();
