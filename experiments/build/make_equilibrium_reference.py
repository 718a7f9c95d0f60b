"""Write the equilibrium's action frequencies by spot: ``agent/equilibrium/data/reference.json``.

The shipped strategy plays itself (``cfr`` against ``cfr``, heads-up limit, blinds 1/2); every
action of every hand is counted at its key (:func:`agent.heuristic.deviation.decisions`: street, on
the
button, facing a bet, bets this round). The agent compares an opponent's counts with these
(:mod:`agent.heuristic.deviation`). Deterministic for a seed; about 3 minutes for 40,000 hands on
two
cores (the seeds of the two halves are ``seed`` and ``seed + 1``).

    python experiments/build/make_equilibrium_reference.py --hands 40000 --seed 31
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from agent.heuristic.deviation import REFERENCE_PATH, Key, decisions
from agent.rivals.cfr import CfrBot
from simulator.core.betting import Betting
from simulator.core.game import GameConfig
from simulator.play.match import play_match

# The studies' heads-up limit game (studies/matchups.py: HEADS_UP_LIMIT), written out: a
# build script stands on its own shelf, and the file records the game it was counted in.
HEADS_UP_LIMIT = {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000,
                  "reset_stacks": True}


def count(job: tuple[int, int]) -> dict[Key, list[int]]:
    """Both seats' actions by key over ``hands`` hands of self-play from ``seed``."""
    hands, seed = job
    bots = [CfrBot(seed=seed * 2), CfrBot(seed=seed * 2 + 1)]
    counts: dict[Key, list[int]] = {}
    game = GameConfig(**HEADS_UP_LIMIT)
    for result in play_match(game, bots, hands, seed=seed):
        h = result.history
        moves = Betting.start(game, h.button, h.starting_stacks, h.dealt_in).replayed(
            h.actions, h.actions[-1].street).moves
        for d in decisions(moves, h.button):
            counts.setdefault(d.key, [0, 0, 0])[d.column] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", type=Path, default=REFERENCE_PATH)
    args = parser.parse_args()
    start = time.perf_counter()
    half = args.hands // 2
    total: dict[Key, list[int]] = defaultdict(lambda: [0, 0, 0])
    with ProcessPoolExecutor(2) as pool:
        for part in pool.map(count, [(half, args.seed), (args.hands - half, args.seed + 1)]):
            for key, row in part.items():
                total[key] = [a + b for a, b in zip(total[key], row, strict=True)]
    rows = [[*key, row] for key, row in sorted(total.items())]
    record = {"hands": args.hands, "seed": args.seed, "game": HEADS_UP_LIMIT,
              "key": ["street", "button", "facing", "bets", "[fold, call, raise]"],
              "counts": rows}
    args.out.write_text(json.dumps(record, indent=None, separators=(",", ":")) + "\n")
    print(f"{len(rows)} keys from {args.hands} hands in {time.perf_counter() - start:.0f} s "
          f"-> {args.out}")


if __name__ == "__main__":
    main()
