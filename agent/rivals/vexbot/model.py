"""The opponent model: action counts at the context tree's decision contexts and showdown
histograms at its leaves, decayed with age, read through back-off to a prior.

Observations decay: an observation made ``k`` hands ago counts ``decay ** k`` (1 keeps
everything). Counts are stored with the hand they were last brought up to date at and
decayed on reading, so a read writes nothing.

**Back-off.** A context seen ``n`` (decayed) times gets weight ``1 - m ** n`` of what its
coarser levels leave (``m``: ``backoff``), finest first, and the prior takes the rest:

    lambda_0 = 1 - m ** n_0,   lambda_i = (1 - m ** n_i) * prod_{k < i} m ** n_k,
    lambda_prior = prod_k m ** n_k.

Each level's own estimate is its counts plus the prior worth ``prior_weight`` observations,
``(c_i + N prior) / (n_i + N)``. The prior is ``cfr``'s self-play (:mod:`.prior`): its
action frequencies at the exact node, its shown strengths after the same pair of bet
counts.

>>> backoff_weights(np.array([[0.0, 0.0, 0.0]]), 0.95).round(3).tolist()
[[0.0, 0.0, 0.0, 1.0]]
>>> backoff_weights(np.array([[10.0, 100.0, 0.0]]), 0.5).round(4).tolist()
[[0.999, 0.001, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent.rivals.vexbot.contexts import LEVELS, ContextTree
from agent.rivals.vexbot.prior import Prior


def backoff_weights(counts: np.ndarray, m: float) -> np.ndarray:
    """The weights (k, levels + 1) of each level and of the prior, for counts (k, levels)."""
    keep = np.power(m, counts)  # what each level leaves to the coarser ones
    left = np.cumprod(np.concatenate([np.ones((counts.shape[0], 1)), keep], axis=1), axis=1)
    out = left[:, :-1] * (1.0 - keep)
    return np.concatenate([out, left[:, -1:]], axis=1)


@dataclass(frozen=True)
class Estimate:
    """Estimates for k contexts: ``values`` (k, width), the level that weighed most (0..2,
    3 for the prior) and the decayed observations at each level (k, levels)."""

    values: np.ndarray
    level: np.ndarray
    observed: np.ndarray


class _Counts:
    """Decayed counts of one level: ``counts`` (contexts, width), ``stamp`` the hand each
    row was last brought up to date at."""

    def __init__(self, contexts: int, width: int) -> None:
        self.counts = np.zeros((contexts, width))
        self.stamp = np.zeros(contexts, dtype=np.int64)

    def read(self, ids: np.ndarray, now: int, decay: float) -> np.ndarray:
        factor = np.power(decay, (now - self.stamp[ids]).astype(np.float64))
        return self.counts[ids] * factor[:, None]

    def add(self, context: int, column: int, now: int, decay: float) -> None:
        self.counts[context] *= decay ** (now - int(self.stamp[context]))
        self.stamp[context] = now
        self.counts[context, column] += 1.0


class OpponentModel:
    """What Vexbot knows of its opponent (module docstring)."""

    def __init__(self, contexts: ContextTree, prior: Prior, bins: int, decay: float,
                 prior_weight: float, backoff: float) -> None:
        self.contexts, self.prior, self.bins = contexts, prior, bins
        self.decay, self.prior_weight, self.backoff = decay, prior_weight, backoff
        self.hands = 0
        self.actions = [_Counts(n, 3) for n in contexts.action_contexts]
        self.showdowns = [_Counts(n, bins) for n in contexts.showdown_contexts]
        self._showdown_prior = prior.showdown_histograms(bins)

    # --- learning ---------------------------------------------------------------------------

    def learn(self, moves: list[tuple[int, int]], shown: tuple[int, int, float] | None
              ) -> None:
        """One finished hand: the opponent's ``moves`` as (decision node, action column) and,
        when it showed down, (showdown leaf, its role, its strength)."""
        self.hands += 1
        ct = self.contexts
        for node, column in moves:
            for level in range(LEVELS):
                self.actions[level].add(int(ct.action_context[level, node]), column,
                                        self.hands, self.decay)
        if shown is not None:
            leaf, role, strength = shown
            column = min(int(strength * self.bins), self.bins - 1)
            for level in range(LEVELS):
                self.showdowns[level].add(int(ct.showdown_context[level, role, leaf]), column,
                                          self.hands, self.decay)

    # --- reading (never writes) -------------------------------------------------------------

    def action_estimates(self, nodes: np.ndarray) -> Estimate:
        """The opponent's action chances (k, 3) at decision nodes, legal columns only."""
        ct = self.contexts
        prior = self.prior.actions[nodes]
        legal = ct.tree.child[nodes] >= 0
        return self._estimate([self.actions[lv].read(ct.action_context[lv, nodes],
                                                     self.hands, self.decay)
                               for lv in range(LEVELS)], prior, legal)

    def showdown_estimates(self, leaves: np.ndarray, role: int) -> Estimate:
        """The opponent's shown-strength histograms (k, bins) at showdown leaves, for an
        opponent in ``role``."""
        ct = self.contexts
        ids = [ct.showdown_context[lv, role, leaves] for lv in range(LEVELS)]
        prior = self._showdown_prior[ids[1]]
        legal = np.ones((leaves.size, self.bins), dtype=bool)
        return self._estimate([self.showdowns[lv].read(ids[lv], self.hands, self.decay)
                               for lv in range(LEVELS)], prior, legal)

    def _estimate(self, counts: list[np.ndarray], prior: np.ndarray, legal: np.ndarray
                  ) -> Estimate:
        totals = np.stack([(c * legal).sum(axis=1) for c in counts], axis=1)
        weights = backoff_weights(totals, self.backoff)
        n = self.prior_weight
        out = weights[:, -1:] * prior
        for level, c in enumerate(counts):
            denominator = totals[:, level:level + 1] + n
            own = np.where(denominator > 0, (c * legal + n * prior)
                           / np.maximum(denominator, 1e-300), prior)
            out = out + weights[:, level:level + 1] * own
        out = out * legal
        out /= np.maximum(out.sum(axis=1, keepdims=True), 1e-300)
        return Estimate(out, np.argmax(weights, axis=1), totals)
