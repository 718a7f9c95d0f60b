"""Does an opponent play like the equilibrium? The evidence that lets the agent exploit it.

Heads-up limit, where a solved strategy ships (:mod:`agent.equilibrium`), the agent can play
that strategy until its opponent shows it can be exploited, and its own exploiting play
after (Ganzfried & Sandholm's *safe opponent exploitation* and the field's "equilibrium until
proven exploitable"). Three pure parts, and one record of what was learned:

* **Where a decision was taken** (:func:`decisions`): every action of the hand, keyed by
  the public facts of its spot as the hand's betting record tells them
  (:class:`simulator.core.betting.Move`). A key is ``(street, on the button, facing a bet,
  bets this round)``, the big blind counted as the first pre-flop bet as ``GameConfig.cap``
  counts it; its column is 0 fold, 1 check or call, 2 bet or raise.
* **What the equilibrium does there** (:class:`Reference`): the chance of each column at
  each key when the strategy plays itself, counted by
  ``experiments/build/make_equilibrium_reference.py`` and shipped in
  ``agent/equilibrium/data/reference.json``.
* **The evidence** (:func:`log_evidence`): the log Bayes factor of "it plays its own
  frequencies" (at each key a Dirichlet prior of total weight ``concentration`` centred on
  the reference) against "it plays the reference", over the counts of hands in which the
  agent played the equilibrium itself, so that the spots arise as in the reference. Under
  the reference the factor is about a martingale, so it rarely ever climbs to ``e**t``
  (at most once in ``e**t`` opponents, were the keys independent within a hand); a player
  who never folds or never raises gets there within some tens of hands.

:class:`Portfolio` holds, per opponent name, the counts and the mode: ``equilibrium`` until
the evidence passes ``threshold``, then ``exploit``. An exploiting run that loses (its mean
per hand, plus ``revert_z`` standard errors, below zero after ``revert_hands`` hands) goes
back to the equilibrium for good: exploiting a player who beats the exploiting play is not
worth its price. :class:`EquilibriumFirst` is what the agent holds: the strategy's player
(:mod:`agent.equilibrium.player`) and the portfolio.

>>> from simulator.core.actions import ActionKind, ActionRecord
>>> from simulator.core.betting import Betting
>>> from simulator.core.game import GameConfig
>>> from simulator.core.streets import Street
>>> limp = ActionRecord(1, Street.PREFLOP, ActionKind.CALL, None, 1)
>>> check = ActionRecord(0, Street.PREFLOP, ActionKind.CALL, None, 0)
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> hand = Betting.start(game, button=1, stacks=(100, 100)).apply(limp).apply(check)
>>> [(d.seat, d.key, d.column) for d in decisions(hand.moves, button=1)]
[(1, (0, True, True, 1), 1), (0, (0, False, False, 1), 1)]
>>> ref = Reference({(0, True, True, 1): (0.2, 0.3, 0.5)})
>>> never_raises = {(0, True, True, 1): np.array([0.0, 20.0, 0.0])}
>>> round(log_evidence(never_raises, ref, concentration=3.0), 1)
18.3
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agent.equilibrium import strategy as strategy_file
from agent.equilibrium.player import EquilibriumPlayer, refusal
from agent.modeller.learning import LearningSwitch
from simulator import BotContext, Observation, Policy
from simulator.core.actions import Action, ActionKind
from simulator.core.betting import Move
from simulator.core.errors import HoldemError
from simulator.core.packaged import packaged_file

Key = tuple[int, bool, bool, int]
Mode = Literal["equilibrium", "exploit"]
COLUMN = {ActionKind.FOLD: 0, ActionKind.CALL: 1, ActionKind.RAISE: 2}
REFERENCE_PATH = packaged_file("agent.equilibrium", "data", "reference.json")
_MAX_REFERENCE_BYTES = 1 << 20


class ReferenceFileError(HoldemError):
    """A reference file that cannot be read as one."""


@dataclass(frozen=True, slots=True)
class Decided:
    """One action of the hand: who took it, at which key, in which column."""

    seat: int
    key: Key
    column: int


def decisions(moves: Sequence[Move], button: int) -> list[Decided]:
    """Every action of a heads-up hand with the key of its spot (module doc)."""
    return [Decided(m.seat, (int(m.street), m.seat == button, m.to_call > 0, m.bets),
                    COLUMN[m.record.kind]) for m in moves]


@dataclass(frozen=True)
class Reference:
    """The equilibrium's chance of each column at each key (rows sum to 1)."""

    probabilities: Mapping[Key, tuple[float, float, float]]

    @classmethod
    def from_counts(cls, counts: Mapping[Key, Sequence[int]], pseudo: float = 0.5
                    ) -> Reference:
        """Frequencies with ``pseudo`` added to each column that was ever taken at the key,
        so that a rare action seen in play is never impossible."""
        out: dict[Key, tuple[float, float, float]] = {}
        for key, row in counts.items():
            smoothed = [c + pseudo if c > 0 else 0.0 for c in row]
            total = sum(smoothed)
            out[key] = (smoothed[0] / total, smoothed[1] / total, smoothed[2] / total)
        return cls(out)

    @classmethod
    def load(cls, path: Path = REFERENCE_PATH) -> Reference:
        """A reference file written by ``make_equilibrium_reference.py`` (counts by key)."""
        try:
            with open(path, "rb") as f:
                raw = f.read(_MAX_REFERENCE_BYTES + 1)
            if len(raw) > _MAX_REFERENCE_BYTES:
                raise ReferenceFileError(f"{path}: over {_MAX_REFERENCE_BYTES} bytes")
            table = json.loads(raw)["counts"]
            counts = {(int(s), bool(b), bool(f), int(n)): [int(x) for x in row]
                      for s, b, f, n, row in table}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ReferenceFileError(f"{path}: not a reference file ({exc})") from None
        if any(len(row) != 3 or min(row) < 0 or sum(row) == 0 for row in counts.values()):
            raise ReferenceFileError(f"{path}: a row is not three counts with a positive total")
        return cls.from_counts(counts)


