"""What a ``vexbot`` decision costs: ``act`` over a heads-up limit match, and its full-range
policy (every live holding in one walk) after the flop.

Plays ``--hands`` hands against ``cfr`` on one core, timing every ``act`` (median and 99th
percentile, wall clock and this process's CPU time (the machine may be shared), with each
street's first decision, which builds the board's strength matrix,
included) and at every post-flop decision one full-range ``policy`` call; the anchor is
``cfr``'s own ``act`` in the same match (a table look-up), and the ratios are printed.
Goals: median decision <= 20 ms, 99th percentile <= 200 ms, full-range policy
<= 100 ms after the flop.

    nice python experiments/bench/bench_vexbot.py --hands 300
    python experiments/bench/bench_vexbot.py --smoke
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from benchlib import pin_to_one_core

from agent.rivals.cfr import CfrBot
from agent.rivals.vexbot import VexbotBot
from simulator import Action, Observation
from simulator.core.cards import HOLDINGS
from simulator.core.game import GameConfig
from simulator.play.match import play_match

GAME = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)


def timed(act: Callable[[Observation], Action], into: list[float], cpu: list[float]
          ) -> Callable[[Observation], Action]:
    def run(obs: Observation) -> Action:
        start, start_cpu = time.perf_counter(), time.process_time()
        action = act(obs)
        into.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - start_cpu) * 1e3)
        return action
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--smoke", action="store_true", help="a tiny run (12 hands)")
    args = parser.parse_args()
    hands = 12 if args.smoke else args.hands
    pin_to_one_core()
    VexbotBot.prepare(GAME)
    CfrBot.prepare(GAME)
    vex, cfr = VexbotBot(seed=1), CfrBot(seed=2)
    acts: list[float] = []
    acts_cpu: list[float] = []
    anchor: list[float] = []
    anchor_cpu: list[float] = []
    policies: list[float] = []
    policies_cpu: list[float] = []
    plain_act = vex.act

    def act_then_ask(obs: Observation) -> Action:
        action = timed(plain_act, acts, acts_cpu)(obs)
        if obs.board:
            board = set(obs.board)
            live = [h for h in np.asarray(HOLDINGS).tolist()
                    if h[0] not in board and h[1] not in board]
            start, start_cpu = time.perf_counter(), time.process_time()
            vex.policy(obs, live)
            policies.append((time.perf_counter() - start) * 1e3)
            policies_cpu.append((time.process_time() - start_cpu) * 1e3)
        return action

    vex.act = act_then_ask  # type: ignore[method-assign,assignment]
    cfr.act = timed(cfr.act, anchor, anchor_cpu)  # type: ignore[method-assign,assignment]
    for _ in play_match(GAME, [vex, cfr], hands, seed=7):
        pass
    for clock, (a, p, c) in (("wall", (acts, policies, anchor)),
                             ("cpu", (acts_cpu, policies_cpu, anchor_cpu))):
        a_, p_, c_ = np.array(a), np.array(p), np.array(c)
        print(f"[{clock}] vexbot act: {a_.size} decisions; median {np.median(a_):.2f} ms, "
              f"p99 {np.percentile(a_, 99):.2f} ms, max {a_.max():.2f} ms (goals 20 / 200 ms)")
        print(f"[{clock}] vexbot full-range policy after the flop: {p_.size} calls; median "
              f"{np.median(p_):.2f} ms, p99 {np.percentile(p_, 99):.2f} ms (goal 100 ms)")
        print(f"[{clock}] anchor cfr act: median {np.median(c_):.3f} ms; ratio vexbot/cfr "
              f"median {np.median(a_) / np.median(c_):.1f}")

if __name__ == "__main__":
    main()
