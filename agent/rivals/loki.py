"""``loki``: the Loki-1 rule-based player of Papp's thesis, our stand-in for Pokibrat.

Sources: D. Papp, "Dealing with Imperfect Information in Poker", MSc thesis, U. Alberta, 1998
(chapter 5, hand strength and potential; chapter 6, the betting strategy: sections 6.2-6.5;
chapter 7, opponent modelling), read at webdocs.cs.ualberta.ca/~jonathan/PREVIOUS/Grad/papp/
(node45-node48); L. Pena, MSc thesis, U. Alberta, 1999, its summary of Loki-1's post-flop
strategy (.../Grad/pena/node24.html); Billings, Papp, Schaeffer and Szafron, "Opponent
Modeling in Poker", AAAI 1998.

**Opponent model.** Its own :class:`~agent.modeller.OpponentModeller` in ``"frequencies"``
mode: per opponent, action frequencies by street and bets to call, Papp's three contexts
without our agent's raised-back one (blended with Papp's Table B.2), and a weight array
over the 1326 holdings, re-weighted after each action by Loki-1's threshold method (Papp
section 7.2). It learns for the bot's life (a block).

**Pre-flop.** The income-rate strategies of the pre-flop expert
(:class:`~agent.preflop.expert.PreflopExpert`, Papp section 6.1), from the shipped parameters.

**After the flop.** Its strength against every live opponent's weight array
(:func:`~agent.strength.range_strength.range_strength`, for every holding a policy asks
about at once): HS_n, the product of the HS against each
(HS^n when the arrays agree, as Papp), PPOT against the field with one card of lookahead (the
thesis' PPOT1), and ``EHS' = HS_n + (1 - HS_n) PPOT``. The rules, in Papp's order of priority
(each applies only when the ones before it did not):

==============  ==========================================================================
make2           ``EHS' >= 0.85``: raise while fewer than 2 bets were made this round, else
                call (Papp 6.3)
make1           ``EHS' >= 0.50``: bet when no one has, else call; but facing 2 or more bets
                without having put chips in this round it does not call, and the rules
                below decide (Papp 6.3; Pena node24)
semi-bluff      nothing to call and ``PPOT >= Pot_Odds2 = 2b / (pot + 6b)``, ``b`` the bet
                it would make: bet, "to call both a bet and a raise" (Papp 6.4, eq. 6.5).
                Once it semi-bluffed, it bets again on the next rounds while no opponent
                bets or raises and nothing is owed
pot odds        flop and turn, facing a bet: call when ``PPOT >= to_call / (pot + to_call)``
                (Papp 6.5, eq. 6.6; ``pot`` holds every chip in the middle, bets included)
showdown odds   the river, facing a bet: call when ``HS_n >= to_call / (pot + to_call)``
otherwise       check when it is free, else fold
==============  ==========================================================================

**Randomised near the thresholds** (proposed here; Papp fixes the thresholds, not the
mixing). Each test ``x >= t`` passes with probability ``clip((x - t) / (2 s) + 1/2, 0, 1)``: a
linear ramp of half-width ``s`` around the threshold (``spread`` for the two EHS' thresholds,
``odds_spread`` for the tests of PPOT and HS against odds); ``s = 0`` is the plain test. The
rules run in their order on those chances, so a decision is a distribution over the rules,
and summing the rules' actions gives its **probability triple** ``(fold, call, raise)`` ("fold"
is a check when checking is free; "raise" a bet when nothing is owed). Far from every
threshold the triple is one action for sure; near one, play mixes the two sides in
proportion to the distance. The bot draws the rule from its own seeded generator.

Interpretations (where the sources leave room): "make1 facing two bets" folds unless the bot
already put chips in this round (called or bet), as Pena words it; what make1 declines, the
semi-bluff and odds rules may still take (Pena: "its decision is to fold"). "Bets" are the
round's bets and raises, counted in no-limit as in limit, whatever their size. The
showdown-odds test on the river compares HS_n with the pot odds, as Pena's summary and the
issue put it; the thesis' own formula for it was not available to us.

**No-limit.** Where limit bets one bet it bets the pot (a raise calls, then adds the pot),
clamped to the legal range and to what the opponents can still put in; ``b`` in Pot_Odds2 is
that pot-sized bet. It never raises when no live opponent has chips behind.

>>> from agent.strength.against import TableStrength
>>> draw = TableStrength(hs=(0.3,), hs_n=0.3, ppot=0.25, npot=0.1, ehs=0.445,
...                      ehs_optimistic=0.475)
>>> rules = LokiRules()
>>> [(b.rule, b.kind.name, round(b.probability, 3))
...  for b in rules.branches(Round(0, 0, False), draw, Street.FLOP, 0.0, 2 / 14)]
[('make1', 'RAISE', 0.25), ('semi-bluff', 'RAISE', 0.75)]
>>> rules.triple(rules.branches(Round(1, 1, False), draw, Street.FLOP, 4 / 24, 0.0))
(0.0, 1.0, 0.0)
>>> river = TableStrength(hs=(0.17,), hs_n=0.17, ppot=0.0, npot=0.0, ehs=0.17,
...                       ehs_optimistic=0.17)  # facing a bet of 4 into 20: odds 1/6
>>> [round(p, 3) for p in
...  rules.triple(rules.branches(Round(1, 1, False), river, Street.RIVER, 4 / 24, 0.0))]
[0.417, 0.583, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import assert_never

import numpy as np

from agent.heuristic.defense import DefenseParams
from agent.heuristic.preflop_policy import PreflopRows, preflop_rows
from agent.heuristic.selector import draw_index
from agent.heuristic.warm_up import WarmsUp
from agent.modeller import ModellerParams, OpponentModeller
from agent.modeller.hand import HandModel
from agent.preflop.expert import PreflopExpert
from agent.preflop.params import default_preflop_params
from agent.rivals.betting import bet_or_raise, check_or_fold, pot_odds, pot_raise_to
from agent.rivals.params import LokiParams, RivalParamsError, validated
from agent.strength.against import TableStrength
from agent.strength.range_strength import RangeStrength, range_strength
from simulator import (
    Action,
    ActionKind,
    BaseBot,
    BotContext,
    Event,
    Observation,
    Policy,
    Street,
)
from simulator.core.betting import Betting
from simulator.core.cards import HOLDING_INDEX
from simulator.core.game import Structure
from simulator.core.state import observations_along
from simulator.play.protocol import holding_indices

_TRIPLE_INDEX = {ActionKind.FOLD: 0, ActionKind.CALL: 1, ActionKind.RAISE: 2}


class LokiParamsError(RivalParamsError):
    """A Loki parameter out of its range."""


def passes(x: np.ndarray, threshold: float, spread: float) -> np.ndarray:
    """The chance that ``x >= threshold`` passes on a linear ramp of half-width ``spread``.

    >>> passes(np.array([0.86, 0.84, 0.83]), 0.85, 0.0).tolist()
    [1.0, 0.0, 0.0]
    >>> round(float(passes(np.array([0.83]), 0.85, 0.05)[0]), 6)
    0.3
    """
    x = np.asarray(x, dtype=np.float64)
    if spread <= 0:
        return (x >= threshold).astype(np.float64)
    return np.clip((x - threshold) / (2 * spread) + 0.5, 0.0, 1.0)


@dataclass(frozen=True)
class Round:
    """The betting round as the rules see it: ``bets_made`` (bets and raises this round),
    ``facing`` (how many of them are above our bet) and ``voluntary`` (we already put chips
    in this round)."""

    bets_made: int
    facing: int
    voluntary: bool


def read_round(obs: Observation) -> Round:
    """The current round of ``obs`` (after the flop no blind counts as a bet)."""
    rnd = Betting.of(obs).current
    return Round(rnd.raises, rnd.bets_to_call(obs.seat), rnd.voluntary(obs.seat))


@dataclass(frozen=True)
class Branch:
    """One rule that decides, the action kind it plays and the chance that it decides."""

    rule: str
    kind: ActionKind
    probability: float


@dataclass(frozen=True)
class LokiRules:
    """The post-flop thresholds (Papp: make2 0.85, make1 0.50) and the ramps' half-widths
    (proposed here) of the module docstring."""

    make2: float = 0.85
    make1: float = 0.50
    spread: float = 0.05
    odds_spread: float = 0.02

    def __post_init__(self) -> None:
        if not 0.0 < self.make1 < self.make2 <= 1.0:
            raise LokiParamsError(f"loki: expected 0 < make1 < make2 <= 1, got make1 "
                                  f"{self.make1}, make2 {self.make2}")
        for name in ("spread", "odds_spread"):
            if not 0.0 <= getattr(self, name) <= 0.5:
                raise LokiParamsError(f"loki: {name} must be in 0..0.5, got "
                                      f"{getattr(self, name)}")

    def branches(self, rnd: Round, strength: TableStrength, street: Street, odds: float,
                 odds2: float, continuing: bool = False) -> tuple[Branch, ...]:
        """The rules that decide, with their chances (summing to 1), for a post-flop spot:
        ``odds`` the pot odds of a call, ``odds2`` Papp's Pot_Odds2, ``continuing`` whether a
        semi-bluff of the previous round goes on."""
        table = self.table(rnd, np.array([strength.ehs_optimistic]),
                           np.array([strength.ppot]), np.array([strength.hs_n]), street, odds,
                           odds2, np.array([1.0 if continuing else 0.0]))
        return tuple(Branch(rule, kind, float(p[0])) for rule, kind, p in table if p[0] > 0)

    def table(self, rnd: Round, ehs_optimistic: np.ndarray, ppot: np.ndarray,
              hs_n: np.ndarray, street: Street, odds: float, odds2: float,
              continuing: np.ndarray) -> list[tuple[str, ActionKind, np.ndarray]]:
        """:meth:`branches` for many hands at once: each rule's action and its chance per
        hand (arrays of the strengths); ``continuing`` is each hand's chance that a semi-bluff
        goes on (our earlier draws are hidden, so it can be between 0 and 1)."""
        out: list[tuple[str, ActionKind, np.ndarray]] = []
        rest = np.ones_like(ehs_optimistic, dtype=np.float64)

        def take(rule: str, kind: ActionKind, chance: np.ndarray) -> None:
            nonlocal rest
            out.append((rule, kind, rest * chance))
            rest = rest * (1.0 - chance)

        take("make2", ActionKind.RAISE if rnd.bets_made < 2 else ActionKind.CALL,
             passes(ehs_optimistic, self.make2, self.spread))
        make1 = passes(ehs_optimistic, self.make1, self.spread)
        if rnd.facing == 0:
            take("make1", ActionKind.RAISE, make1)
        elif rnd.facing == 1 or rnd.voluntary:
            take("make1", ActionKind.CALL, make1)
        if rnd.facing == 0:
            plain = passes(ppot, odds2, self.odds_spread)
            take("semi-bluff", ActionKind.RAISE, continuing + (1.0 - continuing) * plain)
            take("check", ActionKind.CALL, np.ones_like(rest))
        else:
            river = street is Street.RIVER
            take("showdown odds" if river else "pot odds", ActionKind.CALL,
                 passes(hs_n if river else ppot, odds, self.odds_spread))
            take("fold", ActionKind.FOLD, np.ones_like(rest))
        return out

    @staticmethod
    def triple(branches: tuple[Branch, ...]) -> tuple[float, float, float]:
        """The ``(fold, call, raise)`` chances of the branches' actions."""
        p = [0.0, 0.0, 0.0]
        for b in branches:
            p[_TRIPLE_INDEX[b.kind]] += b.probability
        return (round(p[0], 12), round(p[1], 12), round(p[2], 12))


