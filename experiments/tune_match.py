"""Quick duplicate heads-up matches for tuning the agent, on tuning seeds only.

The reports use seed 101 and up (experiments/paper_table.py and the rest); tuning used this
script, whose seeds start at 9000, with blocks of 1,000 deals, so that no reported figure was
tuned on its own cards. It plays ``--blocks`` blocks, both seatings each, with the agent's
parameters overridden by ``--params`` (JSON, dotted keys), and prints the agent's mean SB/hand
with the standard error over blocks.

    python experiments/tune_match.py exploiter --params '{"selector.temperature": 0.3}'
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from matchups import HEADS_UP_LIMIT, SIXMAX_NOLIMIT

from simulator.core.game import GameConfig
from simulator.play.match import play_match
from simulator.play.registry import build, resolve

GAMES = {"limit": HEADS_UP_LIMIT, "nolimit": SIXMAX_NOLIMIT}  # the reports' games, heads-up


def block(job: tuple[dict[str, Any], str, dict[str, Any], str, int, int, int]
          ) -> tuple[int, list[int]]:
    """One seating of one block: the agent's net chips per hand."""
    hero_params, rival, rival_params, game, deals, seed, perm = job
    hero = build(resolve("heuristic"), hero_params, seed * 7 + perm)
    other = build(resolve(rival), rival_params, seed * 11 + perm)
    bots, names = ([hero, other], ["hero", "rival"]) if perm == 0 else (
        [other, hero], ["rival", "hero"])
    seat = names.index("hero")
    results = play_match(GameConfig(**GAMES[game]), bots, deals, seed=seed, names=names)
    return seed, [r.net[seat] for r in results]


def run(hero_params: dict[str, Any], rival: str, rival_params: dict[str, Any], game: str,
        deals: int, blocks: int, base: int, workers: int
        ) -> tuple[float, float, dict[int, float]]:
    """The agent's mean and standard error over blocks, and each block's mean by seed (two
    versions' blocks pair up by seed: the same cards)."""
    jobs = [(hero_params, rival, rival_params, game, deals, base + b, p)
            for b in range(blocks) for p in (0, 1)]
    with ProcessPoolExecutor(workers) as pool:
        done = list(pool.map(block, jobs))
    per_block: dict[int, list[int]] = {}
    for seed, nets in done:
        per_block.setdefault(seed, []).extend(nets)
    config = GameConfig(**GAMES[game])
    unit = config.small_bet if config.is_limit else config.big_blind  # the reports' units
    by_seed = {seed: float(np.mean(v) / unit) for seed, v in sorted(per_block.items())}
    means = np.array(list(by_seed.values()))
    return float(means.mean()), float(means.std(ddof=1) / np.sqrt(len(means))), by_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rival")
    parser.add_argument("--params", default="{}", help="the agent's overrides (JSON)")
    parser.add_argument("--rival-params", default="{}")
    parser.add_argument("--game", choices=tuple(GAMES), default="limit")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--base", type=int, default=9000, help="first seed (tuning: 9000+)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="FILE", help="also write each block's mean here")
    args = parser.parse_args()
    start = time.perf_counter()
    mean, se, by_seed = run(json.loads(args.params), args.rival, json.loads(args.rival_params),
                            args.game, args.deals, args.blocks, args.base, args.workers)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rival": args.rival, "mean": mean, "se": se, "blocks": by_seed}, f)
    print(f"{args.rival:10s} {args.params:50s} {mean:+.3f} ± {se:.3f} "
          f"({time.perf_counter() - start:.0f}s)")


if __name__ == "__main__":
    main()
