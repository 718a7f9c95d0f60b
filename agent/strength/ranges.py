"""Opponent weights over the 1326 holdings, range notation and the 169 pre-flop hand classes.

Weights come in four forms, all turned into a float array of length 1326 in the canonical
holding order by ``to_weights``: ``None`` (uniform), such an array, a mapping from holding
strings (``"AsKd"``, either card order) to weights where unlisted holdings weigh 0, or a range
in the usual notation, every listed holding weighing 1 (or ``:w`` after a term).

>>> w = parse_range("QQ+, AKs, AQo-ATo, 76s")
>>> int((w > 0).sum())  # 3 pairs x 6 + 4 + 3 x 12 + 4
62
>>> hand_class("AdQc"), hand_class("7h2h"), hand_class("QsQd")
('AQo', '72s', 'QQ')
>>> len(HAND_CLASSES), len(class_holdings("AKo"))
(169, 12)
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np

from agent.strength.errors import RangeError
from simulator.core.cards import (
    HOLDING_INDEX,
    HOLDINGS,
    NUM_HOLDINGS,
    RANKS,
    parse_cards,
    parse_holding,
)
from simulator.core.errors import CardError

WeightsLike = None | np.ndarray | Sequence[float] | Mapping[str, float] | str

# --- hand classes ---------------------------------------------------------------------------


def _class_name(hi: int, lo: int, suited: bool) -> str:
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if suited else "o")


# Pairs from AA down, then suited and offsuit hands by high card, then kicker, descending.
HAND_CLASSES: tuple[str, ...] = tuple(
    [_class_name(r, r, False) for r in range(12, -1, -1)]
    + [_class_name(hi, lo, True) for hi in range(12, -1, -1) for lo in range(hi - 1, -1, -1)]
    + [_class_name(hi, lo, False) for hi in range(12, -1, -1) for lo in range(hi - 1, -1, -1)]
)
"""The 169 pre-flop classes: ``"AA"`` .. ``"22"``, ``"AKs"`` .. ``"32s"``, ``"AKo"`` .. ``"32o"``
"""

_RANK_A = HOLDINGS[:, 0].astype(np.int64) >> 2
_RANK_B = HOLDINGS[:, 1].astype(np.int64) >> 2
_SUITED = (HOLDINGS[:, 0] & 3) == (HOLDINGS[:, 1] & 3)
HOLDING_CLASS: np.ndarray = np.array([
    HAND_CLASSES.index(_class_name(max(a, b), min(a, b), bool(s)))
    for a, b, s in zip(_RANK_A, _RANK_B, _SUITED, strict=True)
], dtype=np.int16)
"""``HOLDING_CLASS[h]`` is the position in ``HAND_CLASSES`` of holding h's class."""


def hand_class(hole: str | Sequence[int]) -> str:
    """The pre-flop class of two hole cards: ``"AKs"``, ``"QQ"``, ``"72o"``."""
    cards = parse_cards(hole)
    if len(cards) != 2:
        raise CardError(f"bad hole cards {hole!r}: expected exactly two cards")
    return HAND_CLASSES[int(HOLDING_CLASS[HOLDING_INDEX[cards[0], cards[1]]])]


def class_holdings(name: str) -> np.ndarray:
    """The holding indices of a class (6 for a pair, 4 suited, 12 offsuit).

    >>> from simulator.core.cards import format_cards, holding_cards
    >>> [format_cards(holding_cards(h)) for h in class_holdings("AKs")]
    ['KcAc', 'KdAd', 'KhAh', 'KsAs']
    """
    if name not in HAND_CLASSES:
        raise RangeError(f"bad hand class {name!r}: expected e.g. 'AA', 'AKs', 'AKo'")
    return np.flatnonzero(HOLDING_CLASS == HAND_CLASSES.index(name))


