"""The YAML config of ``holdem sng``: the entrants, starting stacks, blind schedule and payouts.

Every rule is checked before anything is written, each problem one line naming its key
(exit 2): a schedule that is empty or does not rise (every level's big blind at least the
last one's, and the blinds or the ante higher), a negative ante, payouts that do not sum
to 100% or pay more places than there are entrants, a starting stack that the first level's
forced bets alone put all-in.

>>> cfg = parse_sng({"entrants": [{"name": "a", "bot": "call"}, {"name": "b", "bot": "raise"}],
...                  "starting_stack": 100, "payouts": [100], "tournaments": 2, "seed": 1,
...                  "schedule": [{"hands": 5, "blinds": [1, 2]}, {"hands": 5, "blinds": [2, 4]}]})
>>> cfg.level_of(0).blinds, cfg.level_of(5).blinds, cfg.level_of(99).blinds
([1, 2], [2, 4], [2, 4])
>>> try:
...     parse_sng({**cfg.model_dump(), "payouts": [60, 30]})
... except ConfigError as exc:
...     print(exc)
config: payouts: expected percentages summing to 100, got 90
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from simulator.arena.config import ConfigError, OutputSection, SeatSection, _Strict
from simulator.arena.overrides import apply_sets, described
from simulator.core.errors import GameError
from simulator.core.game import GameConfig, check_first_hand
from simulator.core.validation import (
    KEY,
    ValidationInputError,
    read_yaml,
    validation_message,
)

MAX_TABLE = 10  # seats at one table
MAX_ENTRANTS = 1000
MAX_TOURNAMENTS = 10_000_000


class Level(_Strict):
    """One level of the blind schedule: ``hands`` hands at these blinds and ante."""

    hands: int = Field(gt=0)
    blinds: list[int] = Field(min_length=2, max_length=2)
    ante: int = 0

    @field_validator("ante")
    @classmethod
    def _ante(cls, ante: int) -> int:
        if ante < 0:
            raise ValueError(f"expected >= 0, got {ante}")
        return ante

    @field_validator("blinds")
    @classmethod
    def _blinds(cls, blinds: list[int]) -> list[int]:
        if blinds[0] < 0 or blinds[1] <= 0 or blinds[0] > blinds[1]:
            raise ValueError(f"expected [small, big] with 0 <= small <= big and big > 0, "
                             f"got {blinds}")
        return blinds

    @property
    def forced(self) -> tuple[int, int, int]:
        return self.blinds[0], self.blinds[1], self.ante


class SngOutput(OutputSection):
    dir: str = "results/sng"


class SngConfig(_Strict):
    variant: Literal["limit", "nolimit"] = "nolimit"
    entrants: list[SeatSection] = Field(min_length=2, max_length=MAX_ENTRANTS)
    table_size: int | None = Field(None, ge=2, le=MAX_TABLE)
    starting_stack: int = Field(gt=0)
    schedule: list[Level]
    payouts: list[float]
    buy_in: float = Field(100.0, gt=0)
    tournaments: int = Field(gt=0, le=MAX_TOURNAMENTS)
    seed: int = Field(ge=0)
    duplicate: bool = False
    max_hands: int = Field(5000, gt=0)
    workers: int = Field(1, ge=1, le=256)
    on_bot_error: Literal["stop", "fold"] = "fold"
    bot_timeout: float | None = Field(None, gt=0)
    output: SngOutput = Field(default_factory=SngOutput)

    @field_validator("schedule")
    @classmethod
    def _schedule(cls, levels: list[Level]) -> list[Level]:
        if not levels:
            raise ValueError("expected at least one level, got an empty schedule")
        for i in range(1, len(levels)):
            before, now = levels[i - 1].forced, levels[i].forced
            if now[1] < before[1] or now <= before or any(
                    a < b for a, b in zip(now, before, strict=True)):
                raise ValueError(f"expected every level to rise over the one before (blinds "
                                 f"or ante higher, none lower); level {i + 1} "
                                 f"(blinds {list(now[:2])}, ante {now[2]}) does not rise over "
                                 f"level {i} (blinds {list(before[:2])}, ante {before[2]})")
        return levels

    @field_validator("payouts")
    @classmethod
    def _payouts(cls, payouts: list[float]) -> list[float]:
        if not payouts or any(p < 0 for p in payouts):
            raise ValueError(f"expected non-negative percentages, got {payouts}")
        if not math.isclose(sum(payouts), 100.0, abs_tol=1e-9):
            raise ValueError(f"expected percentages summing to 100, got {sum(payouts):g}")
        if any(b > a for a, b in zip(payouts, payouts[1:], strict=False)):
            raise ValueError(f"expected a higher place never to pay less, got {payouts}")
        return payouts

    @model_validator(mode="after")
    def _whole(self) -> SngConfig:
        n = len(self.entrants)
        names = [e.name for e in self.entrants]
        twice = sorted({x for x in names if names.count(x) > 1})
        if twice:
            raise ValueError(f"{KEY}entrants: expected distinct names, got {twice} twice")
        if len(self.payouts) > n:
            raise ValueError(f"{KEY}payouts: expected at most {n} places paid (the entrants), "
                             f"got {len(self.payouts)}")
        if self.duplicate and self.tournaments % n:
            raise ValueError(f"{KEY}tournaments: expected a multiple of the {n} seat rotations "
                             f"of a duplicate set, got {self.tournaments}")
        if self.table_size is None and n > MAX_TABLE:
            raise ValueError(f"{KEY}table_size: expected a table size for {n} entrants (at "
                             f"most {MAX_TABLE} seats at one table)")
        first = self.schedule[0]
        try:
            check_first_hand(self.starting_stack, tuple(first.blinds), first.ante,
                             key="starting_stack")
        except GameError as exc:
            raise ValueError(f"{KEY}{exc} at the first level") from None
        return self

    # --- reading ---------------------------------------------------------------------------

    @property
    def seats_per_table(self) -> int:
        return self.table_size if self.table_size is not None else len(self.entrants)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entrants)

    @property
    def rotations(self) -> int:
        """Tournaments a card sequence is played: one per seat rotation when duplicate."""
        return len(self.entrants) if self.duplicate else 1

    def level_index(self, hand: int) -> int:
        """The level of a table's hand ``hand`` (0-based); past the schedule, the last."""
        end = 0
        for i, level in enumerate(self.schedule):
            end += level.hands
            if hand < end:
                return i
        return len(self.schedule) - 1

    def level_of(self, hand: int) -> Level:
        return self.schedule[self.level_index(hand)]

    def game_of(self, level: Level, dead_small_blind: bool = False) -> GameConfig:
        """The game of a hand at ``level`` (stacks carried, so short stacks post all-in for
        less); a dead small blind leaves the big blind alone to post."""
        blinds = (level.blinds[1],) if dead_small_blind else tuple(level.blinds)
        return GameConfig(variant=self.variant, blinds=blinds, ante=level.ante,
                          stack=self.starting_stack, reset_stacks=False,
                          small_bet=level.blinds[1] if self.variant == "limit" else None)


def parse_sng(data: Any, source: str = "config") -> SngConfig:
    try:
        return SngConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(validation_message(exc, source, SngConfig)) from None


def load_sng(path: str | Path, sets: Mapping[str, Any] | None = None) -> SngConfig:
    """Read and validate a sit-and-go config file, with ``sets`` (dotted key -> value, as
    ``--set`` gives them: :mod:`simulator.arena.overrides`) written over it first."""
    try:
        data = apply_sets(read_yaml(path), sets)
    except ValidationInputError as exc:
        raise ConfigError(str(exc)) from None
    return parse_sng(data, described(str(path), sets))
