"""The rivals' equity: every holding's showdown share against their opponents' ranges.

Exact wherever it can be at a rival's speed:

* before the flop, against random hands, the shipped class table (exact against one hand,
  2,000,000 deals per class against more: :mod:`agent.rivals.hand_values`); against weighted
  ranges, the exact holding-against-holding table, one opponent at a time, the product over
  several opponents (as if beating one said nothing of beating the next);
* after the flop, the board enumerated (:func:`simulator.core.equity.multiway_equities`:
  exact against one opponent; against several, their holdings independent given the board).

A weight array of None is a random hand. The result never depends on the real cards: a
holding's own cards leave the opponents' holdings that clash with them.

>>> from simulator.core.cards import parse_cards, parse_holding
>>> round(float(equities_against(parse_cards("3h4cJh"), [None],
...                              [parse_holding("AdQc")])[0]), 6)
0.511399
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.rivals.hand_values import class_equity
from agent.strength.ranges import HOLDING_CLASS
from simulator.core.equity import multiway_equities, preflop_equity_product


def equities_against(board: Sequence[int], ranges: Sequence[np.ndarray | None],
                     holdings: Sequence[int] | np.ndarray) -> np.ndarray:
    """Each holding's equity (indices) against one range per live opponent; 0 where a
    range has nothing left."""
    asked = np.asarray(holdings, dtype=np.int64).reshape(-1)
    if not board:
        if all(r is None for r in ranges):
            return class_equity(len(ranges))[HOLDING_CLASS[asked]]
        return preflop_equity_product(ranges, asked)
    return _zeroed(multiway_equities(board, list(ranges), asked))


def _zeroed(equity: np.ndarray) -> np.ndarray:
    """NaN (a range with nothing left) as 0: ``nan_to_num``'s result for equities, which
    are never infinite, at a fraction of its cost on a decision's few holdings."""
    return np.where(np.isnan(equity), 0.0, equity)
