"""The agent's pre-flop decision for every holding asked about: Loki's rules with their noise
averaged out, what our earlier actions of the hand say about it, and the pot-odds defence.

**The rules' chances.** At its first pre-flop decision of a hand the expert picks a strategy
by comparing the hand's income rate plus a uniform noise with thresholds; the strategy then
governs every pre-flop decision of the hand (:mod:`agent.preflop.expert`). For a holding h
the chance of each strategy is the share of the noise range that picks it
(:meth:`PreflopExpert.chances`), at the situation of our first decision.

**Our earlier actions.** The strategy was drawn once and is hidden; what we did since tells
which strategies are left. At a later decision the chance of each strategy is its prior
chance times, for each of our earlier pre-flop decisions, whether that strategy would have
taken the action we took there (Bayes; each strategy acts deterministically given the spot).
A holding no strategy explains keeps the prior: it is a hand we could not have, and any
distribution will do for it.

**The defence, value raises and steals** (:mod:`agent.heuristic.defense`), with the ranges as they
stood at that decision. Where a strategy folds a hand that faces a bet, the hand calls
instead if its equity against the opponents' ranges, discounted by ``realization``, beats
the pot odds. Where a strategy does not raise a hand whose equity clears the value bar, or
(with ``steal``) whose raise the chance that all fold pays for, the hand raises as the most
aggressive rule would (Make4's raise). The steal's answers (how likely all fold, and the
ranges that call) come from the modeller, as :func:`raise_answers` reads them; at an earlier
decision of the hand they are read with the frequencies the modeller holds now.

The row of a holding is the chance of each distinct action, summed over the strategies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agent.heuristic.defense import (
    DefenseParams,
    worth_calling,
    worth_raising,
    worth_stealing,
)
from agent.heuristic.traces import PreflopRecord
from agent.modeller import OpponentModeller
from agent.modeller.hand import HandModel
from agent.preflop.expert import PreflopExpert
from agent.preflop.situation import Situation, situation_of
from simulator import Action, ActionKind, ActionRecord, Observation, Policy, Street
from simulator.core.equity import preflop_equity_product
from simulator.core.frozen import quick_init
from simulator.core.sizing import pot_odds
from simulator.core.state import observations_along


@quick_init
@dataclass(frozen=True, slots=True)
class RaiseAnswer:
    """How the opponents answer a raise of ours: the chance that every one folds, each one's
    range had it called, and the pot once all have called."""

    fold_all: float
    called: tuple[np.ndarray, ...]
    pot: int


RaiseAnswers = Callable[[Observation, HandModel, int], RaiseAnswer]
"""Given a decision, the modeller's picture of the hand then and a raise-to amount: how the
live opponents answer that raise."""


def raise_answers(modeller: OpponentModeller) -> RaiseAnswers:
    """How the opponents answer a raise of ours, as ``modeller`` sees them: each folds as
    often as it has been seen to fold in the context the raise leaves it in, with no folds as
    the default below ``prior_observations`` (one all-in already cannot fold), and a call
    narrows its range as a real call would (the hand stepped on a copy through our raise and
    their calls, taken in seat order). A steal waits for evidence: with Table B.2's default
    (half the players facing a bet fold) every hand would be a steal against a player not yet
    seen, and a player who never folds would pay for them until the counts caught up."""
    def answers(obs: Observation, hand: HandModel, raise_to: int) -> RaiseAnswer:
        ours = ActionRecord(obs.seat, obs.street, ActionKind.RAISE, raise_to,
                            raise_to - obs.bets[obs.seat])
        fold_all, calls = 1.0, []
        opponents = obs.live_opponents  # a property that builds its tuple each time
        for seat in opponents:
            if obs.stacks[seat] == 0:  # all-in: it neither folds nor acts
                fold_all = 0.0
                continue
            fold_all *= modeller.seen_fold(seat, obs.street, modeller.context(seat, True, hand))
            added = min(raise_to - obs.bets[seat], obs.stacks[seat])
            calls.append(ActionRecord(seat, obs.street, ActionKind.CALL, None, added))
        weights, pot = modeller.all_called(obs.history, obs.board, obs.street, ours, calls)
        return RaiseAnswer(fold_all, tuple(weights[s] for s in opponents), pot)
    return answers


@quick_init
@dataclass(frozen=True, slots=True)
class PreflopRows:
    """The pre-flop decision for each holding asked about.

    ``situation`` and ``table``/``thresholds`` are those of our first decision (the rules'
    strategy is chosen there); ``strategies`` names the strategies and ``chances`` (holdings x
    strategies) their chances given our earlier actions; ``equity`` is each holding's equity
    against the live ranges where the defence was asked (else None); ``actions`` are the
    distinct actions and ``probabilities`` (holdings x actions) their chances.
    """

    situation: Situation
    table: int
    thresholds: dict[str, int]
    ir: np.ndarray
    strategies: tuple[str, ...]
    chances: np.ndarray
    equity: np.ndarray | None
    actions: tuple[Action, ...]
    probabilities: np.ndarray
    realization: float = 1.0  # the defence's: the share of its equity a hand is taken to win

    def as_policy(self) -> Policy:
        return Policy(self.actions, self.probabilities)

    def cap_share(self, index: int) -> float:
        """The fold cap plays after the flop only."""
        return 0.0

    def trace_fields(self, obs: Observation) -> dict[str, PreflopRecord]:
        """The first holding's row at ``obs`` as its trace record's street-specific fields."""
        equity = None if self.equity is None else float(self.equity[0])
        pays = price = None
        if equity is not None:  # the defence's own test (agent.heuristic.defense.worth_calling)
            odds = pot_odds(obs.pot, obs.legal.call_amount)
            price, pays = odds / self.realization, self.realization * equity >= odds
        return {"preflop": PreflopRecord(
            strategies={s: float(p) for s, p in zip(self.strategies, self.chances[0],
                                                    strict=True)},
            ir=float(self.ir[0]), table=self.table,
            thresholds={k: float(v) for k, v in self.thresholds.items()},
            expected_players=self.situation.expected_players,
            position=self.situation.position, defense_equity=equity, defense_pays=pays,
            defense_price=price,
            chances={str(a): float(p) for a, p in zip(self.actions, self.probabilities[0],
                                                      strict=True)})}


@quick_init
@dataclass(frozen=True, slots=True)
class _Choices:
    """Each strategy's action at one decision: ``plain``; ``defended`` (a fold turned into a
    call) for the holdings where ``pays`` is True; ``valued`` (every action but a raise
    turned into the value raise) for those where ``raises`` is True."""

    plain: tuple[Action, ...]
    defended: tuple[Action, ...]
    valued: tuple[Action, ...]
    pays: np.ndarray
    raises: np.ndarray
    equity: np.ndarray | None

    def actions(self) -> tuple[Action, ...]:
        """The distinct actions of every strategy, in a fixed order."""
        return tuple(dict.fromkeys((*self.plain, *self.defended, *self.valued)))

    def _pick(self, plain: np.ndarray, defended: np.ndarray, valued: np.ndarray
              ) -> np.ndarray:
        """Per holding (rows), the entry of the tier that holding plays by."""
        return np.where(self.raises[:, None], valued,
                        np.where(self.pays[:, None], defended, plain))

    def fits(self, taken: Action) -> np.ndarray:
        """(holdings, strategies): whether each strategy takes ``taken``."""
        def takes(chosen: tuple[Action, ...]) -> np.ndarray:
            return np.array([a == taken for a in chosen], dtype=np.float64)
        return self._pick(takes(self.plain), takes(self.defended), takes(self.valued))

    def rows(self, chances: np.ndarray, actions: Sequence[Action]) -> np.ndarray:
        """(holdings, actions): the chance of each action, from each holding's ``chances``
        of the strategies."""
        def spread(chosen: tuple[Action, ...]) -> np.ndarray:
            return chances @ np.array([[a == b for b in actions] for a in chosen],
                                      dtype=np.float64)
        plain = spread(self.plain)
        # a tier no holding plays by is never picked: most decisions have none
        return self._pick(plain, spread(self.defended) if self.pays.any() else plain,
                          spread(self.valued) if self.raises.any() else plain)


def _steals(obs: Observation, answer: RaiseAnswer, raise_to: int, equity: np.ndarray,
            holdings: np.ndarray, defense: DefenseParams) -> np.ndarray:
    """The holdings whose raise to ``raise_to`` the chance that all fold pays for."""
    return worth_stealing(equity, preflop_equity_product(answer.called, holdings), answer.fold_all,
                          obs.pot, obs.legal.call_amount, raise_to - obs.bets[obs.seat],
                          answer.pot, defense).reshape(len(holdings))


def _choices(expert: PreflopExpert, defense: DefenseParams, obs: Observation,
             hand: HandModel, strategies: tuple[str, ...], holdings: np.ndarray,
             answers: RaiseAnswers | None = None, situation: Situation | None = None
             ) -> _Choices:
    """Each strategy's action at the decision ``obs`` (``hand``: the modeller's picture
    then, ``situation`` its situation when already read), with the defence, the value raise
    and the steal for the holdings they pay for (``answers``: the opponents' answers to a
    raise, asked only with ``defense.steal``)."""
    if situation is None:
        situation = situation_of(hand.betting, obs.seat, expert.params.probability_play)
    plain = tuple(expert.action_for(s, obs, situation) for s in strategies)
    none = np.zeros(len(holdings), dtype=bool)
    defend = defense.enabled and any(a.kind is ActionKind.FOLD for a in plain)
    value = expert.action_for("make4", obs, situation)
    can_raise = value.kind is ActionKind.RAISE and any(
        a.kind is not ActionKind.RAISE for a in plain)
    can_value = defense.value_raise and can_raise
    steal = defense.steal and answers is not None and can_raise and value.amount is not None
    if not defend and not can_value and not steal:
        return _Choices(plain, plain, plain, none, none, None)
    opponents = obs.live_opponents
    ranges = [hand.weights[s].weights for s in opponents if s in hand.weights]
    equity = preflop_equity_product(ranges, holdings)
    pays = (np.asarray(worth_calling(equity, obs.legal.call_amount, obs.pot, defense))
            .reshape(len(holdings)) if defend else none)
    raises = (np.asarray(worth_raising(equity, len(opponents) + 1, defense))
              .reshape(len(holdings)) if can_value else none)
    # the opponents' answers cost hypothetical steps: not asked when every holding raises
    # for value anyway
    if steal and answers is not None and value.amount is not None and not raises.all():
        raises = raises | _steals(obs, answers(obs, hand, value.amount), value.amount, equity,
                                  holdings, defense)
    defended = tuple(Action.call() if a.kind is ActionKind.FOLD else a for a in plain)
    valued = tuple(a if a.kind is ActionKind.RAISE else value for a in plain)
    return _Choices(plain, defended, valued, pays, raises, equity)


@quick_init
@dataclass(frozen=True, slots=True)
class _Prior:
    """The rules' strategy chances at our first pre-flop decision of the hand, and whether
    each strategy took each of our pre-flop actions so far (one array per action)."""

    situation: Situation
    table: int
    strategies: tuple[str, ...]
    thresholds: dict[str, int]
    ir: np.ndarray
    chances: np.ndarray
    fits: tuple[np.ndarray, ...]


def _prior(obs: Observation, path: Sequence[HandModel], expert: PreflopExpert,
           defense: DefenseParams, holdings: np.ndarray, answers: RaiseAnswers | None
           ) -> _Prior:
    ours = [i for i, r in enumerate(obs.history)
            if r.seat == obs.seat and r.street is Street.PREFLOP]
    # replaying the hand costs, and a first decision has nothing to replay
    past = dict(zip(ours, observations_along(obs, ours), strict=True)) if ours else {}
    first = ours[0] if ours else len(obs.history)
    situation = situation_of(path[first].betting, obs.seat, expert.params.probability_play)
    table, strategies, thresholds = expert.candidates(situation)
    ir = expert.irs(table, holdings)
    _, chances = expert.chances(situation, ir)
    # our first decision's situation is the one just read
    fits = tuple(_choices(expert, defense, past[i], path[i], strategies, holdings, answers,
                          situation if i == first else None)
                 .fits(Action(obs.history[i].kind, obs.history[i].amount)) for i in ours)
    return _Prior(situation, table, strategies, thresholds, ir, chances, fits)


def preflop_reach(obs: Observation, path: Sequence[HandModel], expert: PreflopExpert,
                  defense: DefenseParams, holdings: np.ndarray,
                  answers: RaiseAnswers | None = None) -> np.ndarray:
    """The chance that we play the hand's pre-flop actions so far with each holding: how
    likely we are to hold it now, up to a constant (``obs`` may be after the flop; ``path``
    as for :func:`preflop_rows`)."""
    prior = _prior(obs, path, expert, defense, holdings, answers)
    chances = prior.chances
    for fits in prior.fits:
        chances = chances * fits
    return np.asarray(chances.sum(axis=1))


class PreflopReach:
    """:func:`preflop_reach` for every holding, remembered for the decision it was last asked
    at: a policy question and the action at the same decision ask the same thing, and each
    answer replays the hand's pre-flop for 1,326 holdings. The modeller's ``version`` is part
    of the question, since the steal's answers read the frequencies it holds now."""

    def __init__(self, expert: PreflopExpert, defense: DefenseParams,
                 modeller: OpponentModeller, answers: RaiseAnswers | None) -> None:
        self._expert, self._defense, self._answers = expert, defense, answers
        self._modeller = modeller
        self._key: tuple[object, ...] | None = None
        self._reach = np.zeros(0)

    def __call__(self, obs: Observation, path: Sequence[HandModel]) -> np.ndarray:
        """How likely our pre-flop actions so far make each of the 1326 holdings (read only)."""
        key = (obs.hand_number, obs.seat, obs.history, self._modeller.version)
        if key != self._key:
            reach = preflop_reach(obs, path, self._expert, self._defense, _ALL_HOLDINGS,
                                  self._answers)
            reach.setflags(write=False)
            self._key, self._reach = key, reach
        return self._reach


