"""Cards, holdings and the deck.

A card is an integer ``rank * 4 + suit`` (0..51) with ranks ``23456789TJQKA`` and suits
``cdhs``, the ACPC dealer's numbering. A holding is two distinct cards; its canonical index
0..1325 is its position in ``itertools.combinations(range(52), 2)``.

>>> parse_cards("Ad Qc")
[49, 40]
>>> format_cards([49, 40])
'AdQc'
>>> holding_index(0, 1), holding_cards(1325)
(0, (50, 51))
>>> format_cards(holding_cards(holding_index(parse_card("As"), parse_card("Kd"))))
'KdAs'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

import numpy as np

from simulator.core.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CARDS = 52
NUM_HOLDINGS = 1326

_TOKEN = re.compile(r"\s*([2-9TJQKAtjqka])([cdhsCDHS])")


def card(rank: int, suit: int) -> int:
    """The card index of a rank (0..12) and suit (0..3)."""
    return rank * 4 + suit


def rank_of(c: int) -> int:
    return c >> 2


def suit_of(c: int) -> int:
    return c & 3


def parse_card(token: str) -> int:
    """One card from a two-character token such as ``"Ad"`` or ``"tc"``."""
    m = _TOKEN.fullmatch(token.strip()) if isinstance(token, str) else None
    if m is None:
        raise CardError(f"bad card {token!r}: expected a rank of {RANKS} and a suit of {SUITS}")
    return card(RANKS.index(m.group(1).upper()), SUITS.index(m.group(2).lower()))


def parse_cards(text: str | Sequence[int] | Sequence[str], *, distinct: bool = True) -> list[int]:
    """Cards from a string (``"AdQc"``, ``"3h 4c Jh"``, ``"3h,4c"``), a list of tokens or ints.

    Raises ``CardError`` (a ``ValueError``) naming the bad token, or the repeated card when
    ``distinct``.

    >>> parse_cards("3h4cJh")
    [6, 8, 38]
    >>> parse_cards("Ad Ad")
    Traceback (most recent call last):
    ...
    simulator.core.errors.CardError: repeated card 'Ad' in 'Ad Ad'
    """
    if isinstance(text, str):
        cards = _parse_string(text)
    else:
        cards = [_one_card(x) for x in text]
    if distinct:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"repeated card {format_card(c)!r} in {text!r}")
            seen.add(c)
    return cards


def _parse_string(text: str) -> list[int]:
    cards, pos = [], 0
    body = text.replace(",", " ")
    while pos < len(body):
        if body[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(body, pos)
        if m is None:
            raise CardError(
                f"bad card {body[pos:pos + 2]!r} in {text!r}: expected a rank of {RANKS} "
                f"and a suit of {SUITS}"
            )
        cards.append(card(RANKS.index(m.group(1).upper()), SUITS.index(m.group(2).lower())))
        pos = m.end()
    return cards


def _one_card(x: int | str) -> int:
    if isinstance(x, str):
        return parse_card(x)
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise CardError(f"bad card {x!r}: expected an index 0..51 or a string like 'Ad'")
    if not 0 <= int(x) < NUM_CARDS:
        raise CardError(f"bad card index {x!r}: expected 0..51")
    return int(x)


def format_card(c: int) -> str:
    if not 0 <= int(c) < NUM_CARDS:
        raise CardError(f"bad card index {c!r}: expected 0..51")
    return RANKS[c >> 2] + SUITS[c & 3]


def format_cards(cards: Iterable[int], sep: str = "") -> str:
    return sep.join(format_card(int(c)) for c in cards)


# --- holdings -------------------------------------------------------------------------------

HOLDINGS: np.ndarray = np.array(list(itertools.combinations(range(NUM_CARDS), 2)), dtype=np.int8)
"""``HOLDINGS[h]`` is the (low, high) card pair of holding ``h``; shape (1326, 2)."""

_INDEX = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int16)
_INDEX[HOLDINGS[:, 0], HOLDINGS[:, 1]] = np.arange(NUM_HOLDINGS)
_INDEX[HOLDINGS[:, 1], HOLDINGS[:, 0]] = np.arange(NUM_HOLDINGS)
HOLDING_INDEX: np.ndarray = _INDEX
"""``HOLDING_INDEX[a, b]`` is the holding index of cards a and b in either order (-1 if a == b)."""


def holding_index(a: int, b: int) -> int:
    """The canonical index of the holding {a, b}, in either order."""
    if a == b or not (0 <= a < NUM_CARDS and 0 <= b < NUM_CARDS):
        raise CardError(f"bad holding ({a}, {b}): need two distinct cards 0..51")
    return int(_INDEX[a, b])


def holding_cards(h: int) -> tuple[int, int]:
    if not 0 <= h < NUM_HOLDINGS:
        raise CardError(f"bad holding index {h}: expected 0..1325")
    lo, hi = HOLDINGS[h]
    return int(lo), int(hi)


def parse_holding(text: str) -> int:
    """The holding index of a two-card string such as ``"AsKd"`` (either order)."""
    cards = parse_cards(text)
    if len(cards) != 2:
        raise CardError(f"bad holding {text!r}: expected exactly two cards")
    return holding_index(*cards)


def card_mask(cards: Iterable[int]) -> int:
    """A 52-bit integer with bit c set for every card c."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


