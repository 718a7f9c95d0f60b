"""How well the agent reads a rival's range on the river, measured against the rival's policy.

A leak finder. The agent plays a rival that states its policy (``simulator.PolicyBot``),
heads-up fixed-limit, every deal in both seatings. At each of the rival's decisions its exact
range is multiplied by the chance of the action it took, for every holding (the bot's own
row, read without side effects), so at the agent's river decisions the rival's range is
known exactly. There the script sets the agent's HS against the range it modelled (the
weights mixed by its trust) beside its HS against the exact range, apart for the river
with nothing to call (``free``: first to act, or checked to) and facing the rival's bet
(``facing``). Facing a bet it also prices the call against the exact range, in bets (a
call ends the round), and sets the agent's chance of going on beside it: the regret is the
value the agent gives up against calling or folding, in bets per decision.

    python experiments/studies/range_truth.py mc [--deals 300] [--seed 9100] [--params JSON]

Seeds: tuning seeds are 9000 and up; reports use 101 and up.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

import numpy as np
from action_profile import both_seatings, watched

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.postflop import PostflopRows
from simulator import Action, Bot, Observation, PolicyBot, Street
from simulator.core.board_ranks import board_ranks
from simulator.core.cards import HOLDING_INDEX, HOLDINGS, clashing_holdings

ALL = [(int(a), int(b)) for a, b in HOLDINGS]


class ExactRange:
    """The rival's range in the current hand: 1 at the deal, times the chance of each
    action it took (0 on holdings that clash with the board it acted on)."""

    def __init__(self) -> None:
        self.hand: tuple[int, int] | None = None
        self.weights = np.ones(len(ALL))

    def after(self, bot: Bot, obs: Observation, action: Action) -> None:
        if self.hand != (id(bot), obs.hand_number):
            self.hand, self.weights = (id(bot), obs.hand_number), np.ones(len(ALL))
        live = np.ones(len(ALL), dtype=bool)
        live[clashing_holdings(list(obs.board))] = False
        asked = np.flatnonzero(live)
        assert isinstance(bot, PolicyBot)
        column = np.zeros(len(ALL))
        column[asked] = bot.policy(obs, [ALL[i] for i in asked]).probability(action)
        self.weights = self.weights * column


def river_record(agent: HeuristicAgent, obs: Observation, exact: np.ndarray
                 ) -> dict[str, Any] | None:
    """The agent's reading at a river decision beside the exact range's; None when the
    exact range has nothing left off our cards."""
    w = exact.copy()
    w[clashing_holdings(list(obs.board) + list(obs.hole_cards))] = 0.0
    if w.sum() <= 0:
        return None
    w /= w.sum()
    ranks = board_ranks(obs.board).ranks
    hole = int(HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]])
    win = np.where(ranks > ranks[hole], 1.0, np.where(ranks == ranks[hole], 0.5, 0.0))
    rows = agent.rows(obs, np.array([hole]))
    assert isinstance(rows, PostflopRows)  # the river
    facing = obs.legal.call_amount > 0
    out: dict[str, Any] = {"spot": "facing" if facing else "free",
                           "modelled": float(rows.strength.hs[0][0]),
                           "exact": float((w * win).sum())}
    if facing:
        bet, pot = obs.legal.call_amount, obs.pot
        value = float((w * (win * (pot + bet) - bet)).sum()) / bet
        go_on = float(sum(p for a, p in zip(rows.actions, rows.probabilities[0], strict=True)
                          if a.kind.value != "f"))
        out.update(call_value=value, go_on=go_on,
                   regret=max(value, 0.0) * (1 - go_on) + max(-value, 0.0) * go_on)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rival")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=9100)
    ap.add_argument("--params", default="{}", help="the agent's overrides (JSON, dotted keys)")
    args = ap.parse_args()
    exact = ExactRange()
    records: list[dict[str, Any]] = []

    def ours(bot: Bot, obs: Observation, action: Action) -> None:
        if obs.street is Street.RIVER and isinstance(bot, HeuristicAgent):
            record = river_record(bot, obs, exact.weights)
            if record is not None:
                records.append(record)

    for _ in both_seatings("heuristic", json.loads(args.params), args.rival, args.deals,
                           args.seed, hero_as=lambda bot, perm: watched(bot, ours),
                           rival_as=lambda bot: watched(bot, exact.after)):
        pass
    by_spot: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_spot[r["spot"]].append(r)
    print(f"heuristic {args.params} against {args.rival}, seed {args.seed}, "
          f"{args.deals} deals in both seatings: river decisions")
    print("| spot | decisions | HS modelled | HS exact | continues where a call loses | "
          "regret facing bets (bets/decision) |")
    print("|---|---|---|---|---|---|")
    for spot, rs in sorted(by_spot.items()):
        modelled = np.mean([r["modelled"] for r in rs])
        true = np.mean([r["exact"] for r in rs])
        if spot == "facing":
            losing = [r["go_on"] for r in rs if r["call_value"] < 0]
            tail = (f"{np.mean(losing):.2f} of {len(losing)} | "
                    f"{np.mean([r['regret'] for r in rs]):.3f} |")
        else:
            tail = " | |"
        print(f"| {spot} | {len(rs)} | {modelled:.3f} | {true:.3f} | {tail}")


if __name__ == "__main__":
    main()
