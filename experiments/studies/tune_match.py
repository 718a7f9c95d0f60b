"""Quick duplicate heads-up matches for tuning the agent, on tuning seeds only.

The reports use seed 101 and up (experiments/studies/paper_table.py and the rest); tuning used this
script, whose seeds start at 9000, with blocks of 1,000 deals, so that no reported figure was
tuned on its own cards. It plays ``--blocks`` blocks, both seatings each, with the agent's
parameters overridden by ``--params`` (JSON, dotted keys), and prints the agent's mean SB/hand
with the standard error over blocks. ``--aivat`` plays each block as a run's block does
(:func:`simulator.arena.blocks.play_block`) and takes the agent's AIVAT figure instead of its
chips (against a rival without a policy, the chance correction alone). ``--json`` keeps each
block's mean by seed, and ``--paired A.json B.json`` prints B minus A, paired by seed (the
same cards).

    python experiments/studies/tune_match.py exploiter --params '{"selector.temperature": 0.3}'
    python experiments/studies/tune_match.py cfr --aivat --deals 400 --blocks 10 --base 9400 \\
        --params '{"lookahead": 2}' --json la2.json
    python experiments/studies/tune_match.py --paired default.json la2.json
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from matchups import HEADS_UP_LIMIT, SIXMAX_NOLIMIT, Seat

from simulator.arena.blocks import play_block
from simulator.arena.config import parse_config
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


def aivat_block(job: tuple[dict[str, Any], str, dict[str, Any], str, int, int]
                ) -> tuple[int, list[float]]:
    """Both seatings of one block, played as a run plays it: the agent's AIVAT estimate
    per hand (chips, less the luck and action corrections)."""
    hero_params, rival, rival_params, game, deals, seed = job
    config = parse_config({
        "game": GAMES[game], "hands": deals, "block_size": deals, "seed": seed,
        "duplicate": True, "workers": 1, "output": {"dir": "unused", "plots": False},
        "seats": [Seat("hero", "heuristic", hero_params).as_config(),
                  Seat("rival", rival, rival_params).as_config()]}, "tune_match")
    outcome = play_block(config, 0)
    if outcome.record is None:
        raise RuntimeError(f"seed {seed}: {outcome.error}")
    rec = outcome.record
    corrections = rec.aivat[:, 0] if rec.aivat is not None else 0.0
    return seed, (rec.net[:, 0] - rec.luck[:, 0] - corrections).tolist()


def run(hero_params: dict[str, Any], rival: str, rival_params: dict[str, Any], game: str,
        deals: int, blocks: int, base: int, workers: int, aivat: bool = False
        ) -> tuple[float, float, dict[int, float]]:
    """The agent's mean and standard error over blocks, and each block's mean by seed (two
    versions' blocks pair up by seed: the same cards)."""
    with ProcessPoolExecutor(workers) as pool:
        if aivat:
            done: list[tuple[int, list[Any]]] = list(pool.map(aivat_block, [
                (hero_params, rival, rival_params, game, deals, base + b)
                for b in range(blocks)]))
        else:
            done = list(pool.map(block, [(hero_params, rival, rival_params, game, deals,
                                          base + b, p) for b in range(blocks) for p in (0, 1)]))
    per_block: dict[int, list[float]] = {}
    for seed, nets in done:
        per_block.setdefault(seed, []).extend(nets)
    config = GameConfig(**GAMES[game])
    unit = config.small_bet if config.is_limit else config.big_blind  # the reports' units
    by_seed = {seed: float(np.mean(v) / unit) for seed, v in sorted(per_block.items())}
    return (*_mean_se(list(by_seed.values())), by_seed)


def _mean_se(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error (NaN from a single value)."""
    x = np.array(values)
    se = x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return float(x.mean()), float(se)


def _blocks(path: str) -> dict[str, float]:
    """Each block's mean by seed, from a file ``--json`` wrote."""
    try:
        with open(path, encoding="utf-8") as f:
            return {str(k): float(v) for k, v in json.load(f)["blocks"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: not a file of block means written by --json ({exc})") \
            from None


def paired(first: str, second: str) -> str:
    """Second minus first, paired by the seeds both files hold."""
    a, b = _blocks(first), _blocks(second)
    seeds = sorted(set(a) & set(b))
    if len(seeds) < 2:
        raise ValueError(f"{first} and {second} share {len(seeds)} seeds: 2 or more needed")
    mean, se = _mean_se([b[s] - a[s] for s in seeds])
    return f"{second} - {first}: {mean:+.3f} ± {se:.3f} SB/h ({len(seeds)} blocks)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rival", nargs="?")
    parser.add_argument("--params", default="{}", help="the agent's overrides (JSON)")
    parser.add_argument("--rival-params", default="{}")
    parser.add_argument("--game", choices=tuple(GAMES), default="limit")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--base", type=int, default=9000, help="first seed (tuning: 9000+)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="FILE", help="also write each block's mean here")
    parser.add_argument("--aivat", action="store_true",
                        help="the agent's AIVAT figure (as a run measures it), not its chips")
    parser.add_argument("--paired", nargs=2, metavar=("A", "B"),
                        help="print B minus A from two --json files, paired by seed")
    args = parser.parse_args()
    if args.paired:
        try:
            print(paired(*args.paired))
        except ValueError as exc:
            parser.exit(2, f"tune_match.py: {exc}\n")
        return
    if args.rival is None:
        parser.error("name a rival (or give --paired A B)")
    start = time.perf_counter()
    mean, se, by_seed = run(json.loads(args.params), args.rival, json.loads(args.rival_params),
                            args.game, args.deals, args.blocks, args.base, args.workers,
                            args.aivat)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rival": args.rival, "mean": mean, "se": se, "blocks": by_seed}, f)
    print(f"{args.rival:10s} {args.params:50s} {mean:+.3f} ± {se:.3f} "
          f"({time.perf_counter() - start:.0f}s)")


if __name__ == "__main__":
    main()
