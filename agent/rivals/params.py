"""The rivals' parameters, validated the one way the agent's are: a pydantic model per bot,
unknown keys and values of the wrong type refused, every value finite and bounded so that
play is possible, and every error naming the bot and the key.

>>> validated(MCParams, "mc", {"raise_share": 1e30})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
agent.rivals.params.RivalParamsError: mc: raise_share: expected less than or equal to 10, ...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from simulator.core.errors import HoldemError
from simulator.core.validation import validation_message

Share = Annotated[float, Field(ge=0.0, le=1.0)]
Weight = Annotated[float, Field(gt=0.0, le=1e6)]


class RivalParamsError(HoldemError, ValueError):
    """A rival's parameter out of its range, of the wrong type, or unknown."""


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class MCParams(_Params):
    """``mc``: the equity share a player count above which it raises."""

    raise_share: Annotated[float, Field(gt=0.0, le=10.0)] = 1.5


class ExploiterParams(_Params):
    """``exploiter``: the softmax temperature in pots, and what each opponent's tendencies
    start from."""

    temperature: Annotated[float, Field(gt=0.0, le=1e3)] = 0.01
    prior_weight: Weight = 10.0
    bin_prior: Weight = 4.0
    sigma_preflop: Annotated[float, Field(gt=0.0, le=10.0)] = 0.1
    sigma_postflop: Annotated[float, Field(gt=0.0, le=10.0)] = 0.2


class StyleParams(_Params):
    """A fixed style (``rock``, ``maniac``): shares of hands played and raised, the strength
    thresholds of a bet and a call (in fair shares of the pot), the bluff rate and noise."""

    preflop_play: Share = 0.5
    preflop_raise: Share = 0.1
    value: Annotated[float, Field(gt=0.0, le=100.0)] = 1.4
    call: Annotated[float, Field(gt=0.0, le=100.0)] = 1.0
    bluff: Share = 0.0
    jitter: Share = 0.05

    @model_validator(mode="after")
    def _ordered(self) -> StyleParams:
        if self.call > self.value:
            raise ValueError(f"@call: expected at most value ({self.value}), got {self.call}")
        return self


class LokiParams(_Params):
    """``loki``: Papp's post-flop thresholds, the ramps' half-widths, the lookahead, the
    modeller's mode and the pre-flop tightness (None: the parameter file's)."""

    make2: Annotated[float, Field(gt=0.0, le=1.0)] = 0.85
    make1: Annotated[float, Field(gt=0.0, le=1.0)] = 0.50
    spread: Annotated[float, Field(ge=0.0, le=0.5)] = 0.05
    odds_spread: Annotated[float, Field(ge=0.0, le=0.5)] = 0.02
    lookahead: Literal[1, 2] = 1
    model: Literal["off", "frequencies"] = "frequencies"
    tightness: Literal["tight", "moderate", "loose"] | None = None

    @model_validator(mode="after")
    def _ordered(self) -> LokiParams:
        if not self.make1 < self.make2:
            raise ValueError(f"@make1: expected below make2 ({self.make2}), got {self.make1}")
        return self


P = TypeVar("P", bound=BaseModel)


def validated(model: type[P], bot: str, values: dict[str, Any],
              error: type[HoldemError] = RivalParamsError) -> P:
    """``values`` as ``model``, or ``error`` naming the bot and the key."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise error(validation_message(exc, bot)) from None
