"""``holdem play``: play against the agent (and any other bots) at a terminal.

    holdem play [--opponent BOT]... [--variant limit|nolimit|potlimit] [--hands N] [--seed S]
                [--stack CHIPS] [--blinds SB,BB] [--name NAME]

You sit in the first seat; each ``--opponent`` (default: one ``heuristic``) takes the next
one, heads-up or at a table of up to ten. Each decision shows your cards, the board, the pot,
the stacks and the legal actions; type ``f`` (fold), ``c`` (check or call), ``r AMOUNT``
(raise to AMOUNT; in limit just ``r``; ``b AMOUNT`` the same, the words of a street nothing
is bet on yet) or ``q`` to stop at once; the prompt offers only the keys that are legal.
Input that is not a legal action is asked again, saying why an amount is refused. At a
showdown it names each hand ("two pair, kings and fours"), then who won (or split) the pot
and how many chips, and your running result. Stacks reset every hand. An opponent that
cannot play the game (``cfr`` in no-limit or pot-limit) is refused before any card is dealt.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TextIO, assert_never

import numpy as np

from simulator import (
    Action,
    ActionKind,
    ActionRecord,
    ActionTaken,
    BaseBot,
    BoardDealt,
    Bot,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    HoldemError,
    HoleCardsDealt,
    Observation,
    Showdown,
)
from simulator.core.actions import LegalActions
from simulator.core.cards import format_cards
from simulator.core.game import Structure
from simulator.core.hand_names import hand_name
from simulator.core.hand_ranks import evaluate
from simulator.core.helptext import summary
from simulator.play.match import BotError, play_match
from simulator.play.registry import BotSpecError, build, check_for_game, resolve


class Quit(Exception):
    """The person typed ``q`` (or the input ended): the session ends at once."""


class TerminalPlayer(BaseBot):
    """A person at a terminal: prints what the seat sees, reads actions from ``read``."""

    def __init__(self, read: Callable[[], str | None], out: TextIO, echo: bool = False
                 ) -> None:
        self.read, self.out, self.echo = read, out, echo  # echo: input a terminal won't show
        self.names: tuple[str, ...] = ()
        self.board: tuple[int, ...] = ()
        self.ranks: dict[int, int] = {}  # seat -> hand rank of each hand shown
        self.named: dict[int, str] = {}  # seat -> that hand in words
        self.bet_made = False  # whether this round has a bet yet (the blinds are one)
        self.quit = False
        self.total = 0
        self.hands = 0

    def _who(self, seat: int) -> str:
        return "you" if seat == 0 else self.names[seat]

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.names, self.board, self.ranks, self.named = event.names, (), {}, {}
            self.bet_made = True
            verb = "have" if event.button == 0 else "has"
            self._say(f"\n=== hand {event.hand_number + 1}: {self._who(event.button)} {verb} "
                      f"the button ===")
        elif isinstance(event, HoleCardsDealt):
            self._say(f"your cards: {format_cards(event.hole_cards, ' ')}")
        elif isinstance(event, ActionTaken):
            self._say(_action_line(self._who(event.record.seat), event.record,
                                   opens=not self.bet_made))
            self.bet_made |= event.record.kind is ActionKind.RAISE
        elif isinstance(event, BoardDealt):
            self.board, self.bet_made = event.board, False
            self._say(f"-- {event.street.label}: {format_cards(event.board, ' ')}")
        elif isinstance(event, Showdown):
            self._showdown(event)
        elif isinstance(event, HandEnded):
            self._say(self._winners(event.net))
            self.total += event.net[0]
            self.hands += 1
            self._say(f"result: {event.net[0]:+d} chips; running total {self.total:+d} "
                      f"after {self.hands} hand(s)")

    def _showdown(self, event: Showdown) -> None:
        for seat, cards in event.shown.items():
            verb = "show" if seat == 0 else "shows"
            self.ranks[seat] = int(evaluate(np.array([*cards, *self.board])))
            self.named[seat] = hand_name([*cards, *self.board])
            self._say(f"  {self._who(seat)} {verb} {format_cards(cards, ' ')}: "
                      f"{self.named[seat]}")

    def _winners(self, net: tuple[int, ...]) -> str:
        """Who took the pot: the players who gained chips; at a showdown where nobody did (a
        pot split between equal stakes), the best hands shown."""
        seats = [s for s, chips in enumerate(net) if chips > 0]
        if not seats and self.ranks:
            best = min(self.ranks.values())  # lower ranks are better hands
            seats = [s for s, rank in self.ranks.items() if rank == best]
        names = " and ".join(self._who(s) for s in seats) or "nobody"
        shown = {self.named[s] for s in seats if s in self.named}
        hand = f" with {' and '.join(sorted(shown))}" if shown else ""
        if len(seats) > 1:
            won = {net[s] for s in seats}
            amounts = (("each takes back its chips" if won == {0} else
                        f"{won.pop():+d} chips each") if len(won) == 1
                       else ", ".join(f"{self._who(s)} {net[s]:+d}" for s in seats))
            return f"  split pot: {names}{hand} ({amounts})"
        if not seats:
            return "  nobody wins"
        verb = "win" if seats == [0] else "wins"
        return f"  {names} {verb} {net[seats[0]]} chips{hand}"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        self._say(f"pot {observation.pot}, stacks "
                  + ", ".join(f"{n} {s}" for n, s in zip(self.names, observation.stacks,
                                                          strict=True))
                  + f"; board {format_cards(observation.board, ' ') or '-'}; you hold "
                  f"{format_cards(observation.hole_cards, ' ')}")
        limit = _fixed_raises(observation.game)
        opens = max(observation.bets) == 0  # nothing bet this round: a raise is a bet
        while True:
            print(f"your move ({_legal_words(legal, opens)}) [{_keys(legal, limit, opens)}]: ",
                  end="", file=self.out, flush=True)
            line = self.read()
            if self.echo or line is None:
                self._say("" if line is None else line.strip())
            if line is None or line.strip().lower() in ("q", "quit"):
                self.quit = True
                raise Quit
            action = parse_move(line, legal.min_raise_to if limit else None)
            if action is not None and legal.allows(action):
                return action
            why = _why_not(action, legal, opens)
            self._say(f"not a legal action: {line.strip()[:40]!r}" + (f": {why}" if why else ""))


def _action_line(who: str, record: ActionRecord, opens: bool = False) -> str:
    """``  you call``, ``  villain raises to 8 (all-in)``, ``  you bet 2`` (``opens``: the
    round's first bet): one action in the person's words."""
    raise_words = f"bet {record.amount}" if opens else f"raise to {record.amount}"
    what = {ActionKind.FOLD: "fold", ActionKind.CALL: "call" if record.added else
            "check"}.get(record.kind, raise_words)
    if who != "you":  # another player: third person
        verb, _, rest = what.partition(" ")
        what = f"{verb}s {rest}".rstrip()
    return f"  {who} {what}" + (" (all-in)" if record.all_in else "")


def _legal_words(legal: LegalActions, opens: bool) -> str:
    """The legal set as the prompt says it: ``check, bet 2`` where nothing is bet yet.

    >>> _legal_words(LegalActions(False, 0, 2, 200), True)
    'check, bet 2..200'
    >>> _legal_words(LegalActions(True, 2, 4, 4), False)
    'fold, call 2, raise to 4'
    """
    text = str(legal)
    return text.replace("raise to ", "bet ") if opens else text


def _why_not(action: Action | None, legal: LegalActions, opens: bool) -> str:
    """Why a typed bet or raise is refused: below the minimum, above the stack, or none
    allowed now; empty for anything else (a fold when checking is free...)."""
    if action is None or action.kind is not ActionKind.RAISE or action.amount is None:
        return ""
    word = "bet" if opens else "raise to"
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return "no bet or raise is allowed now"
    if low == high and action.amount != low:
        return f"the only {word} is {low}"
    if action.amount < low:
        return f"below the minimum: {word} at least {low}"
    return f"above your stack: {word} at most {high} (all-in)"


def _fixed_raises(game: GameConfig) -> bool:
    """Whether a raise has one size (limit: ``r`` alone) or is typed with its amount."""
    structure = game.structure
    if structure is Structure.LIMIT:
        return True
    if structure is Structure.NO_LIMIT or structure is Structure.POT_LIMIT:
        return False
    assert_never(structure)


def _keys(legal: LegalActions, limit: bool, opens: bool = False) -> str:
    """The keys that are legal now: ``f/c/r/q``, ``c/b AMOUNT/q``..."""
    keys = (["f"] if legal.can_fold else []) + ["c"]
    if legal.min_raise_to is not None:
        key = "b" if opens else "r"
        keys.append(key if limit else f"{key} AMOUNT")
    return "/".join([*keys, "q"])


MAX_DIGITS = 12  # an amount longer than this is no amount any stack holds


def parse_move(line: str, limit_raise: int | None) -> Action | None:
    """An action from ``f``, ``c``, ``k``, ``r AMOUNT`` (``r`` alone in limit); None if not.

    >>> parse_move("r 40", None), parse_move("c", None), parse_move("r", 4), parse_move("x", 4)
    (Action(kind=<ActionKind.RAISE: 'r'>, amount=40), \
Action(kind=<ActionKind.CALL: 'c'>, amount=None), \
Action(kind=<ActionKind.RAISE: 'r'>, amount=4), None)
    >>> parse_move("r \u00b2", None), parse_move("r " + "9" * 5000, None)
    (None, None)
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
        amount = words[1]
        if not (amount.isascii() and amount.isdigit() and len(amount) <= MAX_DIGITS):
            return None
        return Action.raise_to(int(amount))
    return None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem play", description=summary(__doc__))
    p.add_argument("--opponent", action="append", metavar="BOT",
                   help="a registered bot or module:Class (repeat for a table; default "
                        "heuristic)")
    p.add_argument("--variant", choices=("limit", "nolimit", "potlimit"), default="limit",
                   help="fixed-limit (default), no-limit or pot-limit")
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
        raise HoldemError("give 1 to 9 opponents and at least one hand")
    if args.seed is not None and args.seed < 0:
        raise HoldemError(f"--seed: expected 0 or more, got {args.seed}")
    try:
        blinds = tuple(int(b) for b in args.blinds.split(","))
        game = GameConfig(variant=args.variant, blinds=blinds, stack=args.stack)
    except ValueError as exc:
        raise HoldemError(f"bad game: {exc}") from None
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    bots = [_opponent(name, game, len(opponents) + 1, seed + i)
            for i, name in enumerate(opponents, 1)]
    person = TerminalPlayer(lambda: stdin.readline() or None, out,
                            echo=not (hasattr(stdin, "isatty") and stdin.isatty()))
    names = [args.name, *(f"{seat_name(n)}{i}" for i, n in enumerate(opponents, 1))]
    try:
        for _ in play_match(game, [person, *bots], args.hands, seed, names=names):
            pass
    except BotError as exc:
        if not person.quit:
            print(f"holdem play: {exc}", file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        pass
    print(f"\nyou played {person.hands} hand(s): {person.total:+d} chips "
          f"({person.total / max(person.hands, 1) / game.big_blind:+.2f} big blinds a hand)",
          file=out)
    return 0


def _opponent(name: str, game: GameConfig, seats: int, seed: int) -> Bot:
    """An opponent checked against the game before any card is dealt, as a run config's
    seats are (a bot that cannot play it is refused here, not from its ``start``)."""
    try:
        spec = resolve(name)
        check_for_game(spec, {}, game, seats)
        return build(spec, {}, seed)
    except BotSpecError as exc:
        raise HoldemError(str(exc)) from None
    except HoldemError as exc:
        raise HoldemError(f"--opponent {name}: {exc}") from None


def seat_name(bot: str) -> str:
    """A bot's name at the table: a registered name as it is, ``module:Class`` as its class.

    >>> seat_name("loki"), seat_name("my.bots:TightBot")
    ('loki', 'tightbot')
    """
    return bot.rpartition(":")[2].lower()
