"""Weights, range notation and pre-flop hand classes."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from agent.strength.ranges import (
    HAND_CLASSES,
    class_holdings,
    hand_class,
    parse_range,
    to_weights,
)
from simulator.core.cards import HOLDINGS, NUM_HOLDINGS, RANKS, parse_holding

Rule = Callable[[int, int, bool], bool]  # (high rank, low rank, suited) -> in the range


def classes_by_rule(pred: Rule) -> set[int]:
    """Holdings whose (high rank, low rank, suited) satisfy ``pred``, by direct enumeration."""
    out = set()
    for h, (a, b) in enumerate(HOLDINGS.tolist()):
        hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
        if pred(hi, lo, (a & 3) == (b & 3)):
            out.add(h)
    return out


R = {ch: i for i, ch in enumerate(RANKS)}


@pytest.mark.parametrize(("text", "pred"), [
    ("QQ+", lambda hi, lo, s: hi == lo >= R["Q"]),
    ("99-66", lambda hi, lo, s: hi == lo and R["6"] <= lo <= R["9"]),
    ("66-99", lambda hi, lo, s: hi == lo and R["6"] <= lo <= R["9"]),
    ("AKs", lambda hi, lo, s: (hi, lo) == (R["A"], R["K"]) and s),
    ("AK", lambda hi, lo, s: (hi, lo) == (R["A"], R["K"])),
    ("AQo-ATo", lambda hi, lo, s: hi == R["A"] and R["T"] <= lo <= R["Q"] and not s),
    ("K9s+", lambda hi, lo, s: hi == R["K"] and R["9"] <= lo < R["K"] and s),
    ("76s", lambda hi, lo, s: (hi, lo) == (R["7"], R["6"]) and s),
    ("QQ+, AKs, AQo-ATo, 76s", lambda hi, lo, s: hi == lo >= R["Q"]
     or (hi, lo) == (R["A"], R["K"]) and s
     or hi == R["A"] and R["T"] <= lo <= R["Q"] and not s
     or (hi, lo) == (R["7"], R["6"]) and s),
])
def test_range_notation(text: str, pred: Rule) -> None:
    w = parse_range(text)
    assert set(np.flatnonzero(w).tolist()) == classes_by_rule(pred)
    assert set(np.unique(w).tolist()) <= {0.0, 1.0}


def test_holdings_and_weights_in_a_range() -> None:
    w = parse_range("AsKd AKs:0.25 22:3")
    assert w[parse_holding("KdAs")] == 1.0
    assert all(w[h] == 0.25 for h in class_holdings("AKs"))
    assert all(w[h] == 3.0 for h in class_holdings("22"))
    assert int((w > 0).sum()) == 1 + 4 + 6


@pytest.mark.parametrize(("text", "message"), [
    ("", "no terms"), ("KAs", "higher rank first"), ("AQo-KTo", "span"), ("ZZ", "bad range term"),
    ("AKs:-1", "bad weight"), ("AKs:x", "bad weight"), ("AsAs", "repeated card"),
])
def test_bad_ranges_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_range(text)


def test_the_169_classes() -> None:
    assert len(set(HAND_CLASSES)) == 169
    sizes = Counter(len(class_holdings(c)) for c in HAND_CLASSES)
    assert sizes == {6: 13, 4: 78, 12: 78}
    seen = np.concatenate([class_holdings(c) for c in HAND_CLASSES])
    assert sorted(seen.tolist()) == list(range(NUM_HOLDINGS))


@pytest.mark.parametrize(("hole", "cls"), [
    ("AdQc", "AQo"), ("QcAd", "AQo"), ("7h2h", "72s"), ("2h7d", "72o"), ("QsQd", "QQ"),
    ("Tc9c", "T9s"), ([50, 51], "AA"),
])
def test_hand_class(hole: str | list[int], cls: str) -> None:
    assert hand_class(hole) == cls


def test_hand_class_of_every_holding_is_consistent() -> None:
    for a, b in itertools.combinations(range(52), 2):
        name = hand_class([a, b])
        hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
        assert name[:2] == RANKS[hi] + RANKS[lo]
        assert name[2:] == ("" if hi == lo else ("s" if (a & 3) == (b & 3) else "o"))


def test_to_weights_forms() -> None:
    assert np.array_equal(to_weights(None), np.ones(NUM_HOLDINGS))
    arr = np.arange(NUM_HOLDINGS, dtype=float)
    out = to_weights(arr)
    assert np.array_equal(out, arr) and out is not arr
    m = to_weights({"AsKd": 2.0, "7h6h": 0.5})
    assert m[parse_holding("KdAs")] == 2.0 and m[parse_holding("6h7h")] == 0.5
    assert m.sum() == 2.5
    assert np.array_equal(to_weights("AKs"), parse_range("AKs"))


@pytest.mark.parametrize(("weights", "message"), [
    (np.ones(10), "1326"),
    (np.ones((2, NUM_HOLDINGS)), "1326"),
    (np.full(NUM_HOLDINGS, -1.0), "bad weight"),
    (np.full(NUM_HOLDINGS, np.nan), "bad weight"),
    ({"AsKd": -1}, "bad weight"),
    ({"AsKd": "x"}, "expected a number"),
    ({"AsXd": 1}, "bad"),
    ({5: 1}, "bad holding"),
    (object(), "bad weights"),
])
def test_bad_weights_are_refused(weights: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        to_weights(weights)
