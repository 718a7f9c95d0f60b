"""PHH: our hands replay in pokerkit, pokerkit's hands replay here, conventions of section 11."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.core.game import GameConfig
from simulator.interop.phh import PHHError, dumps, dumps_all, loads, loads_all, replay
from simulator.play.baseline import RandomBot
from simulator.play.match import deal_cards, play_hand, play_match

pokerkit = pytest.importorskip("pokerkit")
from test_rules_pokerkit import (  # noqa: E402  (shared differential helpers)
    apply_pokerkit,
    deal_pending,
    pokerkit_legal,
    pokerkit_state,
    random_action,
    random_setup,
)

pytestmark = pytest.mark.filterwarnings("ignore:A card being dealt")


def played(game: GameConfig, n: int, hands: int, seed: int):
    bots = [RandomBot(fold=0.15, call=0.55, seed=seed + i, **{"raise": 0.3}) for i in range(n)]
    return list(play_match(game, bots, hands, seed))


def player_stacks(result) -> list[int]:
    """Our finishing stacks in PHH order (dealt-in seats from the button's left)."""
    n = len(result.stacks)
    b = result.button
    return [result.stacks[s % n] for s in range(b + 1, b + 1 + n)
            if result.history.dealt_in[s % n]]


GAMES = [
    GameConfig(variant="nolimit", blinds=(1, 2), stack=80, ante=1),
    GameConfig(variant="nolimit", blinds=(1, 2), stack=60, reset_stacks=False),
    GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=30),
    GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=40, ante=1,
               reset_stacks=False),
]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.variant}-{g.reset_stacks}")
@pytest.mark.parametrize("n", [2, 3, 6])
def test_our_phhs_replays_in_pokerkit(game: GameConfig, n: int) -> None:
    results = played(game, n, 40, seed=11 * n)
    text = dumps_all(r.history for r in results)
    theirs = list(pokerkit.HandHistory.loads_all(text))
    assert len(theirs) == len(results)
    for result, hand in zip(results, theirs, strict=True):
        *_, state = iter(hand)
        assert not state.status
        assert list(state.stacks) == player_stacks(result), dumps(result.history)
        assert hand.finishing_stacks == player_stacks(result)
    ours = loads_all(text)
    assert [list(replay(h).finishing_stacks) for h in ours] == [h.finishing_stacks for h in ours]


def test_heads_up_lists_follow_pokerkits_reversal() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
    result = played(game, 2, 2, seed=3)[1]  # hand 1: seat 0 is the button
    fields = loads(dumps(result.history)).extra
    assert fields["blinds_or_straddles"] == [1, 2]  # pokerkit reverses: p1 posts the 2
    assert fields["players"] == [result.history.names[1], result.history.names[0]]
    assert fields["ante_trimming_status"] is True and "finishing_stacks" in fields


def test_sitting_out_seats_are_written_as_seats() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=20, reset_stacks=False)
    bots = [RandomBot(seed=i) for i in range(4)]
    result = play_hand(game, bots, [20, 0, 30, 40], 3, deal_cards(1, 0, 4), 0, "abcd")
    fields = loads(dumps(result.history)).extra
    assert fields["seats"] == [1, 3, 4] and fields["seat_count"] == 4
    assert fields["players"] == ["a", "c", "d"]
    assert fields["starting_stacks"] == [20, 30, 40]
    state = next(iter(pokerkit.HandHistory.loads(dumps(result.history))))
    assert state.starting_stacks == (20, 30, 40)


def test_showdown_lines_for_every_player_who_shows_before_the_runout() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
    results = played(game, 3, 300, seed=2)
    allin = [r for r in results if r.history.shown and r.history.chance_points
             and len(r.history.actions) and r.history.actions[-1].street == 0]
    assert allin
    actions = loads(dumps(allin[0].history)).actions
    shows = [i for i, a in enumerate(actions) if " sm " in a]
    boards = [i for i, a in enumerate(actions) if a.startswith("d db")]
    assert len(shows) == len(allin[0].history.shown)
    assert max(shows) < min(boards)  # pokerkit's order after an all-in pre-flop


def pokerkit_hand(rng: np.random.Generator, variant: str):
    setup = random_setup(rng, variant, int(rng.integers(2, 10)))
    state = pokerkit_state(setup.game, setup.stacks)
    while True:
        deal_pending(state, setup.holes, setup.board)
        if not state.status:
            break
        apply_pokerkit(state, random_action(rng, pokerkit_legal(state)))
    game_cls = pokerkit.FixedLimitTexasHoldem if variant == "limit" else (
        pokerkit.NoLimitTexasHoldem)
    poker = game_cls(state.automations, True, setup.game.ante, setup.game.blinds,
                     *((setup.game.small_bet, setup.game.big_bet) if variant == "limit"
                       else (2,)))
    hh = pokerkit.HandHistory.from_game_state(poker, state)
    hh.finishing_stacks = list(state.stacks)
    return setup, hh.dumps()


@pytest.mark.parametrize("variant", ["nolimit", "limit"])
def test_pokerkit_phh_replays_here(variant: str) -> None:
    rng = np.random.default_rng(99)
    for _ in range(60):
        setup, text = pokerkit_hand(rng, variant)
        hand = loads(text)
        cap = setup.game.cap if variant == "limit" else 4
        assert list(replay(hand, cap=cap).finishing_stacks) == hand.finishing_stacks, text


def test_broken_phh_is_refused_with_a_clear_message() -> None:
    with pytest.raises(PHHError, match="not TOML"):
        loads("variant = ")
    with pytest.raises(PHHError, match="unsupported variant 'PLO'"):
        loads('variant = "PLO"\nstarting_stacks = [1, 2]\nactions = []')
    with pytest.raises(PHHError, match="missing field 'actions'"):
        loads('variant = "NT"\nstarting_stacks = [1, 2]')


