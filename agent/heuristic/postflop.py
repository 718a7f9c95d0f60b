"""The agent's post-flop decision for every holding asked about: a pipeline of pure steps.

1. **Views** (:mod:`agent.heuristic.opponents`): each live opponent's range mixed by our trust in
it,
   its weak share and its answers to a bet and a check of ours.
2. **Strength** (:mod:`agent.strength.range_strength`): HS against each range, HS_n, PPOT and
   NPOT against the field, EHS; and our strength against the hands that would call a bet
   and those that would re-raise it (the top of each range, as far as it is trusted).
3. **Estimates** (:mod:`agent.heuristic.estimates`): E's parameters of every candidate, from the
   heuristics or from the chain store.
4. **Selection** (:mod:`agent.heuristic.selector`): each holding's chance of each candidate.

In a tournament hand with ``tournament.equity``, E is valued in prize equity before the
selection: ICM on the stack each ending leaves (:mod:`agent.heuristic.tournament.prize_equity`).

Every step reads; nothing writes. The modeller is asked for its picture of the hand at the
observation (which may hold actions the hand never saw) and for its learned frequencies and
chains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agent.heuristic.calibration import situation
from agent.heuristic.candidates import Candidate, Spot, candidates
from agent.heuristic.e_value import EParams, Values
from agent.heuristic.estimates import draw_share, from_chains, heuristic_estimates
from agent.heuristic.fold_cap import FoldCap, capped, fold_share, may_fold
from agent.heuristic.opponents import OpponentView, facing_our_bet, weak_shares
from agent.heuristic.params import AgentParams
from agent.heuristic.selector import probabilities
from agent.heuristic.tournament.prize_equity import TableChips, outcome_values
from agent.heuristic.traces import CandidateRecord, StrengthRecord
from agent.heuristic.trust import RangeTrust, mixed
from agent.modeller import ChainAnswer, OpponentModeller
from agent.modeller.hand import HandModel
from agent.strength.ehs import ehs_formulas
from agent.strength.range_strength import RangeStrength, hs_against_tops, range_strength
from agent.strength.values import board_values
from simulator import Action, GameConfig, Observation, Policy, Street
from simulator.core.betting import Betting
from simulator.core.cards import NUM_HOLDINGS, clashing_holdings
from simulator.core.frozen import quick_init

Calibrated = Callable[[str, np.ndarray], "np.ndarray | float"]
"""A map of a river strength against an opponent (its situation's key) to a win
probability."""


@quick_init
@dataclass(frozen=True, slots=True)
class PostflopRows:
    """The post-flop decision for each holding asked about: the spot, the candidates, our
    strength, the opponents' views, E's parameters per candidate (numbers over holdings),
    E itself (candidates x holdings) and the chances (holdings x candidates)."""

    spot: Spot
    candidates: tuple[Candidate, ...]
    strength: RangeStrength
    views: tuple[OpponentView, ...]
    estimates: tuple[EParams, ...]
    values: np.ndarray
    probabilities: np.ndarray
    continuing: bool
    cap_moved: np.ndarray | None = None
    """Per holding, the chance the fold cap moved from the fold to the call (None: the cap
    did not apply)."""

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(c.action for c in self.candidates)

    def as_policy(self) -> Policy:
        return Policy(self.actions, self.probabilities)

    def trace_fields(self, obs: Observation) -> dict[str, object]:
        """The first holding's row as its trace record's street-specific fields."""
        s = self.strength
        strength = StrengthRecord(hs=[float(x) for x in s.hs[0]], hs_n=float(s.hs_n[0]),
                                  ppot=float(s.ppot[0]), npot=float(s.npot[0]),
                                  ehs=float(s.ehs[0]),
                                  ehs_optimistic=float(s.ehs_optimistic[0]))
        return {"strength": strength, "continued_aggression": self.continuing,
                "candidates": self._candidate_records()}

    def _candidate_records(self) -> list[CandidateRecord]:
        out = []
        for j, (c, e) in enumerate(zip(self.candidates, self.estimates, strict=True)):
            p = e.at(0) if np.ndim(e.value) else e
            out.append(CandidateRecord(
                action=str(c.action), E=float(self.values[j, 0]), Pw=float(p.p_w),
                ESw=float(p.es_w), EBw=float(p.eb_w), Pvf=float(p.p_vf), ESvf=float(p.es_vf),
                EBvf=float(p.eb_vf), Phf=float(p.p_hf), EBhf=float(p.eb_hf), source=e.source,
                chance=float(self.probabilities[0, j])))
        return out

    def cap_share(self, index: int) -> float:
        """The chance that the fold cap made candidate ``index`` of the first holding's row
        (the fold's chance it moved over the call's): 0 unless it is a call the cap moved."""
        moved = self.cap_moved
        if moved is None or moved[0] <= 0 or self.candidates[index].kind != "call":
            return 0.0
        return float(moved[0] / self.probabilities[0, index])


@dataclass(frozen=True)
class PostflopParts:
    """What the post-flop pipeline reads besides the decision, chosen once when the bot starts:
    the modeller, the range trust, the parameters, and the optional parts, None where their
    option is off: ``calibrated(key, hs)`` maps a river strength against a single opponent to
    the win probability its showdowns in the same situation say
    (:mod:`agent.heuristic.calibration`);
    ``fold_cap`` is what the fold cap reads."""

    modeller: OpponentModeller
    trust: RangeTrust
    params: AgentParams
    calibrated: Calibrated | None
    fold_cap: FoldCap | None


def spot_of(obs: Observation, opponents: Sequence[int], betting: Betting) -> Spot:
    """What E needs of the decision (see :class:`agent.heuristic.candidates.Spot`)."""
    game: GameConfig = obs.game
    street = obs.street
    top = max(obs.bets)
    left = betting.raises_left
    return Spot(
        pot=obs.pot, to_call=obs.legal.call_amount, our_bet=obs.bets[obs.seat],
        stack=obs.stacks[obs.seat], street=int(street), is_limit=game.is_limit,
        bet_unit=game.bet_unit(street),
        future_unit=game.bet_unit(min(int(street) + 1, int(Street.RIVER))),
        opponent_calls=tuple(top - obs.bets[s] for s in opponents),
        opponent_stacks=tuple(obs.stacks[s] for s in opponents),
        yet_to_act=tuple(betting.yet_to_act(s) for s in opponents),
        reraise_room=left is None or left >= 2)  # ours, and one more


def _views(obs: Observation, opponents: Sequence[int], hand: HandModel,
           modeller: OpponentModeller, trust: Sequence[float], bet_trust: Sequence[float],
           weights: np.ndarray, weak: np.ndarray, holdings: np.ndarray
           ) -> tuple[OpponentView, ...]:
    out = []
    shares = weak_shares(weights, weak, holdings)
    for j, seat in enumerate(opponents):
        share = shares[j]
        bet = modeller.frequencies(seat, obs.street, modeller.context(seat, True, hand))
        check = modeller.frequencies(seat, obs.street, modeller.context(seat, False, hand))
        out.append(OpponentView(seat, weights[j], trust[j], share, facing_our_bet(bet, share),
                                facing_our_bet(check, np.ones_like(share)), bet_trust[j]))
    return tuple(out)


def _chain_answers(modeller: OpponentModeller, hand: HandModel, cands: Sequence[Candidate],
                   opponents: Sequence[int], threshold: int
                   ) -> list[ChainAnswer | None] | None:
    """Each candidate's chains (the opponent's own store heads-up, else or when thin the
    generic store); None when some candidate has too few."""
    out: list[ChainAnswer | None] = []
    own = opponents[0] if len(opponents) == 1 else None
    for c in cands:
        if c.kind == "fold":
            out.append(None)
            continue
        answer = modeller.query(c.action, own, hand)
        if answer.matched < threshold and own is not None:
            answer = modeller.query(c.action, None, hand)
        if answer.matched < threshold:
            return None
        out.append(answer)
    return out


def postflop_rows(obs: Observation, path: Sequence[HandModel], parts: PostflopParts,
                  holdings: np.ndarray) -> PostflopRows:
    """The decision at ``obs`` for each holding (indices); ``path`` is the modeller's picture
    of the hand before each action of ``obs.history`` and now."""
    hand = path[-1]
    modeller, trust, params = parts.modeller, parts.trust, parts.params
    calibrated, fold_cap = parts.calibrated, parts.fold_cap
    ev = params.evaluation
    opponents = obs.live_opponents
    now = [trust.of(hand, s) for s in opponents]
    # np.array stacks these equal-shaped rows as np.stack does, at a third of its cost
    weights = np.array([mixed(modeller.weights(s, hand), a) for s, a in
                        zip(opponents, now, strict=True)])
    strength = range_strength(obs.board, weights, holdings, params.lookahead)
    spot = spot_of(obs, opponents, hand.betting)
    cands = tuple(candidates(spot, obs.legal, ev.nolimit_sizes))
    values = board_values(obs.board)
    views = _views(obs, opponents, hand, modeller, now,
                   [trust.alpha(hand.names[s], bet=True) for s in opponents], weights,
                   values.ehs_prime < ev.fold_value, holdings)
    p_called = p_reraised = strength.ehs
    if any(c.aggressive for c in cands):
        # an opponent calls with the top of its range and re-raises with the top of that,
        # as far as its bets are trusted
        def against_top(keep: np.ndarray) -> np.ndarray:
            hs = hs_against_tops(obs.board, values.order, strength, keep, now)
            return ehs_formulas(hs, strength.ppot, strength.npot)[0]
        p_called = against_top(np.array([1.0 - v.bet.fold for v in views]))
        p_reraised = against_top(np.array([v.bet.raise_ for v in views]))
    p_win = strength.ehs
    if calibrated is not None and obs.street is Street.RIVER and len(opponents) == 1:
        key = situation(hand, opponents[0])
        p_win, p_called, p_reraised = (np.asarray(calibrated(key, x)) for x in
                                       (p_win, p_called, p_reraised))
    guesses = heuristic_estimates(spot, cands, p_win, p_called, p_reraised,
                                  draw_share(strength.hs_n, strength.ppot, strength.ehs),
                                  views, ev)
    answers = (_chain_answers(modeller, hand, cands, opponents, ev.chain_threshold)
               if params.model == "full" else None)
    estimates = tuple(from_chains(cands, guesses, answers, obs.contributions[obs.seat],
                                  values.ehs_prime[holdings], ev))
    e = np.array([_over(x.value, holdings.shape) for x in estimates])
    chips = TableChips.of(obs) if params.tournament.equity else None
    if chips is not None:  # a tournament's hand: E in prize equity (chip-equivalents)
        e = outcome_values(chips, estimates, holdings.shape)
    continuing = spot.to_call == 0 and hand.betting.previous_raiser() == obs.seat
    chances = probabilities(cands, e, spot.scale, params.selector, continuing)
    cap_moved = None
    if fold_cap is not None and len(opponents) == 1:
        capped_chances = _fold_capped(obs, spot, cands, chances, strength, weights,
                                      fold_cap.cap_of(hand, opponents[0]),
                                      lambda: fold_cap.reach(obs, path), params)
        if capped_chances is not chances:
            fold = [c.kind for c in cands].index("fold")
            cap_moved = chances[:, fold] - capped_chances[:, fold]
            chances = capped_chances
    return PostflopRows(spot, cands, strength, views, estimates, e, chances, continuing,
                        cap_moved)


def _over(value: Values, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` as an array of ``shape``: a fold's E is one number, every other candidate's
    is already one per holding (numpy's broadcast_to costs more than the rest of the row)."""
    a = np.asarray(value, dtype=np.float64)
    return a if a.shape == shape else np.broadcast_to(a, shape)


