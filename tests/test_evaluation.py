"""E(t) on spots computed by hand, the candidates, and the selector's rules."""

from __future__ import annotations

import numpy as np
import pytest

from agent.heuristic.candidates import Candidate, Spot, candidates
from agent.heuristic.chain_model import chain_params
from agent.heuristic.e_value import FOLD_NOW, EParams, OpponentTendency
from agent.heuristic.evaluation_params import EvaluationParams
from agent.heuristic.fold_sizing import fold_to_size
from agent.heuristic.heuristic_model import heuristic_params
from agent.heuristic.params import load_agent_params
from agent.heuristic.selector import SelectorParams, choose, probabilities, selection_weights
from agent.modeller import ChainAnswer, EndingStats
from simulator import Action, LegalActions

PARAMS = load_agent_params().evaluation
NEVER = OpponentTendency(fold=0.0, call=1.0, raise_=0.0)


def river(pot: int, to_call: int, *, our_bet: int = 0, bet: int = 4) -> Spot:
    return Spot(pot=pot, to_call=to_call, our_bet=our_bet, stack=1000, street=3,
                is_limit=True, bet_unit=bet, future_unit=bet,
                opponent_calls=(0,), opponent_stacks=(1000,))


def test_folding_now_is_worth_zero() -> None:
    assert FOLD_NOW.value == 0.0
    spot = river(20, 4)
    e = heuristic_params(spot, Candidate.fold(), 0.9, 0.9, [NEVER], PARAMS)
    assert e.value == 0.0 and e.p_hf == 1.0


def test_river_call_is_the_pot_odds_bet() -> None:
    # pot 20 with a bet of 4 in it; we win 30%: 0.3 * 24 - 4 = 3.2
    spot = river(20, 4)
    e = heuristic_params(spot, Candidate.call(spot), 0.3, 0.3, [NEVER], PARAMS)
    assert e.value == pytest.approx(0.3 * 24 - 4)
    assert (e.p_w, e.es_w, e.eb_w, e.p_vf, e.p_hf) == pytest.approx((0.3, 24, 4, 0, 0))


def test_river_check_behind_takes_the_showdown_share() -> None:
    spot = river(16, 0)  # the opponent checked to us: nothing to call, no round left
    check = Candidate.call(spot)
    assert check.kind == "check"
    # an opponent who never bets: checking realises p of the pot, nothing more
    e = heuristic_params(spot, check, 0.55, 0.55, [NEVER], PARAMS)
    assert e.value == pytest.approx(0.55 * 16)


def test_river_value_bet_against_a_caller_who_sometimes_folds() -> None:
    spot = river(16, 0)
    bet = Candidate.raise_to(spot, 4)
    assert bet.kind == "bet" and bet.added == 4
    sometimes = OpponentTendency(fold=0.25, call=0.75, raise_=0.0)
    e = heuristic_params(spot, bet, 0.9, 0.8, [sometimes], PARAMS)
    # they fold: we take 16; they call (75%): we win 80% of 24 and pay 4
    assert e.value == pytest.approx(0.25 * 16 + 0.75 * (0.8 * 24 - 4))
    assert e.p_vf == pytest.approx(0.25) and e.es_vf - e.eb_vf == pytest.approx(16)


def test_a_bluff_against_a_folder_is_worth_the_pot() -> None:
    spot = river(16, 0)
    always = OpponentTendency(fold=1.0, call=0.0, raise_=0.0)
    e = heuristic_params(spot, Candidate.raise_to(spot, 4), 0.0, 0.0, [always], PARAMS)
    assert e.value == pytest.approx(16)


def test_raise_costs_the_call_and_the_raise() -> None:
    spot = river(20, 4)  # facing a bet of 4: raising to 8 puts in 8
    raise_ = Candidate.raise_to(spot, 8)
    assert raise_.kind == "raise" and raise_.added == 8
    e = heuristic_params(spot, raise_, 0.7, 0.6, [NEVER], PARAMS)
    # never folds, always calls the raise: 0.6 * (20 + 8 + 4) - 8
    assert e.value == pytest.approx(0.6 * 32 - 8)


def test_facing_a_bet_after_a_check_on_the_flop_folds_weak_hands() -> None:
    spot = Spot(pot=10, to_call=0, our_bet=0, stack=1000, street=1, is_limit=True,
                bet_unit=2, future_unit=4, opponent_calls=(0,), opponent_stacks=(1000,))
    bettor = OpponentTendency(fold=0.1, call=0.2, raise_=0.7)
    weak = heuristic_params(spot, Candidate.call(spot), 0.05, 0.05, [bettor], PARAMS)
    strong = heuristic_params(spot, Candidate.call(spot), 0.8, 0.8, [bettor], PARAMS)
    assert weak.p_hf > 0.5 > strong.p_hf
    assert weak.value < strong.value
    for e in (weak, strong):
        assert e.p_sd + e.p_vf + e.p_hf == pytest.approx(1.0)


