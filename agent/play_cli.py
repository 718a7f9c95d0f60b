"""``holdem play``: play against the agent (and any other bots) at a terminal.

    holdem play [--opponent BOT]... [--variant limit|nolimit] [--hands N] [--seed S]
                [--stack CHIPS] [--blinds SB,BB] [--name NAME]

You sit in the first seat; each ``--opponent`` (default: one ``heuristic``) takes the next
one, heads-up or at a table of up to ten. Each decision shows your cards, the board, the pot,
the stacks and the legal actions; type ``f`` (fold), ``c`` (check or call), ``r AMOUNT``
(raise to AMOUNT; in limit just ``r``) or ``q`` to stop after this hand. Input that is not a
legal action is asked again. After each hand it shows what the others held at a showdown and
your running result. Stacks reset every hand.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TextIO

from simulator import (
    Action,
    ActionKind,
    ActionTaken,
    BaseBot,
    BoardDealt,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    HoldemError,
    HoleCardsDealt,
    Observation,
    Showdown,
)
from simulator.core.cards import format_cards
from simulator.core.helptext import summary
from simulator.play.match import BotError, play_match
from simulator.play.registry import BotSpecError, build, resolve


class TerminalPlayer(BaseBot):
    """A person at a terminal: prints what the seat sees, reads actions from ``read``."""

    def __init__(self, read: Callable[[], str | None], out: TextIO) -> None:
        self.read, self.out = read, out
        self.names: tuple[str, ...] = ()
        self.quit = False
        self.total = 0
        self.hands = 0

    def _who(self, seat: int) -> str:
        return "you" if seat == 0 else self.names[seat]

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.names = event.names
            self._say(f"\n=== hand {event.hand_number + 1}: {self.names[event.button]} "
                      f"has the button ===")
        elif isinstance(event, HoleCardsDealt):
            self._say(f"your cards: {format_cards(event.hole_cards, ' ')}")
        elif isinstance(event, ActionTaken):
            r = event.record
            what = {ActionKind.FOLD: "fold", ActionKind.CALL: "call" if r.added else
                    "check"}.get(r.kind, f"raise to {r.amount}")
            if r.seat:  # another player: third person
                what = what.replace(" to", "s to") if " to" in what else what + "s"
            self._say(f"  {self._who(r.seat)} {what}" + (" (all-in)" if r.all_in else ""))
        elif isinstance(event, BoardDealt):
            self._say(f"-- {event.street.label}: {format_cards(event.board, ' ')}")
        elif isinstance(event, Showdown):
            for seat, cards in event.shown.items():
                verb = "show" if seat == 0 else "shows"
                self._say(f"  {self._who(seat)} {verb} {format_cards(cards, ' ')}")
        elif isinstance(event, HandEnded):
            self.total += event.net[0]
            self.hands += 1
            self._say(f"result: {event.net[0]:+d} chips; running total {self.total:+d} "
                      f"after {self.hands} hand(s)")

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        self._say(f"pot {observation.pot}, stacks "
                  + ", ".join(f"{n} {s}" for n, s in zip(self.names, observation.stacks,
                                                          strict=True))
                  + f"; board {format_cards(observation.board, ' ') or '-'}; you hold "
                  f"{format_cards(observation.hole_cards, ' ')}")
        while True:
            self._say(f"your move ({legal}) [f/c/r AMOUNT/q]:")
            line = self.read()
            if line is None or line.strip().lower() in ("q", "quit"):
                self.quit = True
                return Action.call() if not legal.can_fold else Action.fold()
            action = parse_move(line, legal.min_raise_to if observation.game.is_limit
                                else None)
            if action is not None and legal.allows(action):
                return action
            self._say(f"not a legal action: {line.strip()!r}")


def parse_move(line: str, limit_raise: int | None) -> Action | None:
    """An action from ``f``, ``c``, ``k``, ``r AMOUNT`` (``r`` alone in limit); None if not.

    >>> parse_move("r 40", None), parse_move("c", None), parse_move("r", 4), parse_move("x", 4)
    (Action(kind=<ActionKind.RAISE: 'r'>, amount=40), \
Action(kind=<ActionKind.CALL: 'c'>, amount=None), \
Action(kind=<ActionKind.RAISE: 'r'>, amount=4), None)
    """
    words = line.strip().lower().split()
    if not words:
        return None
    verb = words[0]
    if verb in ("f", "fold"):
        return Action.fold()
    if verb in ("c", "k", "call", "check"):
        return Action.call()
    if verb in ("r", "b", "raise", "bet"):
        if len(words) == 1:
            return Action.raise_to(limit_raise) if limit_raise is not None else None
        return Action.raise_to(int(words[1])) if words[1].isdigit() else None
    return None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem play", description=summary(__doc__))
    p.add_argument("--opponent", action="append", metavar="BOT",
                   help="a registered bot or module:Class (repeat for a table; default "
                        "heuristic)")
    p.add_argument("--variant", choices=("limit", "nolimit"), default="limit",
                   help="fixed-limit (default) or no-limit")
    p.add_argument("--hands", type=int, default=100, help="hands to play (default 100)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the cards and the bots, 0 or more (default: a random one)")
    p.add_argument("--stack", type=int, default=200,
                   help="every stack at the start of each hand (default 200)")
    p.add_argument("--blinds", default="1,2", help="small and big blind, e.g. 1,2")
    p.add_argument("--name", default="you", help="your name at the table (default you)")
    return p


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    opponents = args.opponent or ["heuristic"]
    if not 1 <= len(opponents) <= 9 or args.hands < 1:
        raise HoldemError("holdem play: give 1 to 9 opponents and at least one hand")
    try:
        blinds = tuple(int(b) for b in args.blinds.split(","))
        game = GameConfig(variant=args.variant, blinds=blinds, stack=args.stack)
    except ValueError as exc:
        raise HoldemError(f"bad game: {exc}") from None
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    try:
        bots = [build(resolve(name), {}, seed + i) for i, name in enumerate(opponents, 1)]
    except BotSpecError as exc:
        raise HoldemError(str(exc)) from None
    person = TerminalPlayer(lambda: stdin.readline() or None, out)
    names = [args.name, *(f"{n}{i}" for i, n in enumerate(opponents, 1))]
    try:
        for _ in play_match(game, [person, *bots], args.hands, seed, names=names):
            if person.quit:
                break
    except BotError as exc:
        print(f"holdem play: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    print(f"\nyou played {person.hands} hand(s): {person.total:+d} chips "
          f"({person.total / max(person.hands, 1) / game.big_blind:+.2f} big blinds a hand)",
          file=out)
    return 0
