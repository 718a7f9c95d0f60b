"""``cfr`` against the panel: heads-up limit, duplicate, each match a tournament of its own.

The goal: ``cfr`` wins against ``call``, ``raise``, ``random``, ``rock``, ``maniac``,
``mc``, ``loki`` and ``exploiter`` with each 95% interval above zero, at 20,000 deals in blocks
of 2,000. Each match runs through ``holdem run`` (worker processes, duplicate seating); the
table lands in ``experiments/results/cfr_panel.md`` (and ``.json``), one row a rival, added to
as matches finish, so a long run can be split over several calls with ``--rivals``.

    python experiments/studies/cfr_panel.py                       # every rival, 20,000 deals each
    python experiments/studies/cfr_panel.py --rivals loki exploiter --deals 20000

``--out DIR`` writes (and adds to) the table there instead of ``experiments/results/``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

RESULTS = Path(__file__).resolve().parents[1] / "results"
RIVALS = ("call", "raise", "random", "rock", "maniac", "mc", "loki", "exploiter")
GAME = {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "cap": 4, "stack": 200,
        "reset_stacks": True}


def match(rival: str, deals: int, block: int, seed: int, workers: int) -> dict:
    """One duplicate match of ``cfr`` against ``rival``: cfr's row of the summary."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        config = {"game": GAME, "hands": deals, "seed": seed, "duplicate": True,
                  "block_size": block, "workers": workers, "backend": "local",
                  "on_bot_error": "stop", "bot_timeout": 120,
                  "seats": [{"name": "cfr", "bot": "cfr"}, {"name": rival, "bot": rival}],
                  "output": {"dir": str(out), "hand_histories": False, "plots": False}}
        path = Path(tmp) / "config.yaml"
        path.write_text(yaml.safe_dump(config))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simulator.cli", "run", str(path), "--force"],
                       check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        summary = json.loads((out / "summary.json").read_text())
    row = summary["players"]["cfr"]
    return {"rival": rival, "deals": deals, "block_size": block, "seed": seed,
            "hands": row["hands"], "sb_per_hand": round(row["mean"], 4),
            "ci95": [round(x, 4) for x in row["ci95"]], "seconds": round(seconds, 1)}


def write(rows: dict[str, dict], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    ordered = [rows[r] for r in RIVALS if r in rows]
    (out / "cfr_panel.json").write_text(json.dumps(ordered, indent=2) + "\n")
    lines = ["# cfr against the panel", "",
             "Heads-up limit (blinds 1/2, bets 2/4, cap 4), duplicate; cfr's win rate in small "
             "bets a hand with its 95% interval over blocks.", "",
             "| rival | deals | block | SB/h | 95% interval | above zero | seconds |",
             "|---|---:|---:|---:|---|---|---:|"]
    lines += [f"| {r['rival']} | {r['deals']} | {r['block_size']} | {r['sb_per_hand']:+.4f} | "
              f"[{r['ci95'][0]:+.4f}, {r['ci95'][1]:+.4f}] | "
              f"{'yes' if r['ci95'][0] > 0 else 'no'} | {r['seconds']} |" for r in ordered]
    (out / "cfr_panel.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rivals", nargs="*", default=list(RIVALS), choices=RIVALS)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--block", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2107)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for the table")
    args = parser.parse_args(argv)
    record = args.out / "cfr_panel.json"
    rows = ({r["rival"]: r for r in json.loads(record.read_text())} if record.exists()
            else {})
    for rival in args.rivals:
        rows[rival] = match(rival, args.deals, args.block, args.seed, args.workers)
        print(json.dumps(rows[rival]), flush=True)
        write(rows, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
