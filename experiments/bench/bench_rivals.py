"""What a rival's decision costs: the Monte-Carlo equity kernel and whole decisions.

Prints, on one core, the time of one equity estimate (1,000 deals, random hands) heads-up
from the flop, against eval7's ``py_hand_vs_range_monte_carlo`` on the same spot and deals
(the anchor; a ratio below 1 is faster), then the kernel at 2, 6 and 10 seats pre-flop and
against weighted ranges, and the mean time of whole ``act`` calls of ``mc`` and ``exploiter``
in a heads-up limit match. Goal: an ``mc`` decision well under a few milliseconds.

    python experiments/bench/bench_rivals.py [--hands 200] [--repeats 7]
"""

from __future__ import annotations

import argparse
import time

import eval7
from benchlib import best_time, pin_to_one_core

from agent.rivals.exploiter import ExploiterBot
from agent.rivals.mc import MonteCarloBot
from agent.strength.equity import equity
from agent.strength.ranges import parse_range
from simulator.core.cards import parse_cards
from simulator.core.game import GameConfig
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match

SAMPLES = 1000
ALL_HANDS = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"


def per_call(run, repeats: int = 7, calls: int = 50) -> float:
    """Milliseconds per call, from the fastest of ``repeats`` batches of ``calls``."""
    return best_time(lambda: [run() for _ in range(calls)], repeats) / calls * 1e3


def decision_ms(bot_factory, hands: int = 200) -> float:
    """Mean milliseconds per ``act`` of the bot in seat 0, heads-up limit against random."""
    bot = bot_factory()
    spent = [0.0, 0]
    act = bot.act

    def timed(obs):
        start = time.perf_counter()
        action = act(obs)
        spent[0] += time.perf_counter() - start
        spent[1] += 1
        return action

    bot.act = timed
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    for _ in play_match(game, [bot, RandomBot(seed=2)], hands, seed=4):
        pass
    return spent[0] / spent[1] * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands of each timed match")
    parser.add_argument("--repeats", type=int, default=7, help="batches per timing; best kept")
    args = parser.parse_args()
    repeats = args.repeats
    pin_to_one_core()
    hole, board = parse_cards("AdQc"), parse_cards("3h4cJh")
    equity(hole, board, [None], 10, 0)  # compile
    ours = per_call(lambda: equity(hole, board, [None], SAMPLES, 1), repeats)
    e7_hand = [eval7.Card(c) for c in ("Ad", "Qc")]
    e7_board = [eval7.Card(c) for c in ("3h", "4c", "Jh")]
    e7_range = eval7.HandRange(ALL_HANDS)
    anchor = per_call(lambda: eval7.py_hand_vs_range_monte_carlo(e7_hand, e7_range, e7_board,
                                                                 SAMPLES), repeats)
    print(f"equity, {SAMPLES} deals, heads-up from the flop: {ours:.3f} ms; eval7 "
          f"{anchor:.3f} ms; ratio {ours / anchor:.2f}")
    weighted = parse_range("22+, A2s+, K9s+, ATo+, KJo")
    for seats in (2, 6, 10):
        uniform = per_call(lambda s=seats: equity(hole, (), [None] * (s - 1), SAMPLES, 1),
                           repeats)
        ranged = per_call(lambda s=seats: equity(hole, (), [weighted] * (s - 1), SAMPLES, 1),
                          repeats)
        print(f"equity pre-flop, {seats} seats: random hands {uniform:.3f} ms, "
              f"weighted ranges {ranged:.3f} ms")
    mc = decision_ms(lambda: MonteCarloBot(seed=1), args.hands)
    print(f"mc decision (heads-up limit): {mc:.3f} ms")
    exploiter = decision_ms(lambda: ExploiterBot(seed=1), args.hands)
    print(f"exploiter decision (heads-up limit): {exploiter:.3f} ms")


if __name__ == "__main__":
    main()
