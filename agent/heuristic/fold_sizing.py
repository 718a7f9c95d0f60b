"""No-limit sizing in E's model: how much more often an opponent folds to a bigger bet."""

from __future__ import annotations

import numba


def fold_to_size(fold: float, pot_fraction: float | None, exponent: float) -> float:
    """An opponent's chance to fold to a bet of ``pot_fraction`` pots, from its fold rate to a
    pot-sized bet: bigger bets get more folds (proposed here).

    >>> fold_to_size(0.4, 1.0, 0.5), round(fold_to_size(0.4, 2.0, 0.5), 4)
    (0.4, 0.5101)
    """
    return float(size_fold(float(fold), -1.0 if pot_fraction is None else pot_fraction,
                            exponent))


@numba.njit(cache=True, nogil=True)
def size_fold(fold: float, pot_fraction: float, exponent: float) -> float:
    """:func:`fold_to_size`, with ``pot_fraction`` below 0 for "no size" (limit)."""
    if pot_fraction < 0.0 or exponent == 0.0:
        return fold
    keep = (1.0 - fold) * (2.0 / (1.0 + max(pot_fraction, 0.0))) ** exponent
    return min(1.0, max(0.0, 1.0 - keep))
