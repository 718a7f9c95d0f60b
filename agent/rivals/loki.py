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
(:func:`~agent.strength.against.strength_against`): HS_n, the product of the HS against each
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

from dataclasses import dataclass, replace

import numpy as np

from agent.modeller import ModellerParams, OpponentModeller
from agent.preflop.expert import PreflopExpert
from agent.preflop.params import DEFAULT_PARAMS_FILE, load_preflop_params
from agent.rivals.betting import bet_or_raise, check_or_fold, pot_odds, pot_raise_to
from agent.rivals.params import LokiParams, RivalParamsError, validated
from agent.strength.against import TableStrength, strength_against
from simulator import (
    Action,
    ActionKind,
    BaseBot,
    BotContext,
    Event,
    HandStarted,
    Observation,
    Street,
)
from simulator.core.betting import Betting

_TRIPLE_INDEX = {ActionKind.FOLD: 0, ActionKind.CALL: 1, ActionKind.RAISE: 2}


class LokiParamsError(RivalParamsError):
    """A Loki parameter out of its range."""


def passes(x: float, threshold: float, spread: float) -> float:
    """The chance that ``x >= threshold`` passes on a linear ramp of half-width ``spread``.

    >>> passes(0.86, 0.85, 0.0), passes(0.84, 0.85, 0.0), round(passes(0.83, 0.85, 0.05), 6)
    (1.0, 0.0, 0.3)
    """
    if spread <= 0:
        return 1.0 if x >= threshold else 0.0
    return float(min(max((x - threshold) / (2 * spread) + 0.5, 0.0), 1.0))


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
        out: list[Branch] = []
        rest = 1.0

        def take(rule: str, kind: ActionKind, chance: float) -> None:
            nonlocal rest
            if rest * chance > 0:
                out.append(Branch(rule, kind, rest * chance))
            rest *= 1.0 - chance

        ehs = strength.ehs_optimistic
        take("make2", ActionKind.RAISE if rnd.bets_made < 2 else ActionKind.CALL,
             passes(ehs, self.make2, self.spread))
        make1 = passes(ehs, self.make1, self.spread)
        if rnd.facing == 0:
            take("make1", ActionKind.RAISE, make1)
        elif rnd.facing == 1 or rnd.voluntary:
            take("make1", ActionKind.CALL, make1)
        if rnd.facing == 0:
            take("semi-bluff", ActionKind.RAISE,
                 1.0 if continuing else passes(strength.ppot, odds2, self.odds_spread))
            take("check", ActionKind.CALL, 1.0)
        else:
            river = street is Street.RIVER
            take("showdown odds" if river else "pot odds", ActionKind.CALL,
                 passes(strength.hs_n if river else strength.ppot, odds, self.odds_spread))
            take("fold", ActionKind.FOLD, 1.0)
        return tuple(out)

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


def _bet_chips(obs: Observation) -> int:
    """The chips our bet would put in: one bet in limit, the pot in no-limit."""
    game = obs.game
    if game.is_limit:
        return game.bet_size(obs.street)
    if obs.legal.can_raise:
        return pot_raise_to(obs) - obs.bets[obs.seat]
    return obs.pot


class LokiBot(BaseBot):
    """Loki-1 (Papp 1998): the pre-flop expert's income-rate rules, then make2 / make1 on
    EHS' against its own opponent weight arrays, semi-bluffs, pot and showdown odds.

    ``make2``, ``make1``, ``spread``, ``odds_spread``: see :class:`LokiRules`; ``lookahead``
    cards for PPOT (1: Papp's PPOT1); ``model`` the modeller's mode (``"frequencies"``: Loki-1;
    ``"off"``: uniform weights); ``tightness`` of the pre-flop rules (None: the parameter
    file's); ``seed`` for its own generator.
    """

    def __init__(self, make2: float = 0.85, make1: float = 0.50, spread: float = 0.05,
                 odds_spread: float = 0.02, lookahead: int = 1, model: str = "frequencies",
                 tightness: str | None = None, seed: int | None = None) -> None:
        p = validated(LokiParams, "loki", {
            "make2": make2, "make1": make1, "spread": spread, "odds_spread": odds_spread,
            "lookahead": lookahead, "model": model, "tightness": tightness}, LokiParamsError)
        self.rules = LokiRules(p.make2, p.make1, p.spread, p.odds_spread)
        self.lookahead = p.lookahead
        # Papp's Loki-1 counts by bets to call only; the raised-back context is our agent's
        self.modeller = OpponentModeller(ModellerParams(raised_back_context=False),
                                         mode=p.model)
        params = load_preflop_params(DEFAULT_PARAMS_FILE)
        if p.tightness is not None:
            params = replace(params, tightness=p.tightness)
        self.expert = PreflopExpert(params)
        self.rng = np.random.default_rng(seed)
        self.last_decision: LokiDecision | None = None
        self._bluff: tuple[int, Street] | None = None  # (hand, street) of our last semi-bluff

    # --- the lifecycle ----------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        self.modeller.start(context)

    def freeze(self) -> None:
        """Learn nothing in this match (``simulator.LearningBot``): its opponent model's
        frequencies stay as they start."""
        self.modeller.freeze()

    def observe(self, event: Event) -> None:
        self.modeller.observe(event)
        if isinstance(event, HandStarted):
            self._bluff = None
            self.last_decision = None

    def reset(self) -> None:
        self.modeller.reset()
        self._bluff = None
        self.last_decision = None

    # --- decisions --------------------------------------------------------------------------

    def act(self, observation: Observation) -> Action:
        if observation.street is Street.PREFLOP:
            return self.expert.decide(observation, self.rng).action
        return self.decide(observation).action

    def strength(self, obs: Observation) -> TableStrength:
        """Our strength against each live opponent's weight array."""
        weights = [self.modeller.weights(s) for s in obs.live_opponents]
        return strength_against(obs.hole_cards, obs.board, weights, self.lookahead)

    def decide(self, obs: Observation) -> LokiDecision:
        """The post-flop decision for ``obs`` (draws one number from the generator)."""
        rnd = read_round(obs)
        strength = self.strength(obs)
        odds = pot_odds(obs)
        b = _bet_chips(obs)
        odds2 = 2 * b / (obs.pot + 6 * b) if b > 0 else 0.0
        branches = self.rules.branches(rnd, strength, obs.street, odds, odds2,
                                       self._continuing(obs, rnd))
        chances = np.array([br.probability for br in branches])
        chosen = branches[int(self.rng.choice(len(branches), p=chances / chances.sum()))]
        if chosen.rule == "semi-bluff":
            self._bluff = (obs.hand_number, obs.street)
        decision = LokiDecision(strength, rnd, odds, odds2, branches, chosen.rule,
                                self._action(obs, chosen.kind))
        self.last_decision = decision
        return decision

    def _continuing(self, obs: Observation, rnd: Round) -> bool:
        """We semi-bluffed on the previous round, no opponent bet or raised since, and
        nothing is owed now."""
        if self._bluff is None or rnd.facing:
            return False
        hand, street = self._bluff
        if hand != obs.hand_number or street != obs.street - 1:
            return False
        return not any(r.kind is ActionKind.RAISE and r.seat != obs.seat and r.street >= street
                       for r in obs.history)

    @staticmethod
    def _action(obs: Observation, kind: ActionKind) -> Action:
        if kind is ActionKind.FOLD:
            return check_or_fold(obs)
        if kind is ActionKind.RAISE and any(obs.stacks[o] > 0 for o in obs.live_opponents):
            return bet_or_raise(obs)
        return Action.call()

