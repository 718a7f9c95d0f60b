"""The direct-estimation evaluation function: the expected value E(t) of each candidate action.

    E(t) = (Pw * ESw - EBw) + Pvf * (ESvf - EBvf) - Phf * EBhf

After action t the hand ends in one of three ways, with probabilities that sum to one:
a showdown (``sd``), every opponent folding (``vf``, "victory by fold") or our folding later
(``hf``, "hero folds"). The terms, all in chips:

* ``Pw``: the probability that the hand goes to a showdown *and* we win it (a tie counts
  as half), ``P(sd) * p_win``;
* ``ESw``: the expected final pot of showdown endings (every player's chips, ours included);
* ``EBw``: our expected bets in showdown endings, weighted by the probability of a showdown,
  ``P(sd) * E[bets | sd]``, because we pay them whether we win or lose;
* ``Pvf``, ``ESvf``, ``EBvf``: the probability that everyone else folds, the pot we then take
  and our bets in that ending (conditional on it);
* ``Phf``, ``EBhf``: the probability that we fold later and our bets lost then (conditional).

Bets are counted *from this decision on* (the candidate's own chips included); chips already
in the pot are sunk. So E is the expected change of our stack from now, measured against
folding now: ``E(fold now) = 0`` exactly, and every other candidate is worth playing when its
E is positive.

The parameters come from two sources:

* :func:`heuristic_params`: a small model of the rest of the hand from our showdown win
  probability, the pot odds, the players in the hand and each opponent's action frequencies;
  rough by design, it carries the agent until data arrives;
* :func:`chain_params`: the betting-chain store's answer for "chains like this one plus t".
  How often the opponents fold on a line is their behaviour, the same whatever we hold, so
  ``Pvf`` comes from the chains; whether we fold later depends on our cards, so the rest is
  split between showdown and our fold by the heuristic; pots and bets come from the chains,
  and the win probability blends ours with the mean strength the opponents showed down.
  Counts are shrunk toward the heuristic by ``chain_prior`` pseudo-observations.

A hand-computed case, heads-up on the river: the pot is 10 with a bet of 2 to call, we win
60% of showdowns. Calling is worth 0.6 * 12 - 2 = 5.2:

>>> from agent.heuristic.params import load_agent_params
>>> params = load_agent_params().evaluation
>>> spot = Spot(pot=10, to_call=2, our_bet=0, stack=100, street=3, is_limit=True,
...             bet_unit=2, future_unit=2, opponent_calls=(0,), opponent_stacks=(98,))
>>> call = Candidate.call(spot)
>>> p = heuristic_params(spot, call, p_win=0.6, p_called=0.6,
...                      opponents=(OpponentTendency(0.5, 0.3, 0.2),),
...                      params=params)
>>> round(p.value, 6)
5.2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal, NamedTuple

import numba
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from simulator import Action, LegalActions, Street
from simulator.core.frozen import quick_init
from simulator.core.ratios import ratio
from simulator.core.sizing import pot_fraction, raise_to_fraction

if TYPE_CHECKING:  # the modeller's records, only named here
    from agent.modeller import ChainAnswer, EndingStats

CandidateKind = Literal["fold", "check", "call", "bet", "raise"]
MAX_SIZE_POTS = 1000.0


class EvaluationParams(BaseModel):
    """Parameters of E(t), all proposed here (the seed report fixes none); their values live in
    ``agent/heuristic/data/default.yaml``. Every one is finite and bounded so that play is
    possible."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    chain_threshold: int = Field(ge=1, le=10**9)
    """Chains that must match before the chain store is used at all."""
    chain_prior: float = Field(ge=0, le=1e9)
    """Pseudo-observations of the heuristic that chain counts are blended with."""
    shown_prior: float = Field(ge=0, le=1e9)
    """Pseudo-observations of our own win probability blended with the showdown evidence."""
    shown_scale: float = Field(gt=0, le=100)
    """Logistic scale of "our strength minus their mean shown strength" -> win probability."""
    future_bet_rate: float = Field(ge=0, le=3)
    """Bets (future units) each player still in puts in per betting round still to come."""
    hf_given_bet_behind: float = Field(ge=0, le=1)
    """Chance that we give up when we face a bet later while behind."""
    give_up: Literal["independent", "behind", "by_trust"]
    """How giving up later meets our wins (see :func:`heuristic_params`): ``independent``, as
    if we gave up at random, ``behind``, only hands behind give up, or ``by_trust``, by how
    far the opponents' bets are trusted (:func:`behind_share`)."""
    give_up_trust: float = Field(gt=0, le=1)
    """``by_trust``: the trust in an opponent's bets from which its bets make us give up as
    if at random (below it, the more so the less it is trusted, only hands behind give up)."""
    call_margin: float = Field(gt=0, le=1)
    """Width of the soft pot-odds threshold by which we decide to call a later bet."""
    fold_value: float = Field(ge=0, le=1)
    """Hand value (EHS' against anyone) below which an opponent's holding may fold to a bet:
    an opponent folds at most the share of its range below it."""
    size_fold_exponent: float = Field(ge=0, le=3)
    """No-limit: how much more often opponents fold to bigger bets (0: not at all)."""
    nolimit_sizes: Annotated[tuple[Annotated[float, Field(gt=0, le=MAX_SIZE_POTS)], ...],
                             Field(strict=False, min_length=1, max_length=16)]
    """No-limit bet and raise sizes in pots (an all-in is always a candidate too); a size
    past :data:`MAX_SIZE_POTS` pots is an all-in in any game, and overflows the chips."""


