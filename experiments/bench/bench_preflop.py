"""Pre-flop expert speed per decision, beside treys' 7-card evaluation in the same run, one core.

    python experiments/bench/bench_preflop.py [--repeats 5] [--spots 600]

Spots: pre-flop observations of 6-max no-limit and limit hands from seeded deals, with 0-4
calls before the player to act. Two timings per spot: a first decision of a hand (the plan is
made: situation, table, thresholds, the random draw, the action) and a later one (the plan is
kept). The anchor is one treys ``Evaluator.evaluate`` of a 7-card hand, the cost of a single
hand rank in the reference Python evaluator.

Goal: a decision under 50 us; printed with its ratio to the anchor.
"""

from __future__ import annotations

import argparse
import dataclasses

import numpy as np
from benchlib import best_time, pin_to_one_core


def spots(count: int) -> list:
    from simulator.core.deal import deal_cards
    from simulator.core.game import GameConfig
    from simulator.core.state import HandState

    games = (GameConfig(variant="nolimit", blinds=(1, 2)),
             GameConfig(variant="limit", blinds=(1, 2)))
    out = []
    for h in range(count):
        deal = deal_cards(1, h, 6)
        state = HandState(games[h % 2], [200] * 6, h % 6, deal.holes, deal.board)
        for _ in range(h % 5):
            state.check_or_call()
        out.append(state.observation(state.actor))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per timing; best kept")
    parser.add_argument("--spots", type=int, default=600)
    args = parser.parse_args(argv)
    pin_to_one_core()

    from treys import Card, Evaluator

    from agent.preflop.expert import PreflopExpert
    from agent.preflop.params import DEFAULT_PARAMS_FILE, load_preflop_params

    expert = PreflopExpert(load_preflop_params(DEFAULT_PARAMS_FILE))
    rng = np.random.default_rng(0)
    observations = spots(args.spots)
    # A new hand number per repeat, so every timed first decision makes its plan afresh.
    fresh = [[dataclasses.replace(o, hand_number=10**6 * r + i) for i, o in enumerate(
        observations)] for r in range(args.repeats)]
    expert.decide(observations[0], rng)

    batches = iter(fresh)

    def first() -> None:
        for o in next(batches):
            expert.decide(o, rng)

    t_first = best_time(first, args.repeats) / len(observations)
    t_kept = float("inf")
    for _ in range(args.repeats):
        # each spot decided twice in a row: the second decision keeps the plan
        times = []
        for o in observations:
            expert.decide(o, rng)
            times.append(best_time(lambda o=o: expert.decide(o, rng), 1))
        t_kept = min(t_kept, float(np.median(times)))

    board = [Card.new(c) for c in ("Ah", "Kd", "7s", "4c", "2d")]
    hole = [Card.new(c) for c in ("Qs", "Qh")]
    treys = Evaluator()
    t_treys = best_time(lambda: [treys.evaluate(hole, board) for _ in range(2000)],
                        args.repeats) / 2000

    print(f"treys 7-card evaluate:         {1e6 * t_treys:7.2f} us (anchor)")
    print(f"first decision of a hand:      {1e6 * t_first:7.2f} us  "
          f"({t_first / t_treys:.1f}x the anchor; goal < 50 us)")
    print(f"later decision (plan kept):    {1e6 * t_kept:7.2f} us  "
          f"({t_kept / t_treys:.1f}x the anchor)")
    return 0 if t_first < 50e-6 else 1


if __name__ == "__main__":
    raise SystemExit(main())
