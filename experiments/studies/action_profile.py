"""How two bots play against each other: action frequencies by street, position and spot.

A leak finder. Two bots play heads-up fixed-limit, every deal in both seatings (duplicate, so
both see the same cards), and each decision is counted by street, position (``IP``: the
button, last to act after the flop; ``OOP``: the big blind), whether a bet is faced, and the
action taken. Side by side, the rows show where one bot's play departs from the other's:
against the equilibrium bot ``cfr``, a much higher fold rate facing a bet is a leak any
aggressive opponent (and local best response) can take chips from. ``--by-equity`` adds the
hero's actions by its exact equity against a random holding (in tenths): against a player
whose range is every holding (``call``, ``raise``, ``random``) that equity is the one that
counts, and a raise below one half or a fold above it is a mistake to look at.

    python experiments/studies/action_profile.py heuristic cfr [--deals 1500] [--seed 9100]
        [--params '{"defense.realization": 0.65}'] [--by-equity] [--out FILE.md]

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
from simulator.core.cards import HOLDING_INDEX
from simulator.core.equity import equities
from simulator.core.game import GameConfig
from simulator.core.records import HandResult
from simulator.play.match import Overseer, play_match
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


EquityKey = tuple[str, str, int]  # street, spot, equity in tenths


def equity_counted(bot: Bot, counts: Counter[tuple[EquityKey, str]]) -> Bot:
    """``bot`` with its every action counted by street, spot and its exact equity against a
    random holding (in tenths, 0-9)."""
    def count(_: Bot, observation: Observation, action: Action) -> None:
        a, b = observation.hole_cards
        eq = float(equities(observation.board, None, [HOLDING_INDEX[a, b]])[0])
        spot = "facing" if observation.legal.call_amount > 0 else "free"
        counts[((observation.street.name.lower(), spot, min(int(eq * 10), 9)),
                action.kind.name.lower())] += 1

    return watched(bot, count)


def equity_table(counts: Counter[tuple[EquityKey, str]]) -> str:
    """Per street and spot, the hero's bet/raise and fold shares in each tenth of equity
    (decisions in brackets)."""
    rows: dict[tuple[str, str], dict[int, Counter[str]]] = defaultdict(
        lambda: defaultdict(Counter))
    for (street, spot, tenth), kind in counts:
        rows[street, spot][tenth][kind] += counts[(street, spot, tenth), kind]
    streets = [s.name.lower() for s in Street]
    lines = ["| street | spot | " + " | ".join(f"{t / 10:.1f}-{(t + 1) / 10:.1f}"
                                              for t in range(10)) + " |",
             "|---|---|" + "---|" * 10]
    for street, spot in sorted(rows, key=lambda k: (streets.index(k[0]), k[1])):
        cells = []
        for t in range(10):
            c = rows[street, spot][t]
            n = sum(c.values())
            cells.append(f"r {c['raise'] / n:.2f} f {c['fold'] / n:.2f} ({n})" if n else "")
        lines.append(f"| {street} | {spot} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def both_seatings(hero: str, params: dict[str, Any], rival: str, deals: int, seed: int,
                  hero_as: Callable[[Bot, int], Bot] = lambda bot, perm: bot,
                  rival_as: Callable[[Bot], Bot] = lambda bot: bot,
                  overseer: Callable[[list[Bot], int], Overseer] | None = None
                  ) -> Iterator[tuple[int, HandResult]]:
    """Every deal of ``seed`` heads-up fixed-limit in both seatings: ``(perm, result)``, the
    hero in seat ``perm``. ``hero_as(bot, perm)`` and ``rival_as(bot)`` may wrap the bots
    (:func:`watched`) before they play, and ``overseer(bots, perm)`` may watch each
    seating's decisions; the bots' seeds depend on the seed and the seating only, so every
    leak finder plays the same match."""
    game = GameConfig(**HEADS_UP_LIMIT)
    for perm in (0, 1):
        ours = hero_as(build(resolve(hero), params, seed * 7 + perm), perm)
        theirs = rival_as(build(resolve(rival), {}, seed * 11 + perm))
        bots = [ours, theirs] if perm == 0 else [theirs, ours]
        watcher = None if overseer is None else overseer(bots, perm)
        for result in play_match(game, bots, deals, seed=seed, overseer=watcher):
            yield perm, result


def per_hand(net: float, deals: int) -> float:
    """The hero's net chips over both seatings of ``deals`` deals in small bets a hand."""
    return net / GameConfig(**HEADS_UP_LIMIT).bet_size(Street.PREFLOP) / (2 * deals)


def profile(hero: str, rival: str, params: dict[str, Any], deals: int, seed: int,
            by_equity: Counter[tuple[EquityKey, str]] | None = None
            ) -> tuple[Counter[tuple[Key, str]], float]:
    """The counts of both players' actions and the hero's SB/hand over both seatings; with
    ``by_equity``, the hero's actions by equity are counted into it too."""
    counts: Counter[tuple[Key, str]] = Counter()

    def hero_as(bot: Bot, _: int) -> Bot:
        bot = counted(bot, hero, counts)
        return bot if by_equity is None else equity_counted(bot, by_equity)

    net = sum(r.net[perm] for perm, r in both_seatings(
        hero, params, rival, deals, seed, hero_as, lambda bot: counted(bot, rival, counts)))
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
    parser.add_argument("--by-equity", action="store_true",
                        help="add the hero's actions by its equity against a random holding")
    parser.add_argument("--out", help="also write the table to this Markdown file")
    args = parser.parse_args()
    by_equity: Counter[tuple[EquityKey, str]] | None = Counter() if args.by_equity else None
    counts, rate = profile(args.hero, args.rival, json.loads(args.params), args.deals,
                           args.seed, by_equity)
    text = (f"{args.hero} {args.params} against {args.rival}: {rate:+.3f} SB/h over "
            f"{2 * args.deals} hands (seed {args.seed}; a profile, not a strength "
            f"measurement)\n\n{table(counts)}")
    if by_equity is not None:
        text += (f"\n{args.hero}'s bet/raise (r) and fold (f) shares by its equity against a "
                 f"random holding:\n\n{equity_table(by_equity)}")
    publish(text, args.out)


def publish(text: str, out: str | None) -> None:
    """Print a leak finder's tables, and write them to ``out`` when given."""
    print(text)
    if out:
        Path(out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
