"""The opponent model: action counts at the context tree's decision contexts and showdown
histograms at its leaves, decayed with age, read through back-off to a prior.

Observations decay: an observation made ``k`` hands ago counts ``decay ** k`` (1 keeps
everything). Counts are stored with the hand they were last brought up to date at and
decayed on reading, so a read writes nothing.

**Back-off.** A context seen ``n`` (decayed) times gets weight ``1 - m ** n`` of what its
coarser levels leave (``m``: ``backoff``), finest first, and the prior takes the rest:

    lambda_0 = 1 - m ** n_0,   lambda_i = (1 - m ** n_i) * prod_{k < i} m ** n_k,
    lambda_prior = prod_k m ** n_k.

Equivalently, coarsest first, ``B_L = prior`` and ``B_i = (1 - m ** n_i) own_i +
m ** n_i B_{i+1}``; the estimate is ``B_0``.

**Each level's own estimate.** The exact sequence (level 0) is a node's own frequencies,
smoothed by ``N`` (``prior_weight``) observations of what the coarser levels say there:
``own_0 = (c_0 + N B_1) / (n_0 + N)``. A coarser level pools nodes (or leaves) whose
equilibrium frequencies differ (``cfr`` folds 5% facing a river bet after checks and 40%
facing a three-bet), so a raw pooled frequency would be wrong at every one of them. It keeps
instead, beside the counts ``c`` of what the opponent did, the counts ``e`` the prior
expected at the same nodes (``e += prior[node]`` for each observation), and its estimate is
the prior at the node tilted by how the opponent departs from it there:

    own_i(node)  proportional to  prior(node) * (c_i + N) / (e_i + N)   (per action or bin).

Against an opponent that plays like the prior the tilt stays near 1 and every node keeps its
own equilibrium frequency (safe: nothing is read into noise); against one that never folds,
the fold column's ratio falls towards 0 at every node within a few dozen bets seen anywhere.

Showdown histograms are shifted, not tilted: ``own_i(leaf) = max(prior(leaf) + (c_i - e_i)
/ (n_i + N), 0)``, renormalised. Why: a ratio cannot put mass where the prior has almost
none (``cfr`` shows only strong hands after four bets; a station shows anything), while the
pooled difference between what was shown and what the prior expected moves mass to the bins
the opponent actually shows, and is 0 against an opponent that shows what the prior does.
The prior is ``cfr``'s self-play (:mod:`.prior`): its action frequencies at the exact node,
its shown strengths after the same pair of bet counts.

>>> backoff_weights(np.array([[0.0, 0.0, 0.0]]), 0.95).round(3).tolist()
[[0.0, 0.0, 0.0, 1.0]]
>>> backoff_weights(np.array([[10.0, 100.0, 0.0]]), 0.5).round(4).tolist()
[[0.999, 0.001, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent.rivals.vexbot.contexts import ACTION_LEVELS, SHOWDOWN_LEVELS, ContextTree
from agent.rivals.vexbot.prior import Prior


def backoff_weights(counts: np.ndarray, m: float) -> np.ndarray:
    """The weights (k, levels + 1) of each level and of the prior, for counts (k, levels)."""
    keep = np.power(m, counts)  # what each level leaves to the coarser ones
    left = np.cumprod(np.concatenate([np.ones((counts.shape[0], 1)), keep], axis=1), axis=1)
    out = left[:, :-1] * (1.0 - keep)
    return np.concatenate([out, left[:, -1:]], axis=1)


@dataclass(frozen=True)
class Estimate:
    """Estimates for k contexts: ``values`` (k, width), the level that weighed most (the
    number of levels for the prior) and the decayed observations at each level (k, levels)."""

    values: np.ndarray
    level: np.ndarray
    observed: np.ndarray


class Counts:
    """Decayed counts of one level: ``counts`` (contexts, width) of what was seen,
    ``expected`` (contexts, width) of what the prior expected at the same places (pooled
    levels only, else None), ``stamp`` the hand each row was last brought up to date at."""

    def __init__(self, contexts: int, width: int, pooled: bool) -> None:
        self.counts = np.zeros((contexts, width))
        self.expected = np.zeros((contexts, width)) if pooled else None
        self.stamp = np.zeros(contexts, dtype=np.int64)

    def _factor(self, ids: np.ndarray, now: int, decay: float) -> np.ndarray:
        return np.power(decay, (now - self.stamp[ids]).astype(np.float64))[:, None]

    def read(self, ids: np.ndarray, now: int, decay: float) -> np.ndarray:
        return self.counts[ids] * self._factor(ids, now, decay)

    def read_expected(self, ids: np.ndarray, now: int, decay: float) -> np.ndarray:
        assert self.expected is not None
        return self.expected[ids] * self._factor(ids, now, decay)

    def add(self, context: int, column: int, now: int, decay: float,
            expected: np.ndarray | None = None) -> None:
        factor = decay ** (now - int(self.stamp[context]))
        self.counts[context] *= factor
        self.stamp[context] = now
        self.counts[context, column] += 1.0
        if self.expected is not None:
            assert expected is not None
            self.expected[context] *= factor
            self.expected[context] += expected


class OpponentModel:
    """What Vexbot knows of its opponent (module docstring)."""

    def __init__(self, contexts: ContextTree, prior: Prior, bins: int, decay: float,
                 prior_weight: float, backoff: float) -> None:
        self.contexts, self.prior, self.bins = contexts, prior, bins
        self.decay, self.prior_weight, self.backoff = decay, prior_weight, backoff
        self.hands = 0
        self.actions = [Counts(n, 3, level > 0)
                        for level, n in enumerate(contexts.action_contexts)]
        self.showdowns = [Counts(n, bins, level > 0)
                          for level, n in enumerate(contexts.showdown_contexts)]
        self._showdown_prior = prior.showdown_histograms(bins)

    # --- learning ---------------------------------------------------------------------------

    def learn(self, moves: list[tuple[int, int]], shown: tuple[int, int, float] | None
              ) -> None:
        """One finished hand: the opponent's ``moves`` as (decision node, action column) and,
        when it showed down, (showdown leaf, its role, its strength)."""
        self.hands += 1
        ct = self.contexts
        for node, column in moves:
            for level in range(ACTION_LEVELS):
                self.actions[level].add(int(ct.action_context[level, node]), column,
                                        self.hands, self.decay, self.prior.actions[node])
        if shown is not None:
            leaf, role, strength = shown
            column = min(int(strength * self.bins), self.bins - 1)
            prior = self._showdown_prior[int(ct.showdown_context[1, role, leaf])]
            for level in range(SHOWDOWN_LEVELS):
                self.showdowns[level].add(int(ct.showdown_context[level, role, leaf]), column,
                                          self.hands, self.decay, prior)

    # --- reading (never writes) -------------------------------------------------------------

    def action_estimates(self, nodes: np.ndarray) -> Estimate:
        """The opponent's action chances (k, 3) at decision nodes, legal columns only."""
        ct = self.contexts
        prior = self.prior.actions[nodes]
        legal = ct.tree.child[nodes] >= 0
        return self._estimate(self.actions, [ct.action_context[lv, nodes]
                                             for lv in range(ACTION_LEVELS)], prior, legal,
                              "ratio")

    def showdown_estimates(self, leaves: np.ndarray, role: int) -> Estimate:
        """The opponent's shown-strength histograms (k, bins) at showdown leaves, for an
        opponent in ``role``."""
        ct = self.contexts
        ids = [ct.showdown_context[lv, role, leaves] for lv in range(SHOWDOWN_LEVELS)]
        prior = self._showdown_prior[ids[1]]
        legal = np.ones((leaves.size, self.bins), dtype=bool)
        return self._estimate(self.showdowns, ids, prior, legal, "shift")

    def _estimate(self, levels: list[Counts], ids: list[np.ndarray], prior: np.ndarray,
                  legal: np.ndarray, tilt: str) -> Estimate:
        counts = [lv.read(i, self.hands, self.decay) * legal
                  for lv, i in zip(levels, ids, strict=True)]
        totals = np.stack([c.sum(axis=1) for c in counts], axis=1)
        weights = backoff_weights(totals, self.backoff)
        n = self.prior_weight
        base = prior * legal
        for level in range(len(levels) - 1, -1, -1):  # coarsest first: B_i from B_{i+1}
            c = counts[level]
            if level > 0:
                e = levels[level].read_expected(ids[level], self.hands, self.decay)
                own = (_normalised(prior * legal * (c + n) / np.maximum(e + n, 1e-300))
                       if tilt == "ratio" else _normalised(np.maximum(
                           prior + (c - e) / (totals[:, level:level + 1] + n + 1e-300), 0.0)))
            else:
                own = (c + n * base) / np.maximum(totals[:, :1] + n, 1e-300)
                own = np.where(totals[:, :1] + n > 0, own, base)
            keep = np.power(self.backoff, totals[:, level:level + 1])
            base = _normalised((1.0 - keep) * own + keep * base)
        return Estimate(base, np.argmax(weights, axis=1), totals)


def _normalised(rows: np.ndarray) -> np.ndarray:
    return rows / np.maximum(rows.sum(axis=1, keepdims=True), 1e-300)
