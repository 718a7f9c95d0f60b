"""Parallel efficiency of tournaments, and the cost of the luck correction.

Plays the same 6-max limit match of baseline bots with one and with two local workers,
end to end through ``run_tournament`` (process start-up included), and prints hands/s and
their ratio (goal: two workers >= 1.7x one worker on a 2-core machine). Also prints the luck
correction's time against the time spent playing the hands (goal: at most 1x).

Workers are spawned processes, one worker too (the parent watches them: bot_timeout is a
hard limit); each pays a fixed start-up (imports, the evaluator's tables and numba cache
loading, about 1.3 s here), so the default match is long enough (36,000 deals, about 30 s
with one worker) for the ratio to measure throughput rather than start-up.

    python experiments/bench/bench_tournament.py [--deals 36000] [--block-size 400]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament

SEATS = [
    {"name": "loose", "bot": "random", "params": {"fold": 0.1, "call": 0.6, "raise": 0.3}},
    {"name": "tight", "bot": "random", "params": {"fold": 0.5, "call": 0.4, "raise": 0.1}},
    {"name": "station", "bot": "call"},
    {"name": "raiser", "bot": "raise"},
    {"name": "aggro", "bot": "random", "params": {"fold": 0.2, "call": 0.2, "raise": 0.6}},
    {"name": "mixed", "bot": "random"},
]


def timed_run(deals: int, block_size: int, workers: int, luck: bool, out: Path) -> tuple:
    config = parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": SEATS, "hands": deals, "seed": 11, "block_size": block_size,
        "workers": workers, "luck": luck, "output": {"dir": str(out), "plots": False}})
    start = time.perf_counter()
    summary = run_tournament(config, progress=False)
    elapsed = time.perf_counter() - start
    return deals / elapsed, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=36000)
    parser.add_argument("--block-size", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        run_tournament(parse_config({  # warm the numba caches so neither run pays for them
            "seats": SEATS[:2], "hands": 5, "seed": 1,
            "output": {"dir": str(root / "warm"), "plots": False}}), progress=False)
        one, s1 = timed_run(args.deals, args.block_size, 1, True, root / "w1")
        two, s2 = timed_run(args.deals, args.block_size, 2, True, root / "w2")
        plain, _ = timed_run(args.deals // 2, args.block_size, 1, False, root / "noluck")
    assert s1.data == s2.data, "results must not depend on the number of workers"
    print(f"6-max limit, {args.deals} deals in blocks of {args.block_size}, luck on")
    print(f"  1 worker : {one:8.0f} hands/s")
    print(f"  2 workers: {two:8.0f} hands/s")
    print(f"  ratio 2/1: {two / one:8.2f}  (goal >= 1.7)")
    print(f"luck correction: {s1.luck_seconds:.2f}s against {s1.play_seconds:.2f}s of play: "
          f"{s1.luck_seconds / s1.play_seconds:.2f}x (goal <= 1.0); without it "
          f"{plain:.0f} hands/s")


if __name__ == "__main__":
    main()
