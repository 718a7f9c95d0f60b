"""Income rates IR2, IR4 and IR7 of the 169 pre-flop classes (Papp 1998 section 5.1).

``IR_x = x * Eq_x - 1``, where ``Eq_x`` is the all-in showdown equity (ties split) against
``x - 1`` random hands: what a hand wins per unit it puts in when ``x`` players all go to
showdown. Values are in thousandths, as the tables print them (AA: +704 heads-up). The data,
``data/income_rates.csv``, is made by ``experiments/build/make_income_rates.py``; its companion
note ``data/income_rates.md`` gives the precision.

A hand is named by its class (``"AKs"``), its holding (``"AsKs"`` or two card indices) or its
canonical holding index (0..1325).

>>> income_rate("AA")
IncomeRate(hand='AA', ir2=704, ir4=1553, ir7=2048)
>>> ir("7d2c", 7) == ir("72o", 7), ir("AsAh", 2)
(True, 704)
>>> v = ir_vector(7)
>>> v.shape, v.flags.writeable, float(v.min()) == ir("72o", 7)
((1326,), False, True)
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from agent.preflop.errors import IncomeRateError
from agent.strength.ranges import HAND_CLASSES, HOLDING_CLASS
from simulator.core.cards import HOLDING_INDEX, NUM_HOLDINGS, parse_cards
from simulator.core.errors import CardError

TABLE_SIZES = (2, 4, 7)
"""The players of each table: IR2, IR4 and IR7."""

HandLike = str | Sequence[int] | int
DATA_FILE = "income_rates.csv"


@dataclass(frozen=True)
class IncomeRate:
    """One class's income rates, in thousandths."""

    hand: str
    ir2: int
    ir4: int
    ir7: int

    def at(self, players: int) -> int:
        """The rate of the table for ``players`` (2, 4 or 7)."""
        return (self.ir2, self.ir4, self.ir7)[_size_row(players)]


def _size_row(players: int) -> int:
    if players not in TABLE_SIZES:
        raise IncomeRateError(f"bad table size {players!r}: income rates exist for "
                              f"{', '.join(map(str, TABLE_SIZES))} players")
    return TABLE_SIZES.index(players)


def parse_table(text: str, source: str = DATA_FILE) -> np.ndarray:
    """The (3, 169) int array of a CSV ``hand,ir2,ir4,ir7``, rows in ``HAND_CLASSES`` order.

    Raises ``IncomeRateError`` naming the problem: a wrong header, an unknown, missing or
    repeated class, or a value that is not an integer.

    >>> parse_table("hand,ir2,ir4,ir7\\nAA,1,2,3\\n")
    Traceback (most recent call last):
    ...
    agent.preflop.errors.IncomeRateError: income_rates.csv: missing classes: KK, QQ, JJ, ...
    """
    rows = list(csv.reader(io.StringIO(text)))
    header = ["hand"] + [f"ir{x}" for x in TABLE_SIZES]
    if not rows or rows[0] != header:
        raise IncomeRateError(f"{source}: expected the header {','.join(header)}")
    table = np.zeros((len(TABLE_SIZES), len(HAND_CLASSES)), dtype=np.int32)
    seen: set[str] = set()
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header) or row[0] not in HAND_CLASSES or row[0] in seen:
            raise IncomeRateError(f"{source}: line {line}: expected a new class and "
                                  f"{len(TABLE_SIZES)} rates, got {','.join(row)!r}")
        try:
            table[:, HAND_CLASSES.index(row[0])] = [int(v) for v in row[1:]]
        except ValueError:
            raise IncomeRateError(f"{source}: line {line}: rates must be integers, got "
                                  f"{','.join(row[1:])!r}") from None
        seen.add(row[0])
    missing = [c for c in HAND_CLASSES if c not in seen]
    if missing:
        raise IncomeRateError(f"{source}: missing classes: {', '.join(missing[:3])}"
                              + (", ..." if len(missing) > 3 else ""))
    return table


@functools.cache
def _table() -> np.ndarray:
    text = resources.files("agent.preflop").joinpath("data", DATA_FILE).read_text("utf-8")
    table = parse_table(text)
    table.flags.writeable = False
    return table


def class_of(hand: HandLike) -> int:
    """The position in ``HAND_CLASSES`` of a class name, a holding or a holding index.

    >>> HAND_CLASSES[class_of("AKs")], HAND_CLASSES[class_of("KsAs")], HAND_CLASSES[class_of(0)]
    ('AKs', 'AKs', '22')
    """
    if isinstance(hand, str) and hand in HAND_CLASSES:
        return HAND_CLASSES.index(hand)
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, (bool, np.bool_)):
        if not 0 <= int(hand) < NUM_HOLDINGS:
            raise IncomeRateError(f"bad holding index {hand!r}: expected 0..{NUM_HOLDINGS - 1}")
        return int(HOLDING_CLASS[int(hand)])
    try:
        if isinstance(hand, bool):  # an int to the types, no holding index: not iterable
            raise TypeError("'bool' object is not iterable")
        cards = parse_cards(hand)
    except (CardError, TypeError) as exc:
        raise IncomeRateError(f"bad hand {hand!r}: expected a class such as 'AKs', a holding "
                              f"such as 'AsKd' or a holding index ({exc})") from None
    if len(cards) != 2:
        raise IncomeRateError(f"bad hand {hand!r}: expected exactly two cards")
    return int(HOLDING_CLASS[HOLDING_INDEX[cards[0], cards[1]]])


def income_rate(hand: HandLike) -> IncomeRate:
    """The three income rates of a hand's class."""
    c = class_of(hand)
    return IncomeRate(HAND_CLASSES[c], *(int(v) for v in _table()[:, c]))


def ir(hand: HandLike, players: int) -> int:
    """The income rate of a hand at a table of ``players`` (2, 4 or 7), in thousandths."""
    return int(_table()[_size_row(players), class_of(hand)])


@functools.cache
def ir_vector(players: int) -> np.ndarray:
    """The (1326,) read-only float64 vector of every holding's IR_x, in thousandths.

    Float so that it enters weight arithmetic without casts; cached, so every caller shares
    one array.
    """
    vector = _table()[_size_row(players)][HOLDING_CLASS].astype(np.float64)
    vector.flags.writeable = False
    return vector
