"""The fold cap: never give up more of our range to a bet than the bet's price allows.

Facing a bet that costs us ``c`` to call in a pot of ``P`` (the bet included), a player who
bets any two cards risks ``c`` to win ``P - c``: its bet pays whenever we fold more than
``c / P`` of the holdings we can have (game theory's minimum defence frequency). A player
who folds more than that is exploited by anyone who bets often, as local best response
does. The cap keeps our folds heads-up after the flop to the weakest ``k * c / P`` of our
range (``k`` is ``fold_cap.cap``, 0 turning the cap off): a holding the selector would fold
calls instead when more than that share of our range, each holding weighted by how likely
we are to hold it, is weaker by EHS. Against each bettor the cap learns from the calls it
made (:class:`CallOutcomes`): while they earn what a fold would, the cap holds; as they lose,
it relaxes (:func:`outcome_cap`), since calls that lose say the bets were not bluffs.

>>> import numpy as np
>>> reach = np.array([1.0, 1.0, 1.0, 1.0])  # four holdings we are equally likely to hold
>>> ehs = np.array([0.1, 0.2, 0.3, 0.4])
>>> may_fold(ehs, ehs, reach, 0.4).tolist()  # the weakest 40% may fold
[True, True, False, False]
>>> chances = np.array([[1.0, 0.0], [0.0, 1.0]])  # (holdings, [fold, call])
>>> capped(chances, 0, 1, np.array([False, True])).tolist()
[[0.0, 1.0], [0.0, 1.0]]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agent.modeller.hand import HandModel
from simulator import Observation


class FoldCapParams(BaseModel):
    """The cap's parameters (values proposed here, in ``agent/heuristic/data/default.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    cap: float = Field(ge=0, le=1e6)
    """The share of our range that may fold to a bet, in units of the bet's break-even
    share (call / pot); 0: no cap."""
    prior_weight: float = Field(ge=0, le=1e9)
    """Pseudo-calls, each earning what a fold would, before any call is seen."""
    loss_scale: float = Field(gt=0, le=1e6)
    """Big blinds a capped call loses on average for the cap to relax by a factor of e."""


def fold_share(cap: float, to_call: int, pot: int) -> float:
    """The share of our range that may fold: ``cap`` times the bluff's break-even share.

    >>> fold_share(2.0, 2, 10)
    0.4
    """
    return min(1.0, cap * to_call / max(pot, 1))


@dataclass(frozen=True)
class FoldCap:
    """What the cap reads at a decision: ``cap_of(hand, seat)``, the cap against the bettor
    in that seat (``hand`` the modeller's picture of the hand, which names the seats), and
    ``reach(obs, path)``, how likely our actions up to ``obs`` make each of the 1326
    holdings (``path``: the modeller's pictures along the hand; asked only where the cap
    applies)."""

    cap_of: Callable[[HandModel, int], float]
    reach: Callable[[Observation, Sequence[HandModel]], np.ndarray]


@dataclass(frozen=True)
class CappedCall:
    """A call the cap made: against whom, the chance that the cap made it, and our chips in
    the pot before it."""

    bettor: str
    share: float
    chips_before: int


class CallOutcomes:
    """Per opponent, what the calls the cap made against it earned over folding: from the
    call on to the hand's end, in big blinds (a fold there would have lost nothing more).
    Each call counts by the chance that the cap made it (the fold's chance it moved over the
    call's chance after the move); ``prior_weight`` pseudo-calls earn 0.

    >>> o = CallOutcomes(2.0)
    >>> o.mean("x")
    0.0
    >>> o.add("x", 1.0, -3.0); o.add("x", 1.0, -1.0)
    >>> o.mean("x")
    -1.0
    """

    def __init__(self, prior_weight: float) -> None:
        self.prior_weight = prior_weight
        self.sums: dict[str, tuple[float, float]] = {}

    def add(self, name: str, weight: float, earned: float) -> None:
        total, weights = self.sums.get(name, (0.0, 0.0))
        self.sums[name] = (total + weight * earned, weights + weight)

    def learn(self, calls: Sequence[CappedCall], net: int, big_blind: int) -> None:
        """Score a finished hand's capped calls: each earned the hand's ``net`` plus the
        chips we had in before it, in big blinds (what it made over folding there)."""
        for call in calls:
            self.add(call.bettor, call.share, (net + call.chips_before) / big_blind)

    def mean(self, name: str) -> float:
        total, weights = self.sums.get(name, (0.0, 0.0))
        return total / (weights + self.prior_weight) if weights + self.prior_weight else 0.0


def outcome_cap(cap: float, mean: float, scale: float) -> float:
    """The cap against a bettor on whom its calls earned ``mean`` big blinds each: ``cap``
    while they pay, relaxed by ``exp(-mean / scale)`` as they lose. The cap is there to
    stop bluffs from paying; calls that lose say the bets were not bluffs.

    >>> [round(outcome_cap(2.0, m, 0.5), 4) for m in (0.4, 0.0, -0.5)]
    [2.0, 2.0, 5.4366]
    >>> outcome_cap(0.0, -3.0, 0.5)  # 0 stays off
    0.0
    """
    return cap * float(np.exp(max(0.0, -mean) / scale)) if cap else 0.0


def may_fold(ehs_asked: np.ndarray, ehs_range: np.ndarray, reach: np.ndarray,
             share: float) -> np.ndarray:
    """Whether each asked holding (its EHS in ``ehs_asked``) is among the weakest ``share``
    of the range (every holding's EHS in ``ehs_range``, weighted by ``reach``): the weight
    strictly below it plus half the weight tied with it is under ``share`` of the whole. An
    empty range lets every holding fold."""
    total = float(reach.sum())
    if not total > 0:
        return np.ones(ehs_asked.shape, dtype=bool)
    order = np.argsort(ehs_range, kind="stable")
    sorted_ehs = ehs_range[order]
    mass = np.concatenate(([0.0], np.cumsum(reach[order])))
    below = mass[np.searchsorted(sorted_ehs, ehs_asked, side="left")]
    upto = mass[np.searchsorted(sorted_ehs, ehs_asked, side="right")]
    return np.asarray((below + upto) / 2 < share * total)


def capped(chances: np.ndarray, fold: int, call: int, keep: np.ndarray) -> np.ndarray:
    """``chances`` (holdings x candidates) with the fold's chance moved to the call for the
    holdings that may not fold (``keep`` False)."""
    out = chances.copy()
    moved = ~keep
    out[moved, call] += out[moved, fold]
    out[moved, fold] = 0.0
    return out
