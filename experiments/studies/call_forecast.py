"""E's forecast of a call against what the call really earns: a leak finder for the model of
the streets to come.

To price a call, E (:mod:`agent.heuristic.e_value`) forecasts the rest of the hand: the chance we
give up later (Phf), that the opponent folds later (Pvf), that we win the showdown (Pw), and
the pot. This script measures those forecasts. The agent plays a rival that states its policy
(``simulator.PolicyBot``), heads-up fixed-limit, every deal in both seatings. At each of the
agent's flop and turn decisions facing a bet, the live hand is replayed on a fresh state with
a random runout of the board to come (the players' real cards kept), the agent calls, and both
players then draw every later action from their own policy rows (read without side effects),
``--rollouts`` times. The mean of those hands is what the call earns, in small bets beside
folding, and how they end (we fold, they fold, showdown and who wins) is set beside E's
forecast, by the agent's equity against a random holding.

A call worth more than E says, with the agent folding there, is a leak; so is the converse.
Each decision's rollouts are few, so read the means of a bucket, not single decisions.

    python experiments/studies/call_forecast.py maniac [--deals 400] [--seed 9714] [--rollouts 24]
        [--params JSON] [--out FILE.md]

Seeds: tuning seeds are 9000 and up; reports use 101 and up. A diagnosis: one seed, no
interval.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from action_profile import both_seatings
from matchups import HEADS_UP_LIMIT

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.postflop import PostflopRows
from agent.heuristic.selector import draw_index
from simulator import Action, ActionKind, Bot, PolicyBot, Street
from simulator.core.actions import ActionRecord
from simulator.core.cards import HOLDING_INDEX
from simulator.core.equity import equities
from simulator.core.game import GameConfig
from simulator.core.state import HandState
from simulator.play.match import PolicyAsker

GAME = GameConfig(**HEADS_UP_LIMIT)
SMALL_BET = GAME.bet_size(Street.PREFLOP)
STREETS = (Street.FLOP, Street.TURN)
EDGES = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 1.01)
OUTCOMES = ("we fold", "they fold", "showdown", "win")


@dataclass(frozen=True)
class Forecast:
    """One decision: the agent's equity against a random holding and chance to fold, E's
    forecast of a call, and the rollouts' means."""

    street: str
    equity: float
    fold: float
    forecast: dict[str, float]
    rolled: dict[str, float]


def replay(state: HandState, runout: list[int]) -> HandState:
    """The hand so far on a fresh state whose board to come is ``runout``."""
    fresh = HandState(state.game, state.starting_stacks, state.button, state.holes,
                      list(state.board_cards) + runout, hand_number=state.hand_number,
                      dealt_in=state.dealt_in)
    for record in state.history:
        fresh.apply(Action(record.kind, record.amount))
    return fresh


def play_out(state: HandState, bots: list[Bot], hero: int, rng: np.random.Generator
             ) -> dict[str, float]:
    """The agent calls, then every action is drawn from its player's policy row; the chips
    won beside folding (small bets) and how the hand ended."""
    before = state.stacks[hero]
    state.apply(Action.call())
    while not state.finished:
        who = state.actor
        assert who is not None
        hole = state.holes[who]
        assert hole is not None
        bot = bots[who]
        assert isinstance(bot, PolicyBot)
        policy = bot.policy(state.observation(who), [hole])
        entry = policy.actions[draw_index(policy.probabilities[0], rng)]
        assert isinstance(entry, Action), "the rollouts take bots whose rows list actions"
        state.apply(entry)
    won = state.finishing_stacks[hero] - before
    showdown = sum(state.active) > 1
    return {"value": won / SMALL_BET, "we fold": float(not state.active[hero]),
            "they fold": float(state.active[hero] and not showdown),
            "showdown": float(showdown), "win": float(showdown and won > 0)}