@dataclass(frozen=True)
class LokiDecision:
    """A post-flop decision: the strength, the rules' chances, the rule drawn, the action."""

    strength: TableStrength
    round: Round
    odds: float
    odds2: float
    branches: tuple[Branch, ...]
    rule: str
    action: Action

    @property
    def triple(self) -> tuple[float, float, float]:
        return LokiRules.triple(self.branches)


@dataclass(frozen=True)
class LokiRows:
    """The post-flop decision for each holding asked about: the strength, the round, the
    odds, each hand's chance that a semi-bluff goes on, each rule's action kind and chance
    per hand, and the chance of each distinct action (holdings x actions)."""

    strength: RangeStrength
    round: Round
    odds: float
    odds2: float
    continuing: np.ndarray
    rules: list[tuple[str, ActionKind, np.ndarray]]
    actions: tuple[Action, ...]
    probabilities: np.ndarray

    def decision(self, index: int, chosen: int, action: Action) -> LokiDecision:
        """The record of holding ``index`` drawing its ``chosen``-th rule."""
        s = self.strength
        table = TableStrength(tuple(float(x) for x in s.hs[index]), float(s.hs_n[index]),
                              float(s.ppot[index]), float(s.npot[index]), float(s.ehs[index]),
                              float(s.ehs_optimistic[index]))
        branches = tuple(Branch(rule, kind, float(p[index])) for rule, kind, p in self.rules)
        return LokiDecision(table, self.round, self.odds, self.odds2,
                            tuple(b for b in branches if b.probability > 0),
                            branches[chosen].rule, action)


