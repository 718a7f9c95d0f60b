"""The pre-flop expert: Loki's rules on the income-rate tables.

Sources: Papp 1998 (MSc thesis, U. Alberta), section 6.1 and appendix B; L. Pena's MSc thesis
(U. Alberta, 1999), its pages on Loki's pre-flop and post-flop strategies, cited by address:
webdocs.cs.ualberta.ca/~jonathan/PREVIOUS/Grad/pena/node21.html and node24.html.

**Choosing a strategy.** At its first pre-flop decision of a hand the expert reads the
situation (``agent.preflop.situation``: position, expected players, bets), picks the income-rate
table of the expected players (below ``groups.ir4_from``: IR2; below ``groups.ir7_from``: IR4;
else IR7) and computes each strategy's threshold ``base + increment * position`` from the
lines of its tightness on that table. It then plays the most aggressive strategy whose
threshold is at most the hand's IR plus a noise ``u``, drawn once per hand uniformly from
``[-randomization, +randomization]`` with the bot's generator: a hand within that distance of
a threshold plays either side of it, with a probability linear in the distance, so play is
not a fixed function of the cards. Strategies, from the most passive: Make0, Call1, Make1,
Call2, Make2, Make4; Call1 and Call2 are the small blind's only. As in Loki, the strategy
chosen at the first decision governs the rest of the hand's pre-flop decisions.

**What each strategy does.** ``B`` is the round's bet level (the big blind is the first bet,
each raise adds one), ``facing`` the levels we have not matched, ``voluntary`` whether we
already called or raised this round (``agent.preflop.situation``):

=========  ==================================================================================
Make0      check if checking is free, else fold
Call1      call (complete the small blind) if facing at most 1 bet; else call only if
           ``voluntary``, else fold (never raises)
Make1      the same as Call1 (in the small blind they differ only in their thresholds): it
           calls one bet but folds to two, unless it already put chips in this round
           (Loki-1's post-flop exception, Pena node24)
Call2      call if facing at most 2 bets; else call only if ``voluntary``, else fold
Make2      raise if ``B < 2`` (only the blinds are in), else call (Pena node21)
Make4      raise while ``B`` is below the cap (limit: the game's cap, or ``make4_bets``
           without one; no-limit: ``make4_bets``), else call
=========  ==================================================================================

A fold when checking is free becomes a check, and a raise that is not legal (the cap is
reached, or no opponent can call more) becomes a call.

**No-limit.** Raises are sized: an unraised pot (``B = 1``) is opened to
``open_bb + limper_bb * limpers`` big blinds; a raised pot is re-raised to
``reraise_factor`` times the bet faced. Make4 moves all-in when its raise would commit more
than ``allin_fraction`` of its starting stack. A call that would bring the chips we put in this
hand above ``max_commit[strategy]`` of our starting stack is a fold (a check when free), so a
Make2 hand does not call off its stack. Every size is clamped to the legal range.

>>> from simulator.core.cards import parse_cards
>>> from simulator.core.game import GameConfig
>>> from simulator.core.state import HandState
>>> import numpy as np
>>> from dataclasses import replace
>>> from agent.preflop.params import DEFAULT_PARAMS_FILE, load_preflop_params
>>> params = replace(load_preflop_params(DEFAULT_PARAMS_FILE), tightness="moderate")
>>> expert = PreflopExpert(params)
>>> holes = [tuple(parse_cards(h)) for h in ("2c3d", "4c5d", "7c7d", "Ah8h")]
>>> s = HandState(GameConfig(variant="limit", blinds=(1, 2)), [100] * 4, button=3,
...               holes=holes, board=parse_cards("KcQcJd9s2s"))
>>> _ = s.check_or_call()  # seat 2 (under the gun) limps; the button has Ah 8h
>>> d = expert.decide(s.observation(3), np.random.default_rng(1))
>>> d.strategy, str(d.action), d.table, d.expected_players, d.position
('make2', 'raise to 4', 4, 3.2, 0)
>>> {k: d.thresholds[k] for k in ("make4", "make2", "make1")}
{'make4': 580, 'make2': 200, 'make1': 50}
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from agent.preflop.errors import PreflopError
from agent.preflop.income_rates import ir_vector
from agent.preflop.params import STRATEGIES, PreflopParams
from agent.preflop.situation import Situation, read_situation
from simulator.core.actions import Action
from simulator.core.cards import HOLDING_INDEX
from simulator.core.frozen import FrozenMap
from simulator.core.observation import Observation
from simulator.core.streets import Street

_CALL_LIMIT = {"call1": 1, "make1": 1, "call2": 2}  # bets a calling strategy faces cold
_SMALL_BLIND_ONLY = ("call1", "call2")


@dataclass(frozen=True)
class PreflopPlan:
    """The strategy chosen at the first pre-flop decision of a hand, and why."""

    strategy: str
    ir: int  # the hand's income rate on ``table`` (thousandths)
    table: int  # 2, 4 or 7: the IR table of the expected players
    noise: float  # the randomization added to ``ir`` before comparing with thresholds
    thresholds: FrozenMap[str, int]  # every strategy's threshold but Make0's
    expected_players: float
    position: int


@dataclass(frozen=True)
class PreflopDecision:
    """An action and the plan behind it."""

    action: Action
    plan: PreflopPlan

    @property
    def strategy(self) -> str:
        return self.plan.strategy

    @property
    def ir(self) -> int:
        return self.plan.ir

    @property
    def table(self) -> int:
        return self.plan.table

    @property
    def thresholds(self) -> FrozenMap[str, int]:
        return self.plan.thresholds

    @property
    def expected_players(self) -> float:
        return self.plan.expected_players

    @property
    def position(self) -> int:
        return self.plan.position


class PreflopExpert:
    """Loki's pre-flop rules; one per bot (it remembers the current hand's plan)."""

    def __init__(self, params: PreflopParams) -> None:
        self.params = params
        self._ir = _ir_lists()
        self._key: tuple | None = None
        self._plan: PreflopPlan | None = None

    def table_for(self, expected_players: float) -> int:
        """The IR table (2, 4 or 7) for a number of expected players."""
        groups = self.params.groups
        if expected_players < groups.ir4_from:
            return 2
        return 4 if expected_players < groups.ir7_from else 7

    def candidates(self, situation: Situation) -> tuple[int, tuple[str, ...], dict[str, int]]:
        """For a first decision: the IR table, the strategies that may be played (the most
        passive, Make0, first) and the threshold of each but Make0."""
        table = self.table_for(situation.expected_players)
        lines = self.params.lines(table)
        names = STRATEGIES[1:] if situation.small_blind else ("make1", "make2", "make4")
        thresholds = {name: getattr(lines, name).at(situation.position) for name in names}
        return table, ("make0", *names), thresholds

    def chances(self, situation: Situation, irs: np.ndarray) -> tuple[tuple[str, ...],
                                                                       np.ndarray]:
        """The chance of each strategy for each income rate in ``irs`` (hands on the
        situation's table): the noise ``u`` is uniform on ``[-r, r]`` and the strategy is the
        most aggressive whose threshold is at most ``IR + u``. Shape (len(irs), strategies).

        >>> from agent.preflop.params import DEFAULT_PARAMS_FILE, load_preflop_params
        >>> expert = PreflopExpert(load_preflop_params(DEFAULT_PARAMS_FILE))
        >>> sit = Situation(0, 3.2, 1, 1, False, False, 1)
        >>> names, p = expert.chances(sit, np.array([-400, 200, 2000]))
        >>> names, p.round(3).tolist()[1]
        (('make0', 'make1', 'make2', 'make4'), [0.0, 0.0, 1.0, 0.0])
        """
        _, names, thresholds = self.candidates(situation)
        levels = tuple(thresholds[name] for name in names[1:])
        width = float(self.params.randomization)
        irs = np.asarray(irs, dtype=np.float64).reshape(-1)
        # a table has 169 distinct income rates at most (one per class of hands), and a bot
        # meets the same few situations again and again: each rate's row comes from the memo
        index = None
        if len(irs) > 1:  # a decision asks about one holding: unique costs more than its row
            irs, index = np.unique(irs, return_inverse=True)
        rows = [_chance_row(levels, ir, width) for ir in irs.tolist()]
        table = np.array(rows, dtype=np.float64).reshape(len(irs), len(names))
        return names, table if index is None else table[index.reshape(-1)]

    def plan(self, obs: Observation, situation: Situation, rng: np.random.Generator
             ) -> PreflopPlan:
        """Choose the strategy for this situation (the first decision of a hand)."""
        table = self.table_for(situation.expected_players)
        ir = self._ir[table][int(HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]])]
        lines = self.params.lines(table)
        names = STRATEGIES[1:] if situation.small_blind else ("make1", "make2", "make4")
        thresholds = {name: getattr(lines, name).at(situation.position) for name in names}
        width = self.params.randomization
        noise = float(rng.uniform(-width, width)) if width else 0.0
        chosen = "make0"
        for name in names:  # from the passive to the aggressive: the last that qualifies
            if thresholds[name] <= ir + noise:
                chosen = name
        return PreflopPlan(chosen, ir, table, noise, FrozenMap(thresholds),
                           situation.expected_players, situation.position)

    def decide(self, obs: Observation, rng: np.random.Generator) -> PreflopDecision:
        """The action for a pre-flop observation; ``rng`` is the bot's own generator."""
        if obs.street is not Street.PREFLOP or len(obs.hole_cards) != 2:
            raise PreflopError(
                f"the pre-flop expert needs a pre-flop observation with two hole cards, got "
                f"street {obs.street.label} and {len(obs.hole_cards)} cards")
        situation = read_situation(obs, self.params.probability_play)
        key = (obs.hand_number, obs.seat, obs.button, obs.hole_cards)
        if key != self._key or self._plan is None:
            self._key, self._plan = key, self.plan(obs, situation, rng)
        return PreflopDecision(self._act(self._plan.strategy, obs, situation), self._plan)

    # --- the strategies' actions ------------------------------------------------------------

    def irs(self, table: int, holdings: np.ndarray) -> np.ndarray:
        """The income rates of ``holdings`` on the IR table for ``table`` players."""
        return _ir_arrays()[table][holdings]

    def action_for(self, strategy: str, obs: Observation, situation: Situation) -> Action:
        """What ``strategy`` plays at this decision (see the module docstring's table)."""
        return self._act(strategy, obs, situation)

    def _act(self, strategy: str, obs: Observation, situation: Situation) -> Action:
        if strategy == "make0":
            return obs.legal.check_or_fold()
        if strategy in _CALL_LIMIT:
            if situation.facing <= _CALL_LIMIT[strategy] or situation.voluntary:
                return self._call(strategy, obs)
            return obs.legal.check_or_fold()
        target = 2 if strategy == "make2" else self._cap(obs)
        if situation.bet_level < target and obs.legal.can_raise:
            return Action.raise_to(self._raise_to(strategy, obs, situation))
        return self._call(strategy, obs)

    def _cap(self, obs: Observation) -> int:
        game = obs.game
        cap = game.bet_cap
        return cap if cap is not None else self.params.make4_bets

    def _call(self, strategy: str, obs: Observation) -> Action:
        if obs.game.is_limit or obs.legal.call_amount == 0:
            return Action.call()
        limit = getattr(self.params.nolimit.max_commit, strategy)
        start = obs.stacks[obs.seat] + obs.contributions[obs.seat]
        if obs.contributions[obs.seat] + obs.legal.call_amount > limit * start:
            return obs.legal.check_or_fold()
        return Action.call()

    def _raise_to(self, strategy: str, obs: Observation, situation: Situation) -> int:
        low, high = obs.legal.raise_bounds  # _act asks only when raising is legal
        if obs.game.is_limit:
            return int(low)
        nl, bb = self.params.nolimit, obs.game.big_blind
        if situation.bet_level == 1:
            size = (nl.open_bb + nl.limper_bb * situation.limpers) * bb
        else:
            size = nl.reraise_factor * max(obs.bets)
        start = obs.stacks[obs.seat] + obs.contributions[obs.seat]
        committed = obs.contributions[obs.seat] - obs.bets[obs.seat] + size
        if strategy == "make4" and committed > nl.allin_fraction * start:
            size = high
        return int(min(max(round(size), low), high))


@functools.lru_cache(maxsize=8192)  # a few hundred bytes an entry
def _chance_row(levels: tuple[int, ...], ir: float, width: float) -> tuple[float, ...]:
    """:meth:`PreflopExpert.chances` of one income rate ``ir``, with the thresholds ``levels``
    of every strategy but Make0 and the noise half-width ``width``: strategy i qualifies once
    ``u >= levels[i] - ir``, and the chosen one is the most aggressive that qualifies. The
    cuts split ``[-width, width]`` into pieces; each piece's chance goes to the strategy its
    midpoint chooses.

    >>> _chance_row((-50, 120, 535), 100.0, 50.0)  # Make1 for sure, Make2 within reach
    (0.0, 0.7, 0.3, 0.0)
    """
    cuts = [level - ir for level in levels]
    out = [0.0] * (len(levels) + 1)
    if not width:
        out[_last_qualifying(cuts, 0.0)] = 1.0
        return tuple(out)
    edges = sorted([-width, *(min(max(c, -width), width) for c in cuts), width])
    for low, high in zip(edges, edges[1:], strict=False):
        out[_last_qualifying(cuts, (low + high) / 2)] += (high - low) / (2 * width)
    return tuple(out)


def _last_qualifying(cuts: list[float], u: float) -> int:
    """The index (Make0 = 0) of the most aggressive strategy whose cut the noise ``u``
    reaches."""
    chosen = 0
    for i, cut in enumerate(cuts, start=1):
        if u >= cut:
            chosen = i
    return chosen


@functools.cache
def _ir_arrays() -> dict[int, np.ndarray]:
    return {x: ir_vector(x).astype(np.float64) for x in (2, 4, 7)}


@functools.cache
def _ir_lists() -> dict[int, list[int]]:
    """Plain lists: a Python int lookup beats indexing a numpy array on every decision."""
    return {x: [int(v) for v in ir_vector(x)] for x in (2, 4, 7)}


def describe(decision: PreflopDecision) -> str:
    """One line for traces and the terminal.

    >>> plan = PreflopPlan("make2", 338, 4, 0.0, FrozenMap({"make2": 200}), 3.2, 0)
    >>> describe(PreflopDecision(Action.raise_to(4), plan))
    'make2 (IR4 338 vs make2 200; 3.2 expected players, position 0): raise to 4'
    """
    p = decision.plan
    shown = p.thresholds.get(p.strategy)
    versus = f" vs {p.strategy} {shown}" if shown is not None else ""
    return (f"{p.strategy} (IR{p.table} {p.ir}{versus}; {p.expected_players:g} expected "
            f"players, position {p.position}): {decision.action}")
