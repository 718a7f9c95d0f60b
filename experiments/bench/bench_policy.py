"""The heuristic agent's policy speed: every holding at once, at its own decisions.

Ours: heuristic agents play heads-up fixed-limit (blinds 1/2, bets 2/4) and 6-max no-limit
(blinds 1/2, stacks 200) on one core. Before each of one agent's decisions, ``policy`` is
asked for every holding not clashing with the board, and timed; then ``act`` is timed at
the same decision (the anchor, measured in the same run: one hand's decision). Asking
changes nothing the agent does, so the matches are the plain matches.

Goals: a median full-range policy of 10 ms or less after the flop and 20 ms or less before it.
``--params`` gives every agent at the table the same overrides (JSON, dotted keys), to see
what an option costs, e.g. ``--params '{"lookahead": 2}'``.

    python experiments/bench/bench_policy.py [--hands 200] [--params JSON]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from collections import defaultdict
from typing import Any

import numpy as np
from benchlib import pin_to_one_core

from agent.heuristic.bot import HeuristicAgent
from simulator import Action, Observation
from simulator.core.cards import HOLDINGS
from simulator.core.game import GameConfig
from simulator.play.match import play_match

GAMES = {
    "heads-up limit": (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000), 2),
    "6-max no-limit": (GameConfig(variant="nolimit", blinds=(1, 2), stack=200), 6),
}


class Timed(HeuristicAgent):
    """The agent with a full-range policy and its act timed at each of its decisions."""

    def __init__(self, seed: int, **params: Any) -> None:
        super().__init__(seed=seed, **params)
        self.policy_ms: dict[str, list[float]] = defaultdict(list)
        self.act_ms: dict[str, list[float]] = defaultdict(list)

    def act(self, observation: Observation) -> Action:
        board = set(observation.board)
        holdings = [(int(a), int(b)) for a, b in HOLDINGS.tolist()
                    if a not in board and b not in board]
        street = observation.street.label
        start = time.perf_counter()
        self.policy(observation, holdings)
        self.policy_ms[street].append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        action = super().act(observation)
        self.act_ms[street].append((time.perf_counter() - start) * 1e3)
        return action


def measure(game: GameConfig, seats: int, hands: int, params: dict[str, Any]) -> Timed:
    timed = Timed(seed=1, **params)
    others = [HeuristicAgent(seed=s, **params) for s in range(2, seats + 1)]
    list(play_match(game, [timed, *others], 5, seed=1))  # warm-up: numba, tables
    timed.policy_ms.clear()
    timed.act_ms.clear()
    list(play_match(game, [timed, *others], hands, seed=2))
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--params", default="{}", help="every agent's overrides (JSON)")
    args = parser.parse_args()
    params = json.loads(args.params)
    warnings.simplefilter("ignore")
    pin_to_one_core()
    for name, (game, seats) in GAMES.items():
        timed = measure(game, seats, args.hands, params)
        print(f"{name}: full-range policy at {sum(map(len, timed.policy_ms.values()))} "
              f"decisions of one agent")
        print(f"  {'street':8s} {'n':>5s} {'median ms':>10s} {'p99 ms':>8s} "
              f"{'act median':>11s} {'ratio':>6s}  goal")
        for street in ("preflop", "flop", "turn", "river"):
            p = np.array(timed.policy_ms.get(street, []))
            a = np.array(timed.act_ms.get(street, []))
            if not len(p):
                continue
            goal = 20 if street == "preflop" else 10
            print(f"  {street:8s} {len(p):5d} {np.median(p):10.2f} {np.percentile(p, 99):8.2f} "
                  f"{np.median(a):11.3f} {np.median(p) / np.median(a):6.1f}  median <= {goal}")


if __name__ == "__main__":
    main()
