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

The parameters come from two sources (DESIGN.md section 7):

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

>>> from agent.params import load_agent_params
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
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from simulator import Action, LegalActions, Street

if TYPE_CHECKING:  # the modeller's records, only named here
    from agent.modeller import ChainAnswer, EndingStats

CandidateKind = Literal["fold", "check", "call", "bet", "raise"]
MAX_SIZE_POTS = 1000.0


class EvaluationParams(BaseModel):
    """Parameters of E(t), all proposed here (the seed report fixes none); their values live in
    ``configs/agents/default.yaml``. Every one is finite and bounded so that play is
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


@dataclass(frozen=True)
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
        after_call = spot.pot + spot.to_call
        increment = amount - spot.top_bet
        return cls(Action.raise_to(amount), kind, amount - spot.our_bet,
                   None if spot.is_limit else increment / max(after_call, 1))


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
        raise_by = round(size * (spot.pot + spot.to_call))
        amount = min(max(spot.top_bet + raise_by, low), high)
        if amount not in amounts:
            amounts.append(amount)
    if high not in amounts:
        amounts.append(high)
    return [*out, *(Candidate.raise_to(spot, a) for a in amounts)]


# --- the parameters of E --------------------------------------------------------------------


@dataclass(frozen=True)
class OpponentTendency:
    """An opponent's action frequencies where it faces our action (street x bets to call)."""

    fold: float
    call: float
    raise_: float


@dataclass(frozen=True)
class EParams:
    """The eight parameters of E(t) (see the module docstring) and where they came from."""

    p_w: float
    es_w: float
    eb_w: float
    p_vf: float
    es_vf: float
    eb_vf: float
    p_hf: float
    eb_hf: float
    source: str = "heuristic"

    @property
    def p_sd(self) -> float:
        return max(0.0, 1.0 - self.p_vf - self.p_hf)

    @property
    def value(self) -> float:
        """E(t) = (Pw*ESw - EBw) + Pvf*(ESvf - EBvf) - Phf*EBhf."""
        return ((self.p_w * self.es_w - self.eb_w) + self.p_vf * (self.es_vf - self.eb_vf)
                - self.p_hf * self.eb_hf)

    def as_dict(self) -> dict[str, float | str]:
        return {"Pw": self.p_w, "ESw": self.es_w, "EBw": self.eb_w, "Pvf": self.p_vf,
                "ESvf": self.es_vf, "EBvf": self.eb_vf, "Phf": self.p_hf,
                "EBhf": self.eb_hf, "source": self.source}


