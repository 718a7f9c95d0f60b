"""E's parameters from a small model of the rest of the hand (:func:`heuristic_params`), and the
numba kernel that computes them for every holding asked about at once."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from agent.heuristic.candidates import Candidate, Spot
from agent.heuristic.e_value import FOLD_NOW, EParams, OpponentTendency, Values
from agent.heuristic.evaluation_params import EvaluationParams
from agent.heuristic.fold_sizing import size_fold
from simulator.core.frozen import quick_init


def heuristic_params(spot: Spot, candidate: Candidate, p_win: Values, p_called: Values,
                     opponents: Sequence[OpponentTendency],
                     params: EvaluationParams, p_reraised: Values | None = None,
                     draw_share: Values = 0.0, bet_trust: Sequence[float] = ()) -> EParams:
    """E's parameters from a small model of the rest of the hand (proposed here). Every
    probability may be an array over holdings; the result then holds arrays too.

    * This round: after a bet or raise each opponent folds independently with its fold rate
      (scaled up for bigger no-limit bets); everyone folds with the product. After a check an
      opponent still to act in the round bets with its raise rate; we then call when
      ``p_win`` beats the pot odds (a soft step of width ``call_margin``), else we fold.
    * Later rounds: each player still in puts ``future_bet_rate`` bets a round into the pot;
      facing the opponents' aggression (their mean raise rate ``g``) while behind we give
      up with ``hf_given_bet_behind`` (``h``) per round. How that meets our wins is
      ``give_up``:

      - ``independent``: we give up with ``1 - (1 - h g (1 - p_win))^rounds``, and the
        showdowns left are won at ``p_win`` as if we gave up at random, except the
        ``draw_share`` of ``p_win`` that comes from improving (``(1 - HS) * PPOT`` of EHS),
        which is never given up: a hand that improves is ahead;
      - ``behind``: only the hands behind give up, ``(1 - p_win) (1 - (1 - h g)^rounds)``,
        and every winner reaches the showdown. The consistent reading of "give up while
        behind", and a call is then priced higher;
      - ``by_trust``: the two mixed, ``behind`` with the weight :func:`behind_share` gives
        from how far each opponent's bets are trusted (``bet_trust``, as many numbers as
        opponents; none: as ``independent``). A bet that says little about the cards behind
        it (a player who bets whatever it holds) makes us give up only the hands that are
        behind; a bet that says much makes us give up hands that would have won.
    * After our bet or raise an opponent that stays re-raises with its share
      ``raise / (call + raise)`` (where the cap leaves room); we then call one more bet when
      ``p_reraised`` beats the pot odds (the same soft step), else we fold.
    * ``p_called`` is our win probability against the hands that call a bet or raise (the
      weaker part of their range folds); ``p_reraised`` against the hands that re-raise (the
      top of the range; by default ``p_called``); ``p_win`` against their whole range.
    """
    if candidate.kind == "fold":
        return FOLD_NOW
    return SpotInputs.of(spot, params, behind_share(params, bet_trust)).params(
        candidate, HoldingInputs.of(p_win, p_called, opponents, p_reraised, draw_share))


def behind_share(params: EvaluationParams, bet_trust: Sequence[float]) -> float:
    """The weight of ``give_up: behind`` in the give-up model: 0 for ``independent``, 1 for
    ``behind``; for ``by_trust`` the opponents' mean of ``1 - trust / give_up_trust``, each
    clipped into [0, 1] (no opponent's trust known: 0).

    >>> from agent.heuristic.params import load_agent_params
    >>> p = load_agent_params(None, {"evaluation.give_up": "by_trust",
    ...                              "evaluation.give_up_trust": 0.3}).evaluation
    >>> [behind_share(p, t) for t in ([0.0], [0.15], [0.6], [])]
    [1.0, 0.5, 0.0, 0.0]
    >>> behind_share(p, [0.0, 0.6])  # the mean over the opponents
    0.5
    """
    if params.give_up != "by_trust":
        return 1.0 if params.give_up == "behind" else 0.0
    if not bet_trust:
        return 0.0
    shares = [min(1.0, max(0.0, 1.0 - t / params.give_up_trust)) for t in bet_trust]
    return sum(shares) / len(shares)


def _shape(x: Values) -> tuple[int, ...]:
    """``np.shape(x)``: an array's own, else a number's; numpy's dispatch costs more than the
    rest of :meth:`HoldingInputs.of`."""
    if isinstance(x, np.ndarray):
        return x.shape
    return () if type(x) is float else np.shape(x)


@quick_init
@dataclass(frozen=True, slots=True)
class HoldingInputs:
    """What :func:`heuristic_params` reads per holding, flattened to the kernel's layout:
    candidates that meet the same answers share it, so a decision builds it once per kind of
    candidate (aggressive or not) instead of once per candidate."""

    shape: tuple[int, ...]
    p_win: np.ndarray
    p_called: np.ndarray
    p_reraised: np.ndarray
    draw_share: np.ndarray
    tendencies: np.ndarray  # [fold | call | raise, opponent, holding]

    @classmethod
    def of(cls, p_win: Values, p_called: Values, opponents: Sequence[OpponentTendency],
           p_reraised: Values | None = None, draw_share: Values = 0.0) -> HoldingInputs:
        shapes = {_shape(p_win), _shape(p_called), _shape(draw_share),
                  *(_shape(x) for o in opponents for x in (o.fold, o.call, o.raise_))}
        # one shape (a decision's case) is its own broadcast, which costs more than the rest
        shape = next(iter(shapes)) if len(shapes) == 1 else np.broadcast_shapes(*shapes)
        n = math.prod(shape)

        def flat(x: Values) -> np.ndarray:
            a = np.asarray(x, dtype=np.float64)
            if a.shape == shape:  # most inputs: a copy-free view, where broadcast_to costs
                return np.ascontiguousarray(a).reshape(n)
            return np.ascontiguousarray(np.broadcast_to(a, shape).reshape(n))

        tendencies = np.zeros((3, len(opponents), n))
        for j, o in enumerate(opponents):
            if len(shape) <= 1:  # the rows take each rate as it is (a decision's case)
                tendencies[0, j], tendencies[1, j], tendencies[2, j] = o.fold, o.call, o.raise_
            else:
                tendencies[0, j], tendencies[1, j], tendencies[2, j] = (
                    flat(o.fold), flat(o.call), flat(o.raise_))
        return cls(shape, flat(p_win), flat(p_called),
                   flat(p_called if p_reraised is None else p_reraised), flat(draw_share),
                   tendencies)


class SpotNumbers(NamedTuple):
    """The spot as the kernel reads it (chips)."""

    pot: float
    to_call: float
    our_bet: float
    stack: float
    bet_unit: float
    future_unit: float
    rounds_left: float
    top_bet: float


class ModelSettings(NamedTuple):
    """The model's parameters as the kernel reads them."""

    size_fold_exponent: float
    future_bet_rate: float
    give_up_rate: float  # hf_given_bet_behind: giving up per round facing a bet, behind
    call_margin: float
    behind: float  # the weight of the model in which only the hands behind give up


class CandidateNumbers(NamedTuple):
    """A candidate other than a fold, as the kernel reads it."""

    added: float  # chips it puts in
    aggressive: bool
    is_call: bool
    pot_fraction: float  # its size in pots; below 0 for no size (limit)


class HoldingArrays(NamedTuple):
    """Per holding i, what the kernel reads (each of length n)."""

    p_win: np.ndarray
    p_called: np.ndarray
    p_reraised: np.ndarray
    draw_share: np.ndarray
    tendencies: np.ndarray  # [fold | call | raise, opponent, holding]


@quick_init
@dataclass(frozen=True, slots=True)
class SpotInputs:
    """What :func:`heuristic_params` reads of the spot and the parameters, as the kernel
    takes them: the same for every candidate of a decision, so built once per decision."""

    spot: Spot
    numbers: SpotNumbers
    calls: np.ndarray
    stacks: np.ndarray
    acting: np.ndarray
    settings: ModelSettings

    @classmethod
    def of(cls, spot: Spot, params: EvaluationParams, behind: float = 0.0) -> SpotInputs:
        """``behind``: the weight of the ``behind`` give-up model (:func:`behind_share`)."""
        acting = spot.yet_to_act or (True,) * spot.opponents
        return cls(
            spot,
            SpotNumbers(float(spot.pot), float(spot.to_call), float(spot.our_bet),
                        float(spot.stack), float(spot.bet_unit), float(spot.future_unit),
                        float(spot.rounds_left), float(spot.top_bet)),
            np.asarray(spot.opponent_calls, dtype=np.float64),
            np.asarray(spot.opponent_stacks, dtype=np.float64),
            np.asarray(acting, dtype=np.bool_),
            ModelSettings(float(params.size_fold_exponent), float(params.future_bet_rate),
                          float(params.hf_given_bet_behind), float(params.call_margin),
                          float(behind)))

    def params(self, candidate: Candidate, inputs: HoldingInputs) -> EParams:
        """:func:`heuristic_params` of a candidate other than a fold."""
        spot, shape = self.spot, inputs.shape
        out = np.empty((7, inputs.p_win.shape[0]))
        _heuristic_kernel(
            self.numbers, spot.is_limit, spot.is_limit and not spot.reraise_room, self.calls,
            self.stacks, self.acting,
            CandidateNumbers(float(candidate.added), candidate.aggressive,
                             candidate.kind == "call",
                             -1.0 if candidate.pot_fraction is None
                             else float(candidate.pot_fraction)),
            HoldingArrays(inputs.p_win, inputs.p_called, inputs.p_reraised, inputs.draw_share,
                          inputs.tendencies),
            self.settings, out)

        rows: list[Values] = (out[:, 0].tolist() if shape == ()
                              else list(out.reshape(7, *shape)))
        p_w, pot_sd, eb_w, p_vf, p_hf, bets_hf, win = rows
        return EParams(p_w=p_w, es_w=pot_sd, eb_w=eb_w, p_vf=p_vf, es_vf=float(spot.pot +
                       candidate.added), eb_vf=float(candidate.added), p_hf=p_hf,
                       eb_hf=bets_hf, win=win)


@numba.njit(cache=True, nogil=True)
def _soft(x: float, width: float) -> float:
    return 1.0 / (1.0 + np.exp(-min(max(x / width, -50.0), 50.0)))


@numba.njit(cache=True, nogil=True)
def _heuristic_kernel(spot: SpotNumbers, is_limit: bool, capped: bool, calls: np.ndarray,
                      stacks: np.ndarray, acting: np.ndarray, candidate: CandidateNumbers,
                      holdings: HoldingArrays, settings: ModelSettings,
                      out: np.ndarray) -> None:
    """The model of :func:`heuristic_params` for each holding i, in one pass: opponent j
    still has ``calls[j]`` to call and ``stacks[j]`` behind, and acts after us this round
    where ``acting[j]``. ``out`` rows: Pw, ESw, EBw, Pvf, Phf, EBhf, and the showdown win
    probability."""
    pot, our_bet, stack = spot.pot, spot.our_bet, spot.stack
    bet_unit, future_unit, rounds, top_bet = (spot.bet_unit, spot.future_unit,
                                              spot.rounds_left, spot.top_bet)
    exponent, rate = settings.size_fold_exponent, settings.future_bet_rate
    give_up_rate, margin = settings.give_up_rate, settings.call_margin
    behind = settings.behind
    a, aggressive, is_call = candidate.added, candidate.aggressive, candidate.is_call
    pot_fraction = candidate.pot_fraction
    p_win, p_called, p_rr = holdings.p_win, holdings.p_called, holdings.p_reraised
    draw_share, tendencies = holdings.draw_share, holdings.tendencies
    k = calls.shape[0]
    n_opp = max(1, k)
    behind_after = stack - a
    new_top = our_bet + a
    # facing a bet later in this round: into the pot now, or after a re-raise
    bet = min(bet_unit if is_limit else max(pot, bet_unit), behind_after)
    rr_pot = pot + 2 * a
    rr_bet = min(bet_unit if is_limit else max(rr_pot, bet_unit), behind_after)
    stays = np.empty(k)
    for i in range(p_win.shape[0]):
        everyone = 1.0
        for j in range(k):
            fold = (size_fold(tendencies[0, j, i], pot_fraction, exponent) if aggressive
                    else 0.0)
            stays[j] = 1.0 - fold
            everyone *= fold
        if not aggressive:
            everyone = 0.0
        on = 1.0 - everyone
        their_calls = 0.0
        players = 1.0
        quiet = 1.0
        for j in range(k):
            stays[j] = stays[j] / on if on > 0 else 0.0
            their_calls += stays[j] * min(max(0.0, new_top - (top_bet - calls[j])), stacks[j])
            players += stays[j]
            rest = tendencies[1, j, i] + tendencies[2, j, i]
            quiet *= 1.0 - stays[j] * (tendencies[2, j, i] / rest if rest > 0 else 0.0)
        bet_prob = 0.0
        if not aggressive and not is_call:
            none = 1.0
            for j in range(k):
                if acting[j]:
                    none *= 1.0 - tendencies[2, j, i]
            bet_prob = 1.0 - none
        pw = p_win[i]
        call_later = _soft(pw - bet / max(pot + 2 * bet, 1.0), margin)
        aggression = 0.0
        for j in range(k):
            aggression += tendencies[2, j, i]
        aggression /= n_opp
        unit = future_unit if is_limit else max(pot + a + their_calls, bet_unit)
        future_each = min(rounds * rate * unit, max(0.0, behind_after))
        reraise = 0.0 if not aggressive or capped else 1.0 - quiet
        prr = p_rr[i]
        call_rr = _soft(prr - rr_bet / max(rr_pot + 2 * rr_bet, 1.0), margin)
        called_rr = reraise * call_rr
        base = p_called[i] if aggressive else pw
        rest = 1.0 - reraise
        win = ((rest * base + called_rr * prr) / (rest + called_rr) if rest + called_rr > 0
               else base)
        give_up = (behind * (1.0 - pw) * (1.0 - (1.0 - give_up_rate * aggression) ** rounds)
                   + (1.0 - behind) * (1.0 - (1.0 - give_up_rate * aggression * (1.0 - pw))
                                       ** rounds))
        fold_now = bet_prob * (1.0 - call_later) + reraise * (1.0 - call_rr)
        hf_given_on = 1.0 - (1.0 - fold_now) * (1.0 - give_up)
        p_vf = everyone
        p_hf = (1.0 - p_vf) * hf_given_on
        p_sd = max(0.0, 1.0 - p_vf - p_hf)
        bets_sd = a + bet_prob * call_later * bet + called_rr * rr_bet + future_each
        pot_sd = (pot + a + their_calls + bet_prob * call_later * 2 * bet
                  + called_rr * 2 * rr_bet + players * future_each)
        # the share of our wins that giving up later never costs
        kept = behind + (1.0 - behind) * min(max(draw_share[i], 0.0), 1.0)
        p_w = min(p_sd, win * (p_sd * (1.0 - kept) + (1.0 - p_vf) * (1.0 - fold_now) * kept))
        out[0, i] = p_w
        out[1, i] = pot_sd
        out[2, i] = p_sd * bets_sd
        out[3, i] = p_vf
        out[4, i] = p_hf
        out[5, i] = a + 0.5 * future_each * (1.0 - fold_now)
        out[6, i] = p_w / p_sd if p_sd > 0 else 0.0
