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
simulator.arena.config.ConfigError: config: sed: unknown key (did you mean 'seed'?)
"""

from __future__ import annotations

import dataclasses
import os
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, assert_never

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

from simulator.arena.overrides import apply_sets, described
from simulator.core.durations import MAX_SECONDS
from simulator.core.errors import GameError, HoldemError
from simulator.core.game import GameConfig, Structure, check_first_hand
from simulator.core.names import names_problem, seat_name_problem
from simulator.core.validation import KEY as _KEY
from simulator.core.validation import (
    ValidationInputError,
    describe_error,
    error_path,
    read_yaml,
    validation_message,
)

MAX_SEATS = 10
MAX_DEALS = 10**9  # beyond this a run would take years; refusing it keeps typos from running



def win_unit(game: GameConfig) -> tuple[str, int]:
    """The unit win rates are counted in, and its chips: small bets in limit (the fixed bet
    of the first rounds), big blinds in no-limit and pot-limit.

    >>> win_unit(GameConfig(variant="potlimit", blinds=(5, 10)))
    ('big_blinds', 10)
    """
    structure = game.structure
    if structure is Structure.LIMIT:
        return "small_bets", game.bet_size(0)
    if structure is Structure.NO_LIMIT or structure is Structure.POT_LIMIT:
        return "big_blinds", game.big_blind
    assert_never(structure)

class ConfigError(HoldemError, ValueError):
    """Bad config: one line naming the key's path and what was expected."""


class _Strict(BaseModel):
    # strict: YAML's "yes"/"10" do not quietly become True/10; forbid: typos are errors.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _yaml_fields(record: type) -> dict[str, Any]:
    """The fields of a frozen dataclass as pydantic fields: same names, types and defaults.

    Tuples become lists, the YAML spelling; the record converts them back.
    """
    hints = typing.get_type_hints(record)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(record):
        hint, default = hints[f.name], f.default
        if typing.get_origin(hint) is tuple:
            hint = types.GenericAlias(list, typing.get_args(hint)[:1])  # list[item type]
            assert default is not dataclasses.MISSING  # the record's tuples have defaults
            default = list(default)
        out[f.name] = (hint, default)
    return out


class GameSection(create_model("_GameFields", __base__=_Strict,  # type: ignore[misc]
                               **_yaml_fields(GameConfig))):
    """The YAML shape of ``game``: the fields of :class:`GameConfig`, read from the dataclass,
    and the rules' checks of ``GameConfig`` itself, so both are written once."""

    @model_validator(mode="after")
    def _rules(self) -> GameSection:
        try:
            game = self.to_game()
            # a run's first hand, carried stacks too (GameConfig checks reset stacks only)
            check_first_hand(game.stack, game.blinds, game.ante)
        except GameError as exc:  # its messages start "game.<key>: ..."; name the key alone
            key, _, rest = str(exc).partition(": ")
            raise ValueError(f"{_KEY}{key.removeprefix('game.')}: {rest}") from None
        return self

    def to_game(self) -> GameConfig:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(GameConfig)}
        data["blinds"] = tuple(data["blinds"])
        return GameConfig(**data)


class SeatSection(_Strict):
    name: str
    bot: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        problem = seat_name_problem(name)
        if problem is not None:
            raise ValueError(problem)
        return name


class OutputSection(_Strict):
    dir: str = "results/run"
    hand_histories: bool = False
    plots: bool = True

    @field_validator("dir")
    @classmethod
    def _dir(cls, path: str) -> str:
        if not path.strip():
            raise ValueError("expected a directory path, got an empty string")
        return os.path.expanduser(path)  # "~/results" means the home dir, as in a shell