def log_evidence(counts: Mapping[Key, np.ndarray], reference: Reference,
                 concentration: float) -> float:
    """The log Bayes factor of the opponent's own frequencies against the reference's over
    the columns counted at each key (module doc). Keys the reference lacks, and columns it
    never takes, are left out: a spot the equilibrium never reaches says nothing here."""
    total = 0.0
    for key, row in counts.items():
        p = reference.probabilities.get(key)
        if p is None:
            continue
        seen = [(float(row[c]), p[c]) for c in range(3) if p[c] > 0 and row[c] > 0]
        n = sum(x for x, _ in seen)
        if n == 0:
            continue
        # the sequence's probability under a Dirichlet(concentration * p) mixture ...
        mixed = math.lgamma(concentration) - math.lgamma(concentration + n)
        for x, pc in seen:
            mixed += math.lgamma(concentration * pc + x) - math.lgamma(concentration * pc)
        # ... over its probability under p itself
        total += mixed - sum(x * math.log(pc) for x, pc in seen)
    return total


@dataclass
class Opponent:
    """What was learned of one opponent: its counted spots, the mode, and the exploiting
    run's results (chips per hand: count, sum, sum of squares)."""

    counts: dict[Key, np.ndarray] = field(default_factory=dict)
    mode: Mode = "equilibrium"
    settled: bool = False  # back at the equilibrium for good
    results: tuple[int, float, float] = (0, 0.0, 0.0)


class PortfolioParams(BaseModel):
    """The switch's parameters (values proposed here, in ``agent/heuristic/data/default.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    play: bool
    """Heads-up limit: play the equilibrium until the opponent shows itself exploitable."""
    threshold: float = Field(gt=0, le=1e6)
    """The log Bayes factor past which the opponent is exploited (4.6: a factor of 100)."""
    concentration: float = Field(gt=0, le=1e6)
    """The weight of the alternative's Dirichlet prior at each key."""
    revert_hands: int = Field(ge=2, le=10**9)
    """Exploiting hands before a losing run can send us back to the equilibrium."""
    revert_z: float = Field(ge=0, le=1e6)
    """Standard errors above the mean that must still be below zero to go back."""


