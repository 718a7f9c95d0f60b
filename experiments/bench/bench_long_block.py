"""The agent's speed over a long block: hands per second in one block of 60,000 hands against
the rate of a block of 5,000, measured in the same run.

A block is the life of a bot (its model and its trust learn for the whole block), so anything
the agent does in proportion to what it has seen makes long blocks slow down. The goal: the
rate of the 60,000-hand block within 20% of the 5,000-hand block's (a ratio of at least 0.8).
Each block is one match of a ``heuristic`` agent against a rival (``call`` by default: a
showdown at nearly every hand the agent does not fold, the most trust and model updates)
with a directory, so the model is saved at the end as in a tournament; the save's time
counts. On one core.

    python experiments/bench/bench_long_block.py [--hands 60000] [--anchor 5000] [--rival call]
        [--game limit|nolimit]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

from benchlib import pin_to_one_core

from agent.heuristic.bot import HeuristicAgent
from simulator.core.game import GameConfig
from simulator.play.match import play_match
from simulator.play.registry import build, resolve

GAMES = {"limit": GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400),
         "nolimit": GameConfig(variant="nolimit", blinds=(1, 2), stack=200)}


def block_rate(game: GameConfig, hands: int, rival: str, seed: int) -> tuple[float, int]:
    """Hands per second of one block of ``hands`` hands, and the model file's bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        bots = [HeuristicAgent(seed=seed), build(resolve(rival), {}, seed + 1)]
        start = time.perf_counter()
        for _ in play_match(game, bots, hands, seed, names=("hero", "rival"),
                            directory=Path(tmp)):
            pass
        seconds = time.perf_counter() - start
        model = sum(p.stat().st_size for p in Path(tmp).glob("hero/model-*"))
    return hands / seconds, model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=60_000)
    parser.add_argument("--anchor", type=int, default=5_000)
    parser.add_argument("--rival", default="call")
    parser.add_argument("--game", choices=tuple(GAMES), default="limit")
    parser.add_argument("--seed", type=int, default=9000)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    pin_to_one_core()
    game = GAMES[args.game]
    # compiles the kernels once, outside the timing
    block_rate(game, min(200, args.anchor), args.rival, args.seed)
    anchor, anchor_bytes = block_rate(game, args.anchor, args.rival, args.seed)
    print(f"{args.anchor:>7} hands in one block: {anchor:7.1f} hands/s "
          f"(model file {anchor_bytes / 1e3:,.0f} kB)", flush=True)
    long, long_bytes = block_rate(game, args.hands, args.rival, args.seed)
    print(f"{args.hands:>7} hands in one block: {long:7.1f} hands/s "
          f"(model file {long_bytes / 1e3:,.0f} kB)")
    print(f"ratio {long / anchor:.2f} (goal >= 0.80)")


if __name__ == "__main__":
    main()
