"""Where a bot leaves chips against ``call``: its decisions beside the exact best response.

Against ``call`` (checks when it can, else calls; never folds, never bets) the best response
is known in closed form: each street, bet or raise when the equity against a random holding
on the board so far is above one half, else check or call, and never fold. Nothing we do
changes what ``call`` does next, so each decision's regret against that rule is first-order
exact for the bet of its street:

* a **missed bet**: checking or calling with equity ``e > 1/2`` where a raise was legal
  loses ``(2e - 1)`` bets of the street;
* a **thin bet**: betting or raising with ``e < 1/2`` loses ``(1 - 2e)`` bets;
* a **fold**: gives up ``e * (pot + to call) - to call`` when that is positive (the rest of
  the hand's value besides; so a fold's regret is a lower bound).

The bot plays heads-up fixed-limit against ``call``, every deal in both seatings; the table
sums the regret per hand played (SB/h) by street, by how far into the match (the first 100
hands of a seating, hands 100-299, and the rest: a learner pays early), and by kind. The sum
is about the distance to the best response's 1.163 SB/h (exact: Johanson et al. 2011's
1,163.48 mbb/g, ``experiments/studies/blind_exact.py``).

    python experiments/studies/call_regret.py [heuristic] [--deals 1000] [--seed 9000]
        [--params '{"defense.value_raise": true}'] [--out FILE.md]

Seeds: tuning seeds are 9000 and up; reports use 101 and up. A diagnosis: one seed, no
interval.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

from action_profile import both_seatings, per_hand, publish, watched
from matchups import HEADS_UP_LIMIT

from simulator import Action, ActionKind, Bot, LegalActions, Observation, Street
from simulator.core.equity import equity
from simulator.core.game import GameConfig

PHASES = ((100, "hands 0-99"), (300, "hands 100-299"), (None, "hands 300+"))
KINDS = ("missed bet", "thin bet", "fold")


def phase(hand_number: int) -> str:
    """Which part of the match a hand is in.

    >>> phase(0), phase(150), phase(5000)
    ('hands 0-99', 'hands 100-299', 'hands 300+')
    """
    return next(name for end, name in PHASES if end is None or hand_number < end)


def regret(e: float, action: Action, legal: LegalActions, pot: int, bet: int
           ) -> tuple[str, float]:
    """The kind and size in chips of a decision's regret against the best response
    (``('', 0.0)`` when it plays as the best response does): ``e`` the equity, ``pot`` the
    chips in the pot, ``bet`` the street's bet.

    >>> free = LegalActions(False, 0, 4, 4)
    >>> regret(0.7, Action.call(), free, pot=4, bet=2)  # a check with 0.7: 0.4 bets missed
    ('missed bet', 0.8)
    >>> regret(0.3, Action.raise_to(4), free, pot=4, bet=4)
    ('thin bet', 1.6)
    """
    if action.kind is ActionKind.FOLD:
        to_call = legal.call_amount
        return "fold", max(0.0, e * (pot + to_call) - to_call)
    aggressive = action.kind is ActionKind.RAISE
    if aggressive and e < 0.5:
        return "thin bet", round((1 - 2 * e) * bet, 12)
    if not aggressive and e > 0.5 and legal.can_raise:
        return "missed bet", round((2 * e - 1) * bet, 12)
    return "", 0.0


def play(bot: str, params: dict[str, Any], deals: int, seed: int
         ) -> tuple[dict[tuple[str, str, str], list[float]], float, int]:
    """Per (street, phase, kind): [decisions, summed regret in SB]; the bot's SB/h; hands."""
    game = GameConfig(**HEADS_UP_LIMIT)
    small_bet = game.bet_size(Street.PREFLOP)
    sums: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0.0])

    def note(_: Bot, obs: Observation, action: Action) -> None:
        e = equity(obs.hole_cards, obs.board)
        kind, lost = regret(e, action, obs.legal, obs.pot, game.bet_size(obs.street))
        if kind:
            cell = sums[(obs.street.name.lower(), phase(obs.hand_number), kind)]
            cell[0] += 1
            cell[1] += lost / small_bet

    net = sum(r.net[perm] for perm, r in both_seatings(
        bot, params, "call", deals, seed, lambda b, _: watched(b, note)))
    return sums, per_hand(net, deals), 2 * deals


def table(sums: dict[tuple[str, str, str], list[float]], hands: int) -> list[str]:
    """The Markdown rows: regret per hand by street and phase, each kind and the total."""
    lines = ["| street | phase | " + " | ".join(KINDS) + " | total |",
             "|---|---|" + "---|" * (len(KINDS) + 1)]
    for street in ("preflop", "flop", "turn", "river"):
        for _, name in PHASES:
            cells = [sums.get((street, name, k), [0, 0.0]) for k in KINDS]
            total = sum(c[1] for c in cells) / hands
            lines.append(f"| {street} | {name} | " + " | ".join(
                f"{c[1] / hands:.4f} ({int(c[0])})" for c in cells) + f" | {total:.4f} |")
    by_kind = [sum(v[1] for k, v in sums.items() if k[2] == kind) / hands for kind in KINDS]
    lines.append("| all | all | " + " | ".join(f"{x:.4f}" for x in by_kind)
                 + f" | {sum(by_kind):.4f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", nargs="?", default="heuristic")
    parser.add_argument("--params", default="{}", help="the bot's parameters (JSON)")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--out", help="also write the table to this Markdown file")
    args = parser.parse_args()
    params = json.loads(args.params)
    sums, won, hands = play(args.bot, params, args.deals, args.seed)
    head = (f"{args.bot} {json.dumps(params)} against call: {won:+.3f} SB/h over {hands} "
            f"hands (seed {args.seed}; the best response wins 1.163). Regret against the best "
            f"response in SB/h (decisions):")
    publish("\n".join([head, "", *table(sums, hands)]) + "\n", args.out)


if __name__ == "__main__":
    main()
