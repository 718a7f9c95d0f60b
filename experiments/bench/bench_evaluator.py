"""Evaluator speed against treys and eval7, measured in the same run on one core.

    python experiments/bench/bench_evaluator.py [--hands 2000000]

Prints 7-card evaluations per second of our batch path, treys and eval7 (called per hand),
and the ratios ours/treys (goal >= 250) and ours/eval7 (goal >= 12).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import numpy as np
from benchlib import best_time, pin_to_one_core


def random_hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.int8)


def best_rate(n: int, run: Callable[[], object], repeats: int) -> float:
    """Hands per second of the fastest of ``repeats`` runs."""
    return n / best_time(run, repeats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000, help="hands for our batch path")
    parser.add_argument("--treys-hands", type=int, default=100_000)
    parser.add_argument("--eval7-hands", type=int, default=200_000)
    args = parser.parse_args(argv)
    pin_to_one_core()

    import eval7
    from treys import Evaluator

    from simulator.core.cards import format_card, to_treys
    from simulator.core.hand_ranks import evaluate

    hands = random_hands(args.hands, seed=1)
    evaluate(hands[:10])  # compile or load the cached kernel outside the timing
    ours = best_rate(len(hands), lambda: evaluate(hands), repeats=3)

    treys_eval = Evaluator().evaluate
    treys_hands = [[to_treys(int(c)) for c in h] for h in hands[: args.treys_hands]]
    treys = best_rate(len(treys_hands),
                      lambda: [treys_eval(h[:2], h[2:]) for h in treys_hands], repeats=1)

    e7_cards = [eval7.Card(format_card(c)) for c in range(52)]
    e7_hands = [[e7_cards[int(c)] for c in h] for h in hands[: args.eval7_hands]]
    e7 = best_rate(len(e7_hands), lambda: [eval7.evaluate(h) for h in e7_hands], repeats=2)

    print(f"ours  (batch, {len(hands):>9,} hands): {ours / 1e6:8.2f} M evals/s")
    print(f"treys (per hand, {len(treys_hands):>7,} hands): {treys / 1e6:8.3f} M evals/s")
    print(f"eval7 (per hand, {len(e7_hands):>7,} hands): {e7 / 1e6:8.3f} M evals/s")
    print(f"ours/treys = {ours / treys:7.1f}   (goal >= 250)")
    print(f"ours/eval7 = {ours / e7:7.1f}   (goal >= 12)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
