import itertools

import numpy as np
import pytest
from treys import Card

from simulator.core import cards as C


def test_every_card_round_trips_and_matches_treys_integers() -> None:
    for c in range(52):
        text = C.format_card(c)
        assert C.parse_card(text) == c
        assert C.to_treys(c) == Card.new(text)
        assert C.from_treys(Card.new(text)) == c
    assert C.parse_card("Ad") == 12 * 4 + 1


@pytest.mark.parametrize("text", ["AdQc", "Ad Qc", "ad qC", "AD,QC", " Ad  Qc "])
def test_parse_tolerates_spaces_commas_and_case(text: str) -> None:
    assert C.parse_cards(text) == [49, 40]


@pytest.mark.parametrize("text, token", [("AdQx", "Qx"), ("1c", "1c"), ("Ad Q", "Q"), ("Zz", "Zz")])
def test_bad_tokens_are_named(text: str, token: str) -> None:
    with pytest.raises(ValueError, match=repr(token)):
        C.parse_cards(text)


def test_repeated_and_out_of_range_cards_raise() -> None:
    with pytest.raises(ValueError, match="repeated card 'Ad'"):
        C.parse_cards("AdKcad")
    with pytest.raises(ValueError, match="52"):
        C.parse_cards([3, 52])
    with pytest.raises(ValueError):
        C.from_treys(12345)


def test_holding_index_is_combinations_order_both_ways() -> None:
    combos = list(itertools.combinations(range(52), 2))
    assert len(combos) == C.NUM_HOLDINGS
    for h, (a, b) in enumerate(combos):
        assert C.holding_index(a, b) == C.holding_index(b, a) == h
        assert C.holding_cards(h) == (a, b)
    assert C.parse_holding("AsKd") == C.parse_holding("KdAs") == combos.index((45, 51))
    with pytest.raises(ValueError):
        C.holding_index(7, 7)
    with pytest.raises(ValueError):
        C.holding_cards(1326)


def test_clashing_holdings_marks_exactly_those_sharing_a_card() -> None:
    dead = C.parse_cards("3h4cJh")
    clash = C.clashing_holdings(dead)
    assert clash.sum() == 1326 - 1176  # C(49, 2) holdings avoid three cards
    for h in np.flatnonzero(clash)[:50]:
        assert set(C.holding_cards(int(h))) & set(dead)


def test_deck_is_seeded_and_excludes_cards() -> None:
    a, b = C.Deck(seed=5), C.Deck(seed=5)
    assert a.draw(52) == b.draw(52)
    assert sorted(C.Deck(seed=9).draw(52)) == list(range(52))
    d = C.Deck(seed=1, exclude=[0, 1, 2])
    assert len(d) == 49 and not {0, 1, 2} & set(d.draw(49))
    with pytest.raises(ValueError):
        d.draw(1)