class Forecaster:
    """The overseer that prices the agent's calls (it never plays a seat)."""

    def __init__(self, bots: list[Bot], hero: int, rollouts: int,
                 rng: np.random.Generator, out: list[Forecast]) -> None:
        self.bots, self.hero, self.rollouts, self.rng, self.out = bots, hero, rollouts, rng, out

    def before(self, seat: int, state: HandState, ask: PolicyAsker) -> Action | None:
        if (seat == self.hero and state.street in STREETS and
                state.legal_actions().call_amount > 0):
            self.out.append(self.measure(state))
        return None

    def after(self, seat: int, state: HandState, record: ActionRecord, forced: bool,
              ask: PolicyAsker) -> None:
        return None

    def measure(self, state: HandState) -> Forecast:
        agent = self.bots[self.hero]
        assert isinstance(agent, HeuristicAgent)
        hole = state.holes[self.hero]
        assert hole is not None
        index = int(HOLDING_INDEX[hole[0], hole[1]])
        rows = agent.rows(state.observation(self.hero), np.array([index]))
        assert isinstance(rows, PostflopRows)
        kinds = [c.kind for c in rows.candidates]
        call = rows.estimates[kinds.index("call")].at(0)
        fold = sum(p for a, p in zip(rows.actions, rows.probabilities[0], strict=True)
                   if a.kind is ActionKind.FOLD)
        forecast = {"value": float(rows.values[kinds.index("call")][0]) / SMALL_BET,
                    "we fold": float(call.p_hf), "they fold": float(call.p_vf),
                    "showdown": float(call.p_sd), "win": float(call.p_w)}
        dead = set(state.board_cards) | {c for h in state.holes if h for c in h}
        deck = np.array([c for c in range(52) if c not in dead])
        need = 5 - len(state.board_cards)
        totals: dict[str, float] = defaultdict(float)
        for _ in range(self.rollouts):
            runout = [int(c) for c in self.rng.choice(deck, need, replace=False)]
            for key, x in play_out(replay(state, runout), self.bots, self.hero,
                                   self.rng).items():
                totals[key] += x / self.rollouts
        return Forecast(state.street.label, float(equities(state.board_cards, None,
                                                            [index])[0]),
                        float(fold), forecast, dict(totals))


def _both(got: list[Forecast], key: str) -> str:
    return (f"{np.mean([r.forecast[key] for r in got]):+.2f} / "
            f"{np.mean([r.rolled[key] for r in got]):+.2f}")


def table(records: list[Forecast]) -> list[str]:
    """Markdown rows by street and equity bucket: forecast / rollouts for each outcome."""
    lines = ["| street | equity vs random | decisions | fold | call: E / rolled (SB) | "
             + " | ".join(f"P({o}): E / rolled" for o in OUTCOMES) + " |",
             "|---|---|---|---|---|" + "---|" * len(OUTCOMES)]
    for street in STREETS:
        for lo, hi in zip(EDGES, EDGES[1:], strict=False):
            got = [r for r in records if r.street == street.label and lo <= r.equity < hi]
            if not got:
                continue
            lines.append(f"| {street.label} | {lo:.1f}-{min(hi, 1.0):.1f} | {len(got)} | "
                         f"{np.mean([r.fold for r in got]):.2f} | {_both(got, 'value')} | "
                         + " | ".join(_both(got, o) for o in OUTCOMES) + " |")
    for street in STREETS:
        got = [r for r in records if r.street == street.label]
        if got:
            lost = np.mean([r.fold * max(r.rolled["value"], 0.0) for r in got])
            paid = np.mean([(1 - r.fold) * max(-r.rolled["value"], 0.0) for r in got])
            lines.append(f"\n{street.label}: folds give up {lost:.3f} SB a decision where the "
                         f"rolled call wins; calls lose {paid:.3f} where it loses (upper "
                         "bounds: a few rollouts' noise counts too)")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rival")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=9714)
    ap.add_argument("--rollouts", type=int, default=24)
    ap.add_argument("--params", default="{}", help="the agent's overrides (JSON, dotted keys)")
    ap.add_argument("--out", type=Path, help="also write the table to this markdown file")
    args = ap.parse_args()
    params: dict[str, Any] = {"equilibrium.play": False, **json.loads(args.params)}
    rng = np.random.default_rng(args.seed)
    records: list[Forecast] = []

    def overseer(bots: list[Bot], hero: int) -> Forecaster:
        return Forecaster(bots, hero, args.rollouts, rng, records)

    for _ in both_seatings("heuristic", params, args.rival, args.deals, args.seed,
                           overseer=overseer):
        pass
    lines = [f"heuristic {json.dumps(params)} against {args.rival}, seed {args.seed}, "
             f"{args.deals} deals in both seatings, {args.rollouts} rollouts a decision: "
             "the agent's calls facing a bet, E's forecast beside the rollouts", "",
             *table(records)]
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