def _bet_chips(obs: Observation) -> int:
    """The chips our bet would put in: one bet in limit, the pot in no-limit and pot-limit."""
    game = obs.game
    structure = game.structure
    if structure is Structure.LIMIT:
        return game.bet_size(obs.street)
    if structure is Structure.NO_LIMIT or structure is Structure.POT_LIMIT:
        if obs.legal.can_raise:
            return pot_raise_to(obs) - obs.bets[obs.seat]
        return obs.pot
    assert_never(structure)


def _action(obs: Observation, kind: ActionKind) -> Action:
    """The action a rule's kind plays at ``obs``."""
    if kind is ActionKind.FOLD:
        return check_or_fold(obs)
    if kind is ActionKind.RAISE and any(obs.stacks[o] > 0 for o in obs.live_opponents):
        return bet_or_raise(obs)
    return Action.call()


LOKI_MODELLER = ModellerParams(
    min_matches=20, size_edges=(0.4, 0.8, 1.5), max_nodes=1_000_000, prune_to=0.8,
    prior_observations=20,
    default_frequencies=((0.0, 0.5, 0.5), (0.5, 0.3, 0.2), (0.7, 0.2, 0.1)),
    raised_back_frequencies=(0.1, 0.6, 0.3), pool_streets=False, reweighting="threshold",
    sigma_preflop=330.0, sigma_postflop=0.2, preflop_skip_percentile=5.0, weight_floor=0.01,
    floor_on="weight", triple_spread_preflop=165.0, triple_spread_postflop=0.1)
