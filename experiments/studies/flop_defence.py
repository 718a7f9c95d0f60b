"""How much of its range the frozen agent folds to a flop bet from a player who always bets.

A leak finder for local best response. The agent, learning nothing (its model stays the
prior a frozen run measures), plays a rival that calls before the flop and after it bets
whenever it may and calls a raise, heads-up fixed-limit. The agent's range in each hand is
its exact one: every holding weighted by the chance its own rows gave each action it took
(read without side effects). Where it faces the flop bet, the script takes the share of that
range the rows fold, and sets it beside the share that lets a bet of any two cards break
even, ``bet / pot`` (the pot counting the bet): folding more than that pays the bettor
whatever it holds.

    python experiments/studies/flop_defence.py [--hands 200] [--seed 9701] [--params JSON]

Rows: the agent's seat (``button`` or ``big blind``) and the pot facing it, in chips. Seeds:
tuning seeds are 9000 and up.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

import numpy as np
from range_truth import ExactRange

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.postflop import PostflopRows
from simulator import Action, BaseBot, BotContext, Event, GameConfig, Observation, Street
from simulator.core.cards import clashing_holdings
from simulator.play.match import play_match

GAME = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000)


class AlwaysBets(BaseBot):
    """Calls before the flop; after it, bets whenever it may and calls a raise."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        if (observation.street is not Street.PREFLOP and legal.call_amount == 0
                and legal.min_raise_to is not None):
            return Action.raise_to(legal.min_raise_to)
        return Action.call()


class Defender(BaseBot):
    """The frozen agent, keeping its exact range (``range_truth.ExactRange``) and the fold
    share at each flop bet it faces: ``(seat, pot, share)``."""

    def __init__(self, params: dict[str, Any], seed: int) -> None:
        self.agent = HeuristicAgent(seed=seed, **params)
        self.agent.freeze()
        self.range = ExactRange()
        self.faced: list[tuple[str, int, float]] = []

    def start(self, context: BotContext) -> None:
        self.agent.start(context)

    def observe(self, event: Event) -> None:
        self.agent.observe(event)

    def act(self, observation: Observation) -> Action:
        if observation.street is Street.FLOP and observation.legal.call_amount > 0:
            self.faced.append(self._facing(observation))
        action = self.agent.act(observation)
        self.range.after(self.agent, observation, action)
        return action

    def _facing(self, observation: Observation) -> tuple[str, int, float]:
        live = np.flatnonzero(~clashing_holdings(list(observation.board)))
        rows = self.agent.rows(observation, live)
        assert isinstance(rows, PostflopRows)
        fold = [c.kind for c in rows.candidates].index("fold")
        # a new hand's first decision is before the flop, so the range is this hand's
        w = self.range.weights[live]
        seat = "button" if observation.seat == observation.button else "big blind"
        return seat, observation.pot, float(w @ rows.probabilities[:, fold] / w.sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=9701)
    ap.add_argument("--params", default="{}", help="the agent's parameters, as JSON")
    args = ap.parse_args()
    defender = Defender(json.loads(args.params), seed=1)
    list(play_match(GAME, [defender, AlwaysBets()], args.hands, seed=args.seed))
    shares: dict[tuple[str, int], list[float]] = defaultdict(list)
    for seat, pot, share in defender.faced:
        shares[seat, pot].append(share)
    bet = GAME.bet_size(Street.FLOP)
    print("| seat | pot facing the bet | flop bets faced | range folded | break-even |")
    print("|---|---|---|---|---|")
    for (seat, pot), values in sorted(shares.items()):
        print(f"| {seat} | {pot} | {len(values)} | {np.mean(values):.3f} | "
              f"{bet / pot:.3f} |")


if __name__ == "__main__":
    main()