def class_weights(weights: np.ndarray) -> np.ndarray:
    """The (169,) mean weight of each class's possible holdings, in ``HAND_CLASSES`` order.

    A holding of weight 0 clashes with known cards (a modeller's live holdings never weigh
    0: their factors are floored), so it is left out of its class's mean; a class with no
    possible holding weighs 0.

    >>> w = np.zeros(NUM_HOLDINGS); w[class_holdings("AKs")[:2]] = (1.0, 0.5)
    >>> cw = class_weights(w)
    >>> float(cw[HAND_CLASSES.index("AKs")]), float(cw.sum())
    (0.75, 0.75)
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_HOLDINGS,):
        raise RangeError(f"weights of shape {w.shape}: expected ({NUM_HOLDINGS},)")
    live = w > 0
    sums = np.bincount(HOLDING_CLASS, weights=np.where(live, w, 0.0), minlength=169)
    counts = np.bincount(HOLDING_CLASS, weights=live.astype(np.float64), minlength=169)
    return np.divide(sums, counts, out=np.zeros(169), where=counts > 0)


# --- range notation -------------------------------------------------------------------------

_R = "[2-9TJQKAtjqka]"
_PAIR = re.compile(rf"({_R})\1(\+)?")
_PAIR_SPAN = re.compile(rf"({_R})\1-({_R})\2")
_NONPAIR = re.compile(rf"({_R})({_R})([so])?(\+)?")
_NONPAIR_SPAN = re.compile(rf"({_R})({_R})([so])?-({_R})({_R})([so])?")
_HOLDING = re.compile(rf"{_R}[cdhsCDHS]{_R}[cdhsCDHS]")


def _rank(ch: str) -> int:
    return RANKS.index(ch.upper())


def _classes_of_term(term: str) -> list[str]:
    """The hand classes a term names; raises ``ValueError`` for anything else."""
    if m := _PAIR.fullmatch(term):
        r = _rank(m.group(1))
        return [_class_name(x, x, False) for x in range(r, 13 if m.group(2) else r + 1)]
    if m := _PAIR_SPAN.fullmatch(term):
        lo, hi = sorted((_rank(m.group(1)), _rank(m.group(2))))
        return [_class_name(x, x, False) for x in range(lo, hi + 1)]
    if m := _NONPAIR.fullmatch(term):
        hi, lo = _rank(m.group(1)), _rank(m.group(2))
        if hi <= lo:
            raise RangeError(f"bad range term {term!r}: write the higher rank first")
        kickers = range(lo, hi) if m.group(4) else [lo]
        return _with_suits(hi, kickers, m.group(3))
    if m := _NONPAIR_SPAN.fullmatch(term):
        hi, lo1, s1 = _rank(m.group(1)), _rank(m.group(2)), m.group(3)
        hi2, lo2, s2 = _rank(m.group(4)), _rank(m.group(5)), m.group(6)
        if hi != hi2 or s1 != s2 or lo1 >= hi or lo2 >= hi:
            raise RangeError(
                f"bad range term {term!r}: a span keeps its high card and suitedness, "
                "as in 'AQo-ATo'")
        return _with_suits(hi, range(min(lo1, lo2), max(lo1, lo2) + 1), s1)
    raise RangeError(
        f"bad range term {term!r}: expected e.g. 'QQ', 'QQ+', '99-66', 'AKs', 'AK', 'A2s+', "
        "'AQo-ATo' or a holding such as 'AsKd'")


def _with_suits(hi: int, kickers: Sequence[int] | range, suits: str | None) -> list[str]:
    kinds = [True, False] if suits is None else [suits == "s"]
    return [_class_name(hi, lo, s) for lo in kickers for s in kinds]


def _term_holdings(term: str) -> np.ndarray:
    if _HOLDING.fullmatch(term):
        return np.array([parse_holding(term)])
    return np.concatenate([class_holdings(c) for c in _classes_of_term(term)])


def _parse_weight(text: str, term: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RangeError(f"bad weight {text!r} in range term {term!r}") from None
    _check_weight(value, term)
    return value


def _check_weight(value: float, where: str) -> None:
    if not math.isfinite(value) or value < 0:
        raise RangeError(f"bad weight {value!r} for {where!r}: weights must be finite and >= 0")


def parse_range(text: str) -> np.ndarray:
    """Weights of a range such as ``"QQ+, AKs, AQo-ATo, 76s"``: 1 for listed holdings.

    Terms are separated by commas (or spaces); ``"AK"`` means suited and offsuit, ``"A2s+"``
    raises the kicker up to ``"AKs"``, ``"AsKd"`` is one holding, and ``"AKs:0.5"`` gives a
    term a weight of its own (a later term overrides an earlier one).

    >>> w = parse_range("AsKd, QQ:0.5")
    >>> sorted({float(x) for x in w}), int((w == 0.5).sum())
    ([0.0, 0.5, 1.0], 6)
    >>> parse_range("KAs")
    Traceback (most recent call last):
    ...
    agent.strength.errors.RangeError: bad range term 'KAs': write the higher rank first
    """
    w = np.zeros(NUM_HOLDINGS)
    terms = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not terms:
        raise RangeError(f"bad range {text!r}: no terms")
    for term in terms:
        body, _, weight = term.partition(":")
        w[_term_holdings(body)] = _parse_weight(weight, term) if weight else 1.0
    return w


def _from_mapping(mapping: Mapping[str, float]) -> np.ndarray:
    """Holding strings (or range terms) to weights; unlisted holdings weigh 0."""
    w = np.zeros(NUM_HOLDINGS)
    for key, value in mapping.items():
        if not isinstance(key, str):
            raise RangeError(f"bad holding {key!r}: expected a string such as 'AsKd'")
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer,
                                                             np.floating)):
            raise RangeError(f"bad weight {value!r} for {key!r}: expected a number")
        _check_weight(float(value), key)
        w[_term_holdings(key.strip())] = float(value)
    return w


def to_weights(weights: WeightsLike) -> np.ndarray:
    """A fresh float array of 1326 weights from any accepted form (see the module doc).

    Raises ``ValueError`` for a wrong length, a negative, NaN or infinite weight, a bad
    holding or a bad range term. Clashes with known cards are dealt with by the evaluator.

    >>> to_weights({"AsKd": 2.0, "KdAs": 3.0})[parse_holding("AsKd")]
    np.float64(3.0)
    >>> try:
    ...     to_weights([1.0, 2.0])
    ... except RangeError as exc:
    ...     print(exc)
    bad weights: expected 1326 values in the canonical holding order, got 2
    """
    if weights is None:
        return np.ones(NUM_HOLDINGS)
    if isinstance(weights, str):
        return parse_range(weights)
    if isinstance(weights, Mapping):
        return _from_mapping(weights)
    try:
        w = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise RangeError(f"bad weights of type {type(weights).__name__}: expected None, an "
                         "array of 1326, a mapping of holdings or a range string") from None
    if w.shape != (NUM_HOLDINGS,):
        got = w.shape[0] if w.ndim == 1 else f"shape {w.shape}"
        raise RangeError(
            f"bad weights: expected 1326 values in the canonical holding order, got {got}")
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
    if bad.size:
        raise RangeError(f"bad weight {w[bad[0]]!r} at holding {int(bad[0])}: weights must be "
                         "finite and >= 0")
    return w
