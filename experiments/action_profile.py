"""How two bots play against each other: action frequencies by street, position and spot.

A leak finder. Two bots play heads-up fixed-limit, every deal in both seatings (duplicate, so
both see the same cards), and each decision is counted by street, position (``IP``: the
button, last to act after the flop; ``OOP``: the big blind), whether a bet is faced, and the
action taken. Side by side, the rows show where one bot's play departs from the other's:
against the equilibrium bot ``cfr``, a much higher fold rate facing a bet is a leak any
aggressive opponent (and local best response) can take chips from.

    python experiments/action_profile.py heuristic cfr [--deals 1500] [--seed 9100]
        [--params '{"defense.realization": 0.65}'] [--out FILE.md]

Seeds: tuning seeds are 9000 and up; reports use 101 and up.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from matchups import HEADS_UP_LIMIT

from simulator import Action, ActionKind, Bot, Observation, Street
from simulator.core.game import GameConfig
from simulator.core.records import HandResult
from simulator.play.match import play_match
from simulator.play.registry import build, resolve

Key = tuple[str, str, str, str]  # street, position, spot, player


def watched(bot: Bot, hook: Callable[[Bot, Observation, Action], None]) -> Bot:
    """``bot`` with ``hook(bot, observation, action)`` called after each of its decisions (its
    class given one more layer, so the match treats it exactly as before)."""
    base = type(bot)

    class Watched(base):  # type: ignore[valid-type, misc]
        def act(self, observation: Observation) -> Action:
            action: Action = base.act(self, observation)
            hook(self, observation, action)
            return action

    bot.__class__ = Watched
    return bot


def counted(bot: Bot, label: str, counts: Counter[tuple[Key, str]]) -> Bot:
    """``bot`` with its every action counted under ``label``."""
    def count(_: Bot, observation: Observation, action: Action) -> None:
        position = "IP" if observation.seat == observation.button else "OOP"
        spot = "facing" if observation.legal.call_amount > 0 else "free"
        counts[((observation.street.name.lower(), position, spot, label),
                action.kind.name.lower())] += 1

    return watched(bot, count)


def both_seatings(hero: str, params: dict[str, Any], rival: str, deals: int, seed: int,
                  hero_as: Callable[[Bot, int], Bot] = lambda bot, perm: bot,
                  rival_as: Callable[[Bot], Bot] = lambda bot: bot
                  ) -> Iterator[tuple[int, HandResult]]:
    """Every deal of ``seed`` heads-up fixed-limit in both seatings: ``(perm, result)``, the
    hero in seat ``perm``. ``hero_as(bot, perm)`` and ``rival_as(bot)`` may wrap the bots
    (:func:`watched`) before they play; the bots' seeds depend on the seed and the seating
    only, so every leak finder plays the same match."""
    game = GameConfig(**HEADS_UP_LIMIT)
    for perm in (0, 1):
        ours = hero_as(build(resolve(hero), params, seed * 7 + perm), perm)
        theirs = rival_as(build(resolve(rival), {}, seed * 11 + perm))
        bots = [ours, theirs] if perm == 0 else [theirs, ours]
        for result in play_match(game, bots, deals, seed=seed):
            yield perm, result


def per_hand(net: float, deals: int) -> float:
    """The hero's net chips over both seatings of ``deals`` deals in small bets a hand."""
    return net / GameConfig(**HEADS_UP_LIMIT).bet_size(Street.PREFLOP) / (2 * deals)


def profile(hero: str, rival: str, params: dict[str, Any], deals: int, seed: int
            ) -> tuple[Counter[tuple[Key, str]], float]:
    """The counts of both players' actions and the hero's SB/hand over both seatings."""
    counts: Counter[tuple[Key, str]] = Counter()
    net = sum(r.net[perm] for perm, r in both_seatings(
        hero, params, rival, deals, seed, lambda bot, _: counted(bot, hero, counts),
        lambda bot: counted(bot, rival, counts)))
    return counts, per_hand(net, deals)


def table(counts: Counter[tuple[Key, str]]) -> str:
    rows: dict[Key, dict[str, int]] = defaultdict(dict)
    for (key, kind), n in counts.items():
        rows[key][kind] = n
    streets = [s.name.lower() for s in Street]
    lines = ["| street | position | spot | player | decisions | fold | call/check | "
             "bet/raise |", "|---|---|---|---|---|---|---|---|"]
    for key in sorted(rows, key=lambda k: (streets.index(k[0]), k[1], k[2], k[3])):
        row = rows[key]
        total = sum(row.values())
        share = [row.get(k.name.lower(), 0) / total for k in ActionKind]
        lines.append(f"| {' | '.join(key)} | {total} | "
                     + " | ".join(f"{x:.2f}" for x in share) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hero")
    parser.add_argument("rival")
    parser.add_argument("--params", default="{}", help="the hero's parameters (JSON)")
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--out", help="also write the table to this Markdown file")
    args = parser.parse_args()
    counts, rate = profile(args.hero, args.rival, json.loads(args.params), args.deals,
                           args.seed)
    text = (f"{args.hero} {args.params} against {args.rival}: {rate:+.3f} SB/h over "
            f"{2 * args.deals} hands (seed {args.seed}; a profile, not a strength "
            f"measurement)\n\n{table(counts)}")
    publish(text, args.out)


def publish(text: str, out: str | None) -> None:
    """Print a leak finder's tables, and write them to ``out`` when given."""
    print(text)
    if out:
        Path(out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