# --- the decision ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """What E needs of the decision, in chips.

    ``pot`` is every chip in the middle, this round's bets included; ``our_bet`` is our bet
    this round; ``stack`` our chips behind. ``bet_unit`` is this round's bet (limit) or the
    big blind (no-limit), ``future_unit`` the bet of the rounds to come. Per live opponent,
    ``opponent_calls`` holds the chips it would need to match the current top bet,
    ``opponent_stacks`` its chips behind, and ``yet_to_act`` whether it still acts in this
    round after a check of ours (an opponent that already checked does not).
    """

    pot: int
    to_call: int
    our_bet: int
    stack: int
    street: int
    is_limit: bool
    bet_unit: int
    future_unit: int
    opponent_calls: tuple[int, ...]
    opponent_stacks: tuple[int, ...]
    yet_to_act: tuple[bool, ...] | None = None  # None: every opponent still acts
    reraise_room: bool = True  # limit: whether a raise of ours still leaves room under the cap

    @property
    def opponents(self) -> int:
        return len(self.opponent_calls)

    @property
    def rounds_left(self) -> int:
        """Betting rounds after this one."""
        return int(Street.RIVER) - int(self.street)

    @property
    def top_bet(self) -> int:
        return self.our_bet + self.to_call

    @property
    def scale(self) -> float:
        """The chip scale decisions are judged on: a bet in limit, the pot in no-limit."""
        return float(self.bet_unit if self.is_limit else max(self.pot, self.bet_unit))


@quick_init
@dataclass(frozen=True, slots=True)
class Candidate:
    """One action we might take, with the chips it puts in now."""

    action: Action
    kind: CandidateKind
    added: int
    pot_fraction: float | None = None  # no-limit bets and raises: the size in pots

    @property
    def aggressive(self) -> bool:
        return self.kind in ("bet", "raise")

    @classmethod
    def fold(cls) -> Candidate:
        return cls(Action.fold(), "fold", 0)

    @classmethod
    def call(cls, spot: Spot) -> Candidate:
        kind: CandidateKind = "call" if spot.to_call else "check"
        return cls(Action.call(), kind, min(spot.to_call, spot.stack))

    @classmethod
    def raise_to(cls, spot: Spot, amount: int) -> Candidate:
        kind: CandidateKind = "raise" if spot.to_call or spot.street == 0 else "bet"
        return cls(Action.raise_to(amount), kind, amount - spot.our_bet,
                   None if spot.is_limit
                   else pot_fraction(spot.top_bet, spot.pot, spot.to_call, amount))


def candidates(spot: Spot, legal: LegalActions, sizes: Sequence[float]) -> list[Candidate]:
    """Fold (when it is not free), check or call, and the bets or raises to consider.

    In limit the one legal raise; in no-limit each size in pots (the raise on top of the call
    is ``size * (pot + to_call)``), clamped to the legal range, and the all-in, without
    repeats.

    >>> spot = Spot(pot=30, to_call=10, our_bet=0, stack=200, street=1, is_limit=False,
    ...             bet_unit=2, future_unit=2, opponent_calls=(0,), opponent_stacks=(190,))
    >>> legal = LegalActions(True, 10, 20, 200)
    >>> [str(c.action) for c in candidates(spot, legal, (0.5, 1.0, 2.0))]
    ['fold', 'call', 'raise to 30', 'raise to 50', 'raise to 90', 'raise to 200']
    """
    out = [Candidate.fold()] if legal.can_fold else []
    out.append(Candidate.call(spot))
    if not legal.can_raise:
        return out
    low, high = legal.min_raise_to, legal.max_raise_to
    assert low is not None and high is not None
    if spot.is_limit:
        return [*out, Candidate.raise_to(spot, low)]
    amounts: list[int] = []
    for size in sorted(sizes):
        amount = min(max(raise_to_fraction(spot.top_bet, spot.pot, spot.to_call, size), low),
                     high)
        if amount not in amounts:
            amounts.append(amount)
    if high not in amounts:
        amounts.append(high)
    return [*out, *(Candidate.raise_to(spot, a) for a in amounts)]


# --- the parameters of E --------------------------------------------------------------------


Values = float | np.ndarray
"""A number per holding asked about: a float for one hand, an array over holdings for many."""


@quick_init
@dataclass(frozen=True, slots=True)
class OpponentTendency:
    """An opponent's action frequencies where it faces our action (street x bets to call):
    numbers, or arrays over the holdings we ask about (its fold rate can depend on our cards:
    they change which of its hands are left)."""

    fold: Values
    call: Values
    raise_: Values


@quick_init
@dataclass(frozen=True, slots=True)
class EParams:
    """The eight parameters of E(t) (see the module docstring) and where they came from;
    ``win`` is our chance to win the showdown as the estimate sees it (``p_w / P(sd)``)."""

    p_w: Values
    es_w: Values
    eb_w: Values
    p_vf: Values
    es_vf: Values
    eb_vf: Values
    p_hf: Values
    eb_hf: Values
    win: Values = 0.0
    source: str = "heuristic"

    @property
    def p_sd(self) -> Values:
        return np.maximum(0.0, 1.0 - self.p_vf - self.p_hf)

    @property
    def value(self) -> Values:
        """E(t) = (Pw*ESw - EBw) + Pvf*(ESvf - EBvf) - Phf*EBhf."""
        return ((self.p_w * self.es_w - self.eb_w) + self.p_vf * (self.es_vf - self.eb_vf)
                - self.p_hf * self.eb_hf)

    def at(self, i: int) -> EParams:
        """The parameters of the ``i``-th holding asked about, as plain numbers."""
        def pick(x: Values) -> float:
            return (float(np.broadcast_to(x, np.shape(self.value))[i])
                    if np.ndim(x) or np.ndim(self.value) else float(x))
        return EParams(pick(self.p_w), pick(self.es_w), pick(self.eb_w), pick(self.p_vf),
                       pick(self.es_vf), pick(self.eb_vf), pick(self.p_hf), pick(self.eb_hf),
                       pick(self.win), source=self.source)

    def as_dict(self) -> dict[str, float | str]:
        return {"Pw": float(self.p_w), "ESw": float(self.es_w), "EBw": float(self.eb_w),
                "Pvf": float(self.p_vf), "ESvf": float(self.es_vf),
                "EBvf": float(self.eb_vf), "Phf": float(self.p_hf),
                "EBhf": float(self.eb_hf), "source": self.source}


FOLD_NOW = EParams(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
"""Folding now: we lose nothing more than what is already in, so E = 0."""


def fold_to_size(fold: float, pot_fraction: float | None, exponent: float) -> float:
    """An opponent's chance to fold to a bet of ``pot_fraction`` pots, from its fold rate to a
    pot-sized bet: bigger bets get more folds (proposed here).

    >>> fold_to_size(0.4, 1.0, 0.5), round(fold_to_size(0.4, 2.0, 0.5), 4)
    (0.4, 0.5101)
    """
    return float(_size_fold(float(fold), -1.0 if pot_fraction is None else pot_fraction,
                            exponent))


@numba.njit(cache=True, nogil=True)
def _size_fold(fold: float, pot_fraction: float, exponent: float) -> float:
    """:func:`fold_to_size`, with ``pot_fraction`` below 0 for "no size" (limit)."""
    if pot_fraction < 0.0 or exponent == 0.0:
        return fold
    keep = (1.0 - fold) * (2.0 / (1.0 + max(pot_fraction, 0.0))) ** exponent
    return min(1.0, max(0.0, 1.0 - keep))


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
            fold = (_size_fold(tendencies[0, j, i], pot_fraction, exponent) if aggressive
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


def _plain(x: np.ndarray) -> Values:
    """A 0-d result as a float, so one hand's numbers stay plain numbers."""
    return float(x) if np.ndim(x) == 0 else x


