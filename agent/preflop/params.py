"""The pre-flop expert's parameters: frozen dataclasses validated from YAML (or a mapping).

Every number the expert uses is here, and none has a default in code: the values live in
``data/preflop.yaml``, shipped inside this package, which says where each comes from. Unknown
keys and values of the wrong type are refused with a message that names the key's path, as
match configs are.

>>> params = load_preflop_params(DEFAULT_PARAMS_FILE)
>>> params.tightness, params.thresholds.moderate.ir4.make2
('loose', Line(base=200, increment=25))
>>> bad = {**read_yaml(DEFAULT_PARAMS_FILE), "tightnes": "loose"}
>>> load_preflop_params(bad)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
agent.preflop.errors.PreflopParamsError: preflop params: tightnes: unknown key (did you mean ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, Strict, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass

from agent.preflop.errors import PreflopParamsError
from simulator.core.packaged import packaged_file
from simulator.core.validation import (
    ValidationInputError,
    read_packaged_yaml,
    read_yaml,
    validation_message,
)

DEFAULT_PARAMS_FILE = packaged_file("agent.preflop", "data", "preflop.yaml")

Tightness = Literal["tight", "moderate", "loose"]
STRATEGIES = ("make0", "call1", "make1", "call2", "make2", "make4")
"""From the most passive to the most aggressive (Papp 1998, appendix B)."""

# every value finite and bounded so that play is possible: a size of 1e308 big blinds is no
# bet, and a Make4 level of 10^9 bets no strategy
_FORBID = ConfigDict(extra="forbid", allow_inf_nan=False)
IR = Annotated[int, Strict(), Field(ge=-10**6, le=10**6)]  # income-rate units (thousandths)
Fraction = Annotated[float, Strict(), Field(ge=0.0, le=1.0)]
Positive = Annotated[float, Strict(), Field(gt=0.0, le=1000.0)]


@dataclass(frozen=True, config=_FORBID)
class Line:
    """A strategy's threshold ``base + increment * position``, in IR units."""

    base: IR
    increment: IR

    def at(self, position: int) -> int:
        return self.base + self.increment * position


@dataclass(frozen=True, config=_FORBID)
class StrategyLines:
    """The threshold of each strategy on one income-rate table (Call1/Call2: small blind)."""

    call1: Line
    make1: Line
    call2: Line
    make2: Line
    make4: Line


@dataclass(frozen=True, config=_FORBID)
class TableLines:
    """One tightness: the lines on IR2 (2 expected players), IR4 (3-4) and IR7 (5+)."""

    ir2: StrategyLines
    ir4: StrategyLines
    ir7: StrategyLines

    def table(self, players: int) -> StrategyLines:
        return {2: self.ir2, 4: self.ir4, 7: self.ir7}[players]


@dataclass(frozen=True, config=_FORBID)
class Thresholds:
    tight: TableLines
    moderate: TableLines
    loose: TableLines


@dataclass(frozen=True, config=_FORBID)
class Groups:
    """Expected players below ``ir4_from`` use IR2, below ``ir7_from`` IR4, else IR7."""

    ir4_from: Positive
    ir7_from: Positive


@dataclass(frozen=True, config=_FORBID)
class Commit:
    """No-limit: the most of its starting stack a strategy puts in by calling (fractions)."""

    call1: Fraction
    make1: Fraction
    call2: Fraction
    make2: Fraction
    make4: Fraction


@dataclass(frozen=True, config=_FORBID)
class NoLimit:
    """No-limit sizes, in big blinds or as factors of the bet faced."""

    open_bb: Positive  # an unraised pot is opened to this many big blinds ...
    limper_bb: Annotated[float, Strict(), Field(ge=0.0, le=1000.0)]  # ... plus this many a limper
    reraise_factor: Positive  # a raised pot is re-raised to this times the bet faced
    allin_fraction: Fraction  # Make4 moves all-in when a raise would commit more than this
    max_commit: Commit


@dataclass(frozen=True, config=_FORBID)
class PreflopParams:
    """Everything the pre-flop expert uses; see ``agent/preflop/data/preflop.yaml``."""

    tightness: Tightness
    probability_play: Fraction
    groups: Groups
    randomization: Annotated[int, Strict(), Field(ge=0, le=10**6)]  # half-width of IR noise
    make4_bets: Annotated[int, Strict(), Field(ge=2, le=100)]  # Make4's level with no cap
    nolimit: NoLimit
    thresholds: Thresholds

    def lines(self, players: int) -> StrategyLines:
        """The lines of this tightness on the table for ``players`` (2, 4 or 7)."""
        return getattr(self.thresholds, self.tightness).table(players)


_ADAPTER = TypeAdapter(PreflopParams)


def load_preflop_params(source: str | Path | Mapping[str, Any]) -> PreflopParams:
    """Parameters from a YAML file or a mapping; ``PreflopParamsError`` names a bad key."""
    name = "preflop params" if isinstance(source, Mapping) else str(source)
    try:
        data = source if isinstance(source, Mapping) else read_yaml(source)
    except ValidationInputError as exc:
        raise PreflopParamsError(str(exc)) from None
    if not isinstance(data, Mapping):
        raise PreflopParamsError(f"{name}: expected a mapping of keys (tightness, thresholds, "
                                 f"...), got {type(data).__name__}")
    try:
        return _ADAPTER.validate_python(dict(data))
    except ValidationError as exc:
        raise PreflopParamsError(validation_message(exc, name, PreflopParams)) from None


def default_preflop_params() -> PreflopParams:
    """The packaged parameters (``DEFAULT_PARAMS_FILE``, its text parsed once per process)."""
    return load_preflop_params(read_packaged_yaml(DEFAULT_PARAMS_FILE))
