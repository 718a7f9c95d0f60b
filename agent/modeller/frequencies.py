"""Action frequencies of one opponent per context, blended with defaults while data is thin.

A context is the street and what the player faces (defined in ``agent.modeller.tracker``):
0, 1, or 2 for two or more bets to call, Papp's contexts, and 3 (``RAISED_BACK``) for a
player facing a raise after its own bet or raise in the round, who folds far less than one
facing the same bets cold (against our heads-up agent the ``exploiter`` folded 37% of river
bets but 20% of river raises of its bet, and pooled, the agent's raises were priced on folds
that do not come). With n observations of a context the frequencies are
``(n * observed + (prior - n) * default) / prior`` below ``prior`` observations (20, Papp) and
the observed ones from then on. The defaults are Papp's Table B.2 and,
raised back, ``agent.modeller.params.RAISED_BACK_FREQUENCIES``.

With ``pool_streets`` (proposed here), a thin post-flop context first learns from the same
context on the other post-flop streets: its default becomes ``(m * pooled + prior * default)
/ (m + prior)`` for the m observations there. A player who never folds to a flop bet is then
not expected to fold half the time to its first turn bet. Pre-flop contexts (where a blind
is the bet faced) stay apart.

>>> f = ActionFrequencies(prior=20)
>>> f.get(1, 1)  # nothing seen: Table B.2, facing one bet
(0.5, 0.3, 0.2)
>>> f.get(1, RAISED_BACK)
(0.1, 0.6, 0.3)
>>> for _ in range(5):
...     f.record(1, 1, ActionKind.RAISE)
>>> [round(x, 4) for x in f.get(1, 1)]  # (5 * (0, 0, 1) + 15 * (.5, .3, .2)) / 20
[0.375, 0.225, 0.4]
>>> pooled = ActionFrequencies(prior=20, pool_streets=True)
>>> for _ in range(20):
...     pooled.record(1, 1, ActionKind.CALL)  # calls every flop bet
>>> [round(x, 4) for x in pooled.get(2, 1)]  # the turn: (20 * (0, 1, 0) + 20 * B.2) / 40
[0.25, 0.65, 0.1]
"""

from __future__ import annotations

import math

import numpy as np

from agent.modeller.params import RAISED_BACK_FREQUENCIES, TABLE_B2, Frequencies
from agent.modeller.tracker import RAISED_BACK
from simulator import ActionKind

STREETS, CONTEXTS, KINDS = 4, RAISED_BACK + 1, 3
KIND_INDEX = {ActionKind.FOLD: 0, ActionKind.CALL: 1, ActionKind.RAISE: 2}


class ActionFrequencies:
    """Counts of fold/call/raise per (street, context) for one opponent, and the blend."""

    def __init__(self, prior: int = 20,
                 defaults: tuple[Frequencies, Frequencies, Frequencies] = TABLE_B2,
                 counts: np.ndarray | None = None,
                 raised_back: Frequencies = RAISED_BACK_FREQUENCIES,
                 pool_streets: bool = False) -> None:
        self.prior = prior
        self.pool_streets = pool_streets
        self.defaults = np.array([*defaults, raised_back], dtype=np.float64)
        self._default_rows = tuple(tuple(float(x) for x in row) for row in self.defaults)
        self.counts = (np.zeros((STREETS, CONTEXTS, KINDS), dtype=np.int64) if counts is None
                       else np.array(counts, dtype=np.int64).reshape(STREETS, CONTEXTS, KINDS))
        # The blend of each context, kept until the context's next observation: an agent asks
        # for every opponent's frequencies at every decision, far more often than they change.
        self._blended: dict[tuple[int, int], Frequencies] = {}

    def record(self, street: int, context: int, kind: ActionKind) -> None:
        c = int(context)
        self.counts[street, c, KIND_INDEX[kind]] += 1
        for s in (range(1, STREETS) if self.pool_streets and street > 0 else (street,)):
            self._blended.pop((s, c), None)

    def observations(self, street: int, context: int) -> int:
        return int(self.counts[street, context].sum())

    def seen_fold(self, street: int, context: int) -> float:
        """The fold frequency of a context with a default of no folds: the folds seen over
        ``max(n, prior)``. A raise that only pays if the player folds trusts folds it has seen,
        never the default's (Table B.2 has half the players facing a bet fold).

        >>> f = ActionFrequencies(prior=20)
        >>> f.seen_fold(0, 1)
        0.0
        >>> for kind in [ActionKind.FOLD] * 6 + [ActionKind.CALL] * 4:
        ...     f.record(0, 1, kind)
        >>> f.seen_fold(0, 1)  # 6 folds in 10, shrunk by 10 / 20
        0.3
        """
        seen = self.counts[street, int(context)]
        return float(seen[0]) / max(int(seen.sum()), self.prior, 1)

    def get(self, street: int, context: int) -> Frequencies:
        """Blended ``(fold, call, raise)`` of a context."""
        c = int(context)
        blend = self._blended.get((street, c))
        if blend is None:
            seen = self.counts[street, c].tolist()
            n = seen[0] + seen[1] + seen[2]
            if n >= self.prior:
                total = n if n else math.nan  # no prior and nothing seen: NaN, as numpy's 0/0
                blend = (seen[0] / total, seen[1] / total, seen[2] / total)
            else:
                rest = self.prior - n
                d = self._default_rows[c]
                if self.pool_streets and street > 0:
                    d = self._pooled(street, c, d)
                blend = ((seen[0] + rest * d[0]) / self.prior, (seen[1] + rest * d[1]) / self.prior,
                         (seen[2] + rest * d[2]) / self.prior)
            self._blended[(street, c)] = blend
        return blend

    def _pooled(self, street: int, context: int, default: tuple[float, ...]
                ) -> tuple[float, ...]:
        """``default`` shrunk toward the context's counts on the other post-flop streets."""
        # in Python ints (exact, as numpy's): numpy's axis sum costs more than these nine
        rows = self.counts[1:, context].tolist()
        own = rows[street - 1]
        other = [flop + turn + river - mine
                 for flop, turn, river, mine in zip(*rows, own, strict=True)]
        m = other[0] + other[1] + other[2]
        if not m:
            return default
        return ((other[0] + self.prior * default[0]) / (m + self.prior),
                (other[1] + self.prior * default[1]) / (m + self.prior),
                (other[2] + self.prior * default[2]) / (m + self.prior))


def at_least_as_strong(freqs: Frequencies, kind: ActionKind) -> float:
    """Frequency of ``kind`` or a stronger action: a raise P(raise), a call P(call) + P(raise).

    >>> at_least_as_strong((0.5, 0.3, 0.2), ActionKind.CALL)
    0.5
    """
    if kind is ActionKind.RAISE:
        return freqs[2]
    if kind is ActionKind.CALL:
        return freqs[1] + freqs[2]
    return 1.0
