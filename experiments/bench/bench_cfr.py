"""What the ``cfr`` bot and its solver cost: decisions, policies, and one solver iteration.

Prints, on one core:

* the median and 99th percentile of the bot's ``act`` in heads-up limit matches against
  ``random`` (every decision timed, the first decision of each street included: that is
  where the bot buckets every holding on the new board), and of the first decisions of the
  turn alone (the costliest street: E[HS²] over 46 river cards);
* a ``policy`` of every live holding (1,000+) at a fresh turn decision and at a repeated one;
* one solver walk of one board (public chance sampling, both players, 1,081 holdings) and
  one best-response walk of one river board;
* the anchor, measured in the same run: ranking the 1,081 live holdings on 1,000 river boards
  with the batch evaluator, so that the ratios travel between machines.

Goals: a decision's median at most 1 ms and its 99th percentile at most 10 ms.

    python experiments/bench/bench_cfr.py [--hands 2000] [--spots 30] [--repeats 3] [--rivers 4]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from benchlib import best_time, pin_to_one_core

from agent.equilibrium import abstraction, best_response, strategy
from agent.equilibrium.training import Trainer, board_data
from agent.rivals.cfr import CfrBot
from simulator import Action
from simulator.core.cards import HOLDINGS
from simulator.core.game import GameConfig
from simulator.core.hand_ranks import evaluate
from simulator.core.observation import Observation
from simulator.core.state import HandState
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match

GAME = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)


def anchor_ms(repeats: int) -> float:
    """Milliseconds to rank every live holding (1,081) on 1,000 river boards with the batch
    evaluator."""
    rng = np.random.default_rng(0)
    rows = []
    for _ in range(1000):
        board = rng.choice(52, 5, replace=False)
        live = HOLDINGS[~np.isin(HOLDINGS, board).any(axis=1)].astype(np.int64)
        rows.append(np.concatenate([live, np.tile(board, (live.shape[0], 1))], axis=1))
    big = np.concatenate(rows)
    return best_time(lambda: evaluate(big), repeats) * 1e3


def decisions(hands: int) -> tuple[list[float], list[float]]:
    """Milliseconds of every ``act`` of a fresh bot, and of the first decisions on the turn."""
    bot = CfrBot(seed=1)
    times: list[float] = []
    turn_first: list[float] = []
    act = bot.act
    last_board: list[tuple[int, ...]] = [()]

    def timed(obs: Observation) -> Action:
        start = time.perf_counter()
        action = act(obs)
        ms = (time.perf_counter() - start) * 1e3
        times.append(ms)
        if len(obs.board) == 4 and obs.board != last_board[0]:
            turn_first.append(ms)
        last_board[0] = obs.board
        return action

    bot.act = timed  # type: ignore[method-assign, assignment]  # time every decision
    for _ in play_match(GAME, [bot, RandomBot(seed=2)], hands, seed=4):
        pass
    return times, turn_first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands of the timed match")
    parser.add_argument("--spots", type=int, default=30, help="turn spots for the policy")
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing; best kept")
    parser.add_argument("--rivers", type=int, default=4, help="river boards of the best response")
    args = parser.parse_args()
    pin_to_one_core()
    anchor = anchor_ms(args.repeats)
    decisions(20)  # warm the kernels' caches
    times, turn_first = decisions(args.hands)
    t = np.array(times)
    print(f"anchor: 1,081 holdings on each of 1,000 river boards ranked in {anchor:.1f} ms")
    print(f"act: {t.size} decisions, median {np.median(t):.3f} ms, p99 "
          f"{np.percentile(t, 99):.3f} ms, max {t.max():.2f} ms "
          f"(median/anchor {np.median(t) / anchor:.4f})")
    tf = np.array(turn_first)
    print(f"act, first decision on the turn: {tf.size}, median {np.median(tf):.3f} ms, "
          f"p99 {np.percentile(tf, 99):.3f} ms")

    bot = CfrBot(seed=3)
    rng = np.random.default_rng(5)
    fresh = []
    again = []
    for _ in range(args.spots):
        cards = rng.choice(52, 9, replace=False).tolist()
        state = HandState(GAME, [200, 200], button=0, holes=[tuple(cards[:2]),
                                                               tuple(cards[2:4])],
                          board=cards[4:])
        state.raise_to(4)  # to the turn: the button raises, the big blind calls, both check
        for _ in range(3):
            state.check_or_call()
        assert state.actor is not None
        obs = state.observation(state.actor)
        holdings = [(int(a), int(b)) for a, b in HOLDINGS
                    if a not in obs.board and b not in obs.board]
        start = time.perf_counter()
        bot.policy(obs, holdings)
        fresh.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        bot.policy(obs, holdings)
        again.append((time.perf_counter() - start) * 1e3)
    print(f"policy of {len(holdings)} holdings at a new turn: median {np.median(fresh):.2f} "
          f"ms; at a turn seen before: median {np.median(again):.2f} ms")

    table = strategy.load()
    trainer = Trainer(abstraction.load(), seed=1, boards=1, workers=1)
    trainer.step()  # compile
    boards = [board_data(trainer.abstraction, b) for b in trainer.draw()]
    walk = best_time(lambda: trainer.solver.iterate(boards), args.repeats)
    print(f"solver: one board (both players, {boards[0].states.size} holdings, "
          f"{trainer.tree.rows} information sets) in {walk * 1e3:.0f} ms "
          f"({walk * 1e3 / anchor:.2f} anchors)")
    cost = best_response.board_cost(table, rivers=args.rivers)
    print(f"best response: one river board, one seat, in {cost * 1e3:.0f} ms CPU "
          f"({cost * 1e3 / anchor:.2f} anchors)")


if __name__ == "__main__":
    main()