class Portfolio:
    """Per opponent name, the mode of the next hand, learned after each hand (module doc).

    Heads-up from ``seat``: :meth:`start_hand` fixes the hand's mode (``now``) before any
    card; :meth:`end_hand` learns from its betting and our result, unless ``switch`` (the
    agent's, shared by all its learners) is frozen."""

    def __init__(self, reference: Reference, params: PortfolioParams, seat: int,
                 switch: LearningSwitch | None = None) -> None:
        self.reference = reference
        self.params = params
        self.seat = seat
        self.switch = switch if switch is not None else LearningSwitch()
        self.opponents: dict[str, Opponent] = {}
        self.now: Mode = "equilibrium"
        self._opponent, self._button = "", 0

    def start_hand(self, names: Sequence[str], button: int) -> None:
        self._opponent, self._button = names[1 - self.seat], button
        self.now = self.mode(self._opponent)

    def end_hand(self, moves: Sequence[Move], net: float) -> None:
        """The hand just played (every move of its betting), which we won ``net`` in (in
        any fixed unit)."""
        if not self.switch.frozen:
            self.learn(self._opponent, 1 - self.seat, self.now, moves, self._button, net)

    def mode(self, name: str) -> Mode:
        known = self.opponents.get(name)
        return "equilibrium" if known is None else known.mode

    def learn(self, name: str, seat: int, played: Mode, moves: Sequence[Move], button: int,
              net: float) -> None:
        """One finished hand against ``name`` (in ``seat``), which we played in ``played``
        mode and won ``net`` in."""
        known = self.opponents.setdefault(name, Opponent())
        if known.settled:
            return
        if played == "equilibrium":
            for d in decisions(moves, button):
                if d.seat == seat:
                    row = known.counts.setdefault(d.key, np.zeros(3))
                    row[d.column] += 1
            if log_evidence(known.counts, self.reference,
                            self.params.concentration) >= self.params.threshold:
                known.mode = "exploit"
            return
        n, s, ss = known.results
        n, s, ss = n + 1, s + net, ss + net * net
        known.results = (n, s, ss)
        if n >= self.params.revert_hands and losing(n, s, ss, self.params.revert_z):
            known.mode, known.settled = "equilibrium", True


def losing(n: int, total: float, squares: float, z: float) -> bool:
    """Whether a mean of ``n`` results plus ``z`` standard errors is below zero.

    >>> losing(400, -400.0, 400 * 17.0, 2.5), losing(400, -40.0, 400 * 17.0, 2.5)
    (True, False)
    """
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean + z * math.sqrt(variance / n) < 0


class EquilibriumFirst:
    """The agent's equilibrium mode: the strategy's player and the portfolio that says, hand
    by hand, whether to play it (:attr:`playing`)."""

    def __init__(self, player: EquilibriumPlayer, portfolio: Portfolio) -> None:
        self.player = player
        self.portfolio = portfolio

    @classmethod
    def of(cls, params: PortfolioParams, context: BotContext,
           switch: LearningSwitch | None = None) -> EquilibriumFirst | None:
        """The mode for a match, None where it does not play: ``play`` off, or a game the
        strategy was not solved for (:func:`~agent.equilibrium.player.refusal`); its
        portfolio learns under ``switch``."""
        if not params.play or refusal(context.game, len(context.names)) is not None:
            return None
        return cls(EquilibriumPlayer(strategy_file.load()),
                   Portfolio(Reference.load(), params, context.seat, switch))

    @property
    def playing(self) -> bool:
        """Whether this hand is played in the equilibrium (fixed when it starts)."""
        return self.portfolio.now == "equilibrium"

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        return self.player.policy(observation, holdings)

    def rows(self, observation: Observation, holdings: Sequence[tuple[int, int]]
             ) -> EquilibriumRows:
        return EquilibriumRows(self.player.policy(observation, holdings))


@dataclass(frozen=True, slots=True)
class EquilibriumRows:
    """The equilibrium's rows as a decision's rows
    (``agent.heuristic.trace_records.DecisionRows``)."""

    policy: Policy

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.policy.actions  # type: ignore[return-value]  # the strategy's: fixed

    @property
    def probabilities(self) -> np.ndarray:
        return self.policy.probabilities

    def as_policy(self) -> Policy:
        return self.policy

    def cap_share(self, index: int) -> float:
        return 0.0

    def trace_fields(self, obs: Observation) -> dict[str, dict[str, float]]:
        return {"equilibrium": {str(a): float(p) for a, p in
                                zip(self.policy.actions, self.policy.probabilities[0],
                                    strict=True)}}
