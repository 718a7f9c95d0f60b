"""Exact ICM speed: ours (a table over the sets of players) against pokerkit's
``calculate_icm`` (every finishing order) on the same stacks, in the same run, one core.

    python experiments/bench/bench_icm.py [--players 6,8,10] [--paid 3,5,all] [--repeats 3]
    python experiments/bench/bench_icm.py --smoke

For each table size and number of paid places, a seeded stack distribution; each side is
timed at its best of ``--repeats`` runs and the two answers must agree to 1e-9. The goal
is ours 100 times faster or more at 10 players with every place paid (pokerkit's ``n!``
orders against our ``n 2**n`` sets); pokerkit's cost is the product ``n (n-1) ...`` over the
paid places, so with few paid places it is cheap too and the ratio small: those rows are
printed as measured. The exit code is 0 whatever the ratios (a busy machine is slower).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np
from benchlib import pin_to_one_core


def best_of(fn: Callable[[], object], repeats: int, budget: float = 0.2) -> float:
    """The best time of one call, over ``repeats`` rounds of as many calls as fit in
    ``budget`` seconds (at least one)."""
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    calls = max(1, int(budget / max(once, 1e-7)))
    best = once
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def case(players: int, paid: int, seed: int) -> tuple[list[int], list[float]]:
    rng = np.random.default_rng(seed)
    stacks = rng.integers(1, 10_000, players).tolist()
    prizes = sorted(rng.random(paid).tolist(), reverse=True)
    return stacks, prizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", default="6,8,10", help="table sizes, comma-separated")
    parser.add_argument("--paid", default="3,5,all",
                        help="paid places, comma-separated ('all': every place)")
    parser.add_argument("--repeats", type=int, default=3, help="rounds per timing; best kept")
    parser.add_argument("--smoke", action="store_true", help="a tiny run: 6 players, 3 paid")
    args = parser.parse_args(argv)
    if args.smoke:
        args.players, args.paid, args.repeats = "6", "3,all", 1
    pin_to_one_core()

    from pokerkit.analysis import calculate_icm

    from simulator.core.icm import icm_exact

    print(f"{'players':>7} {'paid':>4} {'pokerkit s':>12} {'ours s':>12} {'ratio':>10}")
    for n in (int(x) for x in args.players.split(",")):
        for word in args.paid.split(","):
            paid = n if word == "all" else min(int(word), n)
            stacks, prizes = case(n, paid, seed=n * 100 + paid)
            ours = icm_exact(stacks, prizes)
            theirs = np.array(calculate_icm(prizes, stacks))
            if not np.allclose(ours, theirs, rtol=0, atol=1e-9):
                print(f"disagree at {n} players, {paid} paid: {ours} {theirs}")
                return 1
            t_pk = best_of(lambda s=stacks, p=prizes: calculate_icm(p, s), args.repeats)
            t_us = best_of(lambda s=stacks, p=prizes: icm_exact(s, p), args.repeats)
            print(f"{n:>7} {paid:>4} {t_pk:>12.3g} {t_us:>12.3g} {t_pk / t_us:>9.1f}x")
    print("ratio = pokerkit time / ours (answers agree to 1e-9)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
