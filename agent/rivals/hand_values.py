"""Every holding's strength at a street, on a 0..1 scale where 0.5 is a median hand.

The rivals rank hands with one number ``v`` per holding:

* pre-flop, the share of the 1326 holdings whose class has a lower all-in equity against one
  random hand (ties counted half): the 169-class ranking, weighted by combinations;
* after the flop, HS against a uniform range on the current board,
  which is the share of holdings the hand beats, in one pass for all holdings
  (``agent.strength.board_table``).

Both are percentiles, so a range narrowed to "the top 20% of hands" means the same thing on
every street. The class equities are data, ``data/preflop_equity.csv``, written by
``python -m agent.rivals.hand_values``: each class's all-in equity against 1..9 random hands,
exact against one (the holding-against-holding table, ``simulator.core.preflop_equity``) and
from 2,000,000 seeded deals against more (one deal serves every table size; the standard
error is about 0.0003). The rivals read it before the flop, so no decision draws a deal.

>>> eq = class_equity()
>>> from agent.strength.ranges import HAND_CLASSES
>>> round(float(eq[HAND_CLASSES.index("AA")]), 2), round(float(eq[HAND_CLASSES.index("32o")]), 2)
(0.85, 0.32)
>>> v = preflop_values()
>>> from simulator.core.cards import parse_holding
>>> float(v[parse_holding("AsAh")]) > 0.99, float(v[parse_holding("3c2d")]) < 0.01
(True, True)
"""

from __future__ import annotations

import csv
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

from agent.preflop.allin_equity import allin_equity
from agent.strength.board_table import board_table
from agent.strength.ranges import HAND_CLASSES, HOLDING_CLASS, class_holdings
from simulator.core.cards import holding_cards
from simulator.core.equity import equities
from simulator.core.errors import HoldemError
from simulator.core.packaged import packaged_file

DATA = packaged_file("agent.rivals", "data", "preflop_equity.csv")
OPPONENTS = range(1, 10)
_DEALS = 2_000_000
_SEED = 169


def _read_table(path: Path) -> np.ndarray:
    try:
        with path.open(encoding="utf-8") as fh:
            rows = {r["class"]: [float(r[f"eq{k}"]) for k in OPPONENTS]
                    for r in csv.DictReader(fh)}
    except (OSError, KeyError, ValueError) as exc:
        raise HoldemError(f"cannot read the pre-flop equity table {path}: {exc}") from None
    missing = [c for c in HAND_CLASSES if c not in rows]
    if missing:
        raise HoldemError(f"pre-flop equity table {path}: missing classes {missing[:3]}")
    return np.array([rows[c] for c in HAND_CLASSES])


@lru_cache(maxsize=1)
def _table() -> np.ndarray:
    return _read_table(DATA)


def class_equity(opponents: int = 1) -> np.ndarray:
    """All-in equity of each of the 169 classes (``HAND_CLASSES`` order) against
    ``opponents`` random hands (1..9)."""
    if opponents not in OPPONENTS:
        raise HoldemError(f"bad number of opponents {opponents}: expected 1..9")
    return _table()[:, opponents - 1]


@lru_cache(maxsize=1)
def preflop_values() -> np.ndarray:
    """The pre-flop percentile of every holding (length 1326)."""
    per_holding = class_equity()[HOLDING_CLASS]
    order = np.sort(per_holding)
    below = np.searchsorted(order, per_holding, side="left")
    equal = np.searchsorted(order, per_holding, side="right") - below
    return (below + equal / 2) / per_holding.size


def street_values(board: tuple[int, ...]) -> np.ndarray:
    """``v`` of every holding on this board (none: pre-flop); 0 for holdings that clash
    with the board. Read-only: post-flop tables are shared per board."""
    if not board:
        return preflop_values()
    return _postflop_values(tuple(sorted(board)))


@lru_cache(maxsize=16)
def _postflop_values(board: tuple[int, ...]) -> np.ndarray:
    values = np.nan_to_num(board_table(board).hs_all(), nan=0.0)
    values.setflags(write=False)
    return values


def compute_class_equity(deals: int = _DEALS, seed: int = _SEED) -> np.ndarray:
    """Each class's equity against 1..9 random hands, from a representative holding (suits do
    not matter against uniform ranges): exact against one (the holding-against-holding
    table), by ``deals`` seeded deals against more (one deal serves every table size)."""
    out = np.empty((len(HAND_CLASSES), len(OPPONENTS)))
    for i, name in enumerate(HAND_CLASSES):
        rep = int(class_holdings(name)[0])
        out[i, 0] = equities((), None, [rep])[0]
        est = allin_equity(holding_cards(rep), [k + 1 for k in OPPONENTS[1:]], deals,
                           seed + i)
        out[i, 1:] = est.equity
    return out


def main(argv: list[str] | None = None) -> int:
    """Write ``data/preflop_equity.csv`` (minutes: 2,000,000 deals per class)."""
    args = sys.argv[1:] if argv is None else argv
    deals = int(args[0]) if args else _DEALS
    eq = compute_class_equity(deals)
    DATA.parent.mkdir(exist_ok=True)
    with DATA.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["class", *(f"eq{k}" for k in OPPONENTS)])
        for name, row in zip(HAND_CLASSES, eq, strict=True):
            writer.writerow([name, *(f"{value:.5f}" for value in row)])
    print(f"wrote {DATA} (exact against one hand; {deals} deals per class against more)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
