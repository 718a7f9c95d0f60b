"""The paper's table: the heuristic agent heads-up fixed-limit against every rival of the panel,
duplicate, beside Saukonoja & Pasanen's results against the Alberta bots our rivals stand in
for (`loki` for Pokibrat, `vexbot` for Vexbot, `cfr` for Sparbot; `exploiter` was
Vexbot's stand-in before `vexbot` existed and keeps its row).

    python experiments/studies/paper_table.py [--deals N] [--block-size 2000] [--seed 101]
        [--resume] [--rivals cfr loki]

Writes experiments/results/paper_table.md (and .json, and the plot .png), SB/hand with the
95% interval over blocks, plain, luck-adjusted and AIVAT (both bots state their
policies; the variance factor is the raw variance over AIVAT's); ``--rivals`` plays only
those rows and keeps the others of the last table; run dirs (per-hand CSVs, plots) under
results/experiments/paper_table/. experiments/studies/learning_curves.py reads two of them.
"""

from __future__ import annotations

import json
import re

from matchups import (
    DIRS,
    HEADS_UP_LIMIT,
    Seat,
    arguments,
    fmt,
    parse,
    plot_intervals,
    timed_play,
    write_table,
)

HERO = Seat("heuristic", "heuristic")
RIVALS = ("loki", "vexbot", "exploiter", "cfr", "mc", "rock", "maniac", "call", "raise", "random")
PAPER = {"loki": "+0.015 (Pokibrat)", "vexbot": "-0.242 (Vexbot)",
         "exploiter": "-0.242 (Vexbot, former stand-in)",
         "cfr": "-0.023 (Sparbot)"}
GOAL = {"loki": (0.05, 0.0), "exploiter": (0.0, -0.05),
        "cfr": (0.0, -0.05)}  # mean at least, lower end at least
HEADER = ["rival", "paper (SB/h)", "agent SB/h [95% CI]", "luck-adjusted [95% CI]",
          "AIVAT [95% CI] (variance /)", "hands", "wall s", "goal"]


def verdict(rival: str, mean: float, low: float) -> str:
    if rival == "vexbot":  # its row is measured and reported whatever its sign
        return "measured"
    if rival in GOAL:
        need_mean, need_low = GOAL[rival]
        return "met" if mean >= need_mean and low >= need_low else "not met"
    return "met" if low > 0 else "not met"


def aivat_cell(summary: dict) -> str:
    a = summary["players"][HERO.name].get("aivat")
    if a is None or a["ci_low"] is None:
        return ""
    factor = a["variance_reduction"]
    return (fmt(a["mean"], (a["ci_low"], a["ci_high"]))
            + (f" ({factor:.1f}x)" if factor is not None else ""))


def main() -> None:
    parser = arguments(__doc__.split("\n\n")[0], deals=20000)
    parser.add_argument("--rivals", nargs="*", choices=RIVALS, default=list(RIVALS))
    args = parse(parser)
    table = DIRS.results / "paper_table.json"
    kept = ({row["rival"]: row for row in json.loads(table.read_text())}
            if table.exists() and set(args.rivals) != set(RIVALS) else {})
    rows, points = [], []
    for rival in RIVALS:
        if rival not in args.rivals:
            if rival in kept:
                rows.append([kept[rival].get(h, "") for h in HEADER])
                mean, low, high = (float(x) for x in re.findall(
                    r"[-+]?\d+\.\d+", kept[rival]["agent SB/h [95% CI]"])[:3])
                points.append((rival, mean, (low, high)))
            continue
        r = timed_play("paper_table", f"vs_{rival}", [HERO, Seat(rival, rival)],
                       HEADS_UP_LIMIT, HERO.name, deals=args.deals,
                       block_size=args.block_size, seed=args.seed, workers=args.workers,
                       resume=args.resume)
        adj = r.summary["players"][HERO.name]["luck_adjusted"]
        rows.append([rival, PAPER.get(rival, ""), fmt(r.mean, r.ci95),
                     fmt(adj["mean"], tuple(adj["ci95"])), aivat_cell(r.summary), r.hands,
                     f"{r.seconds:.0f}", verdict(rival, r.mean, r.ci95[0])])
        points.append((rival, r.mean, r.ci95))
    plot_intervals("paper_table", points, "agent SB/hand (95% CI)",
                   "Heads-up limit, duplicate: the agent against each rival")
    write_table("paper_table", HEADER, rows,
                [f"Command: python experiments/studies/paper_table.py --deals {args.deals} "
                 f"--block-size {args.block_size} --seed {args.seed} --workers {args.workers}",
                 "Heads-up fixed-limit 1/2 (bets 2/4), duplicate; intervals over blocks "
                 "(Student's t). Goals: vs loki mean >= +0.05 and interval above 0; "
                 "vs exploiter and vs cfr mean >= 0 and lower end >= -0.05; the rest "
                 "interval above 0."])


if __name__ == "__main__":
    main()
