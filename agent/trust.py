"""How far to trust each opponent's weight array, learned from the hands it shows down.

Loki's re-weighting reads strength into betting: after a raise the weights move to the
holdings that would raise. Against a player whose bets say little about its cards (a random
or wild player, a bluffer) that sends the agent folding the best hand. So each opponent gets
a trust ``alpha`` in [0, 1], and the agent plays against the mixture

    alpha * (weights, normalised) + (1 - alpha) * (uniform over the live holdings)

``alpha`` is the maximum-likelihood mixture weight of the holdings the opponent showed down:
at each showdown the shown holding ``h`` has probability ``p_w = w[h] / sum(w)`` under the
weights and ``p_u = 1 / live`` under the uniform range; EM on those pairs, with
``prior_weight`` pseudo-showdowns at ``prior`` (proposed here), gives ``alpha``. A player
whose shown hands sit where its weights put them earns trust near 1; a random player's shown
hands are no likelier under the weights than under the uniform range, and its trust falls.

>>> t = RangeTrust(prior=0.7, prior_weight=5)
>>> t.alpha("x")
0.7
>>> for _ in range(40):  # the shown hands were 4 times as likely under the weights
...     t.add("x", p_weights=0.004, p_uniform=0.001)
>>> t.alpha("x") > 0.95
True
>>> for _ in range(40):
...     t.add("y", p_weights=0.0001, p_uniform=0.001)  # the weights were wrong every time
>>> t.alpha("y") < 0.1
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

EM_STEPS = 30


class TrustParams(BaseModel):
    """The prior of each opponent's trust (values proposed here, in the agent's YAML)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    prior: float = Field(ge=0, le=1)
    prior_weight: float = Field(ge=0)


@dataclass
class RangeTrust:
    """Per opponent (by name) the shown-down evidence and the trust it gives."""

    prior: float
    prior_weight: float
    _pairs: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    _alpha: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, p_weights: float, p_uniform: float) -> None:
        self._pairs.setdefault(name, []).append((p_weights, p_uniform))
        self._alpha[name] = self._fit(self._pairs[name])

    def alpha(self, name: str) -> float:
        return self._alpha.get(name, self.prior)

    def _fit(self, pairs: list[tuple[float, float]]) -> float:
        pw, pu = np.array(pairs).T
        a = self.prior
        for _ in range(EM_STEPS):
            mix = a * pw + (1 - a) * pu
            share = np.divide(a * pw, mix, out=np.full_like(mix, a), where=mix > 0)
            a = (share.sum() + self.prior_weight * self.prior) / (len(pairs)
                                                                   + self.prior_weight)
        return float(a)


def mixed(weights: np.ndarray, alpha: float) -> np.ndarray:
    """The weights (normalised) mixed with the uniform range over the same live holdings.

    >>> mixed(np.array([0.0, 3.0, 1.0]), 0.5).tolist()
    [0.0, 0.625, 0.375]
    """
    live = weights > 0
    total = float(weights.sum())
    if total <= 0:
        return weights
    return alpha * weights / total + (1 - alpha) * live / max(int(live.sum()), 1)


def shown_likelihoods(weights: np.ndarray, holding: int) -> tuple[float, float]:
    """``(p_w, p_u)`` of a shown holding under the weights and under the uniform range."""
    live = int((weights > 0).sum())
    total = float(weights.sum())
    if total <= 0 or live == 0:
        return 0.0, 0.0
    return float(weights[holding]) / total, 1.0 / live
