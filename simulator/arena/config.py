"""A tournament config (``holdem run CONFIG.yaml``), typed and validated before any work.

Unknown keys are errors, and every message names the key's path and what was expected, so a
typo never silently falls back to a default.

>>> cfg = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
...                     "seats": [{"name": "a", "bot": "call"}, {"name": "b", "bot": "raise"}],
...                     "hands": 400, "seed": 1})
>>> cfg.game_config().big_bet, cfg.block_size, cfg.num_blocks, cfg.unit
(4, 200, 2, 'small_bets')
>>> parse_config({"seats": [{"name": "a", "bot": "call"}] * 2, "hands": 1, "sed": 3})
Traceback (most recent call last):
...
simulator.arena.config.ConfigError: config: seed: expected a value, the key is missing (and 1 more)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from simulator.arena.validation import KEY as _KEY
from simulator.arena.validation import ValidationInputError, read_yaml, validation_message
from simulator.core.errors import HoldemError
from simulator.core.game import DEFAULT_CAP, GameConfig

MAX_SEATS = 10
_NAME = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


class ConfigError(HoldemError, ValueError):
    """Bad config: one line naming the key's path and what was expected."""


class _Strict(BaseModel):
    # strict: YAML's "yes"/"10" do not quietly become True/10; forbid: typos are errors.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class GameSection(_Strict):
    """The YAML shape of ``game``; the rules' own checks (blinds, bet sizes) stay in
    ``GameConfig``, which ``parse_config`` builds, so they are written once."""

    variant: Literal["limit", "nolimit"] = "nolimit"
    blinds: list[int] = Field(default_factory=lambda: [1, 2], min_length=1, max_length=3)
    ante: int = Field(0, ge=0)
    small_bet: int | None = Field(None, gt=0)
    big_bet: int | None = Field(None, gt=0)
    cap: int | None = Field(DEFAULT_CAP, ge=1)
    stack: int = Field(200, gt=0)
    reset_stacks: bool = True

    @model_validator(mode="after")
    def _limit_only(self) -> GameSection:
        if self.variant == "nolimit":
            for key in ("small_bet", "big_bet"):
                if getattr(self, key) is not None:
                    raise ValueError(f"{_KEY}{key}: expected no {key}: it is for variant 'limit'"
                                     f" only, and variant is 'nolimit'")
        return self


class SeatSection(_Strict):
    name: str
    bot: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        if not _NAME.match(name):
            raise ValueError(f"expected 1-40 letters, digits or _.+- (no spaces), got {name!r}")
        return name


class OutputSection(_Strict):
    dir: str = "results/run"
    hand_histories: bool = False
    plots: bool = True


class TournamentConfig(_Strict):
    game: GameSection = Field(default_factory=GameSection)
    seats: list[SeatSection] = Field(min_length=2, max_length=MAX_SEATS)
    hands: int = Field(gt=0)
    seed: int = Field(ge=0)
    duplicate: bool = False
    block_size: int = Field(200, gt=0)
    workers: int = Field(1, ge=1, le=256)
    backend: Literal["local", "ray"] = "local"
    on_bot_error: Literal["stop", "fold"] = "stop"
    bot_timeout: float | None = Field(None, gt=0)
    luck: bool = True
    luck_samples: int = Field(400, ge=10)
    output: OutputSection = Field(default_factory=OutputSection)

    @field_validator("bot_timeout", mode="before")
    @classmethod
    def _timeout_int(cls, value: Any) -> Any:
        # strict mode refuses an int for a float; "bot_timeout: 2" is a natural thing to write
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _consistent(self) -> TournamentConfig:
        names = [s.name for s in self.seats]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"{_KEY}seats: expected unique names, repeated: {', '.join(dupes)}")
        if self.duplicate and not self.game.reset_stacks:
            raise ValueError(f"{_KEY}duplicate: true needs game.reset_stacks: true (duplicate "
                             f"replays the same deals, which carried-over stacks would break)")
        return self

    # --- derived values -----------------------------------------------------------------------

    def game_config(self) -> GameConfig:
        g = self.game
        return GameConfig(variant=g.variant, blinds=tuple(g.blinds), ante=g.ante,
                          small_bet=g.small_bet, big_bet=g.big_bet, cap=g.cap, stack=g.stack,
                          reset_stacks=g.reset_stacks)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def num_blocks(self) -> int:
        return -(-self.hands // self.block_size)

    def block_deals(self, block: int) -> int:
        """Deals in a block: ``block_size`` except a shorter last block."""
        return min(self.block_size, self.hands - block * self.block_size)

    @property
    def unit(self) -> str:
        return "small_bets" if self.game.variant == "limit" else "big_blinds"

    @property
    def unit_chips(self) -> int:
        """Chips in one ``unit``: the small bet in limit, the big blind in no-limit."""
        game = self.game_config()
        return game.small_bet if game.is_limit else game.big_blind

    def result_key(self) -> dict[str, Any]:
        """The settings that decide the results; a resumed run must match them exactly.

        Workers, backend and plots only change how and how fast, never what.
        """
        data = self.model_dump(mode="json")
        for key in ("workers", "backend"):
            data.pop(key)
        data["output"].pop("plots")
        data["output"].pop("dir")
        return data


def parse_config(data: Any, source: str = "config") -> TournamentConfig:
    """Validate a mapping (from YAML) into a config; ``ConfigError`` names the first problem."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of keys (game, seats, hands, ...), "
                          f"got {type(data).__name__}")
    try:
        cfg = TournamentConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(validation_message(exc, source)) from None
    try:
        cfg.game_config()
    except ValueError as exc:  # GameConfig's own checks; its messages name the key
        raise ConfigError(f"{source}: {exc}") from None
    return cfg


def load_config(path: str | Path) -> TournamentConfig:
    """Read and validate a YAML config file; ``ConfigError`` for anything wrong with it."""
    try:
        data = read_yaml(path)
    except ValidationInputError as exc:
        raise ConfigError(str(exc)) from None
    return parse_config(data, str(path))
