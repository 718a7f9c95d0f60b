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

``--digests FILE`` also writes each line's digest and the platform (machine, Python, numpy,
numba) to FILE: ``tests/test_decision_fingerprint.py`` plays the same matches at the scale of
``tests/data/decision_fingerprint.json`` and compares, on the platform recorded there.

    python experiments/bench/decision_fingerprint.py /tmp/small.jsonl --scale 0.04 \
        --digests tests/data/decision_fingerprint.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import tempfile
import warnings
from pathlib import Path

import numba
import numpy as np

from agent.heuristic.bot import HeuristicAgent
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
                    record = json.loads(line)
                    # the opponents' class ranges joined the trace later: left out, so that
                    # files written before and after them compare (the weights behind each
                    # decision already show in its strength and every candidate's E)
                    record.pop("ranges", None)
                    f.write(json.dumps({"match": name, "bot": trace.parent.name,
                                        **record}) + "\n")
                    decisions += 1
    return decisions


def digests(path: Path) -> list[str]:
    """A short digest of each line of a fingerprint file, in order."""
    return [hashlib.md5(line.encode()).hexdigest()[:16]
            for line in path.read_text(encoding="utf-8").splitlines()]


def platform_key() -> dict[str, str]:
    """What the floats behind the decisions may differ by: the machine, the Python, numpy's and
    numba's versions (a fingerprint compares only where all of them agree)."""
    return {"machine": platform.machine(), "system": platform.system(),
            "python": ".".join(platform.python_version_tuple()[:2]),
            "numpy": np.__version__, "numba": numba.__version__}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=float, default=1.0, help="share of the hands to play")
    parser.add_argument("--digests", type=Path, help="also write the lines' digests here")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"{fingerprint(args.out, args.scale)} trace records written to {args.out}")
    if args.digests is not None:
        args.digests.parent.mkdir(parents=True, exist_ok=True)
        args.digests.write_text(json.dumps({
            "platform": platform_key(), "scale": args.scale,
            "digests": digests(args.out)}, indent=1) + "\n", encoding="utf-8")
        print(f"digests written to {args.digests}")


if __name__ == "__main__":
    main()