_ALL_HOLDINGS = np.arange(1326)


def preflop_rows(obs: Observation, path: Sequence[HandModel], expert: PreflopExpert,
                 defense: DefenseParams, holdings: np.ndarray,
                 answers: RaiseAnswers | None = None) -> PreflopRows:
    """The decision at ``obs`` for each holding; ``path`` is the modeller's picture of the
    hand before each action of ``obs.history`` and now (``OpponentModeller.path_at``);
    ``answers``, the opponents' answers to a raise, for the steals."""
    prior = _prior(obs, path, expert, defense, holdings, answers)
    situation, table, strategies, thresholds, ir = (prior.situation, prior.table,
                                                    prior.strategies, prior.thresholds,
                                                    prior.ir)
    chances = prior.chances
    for fits in prior.fits:
        explained = (chances * fits).sum(axis=1) > 0
        chances = np.where(explained[:, None], chances * fits, chances)
    total = chances.sum(axis=1, keepdims=True)
    chances = chances / np.where(total > 0, total, 1.0)
    # at our first decision the prior's situation is the one now (read from path[-1] too)
    now = _choices(expert, defense, obs, path[-1], strategies, holdings, answers,
                   None if prior.fits else situation)
    actions = now.actions()
    probabilities = now.rows(chances, actions)
    return PreflopRows(situation, table, thresholds, ir, strategies, chances, now.equity,
                       actions, probabilities, defense.realization)
