"""The fold cap: never give up more of our range to a bet than the bet's price allows.

Facing a bet that costs us ``c`` to call in a pot of ``P`` (the bet included), a player who
bets any two cards risks ``c`` to win ``P - c``: its bet pays whenever we fold more than
``c / P`` of the holdings we can have (game theory's minimum defence frequency). A player
who folds more than that is exploited by anyone who bets often, as local best response
does. The cap keeps our folds heads-up after the flop to the weakest ``k * c / P`` of our
range (``k`` is ``selector.fold_cap``, above 1 leaving room for opponents whose bets are
strong; 0 turns the cap off): a holding the selector would fold calls instead when more
than that share of our range, each holding weighted by how likely we are to hold it, is
weaker by EHS.

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

import numpy as np


def fold_share(cap: float, to_call: int, pot: int) -> float:
    """The share of our range that may fold: ``cap`` times the bluff's break-even share.

    >>> fold_share(2.0, 2, 10)
    0.4
    """
    return min(1.0, cap * to_call / max(pot, 1))


def learned_cap(cap: float, prior: float, trust: float) -> float:
    """The cap against a bettor whose range on this line we trust by ``trust``: ``cap`` up to
    the trust's prior, relaxed by ``(1 - prior) / (1 - trust)`` as the showdowns prove its
    bets to be what the modeller says (no cap at all once fully trusted). A trust below the
    prior does not tighten it: a range we trust less is already mixed toward a uniform one,
    which makes calls worth more, and tightening would count that evidence twice.

    >>> [round(learned_cap(2.0, 0.7, t), 6) for t in (0.7, 0.85, 0.4)]
    [2.0, 4.0, 2.0]
    >>> learned_cap(2.0, 0.7, 1.0), learned_cap(0.0, 0.7, 1.0)  # 0 stays off
    (inf, 0.0)
    """
    if not cap:
        return 0.0
    if trust >= 1.0:
        return float("inf")
    return cap * max(1.0, (1.0 - prior) / (1.0 - trust))


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