def _fold_capped(obs: Observation, spot: Spot, cands: Sequence[Candidate],
                 chances: np.ndarray, strength: RangeStrength, weights: np.ndarray,
                 cap: float, reach: Callable[[], np.ndarray], params: AgentParams
                 ) -> np.ndarray:
    """``chances`` with the folds past the fold cap ``cap`` turned into calls (heads-up,
    facing a bet; :mod:`agent.heuristic.fold_cap`). Our range is every holding off the board,
    weighted
    by ``reach()``, how likely our actions so far make each."""
    kinds = [c.kind for c in cands]
    if (not cap or spot.to_call <= 0 or "fold" not in kinds
            or "call" not in kinds or not chances[:, kinds.index("fold")].any()):
        return chances
    ours = np.flatnonzero(~clashing_holdings(obs.board))
    # every holding's EHS from one batch, so a holding reads the same number whichever
    # holdings were asked with it (a row and act's draw agree to the last bit)
    ehs = np.zeros(NUM_HOLDINGS)
    ehs[ours] = (strength.ehs if np.array_equal(strength.holdings, ours)
                 else range_strength(obs.board, weights, ours, params.lookahead).ehs)
    keep = may_fold(ehs[strength.holdings], ehs[ours], reach()[ours],
                    fold_share(cap, spot.to_call, obs.pot))
    return capped(chances, kinds.index("fold"), kinds.index("call"), keep)