def test_probabilities_sum_to_one_and_bets_are_never_negative() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        street = int(rng.integers(1, 4))
        to_call = int(rng.choice([0, 2, 4]))
        spot = Spot(pot=int(rng.integers(4, 60)), to_call=to_call, our_bet=0, stack=500,
                    street=street, is_limit=True, bet_unit=2 if street == 1 else 4,
                    future_unit=4, opponent_calls=(0, 0), opponent_stacks=(500, 500))
        t = [OpponentTendency(*rng.dirichlet([1, 1, 1])) for _ in range(2)]
        legal = LegalActions(to_call > 0, to_call, to_call + 4, to_call + 4)
        for c in candidates(spot, legal, PARAMS.nolimit_sizes):
            p = float(rng.random())
            e = heuristic_params(spot, c, p, p * 0.9, t, PARAMS)
            assert e.p_sd + e.p_vf + e.p_hf == pytest.approx(1.0)
            assert min(e.p_w, e.p_vf, e.p_hf, e.eb_w, e.eb_vf, e.eb_hf) >= 0


def _ending(count: int, pot: float, bets: float) -> EndingStats:
    return EndingStats(count=count, mean_pot=pot, mean_our_bets=bets)


def test_chain_parameters_blend_counts_with_the_heuristic() -> None:
    spot = river(16, 0)
    bet = Candidate.raise_to(spot, 4)
    guess = heuristic_params(spot, bet, 0.6, 0.5, [OpponentTendency(0.5, 0.5, 0.0)], PARAMS)
    # 40 chains: they folded in 30, we went to showdown in 10; we had 6 chips in before
    answer = ChainAnswer(matched=40, level=1, showdown=_ending(10, 24.0, 10.0),
                         they_fold=_ending(30, 16.0, 6.0), we_fold=_ending(0, 0.0, 0.0),
                         mean_shown_strength=None, shown=0)
    e = chain_params(answer, guess, bet, contributed=6, our_value=0.5,
                     params=PARAMS)
    k = PARAMS.chain_prior
    assert e.p_vf == pytest.approx((30 + k * guess.p_vf) / (40 + k))
    assert e.p_hf == pytest.approx(0.0)  # on the river after our bet we never fold later
    assert e.es_w == 24.0 and e.eb_w == pytest.approx(e.p_sd * 4.0)  # 10 - 6 sunk
    assert e.es_vf == 16.0 and e.eb_vf == 0.0  # the uncalled bet came back
    assert e.p_w == pytest.approx(e.p_sd * 0.5)
    assert "level 1" in e.source and "40 matched" in e.source


def test_shown_strength_moves_the_win_probability() -> None:
    spot = river(16, 4)
    call = Candidate.call(spot)
    guess = heuristic_params(spot, call, 0.5, 0.5, [NEVER], PARAMS)

    def win(shown_strength: float) -> float:
        answer = ChainAnswer(matched=50, level=0, showdown=_ending(50, 24.0, 10.0),
                             they_fold=_ending(0, 0, 0), we_fold=_ending(0, 0, 0),
                             mean_shown_strength=shown_strength, shown=50)
        e = chain_params(answer, guess, call, contributed=6, our_value=0.7,
                         params=PARAMS)
        return e.p_w / e.p_sd

    assert win(0.95) < 0.5 < win(0.3)  # they show down monsters on this line / they bluff


def test_bigger_no_limit_bets_get_more_folds() -> None:
    assert fold_to_size(0.3, 0.5, 0.5) < fold_to_size(0.3, 1.0, 0.5) == pytest.approx(0.3)
    assert fold_to_size(0.3, 1.0, 0.5) < fold_to_size(0.3, 3.0, 0.5) < 1.0
    assert fold_to_size(0.3, 3.0, 0.0) == 0.3


def test_no_limit_candidates_are_legal_and_distinct() -> None:
    spot = Spot(pot=40, to_call=0, our_bet=0, stack=60, street=2, is_limit=False,
                bet_unit=2, future_unit=2, opponent_calls=(0,), opponent_stacks=(150,))
    legal = LegalActions(False, 0, 2, 60)
    cands = candidates(spot, legal, (0.5, 1.0, 2.0))
    amounts = [c.action.amount for c in cands if c.aggressive]
    assert amounts == [20, 40, 60]  # 2 pots is more than the stack: clamped to the all-in
    assert all(legal.allows(c.action) for c in cands)
    assert cands[0].kind == "check"  # no fold when checking is free


