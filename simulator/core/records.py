"""Records of played hands: what a hand leaves behind for results, PHH and luck correction.

They are the engine's own records (never objects a bot was handed), frozen, built by the match
loop from the hand's state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simulator.core.actions import ActionRecord
from simulator.core.frozen import FrozenMap
from simulator.core.game import GameConfig
from simulator.core.state import ChancePoint


@dataclass(frozen=True)
class HandHistory:
    """Everything needed to write PHH and to recompute the hand."""

    game: GameConfig
    hand_number: int
    button: int
    names: tuple[str, ...]
    dealt_in: tuple[bool, ...]  # False for a busted seat sitting out (carry-over stacks)
    starting_stacks: tuple[int, ...]  # before antes and blinds
    holes: tuple[tuple[int, int] | None, ...]  # every dealt-in seat's cards (None if not dealt)
    board: tuple[int, ...]  # board cards actually dealt
    actions: tuple[ActionRecord, ...]
    chance_points: tuple[ChancePoint, ...]
    shown: FrozenMap[int, tuple[int, int]]  # seat -> cards shown at showdown
    finishing_stacks: tuple[int, ...]


@dataclass(frozen=True)
class BotFault:
    hand_number: int
    seat: int
    name: str
    message: str  # what went wrong: exception text, bad return, overtime
    # the bot's traceback when it raised (for a log: never part of a result or its equality)
    traceback: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class HandResult:
    hand_number: int
    button: int
    net: tuple[int, ...]  # chips won/lost per seat this hand (sums to 0)
    stacks: tuple[int, ...]  # after the hand
    history: HandHistory
    faults: tuple[BotFault, ...]  # faults replaced by check/fold under on_bot_error="fold"
