"""Dealer logs in the reference format: a STATE line per hand and a final SCORE line.

``STATE:<hand>:<betting>:<holes by position>/<board...>:<net by position>:<names by
position>`` and ``SCORE:<net per seat, seat order>:<names>``. The reference dealer splits a
tied pot into fractions (``808492.5``); our engine gives the odd chip to the first winner
after the button, so our own logs hold whole chips, and reading a
reference log accepts a difference under one chip per player on a split pot.

>>> line = "STATE:0:cc/rc/crrc/rc:5d5c|9hQd/8dAs8s/4h/6d:80|-80:Alice|Bob"
>>> logged = parse_state_line(line)
>>> logged.net, logged.names, str(logged) == line
((80.0, -80.0), ('Alice', 'Bob'), True)
>>> from simulator.interop.acpc.gamedef import SHIPPED, load_gamedef
>>> game = load_gamedef(SHIPPED / "holdem.limit.2p.reverse_blinds.game").to_game_config()
>>> replay_logged(logged, game).net()
(80, -80)
>>> parse_score_line("SCORE:315|-315:Alice|Bob")
((315.0, -315.0), ('Alice', 'Bob'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from simulator.core.game import GameConfig
from simulator.core.records import HandHistory
from simulator.interop.acpc.hand import AcpcHand, record_action
from simulator.interop.acpc.protocol import (
    ProtocolError,
    format_betting,
    format_cards_field,
    parse_betting,
    parse_matchstate,
)

Score = tuple[tuple[float, ...], tuple[str, ...]]  # net per seat, names


def format_chips(value: float) -> str:
    """Whole chips as integers, fractions as the reference dealer writes them.

    >>> format_chips(80), format_chips(-7.5)
    ('80', '-7.5')
    """
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True)
class LoggedHand:
    """One STATE line: everything by position (position 0 sits left of the button)."""

    hand_number: int
    betting: tuple[tuple[str, ...], ...]
    holes: tuple[tuple[int, int] | None, ...]
    boards: tuple[tuple[int, ...], ...]
    net: tuple[float, ...]
    names: tuple[str, ...]

    def __str__(self) -> str:
        return (f"STATE:{self.hand_number}:{format_betting(self.betting)}:"
                f"{format_cards_field(self.holes, self.boards)}:"
                f"{'|'.join(format_chips(v) for v in self.net)}:{'|'.join(self.names)}")


def _chips(text: str, line: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in text.split("|"))
    except ValueError:
        raise ProtocolError(f"bad chip counts {text!r} in {line!r}") from None


def parse_state_line(line: str) -> LoggedHand:
    parts = line.split(":")
    if len(parts) != 6 or parts[0] != "STATE" or not parts[1].isdigit():
        raise ProtocolError(f"expected STATE:<hand>:<betting>:<cards>:<net>:<names>, got "
                            f"{line[:120]!r}")
    # the cards field reads as a MATCHSTATE's, seen from position 0
    ms = parse_matchstate(f"MATCHSTATE:0:{parts[1]}:{parts[2]}:{parts[3]}")
    net, names = _chips(parts[4], line), tuple(parts[5].split("|"))
    if not len(net) == len(names) == len(ms.holes):
        raise ProtocolError(f"{len(ms.holes)} players' cards but {len(net)} results and "
                            f"{len(names)} names in {line[:120]!r}")
    return LoggedHand(ms.hand_number, parse_betting(parts[2]), ms.holes, ms.boards, net, names)


def parse_score_line(line: str) -> Score:
    parts = line.split(":")
    if len(parts) != 3 or parts[0] != "SCORE":
        raise ProtocolError(f"expected SCORE:<net>:<names>, got {line[:120]!r}")
    return _chips(parts[1], line), tuple(parts[2].split("|"))


def parse_log(text: str) -> tuple[list[LoggedHand], Score | None]:
    """The STATE lines and the SCORE line (None if the match did not finish) of a log."""
    hands, score = [], None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        try:
            if line.startswith("SCORE"):
                score = parse_score_line(line)
            else:
                hands.append(parse_state_line(line))
        except ProtocolError as exc:
            raise ProtocolError(f"line {number}: {exc}") from None
    return hands, score


# --- our hands as log lines, and log lines through our engine ---------------------------------


def hand_of_history(history: HandHistory) -> AcpcHand:
    """A hand our match loop played, replayed as ACPC sees it (every card known)."""
    n = len(history.starting_stacks)
    hand = AcpcHand(history.game, n, history.hand_number, history.button)
    hand.set_cards({s: h for s, h in enumerate(history.holes) if h is not None}, history.board)
    for record in history.actions:
        hand.apply(record_action(record))
    return hand


def state_line(history: HandHistory) -> str:
    """The reference dealer's log line of a hand our engine played."""
    hand = hand_of_history(history)
    positions = [hand.seat_of(p) for p in range(hand.players)]
    net = hand.net()
    return str(LoggedHand(hand.hand_number, hand.betting_rounds(), hand.shown_holes(None),
                          hand.boards(), tuple(float(net[s]) for s in positions),
                          tuple(history.names[s] for s in positions)))


def score_line(net: Sequence[float], names: Sequence[str]) -> str:
    """``SCORE:<net per seat>:<names>`` in seat order."""
    return f"SCORE:{'|'.join(format_chips(v) for v in net)}:{'|'.join(names)}"


def replay_logged(logged: LoggedHand, game: GameConfig) -> AcpcHand:
    """A logged hand through our engine; ProtocolError where the two disagree.

    Seats are positions (the button is the last position), so PHH's p1..pN are ACPC's
    positions 0..N-1. The results must match the log's, up to the fractions of a split pot.
    """
    n = len(logged.holes)
    hand = AcpcHand(game, n, logged.hand_number, n - 1)
    where = f"hand {logged.hand_number}"
    if any(h is None for h in logged.holes):
        raise ProtocolError(f"{where}: a log line shows every player's cards")
    hand.set_cards({s: h for s, h in enumerate(logged.holes) if h is not None},
                   [c for b in logged.boards for c in b])
    for r, token in ((r, t) for r, tokens in enumerate(logged.betting) for t in tokens):
        hand.apply_token(token, r)
    if not hand.finished:
        raise ProtocolError(f"{where}: the betting {format_betting(logged.betting)!r} ends "
                            f"before the hand does under our rules")
    if int(hand.state.street) != len(logged.betting) - 1:
        raise ProtocolError(f"{where}: our rules end the hand in round "
                            f"{int(hand.state.street)}, the log in round "
                            f"{len(logged.betting) - 1}")
    ours = hand.net()
    if any(abs(a - b) >= 1 for a, b in zip(ours, logged.net, strict=True)):
        raise ProtocolError(f"{where}: our engine pays {list(ours)}, the log "
                            f"{[format_chips(v) for v in logged.net]}")
    return hand


def log_histories(hands: Iterable[LoggedHand], game: GameConfig) -> list[HandHistory]:
    """Every logged hand as our engine's record (players named by position), for PHH."""
    return [replay_logged(h, game).history(h.names) for h in hands]