CHECK = Candidate(Action.call(), "check", 0)
CALL = Candidate(Action.call(), "call", 2)
BET = Candidate(Action.raise_to(4), "bet", 4)


def test_the_selector_never_folds_when_checking_is_free() -> None:
    rng = np.random.default_rng(0)
    params = load_agent_params().selector
    for _ in range(50):
        assert choose([BET, CHECK], [-2.0, -1.0], scale=2.0, params=params,
                      rng=rng, continuing=False) == 1
    rows = probabilities([BET, CHECK], np.array([[-2.0, 1.0], [-1.0, -1.0]]), 2.0, params,
                         False)
    assert rows.tolist() == [[0.0, 1.0], [1.0, 0.0]]
    assert probabilities([CALL, Candidate.fold()], np.array([[-1.0], [0.0]]), 2.0, params,
                         False).tolist() == [[0.0, 1.0]]  # facing a bet: fold


def test_the_selector_prefers_larger_e_and_continued_aggression_bets_more() -> None:
    params = SelectorParams(method="softmax", temperature=1.0, continued_aggression=1.0)
    w = selection_weights([1.0, 1.0], [False, True], 1.0, params, continuing=True)
    assert w[1] == pytest.approx(2 * w[0])
    w = selection_weights([1.0, 2.0], [False, False], 1.0, params, continuing=False)
    assert w[1] / w[0] == pytest.approx(np.e)
    rng = np.random.default_rng(7)
    picks = [choose([CALL, BET], [0.5, 1.5], 1.0, params, rng, False) for _ in range(4000)]
    assert abs(np.mean(picks) - np.e / (1 + np.e)) < 0.03
    row = probabilities([CALL, BET], np.array([[0.5], [1.5]]), 1.0, params, False)[0]
    assert row[1] == pytest.approx(np.e / (1 + np.e))


def test_checking_behind_ends_the_round() -> None:
    bettor = OpponentTendency(fold=0.2, call=0.3, raise_=0.5)
    first = river(16, 0)
    last = Spot(**{**first.__dict__, "yet_to_act": (False,)})
    check_first = heuristic_params(first, Candidate.call(first), 0.3, 0.3, [bettor], PARAMS)
    check_last = heuristic_params(last, Candidate.call(last), 0.3, 0.3, [bettor], PARAMS)
    assert check_last.value == pytest.approx(0.3 * 16)  # a free showdown, nothing more
    assert check_first.p_hf > 0  # out of position the opponent may still bet us off it


def test_a_raise_that_strong_hands_reraise_is_worth_less() -> None:
    spot = Spot(pot=10, to_call=2, our_bet=0, stack=1000, street=1, is_limit=True,
                bet_unit=2, future_unit=4, opponent_calls=(0,), opponent_stacks=(1000,))
    raise_ = Candidate.raise_to(spot, 4)
    passive = OpponentTendency(fold=0.2, call=0.8, raise_=0.0)
    fighter = OpponentTendency(fold=0.2, call=0.4, raise_=0.4)
    calm = heuristic_params(spot, raise_, 0.6, 0.55, [passive], PARAMS, p_reraised=0.2)
    fought = heuristic_params(spot, raise_, 0.6, 0.55, [fighter], PARAMS, p_reraised=0.2)
    assert fought.value < calm.value
    assert fought.p_hf > calm.p_hf  # we give up against some re-raises
    # at the cap nobody can re-raise: how we fare against re-raisers no longer matters
    capped = Spot(**{**spot.__dict__, "reraise_room": False})
    for where, matters in ((spot, True), (capped, False)):
        low, high = (heuristic_params(where, raise_, 0.6, 0.55, [fighter], PARAMS,
                                      p_reraised=p).value for p in (0.2, 0.9))
        assert (low < high) is matters
        assert low <= high


def test_the_share_won_by_improving_is_never_given_up() -> None:
    # flop, facing a bet from an aggressive opponent: made hands give up later when behind,
    # draws that get there do not
    spot = Spot(pot=10, to_call=2, our_bet=0, stack=1000, street=1, is_limit=True,
                bet_unit=2, future_unit=4, opponent_calls=(0,), opponent_stacks=(1000,))
    bettor = OpponentTendency(fold=0.1, call=0.3, raise_=0.6)
    call = Candidate.call(spot)
    made = heuristic_params(spot, call, 0.4, 0.4, [bettor], PARAMS, draw_share=0.0)
    drawing = heuristic_params(spot, call, 0.4, 0.4, [bettor], PARAMS, draw_share=0.5)
    assert made.p_w == pytest.approx(made.p_sd * 0.4)
    assert made.p_hf == pytest.approx(drawing.p_hf) and made.p_hf > 0.2
    # half the equity is never given up: 0.4 * (P(sd) * 0.5 + 1 * 0.5)
    assert drawing.p_w == pytest.approx(0.4 * (made.p_sd * 0.5 + 0.5))
    assert drawing.value > made.value


