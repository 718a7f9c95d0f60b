"""Sanity check of the rival panel: each rival heads-up limit against ``call``, ``raise`` and
``random``, duplicate, from the configs ``configs/rivals/<rival>_vs_<baseline>.yaml``.

Expected: ``exploiter`` and ``mc`` beat all three clearly (the whole 95% interval above 0);
``loki`` beats ``call`` and ``raise`` and breaks even against ``random`` (its re-weighting
reads strength into random bets); ``rock`` and ``maniac`` are styles, not strong players,
and their rows only show what they are. Each run resumes where it stopped (``--force``
starts over); the table goes to ``experiments/results/rivals_sanity.csv`` and ``.md``. Not a
CI test.

    python experiments/studies/rivals_sanity.py [--force] [--workers N]

``--deals N`` (with ``--block-size``) overrides the configs' deals, ``--runs DIR`` puts the run
dirs there instead of the configs' ``results/rivals/``, ``--out DIR`` the table, and
``--inline`` plays in this process: a tiny run that leaves the committed table alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

from simulator.arena.config import load_config
from simulator.arena.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
RIVALS = ("loki", "exploiter", "mc", "rock", "maniac")
BASELINES = ("call", "raise", "random")
OUT = ROOT / "experiments" / "results"


def run_one(rival: str, baseline: str, args: argparse.Namespace) -> dict:
    config = load_config(ROOT / "configs" / "rivals" / f"{rival}_vs_{baseline}.yaml")
    runs = ROOT if args.runs is None else args.runs
    where = config.output.dir if args.runs is None else Path(config.output.dir).name
    output = config.output.model_copy(update={"dir": str(runs / where)})
    updates: dict[str, Any] = {"output": output}
    if args.workers:
        updates["workers"] = args.workers
    if args.deals:
        updates |= {"hands": args.deals, "block_size": args.block_size or config.block_size}
    config = config.model_copy(update=updates)
    resume = not args.force and (Path(output.dir) / "run.json").exists()
    start = time.perf_counter()
    run_tournament(config, resume=resume, force=args.force, progress=False, inline=args.inline)
    seconds = time.perf_counter() - start
    summary = json.loads((Path(output.dir) / "summary.json").read_text(encoding="utf-8"))
    me = summary["players"][rival]
    luck = me["luck_adjusted"]
    return {"rival": rival, "opponent": baseline, "deals": summary["deals"],
            "blocks": summary["blocks"], "sb_per_hand": round(me["mean"], 4),
            "ci95_low": round(me["ci95"][0], 4), "ci95_high": round(me["ci95"][1], 4),
            "luck_adjusted": round(luck["mean"], 4), "luck_ci95_low": round(luck["ci95"][0], 4),
            "luck_ci95_high": round(luck["ci95"][1], 4), "seconds": round(seconds, 1)}


def write(rows: list[dict], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / "rivals_sanity.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| rival | opponent | deals (blocks) | SB/h [95% CI] | luck-adjusted SB/h [95% CI] "
             "| wall s |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['rival']} | {r['opponent']} | {r['deals']} ({r['blocks']}) "
            f"| {r['sb_per_hand']:+.3f} [{r['ci95_low']:+.3f}, {r['ci95_high']:+.3f}] "
            f"| {r['luck_adjusted']:+.3f} [{r['luck_ci95_low']:+.3f}, {r['luck_ci95_high']:+.3f}] "
            f"| {r['seconds']} |")
    (out / "rivals_sanity.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="start every run over")
    parser.add_argument("--workers", type=int, help="override the configs' workers")
    parser.add_argument("--deals", type=int, help="override the configs' deals")
    parser.add_argument("--block-size", type=int, help="with --deals: blocks of this many")
    parser.add_argument("--runs", type=Path, help="folder for the run dirs")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the table")
    parser.add_argument("--inline", action="store_true", help="play in this process")
    args = parser.parse_args()
    rows = []
    for rival in RIVALS:
        for baseline in BASELINES:
            rows.append(run_one(rival, baseline, args))
            print(rows[-1], flush=True)
    write(rows, args.out)


if __name__ == "__main__":
    main()