# per card, the holdings that hold it: a modeller asks for a new board's clashes every round
_HOLDING_CARD = np.zeros((NUM_CARDS, NUM_HOLDINGS), dtype=bool)
_HOLDING_CARD[HOLDINGS[:, 0], np.arange(NUM_HOLDINGS)] = True
_HOLDING_CARD[HOLDINGS[:, 1], np.arange(NUM_HOLDINGS)] = True
_HOLDING_CARD.setflags(write=False)


def clashing_holdings(cards: Iterable[int]) -> np.ndarray:
    """Boolean array (1326,): True for holdings that share a card with ``cards``."""
    out = np.zeros(NUM_HOLDINGS, dtype=bool)
    for c in cards:
        out |= _HOLDING_CARD[c]
    return out


# --- treys interop --------------------------------------------------------------------------

_TREYS_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_TREYS_SUIT = (8, 4, 2, 1)  # treys' bit for c, d, h, s


def to_treys(c: int) -> int:
    """The treys integer of card ``c`` (what ``treys.Card.new`` returns).

    >>> to_treys(parse_card("Ad"))
    268454953
    """
    r, s = int(c) >> 2, int(c) & 3
    return (1 << (16 + r)) | (_TREYS_SUIT[s] << 12) | (r << 8) | _TREYS_PRIMES[r]


def from_treys(t: int) -> int:
    """The card index of a treys integer."""
    r = (t >> 8) & 0xF
    suit_bit = (t >> 12) & 0xF
    if r > 12 or suit_bit not in _TREYS_SUIT or t != to_treys(r * 4 + _TREYS_SUIT.index(suit_bit)):
        raise CardError(f"bad treys card integer {t!r}")
    return r * 4 + _TREYS_SUIT.index(suit_bit)


# --- deck -----------------------------------------------------------------------------------


class Deck:
    """A shuffled deck drawn from a seeded numpy generator, so one seed gives one deal.

    >>> d = Deck(seed=1)
    >>> hand = d.draw(2)
    >>> len(hand), len(d)
    (2, 50)
    >>> Deck(seed=1).draw(2) == hand
    True
    """

    def __init__(self, seed: int | np.random.Generator | None = None,
                 exclude: Iterable[int] = ()) -> None:
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        dead = set(exclude)
        cards = np.array([c for c in range(NUM_CARDS) if c not in dead], dtype=np.int64)
        self._cards: list[int] = rng.permutation(cards).tolist()

    def draw(self, n: int = 1) -> list[int]:
        if n > len(self._cards):
            raise CardError(f"cannot draw {n} cards: {len(self._cards)} left")
        out, self._cards = self._cards[:n], self._cards[n:]
        return out

    def __len__(self) -> int:
        return len(self._cards)
