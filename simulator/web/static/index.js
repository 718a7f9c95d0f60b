"use strict";
// The start page: a game to play (with the token), and every results directory served.
(async () => {
  const { el, api, token } = Holdem;
  const main = document.getElementById("index");
  const list = await api("/api/list");
  const bots = list.bots;
  const form = el("form", { id: "new-game" });
  const opponents = el("input", { id: "opponents", value: "heuristic", size: 40 });
  const variant = el("select", { id: "variant" }, el("option", { value: "nolimit" }, "no-limit"),
                     el("option", { value: "limit" }, "limit"));
  const blinds = el("input", { id: "blinds", value: "1,2", size: 6 });
  const stack = el("input", { id: "stack", value: "200", size: 6 });
  const pace = el("input", { id: "pace", value: "600", size: 5 });
  form.append(el("h2", {}, "Play"),
    el("p", {}, "Opponents (comma-separated, from ", el("code", {}, "holdem bots"),
       " or module:Class; 1 to 9): ", opponents),
    el("p", {}, "Game ", variant, " blinds ", blinds, " stack ", stack, " bot pace (ms) ", pace),
    el("button", { type: "submit", id: "start" }, "Sit down"),
    el("p", { class: "small" }, "Bots: " + bots.join(", ")));
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const q = new URLSearchParams({ token, opponents: opponents.value, variant: variant.value,
                                    blinds: blinds.value, stack: stack.value, pace: pace.value });
    location.href = "/play?" + q.toString();
  });
  if (token) main.append(form);
  else main.append(el("p", {}, "To play, open the address holdem serve printed (with its token)."));
  main.append(el("h2", {}, "Results"));
  const table = el("table", { id: "found" }, el("tr", {}, el("th", {}, "directory"),
                   el("th", {}, "kind"), el("th", {}, "pages")));
  for (const f of list.found) {
    const q = "ref=" + encodeURIComponent(f.ref);
    const links = el("td", {});
    if (f.kind !== "session") links.append(el("a", { href: "/report?" + q }, "report"), " ");
    if (f.kind !== "league" && f.kind !== "exploit") links.append(el("a", { href: "/replay?" + q }, "hands"));
    table.append(el("tr", {}, el("td", {}, f.ref), el("td", {}, f.kind), links));
  }
  main.append(table, el("p", {}, "Roots: " + list.roots.join(", ")));
})();
