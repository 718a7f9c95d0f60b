"""How well the agent reads a hand: its strength estimate against the truth, and where its
chips go.

A leak finder beside ``action_profile.py``. The agent plays heads-up fixed-limit against a
rival, every deal in both seatings. At each of its decisions facing a bet on the chosen
street, the agent's EHS (against the ranges its modeller holds) is set beside its *true*
equity: the exact equity against the cards the rival really held, over every board still to
come. Grouped by EHS, the rows say whether the agent under- or overrates its hands against
that rival, and how often it folds hands whose true equity beats the price. A second table
splits the agent's result by how each hand ended (who folded on which street, or a showdown).

    python experiments/studies/calibration.py exploiter [--street river] [--deals 1000]
        [--seed 9000] [--params '{"evaluation.give_up": "behind"}'] [--out FILE.md]

Seeds: tuning seeds are 9000 and up; reports use 101 and up. A diagnosis, not a strength
measurement: one seed, no interval.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from action_profile import both_seatings, publish, watched
from matchups import HEADS_UP_LIMIT

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.postflop import PostflopRows
from simulator import Action, ActionKind, Bot, Observation, Street
from simulator.core.cards import HOLDING_INDEX, NUM_HOLDINGS
from simulator.core.equity import equity
from simulator.core.game import GameConfig
from simulator.core.records import HandResult

EDGES = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 1.0001)


@dataclass(frozen=True)
class Facing:
    """One decision of the agent's facing a bet: what it estimated and what it did."""

    perm: int
    hand: int
    position: str
    hole: tuple[int, ...]
    board: tuple[int, ...]
    ehs: float
    price: float  # the call's share of the pot after calling
    folded: bool


def play(params: dict[str, Any], rival: str, street: Street, deals: int, seed: int
         ) -> tuple[list[Facing], list[tuple[int, HandResult]]]:
    """The agent's decisions facing a bet on ``street`` and every hand's result with the
    agent's seat, both seatings."""
    facing: list[Facing] = []

    def hero_as(bot: Bot, perm: int) -> Bot:
        def note(bot: Bot, obs: Observation, action: Action) -> None:
            if obs.street is not street or not obs.legal.call_amount:
                return
            assert isinstance(bot, HeuristicAgent)
            hole = obs.hole_cards
            rows = bot.rows(obs, np.array([HOLDING_INDEX[hole[0], hole[1]]]))
            assert isinstance(rows, PostflopRows)
            call = obs.legal.call_amount
            facing.append(Facing(perm, obs.hand_number,
                                 "IP" if obs.seat == obs.button else "OOP", hole, obs.board,
                                 float(np.asarray(rows.strength.ehs).reshape(-1)[0]),
                                 call / (obs.pot + call), action.kind is ActionKind.FOLD))
        return watched(bot, note)

    results = list(both_seatings("heuristic", params, rival, deals, seed, hero_as))
    return facing, results


def true_equity(f: Facing, theirs: tuple[int, int]) -> float:
    """The exact equity of the agent's cards against the rival's over the boards to come."""
    one = np.zeros(NUM_HOLDINGS)
    one[HOLDING_INDEX[theirs[0], theirs[1]]] = 1.0
    return equity(f.hole, f.board, one)


def calibration_table(facing: list[Facing], results: list[tuple[int, HandResult]]) -> str:
    holes: dict[tuple[int, int], tuple[int, int]] = {}
    for perm, r in results:
        theirs = r.history.holes[1 - perm]
        assert theirs is not None  # heads-up, both seats are dealt in
        holes[perm, r.hand_number] = theirs
    lines = ["| position | EHS | decisions | fold | mean EHS | true equity | true equity of "
             "the folds | price |", "|---|---|---|---|---|---|---|---|"]
    for position in ("IP", "OOP"):
        mine = [f for f in facing if f.position == position]
        truth = {id(f): true_equity(f, holes[f.perm, f.hand]) for f in mine}
        for low, high in zip(EDGES, EDGES[1:], strict=False):
            rows = [f for f in mine if low <= f.ehs < high]
            if not rows:
                continue
            folds = [truth[id(f)] for f in rows if f.folded]
            lines.append(
                f"| {position} | {low:.1f}-{min(high, 1.0):.1f} | {len(rows)} | "
                f"{len(folds) / len(rows):.2f} | {np.mean([f.ehs for f in rows]):.3f} | "
                f"{np.mean([truth[id(f)] for f in rows]):.3f} | "
                f"{np.mean(folds) if folds else float('nan'):.3f} | "
                f"{np.mean([f.price for f in rows]):.3f} |")
    return "\n".join(lines) + "\n"


def ending(perm: int, r: HandResult) -> str:
    """How the hand ended for the agent in seat ``perm``."""
    folds = [a for a in r.history.actions if a.kind is ActionKind.FOLD]
    if not folds:
        return "showdown"
    who = "agent" if folds[0].seat == perm else "rival"
    return f"{who} folds, {folds[0].street.name.lower()}"


def endings_table(results: list[tuple[int, HandResult]], unit: int) -> str:
    net: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for perm, r in results:
        key = ending(perm, r)
        net[key] += r.net[perm]
        count[key] += 1
    hands = len(results)
    lines = ["| ending | hands | SB/h it adds |", "|---|---|---|"]
    lines += [f"| {k} | {count[k]} | {net[k] / unit / hands:+.3f} |" for k in sorted(net)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rival")
    parser.add_argument("--street", default="flop", choices=["flop", "turn", "river"])
    parser.add_argument("--params", default="{}", help="the agent's parameters (JSON)")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--out", help="also write the tables to this Markdown file")
    args = parser.parse_args()
    street = Street[args.street.upper()]
    facing, results = play(json.loads(args.params), args.rival, street, args.deals, args.seed)
    unit = GameConfig(**HEADS_UP_LIMIT).bet_size(Street.PREFLOP)
    total = sum(r.net[perm] for perm, r in results) / unit / len(results)
    text = (f"heuristic {args.params} against {args.rival}: {total:+.3f} SB/h over "
            f"{len(results)} hands (seed {args.seed}; a diagnosis, not a strength "
            f"measurement)\n\nFacing a bet on the {args.street}: the agent's EHS against "
            f"the true equity (against the rival's actual cards)\n\n"
            f"{calibration_table(facing, results)}\nHow the hands ended\n\n"
            f"{endings_table(results, unit)}")
    publish(text, args.out)


if __name__ == "__main__":
    main()
