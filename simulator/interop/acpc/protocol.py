"""The ACPC wire format: MATCHSTATE lines, replies and action tokens (ACPC protocol 2.0.0).

A MATCHSTATE line is ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``. The betting holds
one group of tokens per round, separated by ``/``: ``f``, ``c`` and ``r`` (no-limit ``r<T>``,
T the raiser's chips in the pot over the whole hand). The cards are hole cards per position
separated by ``|`` (empty when hidden), then ``/`` and each later round's board cards. A bot
replies with the exact line, a colon and its action. Parsing and formatting are exact inverses:
``str(parse_matchstate(line)) == line`` for every line the reference dealer sends.

>>> ms = parse_matchstate("MATCHSTATE:0:1:cc/r17194c/cc/:JsKs|/Qd7s9d/Ac/Td")
>>> ms.position, ms.hand_number, ms.betting[1], ms.round, format_cards(ms.board)
(0, 1, ('r17194', 'c'), 3, 'Qd7s9dAcTd')
>>> str(ms) == "MATCHSTATE:0:1:cc/r17194c/cc/:JsKs|/Qd7s9d/Ac/Td"
True
>>> parse_reply("MATCHSTATE:1:0::|9hQd:c", "MATCHSTATE:1:0::|9hQd", nolimit=False)
'c'
>>> parse_action("r50", nolimit=False)
Traceback (most recent call last):
...
simulator.interop.acpc.protocol.ProtocolError: malformed action 'r50': a limit raise is 'r' alone
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import assert_never

from simulator.core.cards import RANKS, SUITS, format_cards
from simulator.core.errors import HoldemError
from simulator.core.game import GameConfig, Structure

VERSION = "VERSION:2.0.0"
MAX_LINE = 4096  # bytes, line end included, as the reference dealer reads them
_VERSION = re.compile(r"^VERSION:\d+\.\d+\.\d+$")
_TOKEN = re.compile(r"[fc]|r\d{0,9}")  # no stack holds 10 digits of chips
_NUMBER = re.compile(r"\d{1,9}")
ROUNDS = 4
BOARD_CARDS = (0, 3, 1, 1)  # cards dealt at the start of each round
_REPLY_ACTION = re.compile(r"^([fckrbFCKRB])(\d*)$")
_CANONICAL = {"f": "f", "c": "c", "k": "c", "r": "r", "b": "r"}


class ProtocolError(HoldemError, ValueError):
    """A line that breaks the protocol: malformed, out of order, or an action we cannot take."""


def is_version(line: str) -> bool:
    """Whether a bot's first line is a version line (``VERSION:a.b.c``)."""
    return bool(_VERSION.match(line))


def is_comment(line: str) -> bool:
    return line.startswith(("#", ";"))


@dataclass(frozen=True)
class MatchState:
    """One MATCHSTATE line: the receiver's ``position``, the betting per round and the cards.

    ``holes`` are per position (None when not shown); ``boards`` are per round, round 0
    (pre-flop) empty.
    """

    position: int
    hand_number: int
    betting: tuple[tuple[str, ...], ...]
    holes: tuple[tuple[int, int] | None, ...]
    boards: tuple[tuple[int, ...], ...]

    @property
    def round(self) -> int:
        return len(self.betting) - 1

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(c for cards in self.boards for c in cards)

    @property
    def tokens(self) -> list[tuple[int, str]]:
        """(round, token) of every action, in order."""
        return [(r, t) for r, tokens in enumerate(self.betting) for t in tokens]

    def __str__(self) -> str:
        return (f"MATCHSTATE:{self.position}:{self.hand_number}:{format_betting(self.betting)}:"
                f"{format_cards_field(self.holes, self.boards)}")


def format_betting(betting: tuple[tuple[str, ...], ...]) -> str:
    return "/".join("".join(tokens) for tokens in betting)


def format_cards_field(holes: tuple[tuple[int, int] | None, ...],
                       boards: tuple[tuple[int, ...], ...]) -> str:
    """``holes by position|...`` then ``/cards`` for each round after the first."""
    text = "|".join(format_cards(h) if h is not None else "" for h in holes)
    return text + "".join("/" + format_cards(cards) for cards in boards[1:])


def parse_betting(text: str) -> tuple[tuple[str, ...], ...]:
    """Tokens per round; ``ProtocolError`` for anything but ``f``, ``c``, ``r`` and ``r<T>``."""
    rounds = []
    for part in text.split("/"):
        tokens = _TOKEN.findall(part)
        if "".join(tokens) != part:
            raise ProtocolError(f"malformed betting {text!r}")
        rounds.append(tuple(tokens))
    return tuple(rounds)


# Every spelling the reference dealer reads (ranks and suits in either case): a line's cards
# are read by table lookup, two characters at a time.
_CARDS = {r + u: card for card, (r0, u0) in enumerate((r, u) for r in RANKS for u in SUITS)
          for r in (r0, r0.lower()) for u in (u0, u0.upper())}


def _cards(text: str) -> list[int]:
    if len(text) % 2:
        raise ProtocolError(f"bad cards {text!r}")
    try:
        return [_CARDS[text[i:i + 2]] for i in range(0, len(text), 2)]
    except KeyError:
        raise ProtocolError(f"bad cards {text!r}") from None