def chain_params(answer: ChainAnswer, heuristic: EParams, candidate: Candidate,
                 contributed: int, our_value: Values, params: EvaluationParams) -> EParams:
    """E's parameters from the chain store's answer for "this line plus t", shrunk toward
    ``heuristic`` (numbers, or arrays over holdings).

    ``contributed`` is our chips in the pot before this decision (the chains count our bets
    over the whole hand, so that many are sunk; the chips of an uncalled bet came back and
    are in neither the final pot nor our bets); ``our_value`` is our hand's strength on the
    scale of the shown strengths (HS against a uniform range). The win probability the
    showdown evidence blends with is the heuristic's (``heuristic.win``).
    """
    n = answer.matched
    k = params.chain_prior
    sd, vf, hf = answer.showdown, answer.they_fold, answer.we_fold
    p_vf = (vf.count + k * heuristic.p_vf) / (n + k) if n + k > 0 else heuristic.p_vf
    rest_h = heuristic.p_sd + heuristic.p_hf
    sd_share = ratio(heuristic.p_sd, rest_h, 1.0)
    p_sd = (1.0 - p_vf) * sd_share
    p_hf = (1.0 - p_vf) - p_sd
    a = float(candidate.added)

    def future(stats: EndingStats, floor: float, fallback: Values) -> Values:
        return max(floor, stats.mean_our_bets - contributed) if stats.count else fallback

    h_sd = heuristic.p_sd
    bets_sd = future(sd, a, ratio(heuristic.eb_w, h_sd, a))
    p_win = heuristic.win
    win = p_win
    if answer.mean_shown_strength is not None and answer.shown:
        seen = 1.0 / (1.0 + np.exp(-(np.asarray(our_value) - answer.mean_shown_strength)
                                   / params.shown_scale))
        win = (answer.shown * seen + params.shown_prior * p_win) / (
            answer.shown + params.shown_prior)
    return EParams(
        p_w=_plain(p_sd * win), es_w=sd.mean_pot if sd.count else heuristic.es_w,
        eb_w=_plain(p_sd * bets_sd), p_vf=_plain(np.asarray(p_vf)),
        es_vf=vf.mean_pot if vf.count else heuristic.es_vf,
        eb_vf=future(vf, 0.0, heuristic.eb_vf),
        p_hf=_plain(p_hf), eb_hf=future(hf, a, heuristic.eb_hf), win=_plain(np.asarray(win)),
        source=f"chains (level {answer.level}, {n} matched)")