def test_arrays_over_holdings_give_each_holding_its_own_numbers() -> None:
    rng = np.random.default_rng(7)
    spot = Spot(pot=30, to_call=10, our_bet=0, stack=200, street=1, is_limit=False,
                bet_unit=2, future_unit=2, opponent_calls=(10, 4), opponent_stacks=(180, 90),
                yet_to_act=(False, True))
    p_win, p_called, p_rr, draw = rng.random((4, 6))
    folds = rng.random((2, 6)) * 0.6
    raises = rng.random((2, 6)) * 0.3
    views = [OpponentTendency(folds[j], 1 - folds[j] - raises[j], raises[j]) for j in range(2)]
    for cand in candidates(spot, LegalActions(True, 10, 20, 200), (0.5, 1.0)):
        together = heuristic_params(spot, cand, p_win, p_called, views, PARAMS, p_rr, draw)
        for i in range(6):
            alone = heuristic_params(
                spot, cand, float(p_win[i]), float(p_called[i]),
                [OpponentTendency(float(folds[j, i]), float(1 - folds[j, i] - raises[j, i]),
                                  float(raises[j, i])) for j in range(2)],
                PARAMS, float(p_rr[i]), float(draw[i]))
            assert together.at(i).value == pytest.approx(alone.value, rel=1e-12, abs=1e-12)
            assert together.at(i).win == pytest.approx(alone.win, rel=1e-12, abs=1e-12)


def test_giving_up_only_when_behind_keeps_every_winner() -> None:
    # the flop spot above: with give_up "behind" only the 60% of hands behind give up, each
    # with h g a round for the two rounds left, and every winner reaches the showdown
    spot = Spot(pot=10, to_call=2, our_bet=0, stack=1000, street=1, is_limit=True,
                bet_unit=2, future_unit=4, opponent_calls=(0,), opponent_stacks=(1000,))
    bettor = OpponentTendency(fold=0.1, call=0.3, raise_=0.6)
    call = Candidate.call(spot)
    behind = PARAMS.model_copy(update={"give_up": "behind"})
    e = heuristic_params(spot, call, 0.4, 0.4, [bettor], behind)
    per_round = PARAMS.hf_given_bet_behind * 0.6
    assert e.p_hf == pytest.approx(0.6 * (1 - (1 - per_round) ** 2))
    assert e.p_w == pytest.approx(0.4) and e.p_w <= e.p_sd
    independent = heuristic_params(spot, call, 0.4, 0.4, [bettor], PARAMS)
    assert e.value > independent.value
    # on the river there is nothing left to give up: the two readings agree
    last = river(20, 4)
    assert (heuristic_params(last, Candidate.call(last), 0.3, 0.3, [bettor], behind).value
            == pytest.approx(heuristic_params(last, Candidate.call(last), 0.3, 0.3, [bettor],
                                              PARAMS).value))


def test_giving_up_by_trust_mixes_the_two_readings_by_the_trust_in_the_bets() -> None:
    # an untrusted bettor (its bets say nothing of its cards) makes only the hands behind give
    # up; a trusted one makes us give up as if at random; in between the give-up chance and
    # the wins kept are the mixture, with behind_share's weight
    spot = Spot(pot=10, to_call=2, our_bet=0, stack=1000, street=1, is_limit=True,
                bet_unit=2, future_unit=4, opponent_calls=(0,), opponent_stacks=(1000,))
    bettor = OpponentTendency(fold=0.1, call=0.3, raise_=0.6)
    call = Candidate.call(spot)
    by_trust = PARAMS.model_copy(update={"give_up": "by_trust", "give_up_trust": 0.4})

    def e(params: EvaluationParams, trust: tuple[float, ...] = ()) -> EParams:
        return heuristic_params(spot, call, 0.4, 0.4, [bettor], params, draw_share=0.25,
                                bet_trust=trust)

    behind = e(PARAMS.model_copy(update={"give_up": "behind"}))
    independent = e(PARAMS.model_copy(update={"give_up": "independent"}))
    assert e(by_trust, (0.0,)) == behind
    assert e(by_trust, (0.4,)) == independent == e(by_trust, (0.9,)) == e(by_trust)
    half = e(by_trust, (0.2,))
    assert half.p_hf == pytest.approx((behind.p_hf + independent.p_hf) / 2)
    assert independent.value < half.value < behind.value