class TournamentConfig(_Strict):
    game: GameSection = Field(default_factory=GameSection)
    seats: list[SeatSection] = Field(min_length=2, max_length=MAX_SEATS)
    hands: int = Field(gt=0, le=MAX_DEALS)
    seed: int = Field(ge=0)
    duplicate: bool = False
    block_size: int = Field(200, gt=0)
    workers: int = Field(1, ge=1, le=256)
    backend: Literal["local", "ray"] = "local"
    on_bot_error: Literal["stop", "fold"] = "stop"
    bot_timeout: float | None = Field(None, gt=0, le=MAX_SECONDS, allow_inf_nan=False)
    luck: bool = True
    luck_samples: int = Field(400, ge=10)
    # AIVAT (simulator.arena.aivat): "auto" corrects the decisions of every seat that states
    # its policy, beside the luck correction (so it needs luck: true); "off" does not
    aivat: Literal["auto", "off"] = "auto"
    output: OutputSection = Field(default_factory=OutputSection)

    @field_validator("bot_timeout", mode="before")
    @classmethod
    def _timeout_int(cls, value: Any) -> Any:
        # strict mode refuses an int for a float; "bot_timeout: 2" is a natural thing to write
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _consistent(self) -> TournamentConfig:
        problem = names_problem([s.name for s in self.seats])
        if problem is not None:
            raise ValueError(f"{_KEY}seats: {problem}")
        if self.duplicate and not self.game.reset_stacks:
            raise ValueError(f"{_KEY}duplicate: true needs game.reset_stacks: true (duplicate "
                             f"replays the same deals, which carried-over stacks would break)")
        return self

    def with_overrides(self, *, output_dir: str | None = None, workers: int | None = None,
                       plots: bool | None = None) -> TournamentConfig:
        """The config with command-line overrides, validated like the file (``--workers``
        is capped as ``workers`` is); ``ConfigError`` names the option.

        >>> cfg = parse_config({"seats": [{"name": "a", "bot": "call"}] * 1 +
        ...                     [{"name": "b", "bot": "call"}], "hands": 10, "seed": 1})
        >>> cfg.with_overrides(workers=3, output_dir="~/x").output.dir.startswith("~")
        False
        >>> cfg.with_overrides(workers=100000)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        simulator.arena.config.ConfigError: --workers: expected less than or equal to 256, ...
        """
        data = self.model_dump()
        options = {"workers": ("--workers", workers), "output.dir": ("--output", output_dir),
                   "output.plots": ("--no-plots", plots)}
        for key, (_, value) in options.items():
            if value is not None:
                section, _, name = key.rpartition(".")
                (data[section] if section else data)[name] = value
        try:
            return type(self).model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            path = error_path(err["loc"])
            option = next((opt for key, (opt, _) in options.items() if key == path), path)
            text = describe_error(err)
            raise ConfigError(f"{option}{text[len(path):]}") from None

    # --- derived values -----------------------------------------------------------------------

    def game_config(self) -> GameConfig:
        return self.game.to_game()

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
        return win_unit(self.game_config())[0]

    @property
    def unit_chips(self) -> int:
        """Chips in one ``unit``: the small bet in limit, the big blind otherwise."""
        return win_unit(self.game_config())[1]

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
    """Validate a mapping (from YAML) into a config; ``ConfigError`` names every problem."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of keys (game, seats, hands, ...), "
                          f"got {type(data).__name__}")
    if "bots" in data and "seats" not in data:
        raise ConfigError(f"{source}: a league config ('bots', not 'seats'): play it with "
                          f"holdem league (run_league in Python)")
    try:
        cfg = TournamentConfig.model_validate(data)
    except ValidationError as exc:
        lines = [validation_message(exc, source, TournamentConfig)]
        lines += [f"{source}: {problem}" for problem in bot_name_problems(data.get("seats"))]
        raise ConfigError("\n".join(lines)) from None
    return cfg


def bot_name_problems(seats: Any, labels: list[str] | None = None) -> list[str]:
    """``seats[i] (name): problem`` (or ``labels[i]: problem``) for each seat whose bot names
    nothing (a typo, a module that is not there), the first seat of each name only. A
    config whose keys are wrong says these beside them, so a user sees every problem at
    once; once the keys are right, the run checks each bot in full
    (``tournament.check_bots``)."""
    from simulator.play.registry import resolve

    out: list[str] = []
    named: set[str] = set()
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        bot = seat.get("bot") if isinstance(seat, dict) else None
        if not isinstance(bot, str) or not bot or bot in named:
            continue
        named.add(bot)
        try:
            resolve(bot)
        except HoldemError as exc:
            label = labels[i] if labels is not None else f"seats[{i}] ({seat.get('name')})"
            out.append(f"{label}: {exc}")
    return out


def load_config(path: str | Path, sets: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read and validate a YAML config file, with ``sets`` (dotted key -> value, as
    ``--set`` gives them: :mod:`simulator.arena.overrides`) written over it first;
    ``ConfigError`` for anything wrong with either."""
    try:
        data = apply_sets(read_yaml(path), sets)
    except ValidationInputError as exc:
        raise ConfigError(str(exc)) from None
    return parse_config(data, described(str(path), sets))