def test_illegal_phh_action_is_an_error() -> None:
    text = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
            'starting_stacks = [100, 100]\n'
            'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cbr 3"]\n')
    with pytest.raises(ValueError, match="illegal action 'raise to 3'"):
        replay(loads(text))
    with pytest.raises(ValueError, match="p2's turn"):
        replay(loads(text.replace("p2 cbr 3", "p1 cc")))


HEAD = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = [100, 100]\n')
TO_FLOP = '"d dh p1 AcAd", "d dh p2 KcKd", "p2 cc", "p1 cc"'


@pytest.mark.parametrize("text, message", [
    (HEAD.replace("[100, 100]", "[true, 100]") + "actions = []",
     "field 'starting_stacks': expected a list of integers, got [True, 100]"),
    (HEAD.replace("[1, 2]", "[1, true]") + "actions = []",
     "field 'blinds_or_straddles': expected a list of integers"),
    (HEAD.replace("[100, 100]", "[-100, 100]") + "actions = []",
     "field 'starting_stacks': expected chips > 0 for every player, got [-100, 100]"),
    (HEAD + f'actions = [{TO_FLOP}, "d db 2c3c4c", "p1 cc", "p2 cc", "d db 5h6h"]',
     "action 'd db 5h6h': expected 1 board card on the turn, got 2"),
    (HEAD + f'actions = [{TO_FLOP}, "d db 2c3c"]',
     "action 'd db 2c3c': expected 3 board cards on the flop, got 2"),
    (HEAD + 'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cbr"]',
     "action 'p2 cbr': expected an amount: 'pN cbr AMOUNT'"),
    (HEAD + 'actions = ["d dh p1 AcAd", "d dh p2 AcKd"]',
     "action 'd dh p2 AcKd': card Ac is dealt twice (p1's hole cards and p2's hole cards)"),
    (HEAD + f'actions = [{TO_FLOP}, "d db 2c3cAd"]',
     "action 'd db 2c3cAd': card Ad is dealt twice (p1's hole cards and the board)"),
    ("a = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
])
def test_the_reader_refuses_what_is_not_a_hand(text: str, message: str) -> None:
    with pytest.raises(PHHError) as info:
        replay(loads(text))
    assert message in str(info.value)


def test_a_hand_with_blinds_above_the_default_stack_still_reads() -> None:
    text = (HEAD.replace("[1, 2]", "[100, 200]").replace("min_bet = 2", "min_bet = 200")
            .replace("[100, 100]", "[150, 300]") + 'actions = ["d dh p1 AcAd", '
            '"d dh p2 KcKd", "p2 f"]')
    assert replay(loads(text)).finishing_stacks == (250, 200)


POT_LIMIT = GameConfig(variant="potlimit", blinds=(1, 2), stack=120, ante=1)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_potlimit_phh_round_trip(n: int) -> None:
    """Pot-limit is written as "PT" (ours: PHH has no pot-limit Texas hold'em) and reads back
    as pot-limit to the same stacks. pokerkit's loader does not know "PT"; every pot-limit
    raise is a legal no-limit one, so the same hands read as "NT" replay in pokerkit to our
    stacks."""
    results = played(POT_LIMIT, n, 40, seed=5 * n)
    text = dumps_all(r.history for r in results)
    assert text.count('variant = "PT"') == len(results)
    ours = loads_all(text)
    assert all(h.game.variant == "potlimit" for h in ours)
    assert [list(replay(h).finishing_stacks) for h in ours] == [h.finishing_stacks for h in ours]
    with pytest.raises(KeyError):
        next(iter(pokerkit.HandHistory.loads(dumps(results[0].history))))
    as_nolimit = text.replace('variant = "PT"', 'variant = "NT"')
    for result, hand in zip(results, pokerkit.HandHistory.loads_all(as_nolimit), strict=True):
        *_, state = iter(hand)
        assert list(state.stacks) == player_stacks(result)


def test_pokerkit_potlimit_hands_replay_here() -> None:
    """Hands played in pokerkit's pot-limit state, written by pokerkit's writer and marked
    "PT", replay in our pot-limit engine (which refuses any raise over the pot)."""
    rng = np.random.default_rng(31)
    for _ in range(40):
        setup = random_setup(rng, "potlimit", int(rng.integers(2, 7)))
        state = pokerkit_state(setup.game, setup.stacks)
        while True:
            deal_pending(state, setup.holes, setup.board)
            if not state.status:
                break
            apply_pokerkit(state, random_action(rng, pokerkit_legal(state)))
        poker = pokerkit.NoLimitTexasHoldem(state.automations, True, setup.game.ante,
                                            setup.game.blinds, setup.game.big_blind)
        hh = pokerkit.HandHistory.from_game_state(poker, state)
        hh.finishing_stacks = list(state.stacks)
        hand = loads(hh.dumps().replace("variant = 'NT'", "variant = 'PT'")
                     .replace('variant = "NT"', 'variant = "PT"'))
        assert hand.game.variant == "potlimit"
        assert list(replay(hand).finishing_stacks) == hand.finishing_stacks


def test_an_over_the_pot_raise_in_a_pt_hand_is_refused() -> None:
    text = (HEAD.replace('"NT"', '"PT"')
            + 'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cbr 7"]\n')
    with pytest.raises(ValueError, match=r"illegal action 'raise to 7'; legal: .*raise to 4\.\.6"):
        replay(loads(text))
    with pytest.raises(ValueError, match="the actions end before the hand does"):
        replay(loads(text.replace("cbr 7", "cbr 6")))  # the pot-sized raise is taken
