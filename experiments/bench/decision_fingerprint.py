"""Every decision of the heuristic agent over fixed matches, to check that a change of speed
changes nothing it decides.

Plays fixed seeded matches of ``heuristic`` agents with tracing on (limit 6-max, no-limit
6-max, limit heads-up, no-limit 3 seats: 1,000 hands) and writes every hand's chip result and
every decision's trace record (strength, every candidate's E and its parameters, the chosen
action; floats in full precision) into one file. Run it on two commits and compare the files:
identical files mean identical decisions and identical numbers behind them.

The agents play with ``equilibrium.play`` off: heads-up, two agents would otherwise play the
shipped equilibrium against each other all match (neither deviates from it), and those
decisions are a table look-up, not the pipeline this file watches.

    python experiments/bench/decision_fingerprint.py OUT.jsonl [--scale 1.0]
    cmp before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import json
import tempfile
import warnings
from pathlib import Path

from agent.heuristic import HeuristicAgent
from simulator.core.game import GameConfig
from simulator.play.match import play_match

MATCHES = (
    ("limit6", GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000), 6, 300),
    ("nolimit6", GameConfig(variant="nolimit", blinds=(1, 2), stack=200), 6, 200),
    ("limit2", GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400), 2, 300),
    ("nolimit3", GameConfig(variant="nolimit", blinds=(1, 2), stack=200), 3, 200),
)


def fingerprint(out: Path, scale: float) -> int:
    """Write the records; return how many decisions they hold."""
    decisions = 0
    with open(out, "w", encoding="utf-8") as f, tempfile.TemporaryDirectory() as tmp:
        for name, game, seats, hands in MATCHES:
            bots = [HeuristicAgent(seed=10 + s, trace=True, **{"equilibrium.play": False})
                    for s in range(seats)]
            directory = Path(tmp) / name
            for result in play_match(game, bots, max(1, round(hands * scale)), seed=7,
                                     directory=directory):
                f.write(json.dumps({"match": name, "hand": result.hand_number,
                                    "net": list(result.net)}) + "\n")
            for trace in sorted(directory.glob("*/trace-*.jsonl")):
                for line in trace.read_text(encoding="utf-8").splitlines():
                    f.write(json.dumps({"match": name, "bot": trace.parent.name,
                                        **json.loads(line)}) + "\n")
                    decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=float, default=1.0, help="share of the hands to play")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"{fingerprint(args.out, args.scale)} trace records written to {args.out}")


if __name__ == "__main__":
    main()