def _parse_cards(text: str, line: str) -> tuple[tuple[tuple[int, int] | None, ...],
                                                 tuple[tuple[int, ...], ...]]:
    hole_text, *board_texts = text.split("/")
    holes: list[tuple[int, int] | None] = []
    try:
        for part in hole_text.split("|"):
            cards = _cards(part)
            if len(cards) not in (0, 2):
                raise ProtocolError(f"expected two hole cards, got {part!r}")
            holes.append((cards[0], cards[1]) if cards else None)
        boards = ((),) + tuple(tuple(_cards(b)) for b in board_texts)
    except ProtocolError as exc:
        raise ProtocolError(f"{exc} in {line!r}") from None
    every = [c for h in holes if h for c in h] + [c for b in boards for c in b]
    if len(set(every)) != len(every):
        raise ProtocolError(f"a card shows twice in {line!r}")
    return tuple(holes), boards


def parse_matchstate(line: str, players: int | None = None) -> MatchState:
    """Read a MATCHSTATE line (without its line end); ``players`` checks the position count.

    Anything that is not a state of a hold'em hand is a :class:`ProtocolError` quoting the
    line: a round past the river, or a round's board with other than its 3, 1 or 1 cards.
    """
    parts = line.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise ProtocolError(f"expected MATCHSTATE:<position>:<hand>:<betting>:<cards>, got "
                            f"{line!r}")
    if not _NUMBER.fullmatch(parts[1]) or not _NUMBER.fullmatch(parts[2]):
        raise ProtocolError(f"bad position or hand number in {line!r}")
    try:
        betting = parse_betting(parts[3])
    except ProtocolError as exc:
        raise ProtocolError(f"{exc} in {line!r}") from None
    holes, boards = _parse_cards(parts[4], line)
    if players is not None and len(holes) != players:
        raise ProtocolError(f"expected {players} positions in {line!r}, got {len(holes)}")
    if len(betting) > ROUNDS:
        raise ProtocolError(f"{len(betting)} betting rounds, more than {ROUNDS}, in {line!r}")
    if len(boards) != len(betting):
        raise ProtocolError(f"betting in round {len(betting) - 1} but board cards of round "
                            f"{len(boards) - 1} in {line!r}")
    for r, cards in enumerate(boards[1:], 1):
        if len(cards) != BOARD_CARDS[r]:
            raise ProtocolError(f"round {r} deals {BOARD_CARDS[r]} board card"
                                f"{'s' if BOARD_CARDS[r] > 1 else ''}, got {len(cards)} in "
                                f"{line!r}")
    position = int(parts[1])
    if position >= len(holes):
        raise ProtocolError(f"position {position} out of range in {line!r}")
    return MatchState(position, int(parts[2]), betting, holes, boards)


def reply_action(line: str, sent: str) -> str:
    """The action text of a bot's reply, which must echo ``sent`` exactly."""
    state, colon, action = line.rpartition(":")
    if not colon or state != sent:
        raise ProtocolError(f"reply {line!r} does not echo the state sent, {sent!r}")
    return action


def sized_raises(game: GameConfig) -> bool:
    """Whether ACPC's raises carry their total (``r<T>``, no-limit) or not (``r``, limit).
    ACPC has no pot-limit: such a game is refused before any ACPC play, so it is an error
    here (:func:`simulator.interop.acpc.gamedef.check_expressible`)."""
    structure = game.structure
    if structure is Structure.LIMIT:
        return False
    if structure is Structure.NO_LIMIT:
        return True
    if structure is Structure.POT_LIMIT:
        raise ProtocolError("variant: ACPC has no pot-limit betting")
    assert_never(structure)


def parse_action(action: str, *, nolimit: bool) -> str:
    """The canonical token (``f``, ``c``, ``r`` or ``r<T>``) of a bot's action text.

    The letter may be any the reference dealer reads: ``f``, ``c`` or ``k``, ``r`` or ``b``,
    in either case.
    """
    match = _REPLY_ACTION.match(action)
    if match is None:
        raise ProtocolError(f"malformed action {action!r}: expected f, c or r"
                            + ("<total>" if nolimit else ""))
    kind, size = _CANONICAL[match.group(1).lower()], match.group(2)
    if kind != "r" and size:
        raise ProtocolError(f"malformed action {action!r}: only a raise has a size")
    if kind == "r" and nolimit and not size:
        raise ProtocolError(f"malformed action {action!r}: a no-limit raise is "
                            f"'r<total chips in the pot this hand>'")
    if kind == "r" and not nolimit and size:
        raise ProtocolError(f"malformed action {action!r}: a limit raise is 'r' alone")
    return kind + size


def parse_reply(line: str, sent: str, *, nolimit: bool) -> str:
    """The canonical token of a bot's reply to ``sent`` (echo and action both checked)."""
    action = reply_action(line, sent)
    try:
        return parse_action(action, nolimit=nolimit)
    except ProtocolError as exc:
        raise ProtocolError(f"reply {line!r}: {exc}") from None


def format_reply(state_line: str, token: str) -> str:
    return f"{state_line}:{token}"
