"""What bots are told as a hand goes on: immutable records, one object shared by every bot.

Every event is public except :class:`HoleCardsDealt`, which goes to the seat it names alone.
Fields are tuples or read-only mappings, so no bot can change what the next bot sees; and the
engine never reads back an object it gave a bot.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.core.actions import ActionRecord
from simulator.core.frozen import FrozenMap, quick_init
from simulator.core.game import GameConfig
from simulator.core.streets import Street


@quick_init
@dataclass(frozen=True, slots=True)
class HandStarted:
    hand_number: int
    button: int
    names: tuple[str, ...]
    stacks: tuple[int, ...]  # before blinds and antes; 0 for a seat sitting out
    dealt_in: tuple[bool, ...]
    game: GameConfig  # this hand's game: its blinds, antes and betting may differ by hand


@quick_init
@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """Private: a bot's own seat and cards, sent to it alone right after ``HandStarted``."""

    seat: int
    hole_cards: tuple[int, int]


@quick_init
@dataclass(frozen=True, slots=True)
class ActionTaken:
    record: ActionRecord


@quick_init
@dataclass(frozen=True, slots=True)
class BoardDealt:
    street: Street
    cards: tuple[int, ...]  # the new cards only
    board: tuple[int, ...]  # the whole board so far


@quick_init
@dataclass(frozen=True, slots=True)
class Showdown:
    shown: FrozenMap[int, tuple[int, int]]  # seat -> hole cards, for every seat that shows


@quick_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    hand_number: int
    net: tuple[int, ...]  # chips won (+) or lost (-) per seat
    stacks: tuple[int, ...]  # after the hand


Event = HandStarted | HoleCardsDealt | ActionTaken | BoardDealt | Showdown | HandEnded
