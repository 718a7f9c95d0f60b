"""Baseline bots, registered by name in the ``holdem.bots`` entry-point group.

``random`` (a seeded fold/call/raise mix), ``call`` (always check/call) and ``raise`` (the
minimum bet/raise when legal, else check/call). All three state their policy
(:class:`~simulator.play.protocol.PolicyBot`): none looks at its cards, so every holding gets
the same row, and a row is exactly the distribution ``act`` draws from. They give the row
with the action too (:class:`~simulator.play.protocol.StepWithPolicyBot`), so AIVAT asks
them once a decision.

>>> from simulator.core.actions import LegalActions
>>> from simulator.core.game import GameConfig
>>> from simulator.core.observation import Observation
>>> legal = LegalActions(can_fold=False, call_amount=0, min_raise_to=2, max_raise_to=100)
>>> obs = Observation(0, 1, 0, GameConfig(), (0, 1), (), 0, 3, (98, 99), (2, 1), (2, 1),
...                   (True, True), (), legal)
>>> str(CallBot().act(obs)), str(RaiseBot().act(obs))
('call', 'raise to 2')
>>> str(RandomBot(fold=1, call=0, raise_=0, seed=1).act(obs))  # a free fold becomes a check
'call'
>>> p = RandomBot(seed=1).policy(obs, [(4, 5)])
>>> [str(a) for a in p.actions], p.probabilities.round(3).tolist()
(['call', 'raise to 2..100'], [[0.667, 0.333]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from simulator.core.actions import Action
from simulator.core.errors import HoldemError
from simulator.core.observation import Observation
from simulator.core.validation import KEY, describe_error
from simulator.play.protocol import (
    BaseBot,
    Policy,
    PolicyEntry,
    RaiseRange,
    holding_indices,
    own_holding,
)


def same_row(observation: Observation, holdings: Sequence[tuple[int, int]],
             actions: Sequence[PolicyEntry], row: Sequence[float]) -> Policy:
    """The policy of a bot that ignores its cards: ``row`` for every holding (each checked
    to be two distinct cards off the board)."""
    count = len(holding_indices(holdings, observation.board))
    return Policy(tuple(actions), np.tile(np.asarray(row, dtype=np.float64), (count, 1)))


class _Baseline(Protocol):
    def act(self, observation: Observation) -> Action: ...

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy: ...


class StatesItsRow:
    """``step_with_policy`` of a baseline: its row for its own holding, then ``act``. The
    row takes no draw from the bot's generator, so the draws are ``act``'s alone."""

    def step_with_policy(self: _Baseline, observation: Observation) -> tuple[Policy, Action]:
        return self.policy(observation, own_holding(observation)), self.act(observation)


class CallBot(StatesItsRow, BaseBot):
    """Always checks or calls."""

    def act(self, observation: Observation) -> Action:
        return Action.call()

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        return same_row(observation, holdings, [Action.call()], [1.0])


class RaiseBot(StatesItsRow, BaseBot):
    """Bets or raises the minimum when it may, else checks or calls."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        if legal.min_raise_to is not None:
            return Action.raise_to(legal.min_raise_to)
        return Action.call()

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        return same_row(observation, holdings, [self.act(observation)], [1.0])


class BaselineParamsError(HoldemError, ValueError):
    """A baseline bot's parameter out of its range, naming the key."""


class RandomParams(BaseModel):
    """``random``'s weights: finite, non-negative, at least one positive (validated as every
    bot's parameters are, a pydantic model naming the key)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    fold: float = Field(ge=0, le=1e9)
    call: float = Field(ge=0, le=1e9)
    raise_: float = Field(ge=0, le=1e9)

    @model_validator(mode="after")
    def _some(self) -> RandomParams:
        if self.fold + self.call + self.raise_ <= 0:
            raise ValueError(f"{KEY}fold/call/raise: expected weights with a positive sum")
        return self


def _first_error(exc: ValidationError) -> str:
    return describe_error(exc.errors()[0]).replace("raise_", "raise")


class RandomBot(StatesItsRow, BaseBot):
    """Folds, calls or raises with the given weights (normalised), from its own generator.

    The YAML spells the raise weight ``raise`` (a Python keyword), so ``**{"raise": p}`` is
    accepted as well as ``raise_=p``. A fold when checking is free becomes a check; a raise
    when none is legal becomes a call. In no-limit and pot-limit the raise-to amount is drawn
    uniformly from the legal range.
    """

    def __init__(self, fold: float = 1 / 3, call: float = 1 / 3, raise_: float = 1 / 3,
                 seed: int | None = None, **params: Any) -> None:
        extra = set(params) - {"raise"}
        if extra:
            raise TypeError(f"RandomBot: unknown parameter(s) {sorted(extra)}")
        if "raise" in params and raise_ != 1 / 3:
            raise TypeError("RandomBot: give 'raise' or 'raise_', not both")
        raise_p = params.get("raise", raise_)
        try:
            p = RandomParams(fold=fold, call=call, raise_=raise_p)
        except ValidationError as exc:
            raise BaselineParamsError(f"RandomBot: {_first_error(exc)}") from None
        weights = np.array([p.fold, p.call, p.raise_], dtype=float)
        self.cumulative = np.cumsum(weights / weights.sum()).tolist()
        # the policy's fold, call and raise weights, back from the cumulative ones that act
        # draws against (worked out once, not at every decision)
        self.weights = tuple(float(w) for w in np.diff(np.r_[0.0, self.cumulative]))
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        u = self.rng.random()
        if u < self.cumulative[0]:
            return legal.check_or_fold()
        if u < self.cumulative[1] or legal.min_raise_to is None:
            return Action.call()
        low, high = legal.raise_bounds
        return Action.raise_to(low if high == low else int(self.rng.integers(low, high + 1)))

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        """Fold, call and raise with the normalised weights, merged as ``act`` merges them:
        a free fold is a check, a raise that is not legal a call; a raise range (no-limit,
        pot-limit) is one entry (each size in it equally likely), a single legal size one
        action."""
        legal = observation.legal
        actions: list[PolicyEntry] = []
        row: list[float] = []
        fold, call, raise_ = self.weights
        if legal.can_fold:
            actions.append(Action.fold())
            row.append(fold)
        else:
            call += fold
        if legal.min_raise_to is None or legal.max_raise_to is None:
            call += raise_
        actions.append(Action.call())
        row.append(call)
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            low, high = legal.min_raise_to, legal.max_raise_to
            actions.append(Action.raise_to(low) if low == high else RaiseRange(low, high))
            row.append(raise_)
        return same_row(observation, holdings, actions, row)