FOLD_NOW = EParams(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
"""Folding now: we lose nothing more than what is already in, so E = 0."""


def _soft_step(x: float, width: float) -> float:
    """A smooth 0..1 step at x = 0 (a logistic of the given width)."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x / width))))


def fold_to_size(fold: float, pot_fraction: float | None, exponent: float) -> float:
    """An opponent's chance to fold to a bet of ``pot_fraction`` pots, from its fold rate to a
    pot-sized bet: bigger bets get more folds (proposed here).

    >>> fold_to_size(0.4, 1.0, 0.5), round(fold_to_size(0.4, 2.0, 0.5), 4)
    (0.4, 0.5101)
    """
    if pot_fraction is None or exponent == 0:
        return fold
    keep = (1.0 - fold) * (2.0 / (1.0 + max(pot_fraction, 0.0))) ** exponent
    return min(1.0, max(0.0, 1.0 - keep))


def heuristic_params(spot: Spot, candidate: Candidate, p_win: float, p_called: float,
                     opponents: Sequence[OpponentTendency],
                     params: EvaluationParams, p_reraised: float | None = None,
                     draw_share: float = 0.0) -> EParams:
    """E's parameters from a small model of the rest of the hand (proposed here).

    * This round: after a bet or raise each opponent folds independently with its fold rate
      (scaled up for bigger no-limit bets); everyone folds with the product. After a check an
      opponent still to act in the round bets with its raise rate; we then call when
      ``p_win`` beats the pot odds (a soft step of width ``call_margin``), else we fold.
    * Later rounds: each player still in puts ``future_bet_rate`` bets a round into the pot;
      facing the opponents' aggression while behind (``1 - p_win``) we give up with
      ``hf_given_bet_behind`` per round. The ``draw_share`` of ``p_win`` that comes from
      improving (``(1 - HS) * PPOT`` of EHS) is never given up: a hand that improves is
      ahead. The rest is won at ``P(sd) * p_win``: giving up is not credited with keeping
      the made winners (crediting it cost 0.35 SB/h against `exploiter` on the tuning
      seeds: the agent then called bets its strength estimate overrates).
    * After our bet or raise an opponent that stays re-raises with its share
      ``raise / (call + raise)`` (where the cap leaves room); we then call one more bet when
      ``p_reraised`` beats the pot odds (the same soft step), else we fold.
    * ``p_called`` is our win probability against the hands that call a bet or raise (the
      weaker part of their range folds); ``p_reraised`` against the hands that re-raise (the
      top of the range; by default ``p_called``); ``p_win`` against their whole range.
    """
    if candidate.kind == "fold":
        return FOLD_NOW
    a = candidate.added
    n = max(1, len(opponents))
    aggressive = candidate.aggressive
    folds = [fold_to_size(o.fold, candidate.pot_fraction, params.size_fold_exponent)
             for o in opponents] if aggressive else [0.0] * len(opponents)
    everyone_folds = math.prod(folds) if aggressive else 0.0
    # given that the hand goes on (not everyone folded), each opponent is still in with
    # probability stay / (1 - everyone_folds): exact for the sums below
    on = 1.0 - everyone_folds
    stays = [(1.0 - f) / on if on > 0 else 0.0 for f in folds]
    new_top = spot.our_bet + a
    their_calls = sum(s * min(max(0, new_top - (spot.top_bet - c)), st)
                      for s, c, st in zip(stays, spot.opponent_calls, spot.opponent_stacks,
                                          strict=True))
    players_at_end = 1.0 + sum(stays)
    behind_after = spot.stack - a
    # facing a bet after our check
    acting = spot.yet_to_act or (True,) * len(opponents)
    bet_prob = 0.0 if aggressive or candidate.kind == "call" else (
        1.0 - math.prod(1.0 - o.raise_ for o, a in zip(opponents, acting, strict=True) if a))
    bet, call_later = _facing(spot, spot.pot, p_win, behind_after, params)
    # rounds to come
    rounds = spot.rounds_left
    aggression = sum(o.raise_ for o in opponents) / n
    unit = spot.future_unit if spot.is_limit else max(spot.pot + a + their_calls, spot.bet_unit)
    future_each = min(rounds * params.future_bet_rate * unit, max(0, behind_after))
    # re-raised after our bet or raise (the hands that stay, re-raising with their share)
    reraise = _reraise_probability(spot, candidate, opponents, stays)
    p_rr = p_called if p_reraised is None else p_reraised
    rr_bet, call_rr = _facing(spot, spot.pot + 2 * a, p_rr, behind_after, params)
    called_rr = reraise * call_rr
    base = p_called if aggressive else p_win
    # showdowns after a re-raise we called are won at the re-raisers' rate
    rest = 1.0 - reraise
    win = ((rest * base + called_rr * p_rr) / (rest + called_rr)
           if rest + called_rr > 0 else base)
    give_up = 1.0 - (1.0 - params.hf_given_bet_behind * aggression * (1.0 - p_win)) ** rounds
    fold_now = bet_prob * (1.0 - call_later) + reraise * (1.0 - call_rr)
    hf_given_on = 1.0 - (1.0 - fold_now) * (1.0 - give_up)
    p_vf = everyone_folds
    p_hf = (1.0 - p_vf) * hf_given_on
    p_sd = max(0.0, 1.0 - p_vf - p_hf)
    bets_sd = a + bet_prob * call_later * bet + called_rr * rr_bet + future_each
    pot_sd = (spot.pot + a + their_calls + bet_prob * call_later * 2 * bet
              + called_rr * 2 * rr_bet + players_at_end * future_each)
    bets_hf = a + 0.5 * future_each * (1.0 - fold_now)
    draw = min(max(draw_share, 0.0), 1.0)
    p_w = min(p_sd, win * (p_sd * (1.0 - draw) + (1.0 - p_vf) * (1.0 - fold_now) * draw))
    return EParams(p_w=p_w, es_w=pot_sd, eb_w=p_sd * bets_sd, p_vf=p_vf,
                   es_vf=float(spot.pot + a), eb_vf=float(a), p_hf=p_hf, eb_hf=bets_hf)


def _facing(spot: Spot, pot: int, p_win: float, behind: int,
            params: EvaluationParams) -> tuple[int, float]:
    """A bet we may face later in this round, into ``pot`` (one bet in limit, the pot in
    no-limit, at most our chips behind), and the chance we call it: ``p_win`` against its pot
    odds, a soft step of width ``call_margin``."""
    bet = min(spot.bet_unit if spot.is_limit else max(pot, spot.bet_unit), behind)
    return bet, _soft_step(p_win - bet / max(pot + 2 * bet, 1), params.call_margin)


def _reraise_probability(spot: Spot, candidate: Candidate,
                         opponents: Sequence[OpponentTendency], stays: Sequence[float]) -> float:
    """The chance that someone re-raises our bet or raise, given that the hand goes on."""
    if not candidate.aggressive or (spot.is_limit and not spot.reraise_room):
        return 0.0
    quiet = 1.0
    for o, s in zip(opponents, stays, strict=True):
        rest = o.call + o.raise_
        quiet *= 1.0 - s * (o.raise_ / rest if rest > 0 else 0.0)
    return 1.0 - quiet


def chain_params(answer: ChainAnswer, heuristic: EParams, candidate: Candidate,
                 contributed: int, p_win: float, our_value: float,
                 params: EvaluationParams) -> EParams:
    """E's parameters from the chain store's answer for "this line plus t", shrunk toward
    ``heuristic``.

    ``contributed`` is our chips in the pot before this decision (the chains count our bets
    over the whole hand, so that many are sunk; the chips of an uncalled bet came back and
    are in neither the final pot nor our bets); ``our_value`` is our hand's strength on the
    scale of the shown strengths (HS against a uniform range), ``p_win`` our win probability
    against the opponents' weighted ranges.
    """
    n = answer.matched
    k = params.chain_prior
    sd, vf, hf = answer.showdown, answer.they_fold, answer.we_fold
    p_vf = (vf.count + k * heuristic.p_vf) / (n + k) if n + k > 0 else heuristic.p_vf
    rest_h = heuristic.p_sd + heuristic.p_hf
    sd_share = heuristic.p_sd / rest_h if rest_h > 0 else 1.0
    p_sd = (1.0 - p_vf) * sd_share
    p_hf = (1.0 - p_vf) - p_sd
    a = float(candidate.added)

    def future(stats: EndingStats, floor: float, fallback: float) -> float:
        return max(floor, stats.mean_our_bets - contributed) if stats.count else fallback

    bets_sd = future(sd, a, heuristic.eb_w / heuristic.p_sd if heuristic.p_sd > 0 else a)
    win = p_win
    if answer.mean_shown_strength is not None and answer.shown:
        seen = 1.0 / (1.0 + math.exp(-(our_value - answer.mean_shown_strength)
                                     / params.shown_scale))
        win = (answer.shown * seen + params.shown_prior * p_win) / (
            answer.shown + params.shown_prior)
    return EParams(
        p_w=p_sd * win, es_w=sd.mean_pot if sd.count else heuristic.es_w,
        eb_w=p_sd * bets_sd, p_vf=p_vf,
        es_vf=vf.mean_pot if vf.count else heuristic.es_vf,
        eb_vf=future(vf, 0.0, heuristic.eb_vf),
        p_hf=p_hf, eb_hf=future(hf, a, heuristic.eb_hf),
        source=f"chains (level {answer.level}, {n} matched)")
