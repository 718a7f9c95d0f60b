"""Hands per second of our match loop against pokerkit, measured in the same run.

Two setups, each with every player always checking/calling so that every hand reaches the
showdown and both engines do the same work: 6-max no-limit (blinds 1/2, stacks 200) and
heads-up fixed-limit (small bet 2). Ours plays through ``play_match`` with ``CallBot``s
(observations, validation, showdown evaluation, hand records included); pokerkit plays its
``NoLimitTexasHoldem`` / ``FixedLimitTexasHoldem`` with automations, dealing cards itself and
applying ``check_or_call`` until the hand ends. Goal: ours/pokerkit >= 10.

    python experiments/bench/bench_engine.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import time
import warnings

import pokerkit

from simulator.core.game import GameConfig
from simulator.play.baseline import CallBot
from simulator.play.match import play_match

AUTOMATIONS = tuple(a for a in pokerkit.Automation
                    if a is not pokerkit.Automation.RUNOUT_COUNT_SELECTION)


def ours(game: GameConfig, seats: int, seconds: float) -> float:
    list(play_match(game, [CallBot() for _ in range(seats)], 20, seed=0))  # warm-up (numba)
    hands, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands += sum(1 for _ in play_match(game, [CallBot() for _ in range(seats)], 200,
                                           seed=hands))
    return hands / (time.perf_counter() - start)


def theirs(game: GameConfig, seats: int, seconds: float) -> float:
    if game.is_limit:
        make = lambda: pokerkit.FixedLimitTexasHoldem.create_state(  # noqa: E731
            AUTOMATIONS, True, game.ante, game.blinds, game.small_bet, game.big_bet,
            game.stack, seats)
    else:
        make = lambda: pokerkit.NoLimitTexasHoldem.create_state(  # noqa: E731
            AUTOMATIONS, True, game.ante, game.blinds, game.big_blind, game.stack, seats)
    hands, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = make()
        while state.status:
            state.check_or_call()
        hands += 1
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    setups = [
        ("6-max no-limit, all check/call", GameConfig(variant="nolimit", blinds=(1, 2),
                                                      stack=200), 6),
        ("heads-up limit, all check/call", GameConfig(variant="limit", blinds=(1, 2),
                                                      small_bet=2, stack=200), 2),
    ]
    print(f"{'setup':<34}{'ours h/s':>10}{'pokerkit h/s':>14}{'ratio':>8}")
    for label, game, seats in setups:
        a, b = ours(game, seats, args.seconds), theirs(game, seats, args.seconds)
        print(f"{label:<34}{a:>10.0f}{b:>14.0f}{a / b:>8.1f}")


if __name__ == "__main__":
    main()
