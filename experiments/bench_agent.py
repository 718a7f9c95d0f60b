"""The heuristic agent's speed: six-max self-play, decision times, and a decision's profile.

Ours: six ``heuristic`` agents play 6-max fixed-limit (blinds 1/2, bets 2/4) on one core
through ``play_match``, every decision timed. The anchor, measured in the same run: pokerkit
playing 6-max no-limit (blinds 1/2, stacks 200) with random players that fold 15% of the time
when facing a bet, make a minimum raise 10% of the time, and otherwise check or call.
Goals: ours >= 0.5x pokerkit's hands per second; a median decision under 1 ms and the 99th
percentile under 10 ms.

    python experiments/bench_agent.py [--hands 400] [--profile]

``--profile`` adds where the time of the agents' decisions goes (cProfile, own time per
function, the top entries).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
import warnings

import numpy as np
import pokerkit
from benchlib import pin_to_one_core

from agent.heuristic import HeuristicAgent
from simulator import Action, Observation
from simulator.core.game import GameConfig
from simulator.play.match import play_match

GAME = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000)
AUTOMATIONS = tuple(a for a in pokerkit.Automation
                    if a is not pokerkit.Automation.RUNOUT_COUNT_SELECTION)


class Timed(HeuristicAgent):
    """The agent with every decision's wall time kept."""

    times: list[float] = []

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = super().act(observation)
        Timed.times.append(time.perf_counter() - start)
        return action


def ours(hands: int, profile: bool) -> tuple[float, np.ndarray, str]:
    bots = [Timed(seed=s) for s in range(6)]
    list(play_match(GAME, bots, 30, seed=1))  # warm-up: numba, tables
    Timed.times.clear()
    profiler = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    list(play_match(GAME, bots, hands, seed=2))
    if profiler:
        profiler.disable()
    rate = hands / (time.perf_counter() - start)
    report = ""
    if profiler:
        buf = io.StringIO()
        pstats.Stats(profiler, stream=buf).sort_stats("tottime").print_stats(14)
        report = buf.getvalue()
    return rate, np.array(Timed.times), report


def pokerkit_random(seconds: float) -> float:
    rng = random.Random(0)
    hands, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = pokerkit.NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2,
                                                         200, 6)
        while state.status:
            u = rng.random()
            if state.can_fold() and u < 0.15:
                state.fold()
            elif u < 0.25 and state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
            else:
                state.check_or_call()
        hands += 1
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=5.0, help="pokerkit's measurement")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    pin_to_one_core()
    rate, times, report = ours(args.hands, args.profile)
    anchor = pokerkit_random(args.seconds)
    ms = times * 1000
    print(f"ours: 6-max limit, six heuristic agents   {rate:8.1f} hands/s")
    print(f"pokerkit: 6-max no-limit, random players  {anchor:8.1f} hands/s")
    print(f"ratio ours/pokerkit                       {rate / anchor:8.2f}   (goal >= 0.5)")
    print(f"decisions: {len(ms)}; median {np.median(ms):.3f} ms (goal < 1), 99th percentile "
          f"{np.percentile(ms, 99):.3f} ms (goal < 10), max {ms.max():.1f} ms")
    if report:
        print(report)


if __name__ == "__main__":
    main()
