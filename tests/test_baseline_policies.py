"""The baseline bots' policies (call, raise, random): rows are distributions over distinct legal
actions, ``act`` draws from its row (chi-square over many seeds), and asking changes nothing
(a match with policy questions before every decision, hypothetical states included, plays
exactly as one without)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from scipy.stats import chisquare

from simulator.core.actions import Action, ActionRecord, LegalActions
from simulator.core.cards import HOLDINGS
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.state import HandState, observation_after
from simulator.core.streets import Street
from simulator.play.baseline import CallBot, RaiseBot, RandomBot
from simulator.play.match import PolicyAsker, deal_cards, play_match
from simulator.play.protocol import Bot, Policy, PolicyBot, PolicyError, RaiseRange

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


def _obs(legal: LegalActions, game: GameConfig = NOLIMIT, board: tuple[int, ...] = ()
         ) -> Observation:
    street = Street.of_board(len(board))
    return Observation(0, 1, 0, game, (50, 51), board, street, 6, (196, 198), (4, 2), (4, 2),
                       (True, True), (), legal)


def _all_holdings(board: Sequence[int]) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in HOLDINGS if a not in board and b not in board]


class Asker:
    """An overseer that asks every seat with a policy for every holding's row before each
    decision, and for its row at a hypothetical raise (when one is legal), as LBR does; it
    checks each answer and plays no seat itself."""

    def __init__(self) -> None:
        self.questions = 0

    def before(self, seat: int, state: HandState, ask: PolicyAsker) -> Action | None:
        obs = state.observation(seat)
        holdings = _all_holdings(obs.board)
        if ask.has_policy(seat):
            policy = ask(seat, obs, holdings)
            assert policy is not None and policy.holdings == len(holdings)
            self.questions += 1
        legal = state.legal_actions()
        if legal.min_raise_to is not None:
            after = observation_after(state, [Action.raise_to(legal.min_raise_to)])
            if ask.has_policy(after.seat):
                assert ask(after.seat, after, holdings[:50], "a hypothetical raise") is not None
                self.questions += 1
        return None

    def after(self, seat: int, state: HandState, record: ActionRecord, forced: bool,
              ask: PolicyAsker) -> None:
        assert not forced


def _bots(seed: int) -> list[Bot]:
    return [RandomBot(fold=0.2, call=0.45, raise_=0.35, seed=seed), CallBot(), RaiseBot(),
            RandomBot(seed=seed + 1)]


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
def test_asking_changes_nothing(game: GameConfig) -> None:
    """The same four-seat match, with and without policy questions before every decision."""
    plain = [(r.net, r.history.actions) for r in play_match(game, _bots(5), 60, seed=11)]
    asker = Asker()
    asked = [(r.net, r.history.actions)
             for r in play_match(game, _bots(5), 60, seed=11, overseer=asker)]
    assert asked == plain
    assert asker.questions > 300


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
def test_rows_are_distributions_over_distinct_legal_actions(game: GameConfig) -> None:
    """Every decision of a match, every holding off the board: ``Policy.check`` passes, rows
    of one bot are equal (none looks at its cards), and the action ``act`` took has a
    positive probability."""
    for seed in range(8):
        bots = _bots(seed)
        for result in play_match(game, bots, 10, seed=seed):
            state = HandState(game, result.history.starting_stacks, result.button,
                              result.history.holes, deal_cards(seed, result.hand_number, 4).board,
                              hand_number=result.hand_number)
            for record in result.history.actions:
                obs = state.observation(record.seat)
                bot = bots[record.seat]
                assert isinstance(bot, PolicyBot)
                holdings = _all_holdings(obs.board)
                policy = bot.policy(obs, holdings)
                policy.check(obs.legal)
                assert np.allclose(policy.probabilities, policy.probabilities[0])
                taken = Action(record.kind, record.amount)
                assert policy.probability(taken)[0] > 0
                state.apply(taken)


def test_a_free_fold_is_a_check_and_an_illegal_raise_a_call() -> None:
    bot = RandomBot(fold=0.2, call=0.3, raise_=0.5, seed=1)
    free = bot.policy(_obs(LegalActions(False, 0, 4, 200)), [(0, 1)])
    assert free.actions == (Action.call(), RaiseRange(4, 200))
    assert free.probabilities[0].tolist() == pytest.approx([0.5, 0.5])
    capped = bot.policy(_obs(LegalActions(True, 2), LIMIT), [(0, 1)])
    assert capped.actions == (Action.fold(), Action.call())
    assert capped.probabilities[0].tolist() == pytest.approx([0.2, 0.8])
    limit = bot.policy(_obs(LegalActions(True, 2, 6, 6), LIMIT), [(0, 1), (2, 3)])
    assert limit.actions == (Action.fold(), Action.call(), Action.raise_to(6))
    assert RaiseBot().policy(_obs(LegalActions(True, 2)), [(0, 1)]).actions == (Action.call(),)


def test_bad_holdings_are_refused_and_none_give_an_empty_array() -> None:
    obs = _obs(LegalActions(True, 2, 4, 200), board=(0, 1, 2))
    for bot in (CallBot(), RaiseBot(), RandomBot(seed=1)):
        assert isinstance(bot, PolicyBot)
        empty = bot.policy(obs, [])
        assert empty.probabilities.shape == (0, len(empty.actions))
        with pytest.raises(PolicyError, match="shares a card with the board"):
            bot.policy(obs, [(0, 9)])
        with pytest.raises(PolicyError, match="two distinct cards"):
            bot.policy(obs, [(9, 9)])


@pytest.mark.parametrize(("legal", "game"), [
    (LegalActions(True, 2, 6, 6), LIMIT),
    (LegalActions(False, 0, 4, 4), LIMIT),
    (LegalActions(True, 2, 8, 23), NOLIMIT),
], ids=["limit-facing-a-bet", "limit-free", "nolimit-range"])
def test_act_draws_from_its_row(legal: LegalActions, game: GameConfig) -> None:
    """4,000 seeds at one decision: the counts of each entry (and, for a raise range, of
    each size in it) pass a chi-square test against the row at the 0.1% level."""
    obs = _obs(legal, game)
    draws = 4000
    counts: dict[object, int] = {}
    sizes: list[int] = []
    policy = RandomBot(fold=0.25, call=0.35, raise_=0.4, seed=0).policy(obs, [(0, 1)])
    for seed in range(draws):
        action = RandomBot(fold=0.25, call=0.35, raise_=0.4, seed=seed).act(obs)
        entry = policy.actions[policy.index_of(action)]
        counts[entry] = counts.get(entry, 0) + 1
        if isinstance(entry, RaiseRange):
            assert action.amount is not None
            sizes.append(action.amount)
    observed = [counts.get(a, 0) for a in policy.actions]
    assert chisquare(observed, policy.probabilities[0] * draws).pvalue > 1e-3
    if sizes:
        low, high = legal.min_raise_to, legal.max_raise_to
        assert low is not None and high is not None
        per_size = np.bincount(np.array(sizes) - low, minlength=high - low + 1)
        assert chisquare(per_size).pvalue > 1e-3


def test_call_and_raise_rows_are_their_only_action() -> None:
    for legal in (LegalActions(True, 2, 4, 200), LegalActions(False, 0, None, None)):
        obs = _obs(legal)
        for bot in (CallBot(), RaiseBot()):
            policy = bot.policy(obs, [(0, 1), (2, 3)])
            assert policy.probabilities.tolist() == [[1.0], [1.0]]
            assert policy.actions == (bot.act(obs),)


def test_every_fold_call_raise_triple_gives_a_distribution() -> None:
    for fold, call, raise_ in itertools.product((0.0, 0.3, 1.0), repeat=3):
        if fold + call + raise_ == 0:
            continue
        bot = RandomBot(fold=fold, call=call, raise_=raise_, seed=1)
        for legal in (LegalActions(True, 2, 4, 200), LegalActions(False, 0, 4, 4),
                      LegalActions(True, 2)):
            obs = _obs(legal)
            bot.policy(obs, [(0, 1)]).check(obs.legal)


@pytest.mark.parametrize(("row", "message"), [
    ([0.5, float("nan")], "NaN or infinite"),
    ([1.5, -0.5], r"a negative probability \(-0.5\)"),
    ([0.5, 0.4], "row 0 sums to 0.9, not 1"),
    ([], "rows over no actions"),
])
def test_one_row_is_refused_as_many_rows_are(row: list[float], message: str) -> None:
    """A bot's own row is checked in plain floats, the full range in arrays: the same
    faults, the same words."""
    legal = LegalActions(True, 2, 6, 6)
    actions = (Action.fold(), Action.call())[:len(row)]
    for rows in (1, 3):
        policy = Policy(actions, np.tile(np.array(row, dtype=float).reshape(1, -1), (rows, 1)))
        with pytest.raises(PolicyError, match=message):
            policy.check(legal)
    Policy((Action.fold(), Action.call()), np.array([[0.25, 0.75]])).check(legal)  # passes
