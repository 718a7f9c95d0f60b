"""The league's intervals: raw against AIVAT, cell by cell, at the league's block structure.

Plays ``configs/league.yaml`` (or a subset of its panel, ``--bots``) with its game, hands and
block structure (``block_size`` for pairs with a bot that learns, ``short_block_size`` for the
others), and for every cell prints the blocks, the raw standard error and 95% half-width, the
AIVAT ones (``aivat``: both bots state a policy; ``aivat-chance``: chance correction only for
a bot without one), the variance factor, and whether the cell meets the league's goal of a
half-width of 0.1 SB/h or less; then each bot's mean over its opponents, and the wall time.
Writes ``experiments/results/league_intervals.md``.

    python experiments/studies/league_intervals.py                          # the whole league
    python experiments/studies/league_intervals.py --bots mc,rock,call,raise,random --hands 2000

``--block-size`` sets both block sizes and ``--max-hands`` the second stage's limit: a tiny run
(``--hands 20 --block-size 10 --max-hands 40 --out /tmp/x.md``) ends in seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from simulator.arena.league import overall, run_league
from simulator.core.validation import read_yaml

ROOT = Path(__file__).resolve().parents[2]
GOAL = 0.1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "league.yaml"))
    parser.add_argument("--bots", help="comma-separated names from the panel (default: all)")
    parser.add_argument("--hands", type=int, help="override hands (deals a pair)")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--block-size", type=int, help="override both block sizes")
    parser.add_argument("--max-hands", type=int, help="override the second stage's limit")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results" /
                                             "league_intervals.md"))
    args = parser.parse_args(argv)
    data = read_yaml(args.config)
    if args.bots:
        wanted = args.bots.split(",")
        data["bots"] = [b for b in data["bots"] if b["name"] in wanted]
    if args.hands:
        data["hands"] = args.hands
    if args.workers:
        data["workers"] = args.workers
    if args.block_size:
        data["block_size"] = data["short_block_size"] = args.block_size
    if args.max_hands:
        data["max_hands"] = args.max_hands
    with tempfile.TemporaryDirectory() as tmp:
        data["output"] = {**(data.get("output") or {}), "dir": str(Path(tmp) / "league")}
        path = Path(tmp) / "league.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        start = time.perf_counter()
        cells = run_league(path, quiet=True)
        seconds = time.perf_counter() - start
        pairs = {}  # each pair's first stage (its run under pairs/<a>/vs-<b>/)
        for summary in (Path(tmp) / "league" / "pairs").glob("*/vs-*/summary.json"):
            name = f"{summary.parent.parent.name}-{summary.parent.name}"
            pairs[name] = json.loads(summary.read_text(encoding="utf-8"))
    lines = ["# League intervals: raw against AIVAT at the league's block structure", "",
             f"{len(data['bots'])} bots, {len(pairs)} pairs, {data['hands']} deals a pair, "
             f"duplicate; blocks of {data['block_size']} deals with a bot that learns, of "
             f"{data.get('short_block_size', data['block_size'])} otherwise. Wall time "
             f"{seconds / 60:.1f} min on {data.get('workers', 1)} workers. Goal: a half-width "
             f"of {GOAL} SB/h or less.", "",
             "Raw figures are the first stage's; a pair wider than the league's "
             "target_half_width played a second stage, counted in blocks and in the AIVAT "
             "figures (Stein's interval).", "",
             "| row | column | blocks | raw mean | raw stderr | raw half | estimator | "
             "AIVAT mean | AIVAT stderr | AIVAT half | var/raw | goal |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for cell in cells:
        raw = _raw(pairs, cell.row, cell.column)
        half = (cell.ci95[1] - cell.ci95[0]) / 2 if cell.ci95 else float("nan")
        raw_half = (raw["ci95"][1] - raw["ci95"][0]) / 2 if raw.get("ci95") else float("nan")
        factor = ((raw["stderr"] / cell.stderr) ** 2 if cell.stderr and raw.get("stderr")
            else float("nan"))
        lines.append(f"| {cell.row} | {cell.column} | {cell.blocks} | "
                     f"{raw['mean']:+.3f} | {raw.get('stderr') or float('nan'):.4f} | "
                     f"{raw_half:.3f} | {cell.estimator} | {cell.mean:+.3f} | "
                     f"{cell.stderr or float('nan'):.4f} | {half:.3f} | {factor:.1f} | "
                     f"{'yes' if half <= GOAL else 'no'} |")
    lines += ["", "| bot | mean over opponents | stderr | half-width | goal |",
              "|---|---|---|---|---|"]
    for bot in [b["name"] for b in data["bots"]]:
        mean = overall(cells, bot)
        half = (mean.ci95[1] - mean.ci95[0]) / 2 if mean.ci95 else float("nan")
        lines.append(f"| {bot} | {mean.mean:+.3f} | {mean.stderr or float('nan'):.4f} | "
                     f"{half:.3f} | {'yes' if half <= GOAL else 'no'} |")
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text, encoding="utf-8")
    return 0


def _raw(pairs: dict[str, Any], row: str, column: str) -> dict[str, Any]:
    for name, summary in pairs.items():
        if name in (f"{row}-vs-{column}", f"{column}-vs-{row}"):
            return summary["players"][row]
    raise KeyError(f"no pair of {row} and {column}")


if __name__ == "__main__":
    sys.exit(main())
