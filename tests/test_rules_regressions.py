"""Concrete hands for the rule bugs other poker engines shipped; outcomes derived by hand.

Seats are PHH's p1..pN (the button is the last seat): with three players seat 0 posts the
small blind, seat 1 the big blind and seat 2 (the button) acts first pre-flop.
"""

from __future__ import annotations

from simulator.core.actions import IllegalActionError
from simulator.core.cards import parse_cards
from simulator.core.game import GameConfig
from simulator.core.state import HandState

NL = GameConfig(variant="nolimit", blinds=(1, 2))
BOARD = "2s7h9dJs8c"  # pairs, straights and flushes nobody below can use


def hand(stacks: list[int], holes: str, game: GameConfig = NL) -> HandState:
    cards = parse_cards(holes)
    pairs = [(cards[2 * i], cards[2 * i + 1]) for i in range(len(stacks))]
    return HandState(game, stacks, len(stacks) - 1, pairs, parse_cards(BOARD))


def limp_around(s: HandState) -> None:
    while s.street == 0:
        s.check_or_call()


def test_short_all_in_does_not_reopen_betting_pokerkit_45() -> None:
    # Flop: seat 0 bets 10, seat 1 shoves 15 (a raise of 5, short of the full 10), seat 2
    # calls. Seat 0 already acted on the 10 and faces only 5 more: it may call or fold, not
    # raise.
    s = hand([100, 17, 100], "AhAd3c3d4c4d")
    limp_around(s)
    s.raise_to(10)
    assert s.raise_to(15).all_in
    s.check_or_call()
    legal = s.legal_actions()
    assert (legal.can_fold, legal.call_amount, legal.can_raise) == (True, 5, False)


def test_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    # Flop: seat 0 bets 10; seat 1 shoves 15 (+5) and seat 2 shoves 21 (+6): together 11 >=
    # 10, so seat 0 may raise again, to 21 + 10 = 31 at least.
    s = hand([100, 17, 23, 100], "AhAd3c3d4c4d5c5d")
    limp_around(s)
    s.raise_to(10)
    s.raise_to(15)
    s.raise_to(21)
    s.check_or_call()  # seat 3 calls 21
    legal = s.legal_actions()
    assert s.actor == 0 and legal.call_amount == 11
    assert (legal.min_raise_to, legal.max_raise_to) == (31, 98)


def test_call_amount_facing_a_short_all_in_pokerkit_25() -> None:
    # The big blind has 1 chip and posts it all-in: the bet to call is 1, not the nominal 2,
    # and the smallest raise is to 1 + 2 = 3. Everyone calls; the big blind's aces win the
    # 3-chip main pot; the others check it down and lose 1 each.
    s = hand([50, 1, 50], "3c3dAhAd4c4d")
    legal = s.legal_actions()
    assert (s.actor, legal.call_amount, legal.min_raise_to) == (2, 1, 3)
    s.check_or_call()
    assert s.legal_actions().call_amount == 0 and s.actor == 0  # small blind completed 1
    s.check_or_call()
    while not s.finished:
        s.check_or_call()
    assert s.finishing_stacks == (49, 3, 49)


def test_min_raise_after_all_in_pypokerengine_72() -> None:
    # Seat 2 raises to 6 (a raise of 4); seat 0 shoves 8 (+2, short): the next raise must
    # still add the last full raise, 4: to 12. After a shove to 20 (+14) it must add 14.
    s = hand([8, 100, 100], "AhAd3c3d4c4d")
    s.raise_to(6)
    s.raise_to(8)
    assert s.legal_actions().min_raise_to == 12
    t = hand([20, 100, 100], "AhAd3c3d4c4d")
    t.raise_to(6)
    t.raise_to(20)
    assert t.legal_actions().min_raise_to == 34


def test_side_pots_rlcard_179_286() -> None:
    # Stacks 20, 50, 100 all in pre-flop. Seat 0 (aces) wins the main pot 3 x 20 = 60;
    # seat 1 (kings) beats seat 2 (queens) to the side pot 2 x 30 = 60; seat 2's last 50 are
    # uncalled and go back.
    s = hand([20, 50, 100], "AhAdKhKcQhQc")
    s.raise_to(100)
    s.check_or_call()
    s.check_or_call()
    assert s.finished and s.finishing_stacks == (60, 60, 50)
    # Same with the short stack holding the worst hand: kings take both pots.
    t = hand([20, 50, 100], "QhQcKhKcAhAd")
    t.raise_to(100)
    t.check_or_call()
    t.check_or_call()
    assert t.finishing_stacks == (0, 0, 170)


def test_split_pot_odd_chip_goes_to_first_winner_left_of_button() -> None:
    # Everyone plays the broadway straight on the board. The small blind folds its 1
    # chip, the others put in 2 each: the pot of 5 splits 2/2 between seats 1 and 2 and the
    # odd chip goes to seat 1, the first winner left of the button (seat 2).
    s = HandState(NL, [50, 50, 50], 2,
                  [tuple(parse_cards("2h3h")), tuple(parse_cards("2d3d")),
                   tuple(parse_cards("2s4s"))], parse_cards("TcJdQhKsAc"))
    s.check_or_call()  # button calls 2
    s.fold()  # small blind folds its 1
    while not s.finished:
        s.check_or_call()
    assert s.finishing_stacks == (49, 51, 50)
    # With seat 0 on the button, seat 1 (small blind) folds and seat 2 is the first winner
    # left of the button: it takes the odd chip.
    t = HandState(NL, [50, 50, 50], 0,
                  [tuple(parse_cards("2h3h")), tuple(parse_cards("2d3d")),
                   tuple(parse_cards("2s4s"))], parse_cards("TcJdQhKsAc"))
    t.check_or_call()  # button (seat 0) calls 2
    t.fold()  # small blind (seat 1) folds
    while not t.finished:
        t.check_or_call()
    assert t.finishing_stacks == (50, 49, 51)


def test_four_bet_cap_neuron_poker_4() -> None:
    # Limit, cap 4 bets a round with the big blind counted: pre-flop the button raises to 4,
    # the small blind to 6, the big blind to 8: that is the fourth bet, so nobody may raise.
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    s = hand([100, 100, 100], "AhAd3c3d4c4d", game)
    s.raise_to(4)
    s.raise_to(6)
    s.raise_to(8)
    assert not s.legal_actions().can_raise
    try:
        s.raise_to(10)
    except IllegalActionError as exc:
        assert "seat 2" in str(exc) and "raise to 10" in str(exc)
    else:
        raise AssertionError("a fifth bet was accepted")
    s.check_or_call()
    s.check_or_call()
    # Flop: bet + 3 raises = 4 bets, then capped.
    for amount in (2, 4, 6, 8):
        s.raise_to(amount)
    assert not s.legal_actions().can_raise
    uncapped = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=None)
    u = hand([100, 100, 100], "AhAd3c3d4c4d", uncapped)
    for amount in (4, 6, 8, 10, 12):
        u.raise_to(amount)
    assert u.legal_actions().min_raise_to == 14


def test_limped_pot_short_all_in_is_the_documented_tda_difference() -> None:
    # Button limps for 2, the small blind shoves 3 (a raise of 1, short of the big blind's
    # 2). The big blind has not acted and may raise; the limper has and may only call 1.
    s = hand([3, 100, 100], "AhAd3c3d4c4d")
    s.check_or_call()
    s.raise_to(3)
    assert s.actor == 1 and s.legal_actions().can_raise
    s.check_or_call()
    assert s.actor == 2 and not s.legal_actions().can_raise
