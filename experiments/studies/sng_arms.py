"""Two arms of one sit-and-go field played on the same cards, compared: each bot's ROI in each
arm, one bot's ROI paired between the arms, and each arm's best against its second-best.

    python experiments/studies/sng_arms.py [--play] [--tournaments 480] [--bot heuristic]
        [--arms configs/sng/panel_te_off.yaml configs/sng/panel_te_on.yaml] [--labels off on]

The arms are ``holdem sng`` configs of the same field and seed that differ in one setting
(the shipped pair: the agent's ``tournament.equity`` off and on). With ``--play`` each is
played, or continued, into ``<runs>/sng_arms/<label>`` with ``--tournaments``; without it
the runs already there are read. Duplicate sit-and-gos replay each card sequence in every
seat rotation, so a card sequence's rotations are one unit: its ROI is the mean over them of
``prize / buy_in - 1``, and units are independent. The paired difference is taken unit by
unit over the card sequences both arms played, with a 95% Student t interval over units.

Writes experiments/results/sng_arms.md (and .json).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from matchups import DIRS, ROOT, dir_options, fmt, parse, run_dir, t_interval, write_table

from simulator.cli import main as holdem

EXPERIMENT = "sng_arms"
ARMS = ("configs/sng/panel_te_off.yaml", "configs/sng/panel_te_on.yaml")
MAX_ROWS_BYTES = 1 << 28


def play_arm(config: Path, out: Path, tournaments: int) -> None:
    """Play the arm, or continue it if its output dir holds part of it."""
    started = (out / "sng.json").is_file()
    mode = ["--resume"] if started else []
    args = ["sng", str(config), "--output", str(out), "--tournaments", str(tournaments),
            "--quiet", "--no-plots", *mode]
    if holdem(args) != 0:
        raise SystemExit(f"sng_arms: holdem {' '.join(args)} failed")


def unit_roi(out: Path) -> tuple[list[str], dict[int, list[float]]]:
    """The entrants' names and, per card sequence, each entrant's ROI over its rotations."""
    summary = json.loads((out / "summary.json").read_text())
    names, buy_in = list(summary["entrants"]), float(summary["buy_in"])
    prizes: dict[int, list[list[float]]] = defaultdict(list)
    with open(out / "tournaments.jsonl", "rb") as f:
        for line in f.read(MAX_ROWS_BYTES).splitlines():
            row = json.loads(line)
            prizes[int(row["tournament"])].append([float(p) for p in row["prizes"]])
    units = {}
    for k, rows in prizes.items():
        units[k] = [sum(r[e] for r in rows) / len(rows) / buy_in - 1 for e in range(len(names))]
    return names, units


def compare(labels: list[str], outs: list[Path], bot: str) -> dict[str, Any]:
    """Every figure of the table, as numbers."""
    arms = [unit_roi(out) for out in outs]
    names = arms[0][0]
    if any(a[0] != names for a in arms) or bot not in names:
        raise SystemExit(f"sng_arms: the arms must share their entrants, {bot!r} among them")
    common = sorted(set.intersection(*(set(a[1]) for a in arms)))
    out: dict[str, Any] = {"units": len(common), "bot": bot, "arms": {}}
    for label, (_, units) in zip(labels, arms, strict=True):
        roi = {n: t_interval([units[k][e] for k in common]) for e, n in enumerate(names)}
        ranked = sorted(names, key=lambda n: roi[n][0], reverse=True)
        best, second = names.index(ranked[0]), names.index(ranked[1])
        lead = t_interval([units[k][best] - units[k][second] for k in common])
        out["arms"][label] = {"roi": roi, "best": ranked[0], "second": ranked[1], "lead": lead}
    e = names.index(bot)
    first, last = arms[0][1], arms[-1][1]
    out["paired"] = t_interval([last[k][e] - first[k][e] for k in common])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--arms", nargs=2, default=list(ARMS), metavar="CONFIG")
    parser.add_argument("--labels", nargs=2, default=["off", "on"])
    parser.add_argument("--bot", default="heuristic", help="whose ROI is paired (heuristic)")
    parser.add_argument("--play", action="store_true", help="play or continue the arms")
    parser.add_argument("--tournaments", type=int, default=480)
    dir_options(parser)
    args = parse(parser)
    outs = [run_dir(EXPERIMENT, label) for label in args.labels]
    if args.play:
        for config, out in zip(args.arms, outs, strict=True):
            play_arm(ROOT / config if not Path(config).is_absolute() else Path(config), out,
                     args.tournaments)
    result = compare(args.labels, outs, args.bot)
    arms = result["arms"]
    names = list(next(iter(arms.values()))["roi"])
    rows = [[n, *(fmt(*arms[label]["roi"][n]) for label in args.labels)] for n in names]
    a, b = args.labels
    notes = [
        f"{result['units']} card sequences in both arms; ROI = prize / buy-in - 1, a unit "
        "the mean over its seat rotations; 95% Student t over units.",
        "",
        *[f"- Arm {label}: best {arms[label]['best']}, minus second-best "
          f"{arms[label]['second']}, paired: {fmt(*arms[label]['lead'])}"
          for label in args.labels],
        f"- {args.bot}'s ROI, {b} minus {a}, paired over the same cards: "
        f"**{fmt(*result['paired'])}**",
        "",
        f"Command: python experiments/studies/sng_arms.py --play --tournaments "
        f"{args.tournaments} --arms {' '.join(args.arms)} --labels {a} {b} --bot {args.bot}",
    ]
    write_table(EXPERIMENT, ["bot", *(f"ROI, {label}" for label in args.labels)], rows, notes)
    (DIRS.results / f"{EXPERIMENT}_figures.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