"""Loki's opponent modeller, every value written here so that a change to the agent's
defaults never moves the yardstick: Papp's 20-observation blend with Table B.2, his
threshold re-weighting with the 330-unit pre-flop and 0.2 post-flop spreads, the 5th-
percentile skip and the 0.01 floor on the weights (the chain and raised-back values are
unused in its ``"frequencies"`` mode with Papp's contexts)."""

NO_DEFENCE = DefenseParams(enabled=False, realization=1.0, value_raise=False,
                           value_edge=1.0, steal=False)


class LokiBot(WarmsUp, BaseBot):
    """Loki-1 (Papp 1998): the pre-flop expert's income-rate rules, then make2 / make1 on
    EHS' against its own opponent weight arrays, semi-bluffs, pot and showdown odds.

    ``make2``, ``make1``, ``spread``, ``odds_spread``: see :class:`LokiRules`; ``lookahead``
    cards for PPOT (1: Papp's PPOT1); ``model`` the modeller's mode (``"frequencies"``: Loki-1;
    ``"off"``: uniform weights); ``tightness`` of the pre-flop rules (None: the parameter
    file's); ``seed`` for its own generator.

    **Its policy** (``simulator.PolicyBot``): before the flop the expert's strategies with
    their noise averaged out and narrowed by Bayes over our earlier pre-flop actions
    (:func:`agent.heuristic.preflop_policy.preflop_rows`, without the agent's defence); after it,
    the
    rules' chances for each holding, where the hidden "a semi-bluff goes on" is the chance,
    by Bayes over our bet on the previous round, that the bet was a semi-bluff. ``act``
    draws from its own holding's row, so nothing is kept between decisions but the model.
    """

    def __init__(self, make2: float = 0.85, make1: float = 0.50, spread: float = 0.05,
                 odds_spread: float = 0.02, lookahead: int = 1, model: str = "frequencies",
                 tightness: str | None = None, seed: int | None = None) -> None:
        p = validated(LokiParams, "loki", {
            "make2": make2, "make1": make1, "spread": spread, "odds_spread": odds_spread,
            "lookahead": lookahead, "model": model, "tightness": tightness}, LokiParamsError)
        self.rules = LokiRules(p.make2, p.make1, p.spread, p.odds_spread)
        self.lookahead = p.lookahead
        self.modeller = OpponentModeller(LOKI_MODELLER, mode=p.model, contexts="papp")
        params = default_preflop_params()
        if p.tightness is not None:
            params = replace(params, tightness=p.tightness)
        self.expert = PreflopExpert(params)
        self.rng = np.random.default_rng(seed)

    # --- the lifecycle ----------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        self.modeller.start(context)

    def freeze(self) -> None:
        """Learn nothing in this match (``simulator.LearningBot``): its opponent model's
        frequencies stay as they start."""
        self.modeller.freeze()

    def observe(self, event: Event) -> None:
        self.modeller.observe(event)

    def reset(self) -> None:
        self.modeller.reset()

    # --- decisions --------------------------------------------------------------------------

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy:
        """Each holding's chance of each action at ``observation`` (see the class doc)."""
        indices = holding_indices(holdings, observation.board)
        path = self.modeller.path_of(observation)
        if observation.street is Street.PREFLOP:
            pre = preflop_rows(observation, path, self.expert, NO_DEFENCE, indices)
            return Policy(pre.actions, pre.probabilities)
        rows = self.rows(observation, path, indices)
        return Policy(rows.actions, rows.probabilities)

    def step_with_policy(self, observation: Observation) -> tuple[Policy, Action]:
        """The decision for our own holding: its row, and the action drawn from it."""
        rows, action, _ = self._played(observation)
        return Policy(rows.actions, rows.probabilities), action

    def act(self, observation: Observation) -> Action:
        return self._played(observation)[1]

    def choose(self, observation: Observation) -> tuple[Action, LokiDecision | None]:
        """The action drawn for our own holding, as ``act`` draws it, and after the flop the
        decision behind it (which rule, at what strength)."""
        _, action, decision = self._played(observation)
        return action, decision

    def _played(self, observation: Observation
                ) -> tuple[PreflopRows | LokiRows, Action, LokiDecision | None]:
        """Our own holding's rows, the action drawn from them and, after the flop, the
        decision record."""
        if observation.street is Street.PREFLOP:
            path = self.modeller.path_of(observation)
            pre = preflop_rows(observation, path, self.expert, NO_DEFENCE, self._own(observation))
            return pre, pre.actions[draw_index(pre.probabilities[0], self.rng)], None
        rows, decision = self._decide(observation)
        return rows, decision.action, decision

    def decide(self, obs: Observation) -> LokiDecision:
        """The post-flop decision for ``obs`` (draws one number from the generator)."""
        return self._decide(obs)[1]

    def _decide(self, obs: Observation) -> tuple[LokiRows, LokiDecision]:
        path = self.modeller.path_of(obs)
        rows = self.rows(obs, path, self._own(obs))
        chances = np.array([p[0] for _, _, p in rows.rules])
        chosen = int(self.rng.choice(len(chances), p=chances / chances.sum()))
        return rows, rows.decision(0, chosen, _action(obs, rows.rules[chosen][1]))

    @staticmethod
    def _own(obs: Observation) -> np.ndarray:
        return np.array([HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]]])

    def rows(self, obs: Observation, path: Sequence[HandModel],
             holdings: np.ndarray) -> LokiRows:
        """The post-flop decision at ``obs`` for each holding (indices); ``path`` is the
        modeller's picture before each action of ``obs.history`` and now."""
        weights = [self.modeller.weights(s, path[-1]) for s in obs.live_opponents]
        strength = range_strength(obs.board, weights, holdings, self.lookahead)
        rnd = read_round(obs)
        odds = pot_odds(obs)
        b = _bet_chips(obs)
        odds2 = 2 * b / (obs.pot + 6 * b) if b > 0 else 0.0
        continuing = self._continuing(obs, rnd, path, holdings)
        rules = self.rules.table(rnd, strength.ehs_optimistic, strength.ppot, strength.hs_n,
                                 obs.street, odds, odds2, continuing)
        plays = [_action(obs, kind) for _, kind, _ in rules]
        actions = tuple(dict.fromkeys(plays))
        probabilities = np.zeros((len(holdings), len(actions)))
        for action, (_, _, chance) in zip(plays, rules, strict=True):
            probabilities[:, actions.index(action)] += chance
        return LokiRows(strength, rnd, odds, odds2, continuing, rules, actions, probabilities)

    def _continuing(self, obs: Observation, rnd: Round, path: Sequence[HandModel],
                    holdings: np.ndarray) -> np.ndarray:
        """Each hand's chance that a semi-bluff goes on: we bet on the previous round, no
        opponent bet or raised since, nothing is owed now, and (by Bayes over that bet's
        rules) the bet was a semi-bluff."""
        none = np.zeros(len(holdings))
        previous = obs.street - 1
        if previous < Street.FLOP or rnd.facing:
            return none
        history = obs.history
        if any(r.kind is ActionKind.RAISE and r.seat != obs.seat and r.street >= previous
               for r in history):
            return none
        ours = [i for i, r in enumerate(history) if r.seat == obs.seat and r.street == previous]
        if not ours:
            return none
        i = ours[0]
        before = observations_along(obs, (i,))[0]
        taken = Action(history[i].kind, history[i].amount)
        then = self.rows(before, path[:i + 1], holdings)
        fits = [(rule, chance) for rule, kind, chance in then.rules
                if _action(before, kind) == taken]
        played = sum((chance for _, chance in fits), none)
        bluffed = sum((chance for rule, chance in fits if rule == "semi-bluff"), none)
        return np.where(played > 0, bluffed / np.where(played > 0, played, 1.0), 0.0)
