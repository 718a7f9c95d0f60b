"""The policy contract, checked the same way for every bot that states its policy.

* **Well formed**: every row sums to 1 over distinct legal actions; no holdings gives an
  empty array of the right shape; a bad or clashing holding is a PolicyError naming it.
* **No side effects**: a match played with policy queries (every holding, and states the hand
  never reached) before every ``act`` is identical, action for action, to one without.
* **Independent of the real cards**: two copies of a bot told different hole cards, and
  otherwise the same events, give identical rows.
* **Consistent with act**: at a fixed decision, the actions ``act`` draws over many seeds
  fit the row of its own holding (a chi-square test).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Callable

import numpy as np
from scipy.stats import chisquare

from simulator import (
    Action,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HoleCardsDealt,
    Observation,
    Policy,
    PolicyBot,
)
from simulator.core.cards import HOLDINGS
from simulator.core.state import HandState
from simulator.play.match import play_match

Factory = Callable[[int], PolicyBot]


def live_holdings(obs: Observation) -> list[tuple[int, int]]:
    """Every holding free of the board."""
    board = set(obs.board)
    return [(int(a), int(b)) for a, b in HOLDINGS.tolist() if a not in board and b not in board]


def check_rows(policy: Policy, obs: Observation, n: int) -> None:
    policy.check(obs.legal)
    assert policy.probabilities.shape == (n, len(policy.actions))


def what_if(obs: Observation, rng: np.random.Generator) -> Observation | None:
    """A state the hand did not reach where ``obs.seat`` is to act again: the hand replayed
    from the observation with stand-in cards, then random legal actions until it is the
    seat's turn (None if the hand ends first)."""
    folded = {r.seat for r in obs.history if r.kind.value == "f"}
    dealt = [a or s in folded for s, a in enumerate(obs.active)]
    start = [obs.stacks[s] + obs.contributions[s] for s in range(obs.num_seats)]
    spare = [c for c in range(52) if c not in obs.hole_cards and c not in obs.board]
    holes: list[tuple[int, int] | None] = []
    for s in range(obs.num_seats):
        if s == obs.seat:
            holes.append((obs.hole_cards[0], obs.hole_cards[1]))
        else:
            holes.append((spare.pop(), spare.pop()) if dealt[s] else None)
    state = HandState(obs.game, start, obs.button, holes, list(obs.board) + spare[:5],
                      hand_number=obs.hand_number, dealt_in=dealt)
    for r in obs.history:
        state.apply(Action(r.kind, r.amount))
    for _ in range(12):
        legal = state.legal_actions()
        options = [Action.call()] + ([Action.raise_to(legal.min_raise_to)]
                                     if legal.can_raise else [])
        if state.actor != obs.seat and legal.can_fold and rng.random() < 0.1:
            options.append(Action.fold())
        state.apply(options[int(rng.integers(len(options)))])
        if state.finished:
            return None
        if state.actor == obs.seat:
            return state.observation(obs.seat)
    return None


class Asking(BaseBot):
    """Wraps a bot and asks its policy (every holding, then a state the hand never
    reached) before every act."""

    def __init__(self, bot: PolicyBot, seed: int) -> None:
        self.bot, self.rng, self.asked = bot, np.random.default_rng(seed), 0

    def start(self, context: BotContext) -> None:
        if hasattr(self.bot, "start"):
            self.bot.start(context)

    def observe(self, event: Event) -> None:
        if hasattr(self.bot, "observe"):
            self.bot.observe(event)

    def close(self) -> None:
        if hasattr(self.bot, "close"):
            self.bot.close()

    def act(self, observation: Observation) -> Action:
        holdings = live_holdings(observation)
        check_rows(self.bot.policy(observation, holdings), observation, len(holdings))
        other = what_if(observation, self.rng)
        if other is not None:
            more = live_holdings(other)[::7]
            check_rows(self.bot.policy(other, more), other, len(more))
        self.asked += 1
        return self.bot.act(observation)


def match_digest(game: GameConfig, bots: list[BaseBot], hands: int, seed: int) -> str:
    h = hashlib.sha256()
    for result in play_match(game, bots, hands, seed=seed):
        h.update(repr(([(r.seat, r.kind.value, r.amount) for r in result.history.actions],
                       result.net)).encode())
    return h.hexdigest()


def no_side_effects(factory: Factory, rivals: Callable[[], list[BaseBot]], game: GameConfig,
                    hands: int, seed: int) -> int:
    """Play the match plainly and with queries interleaved; returns the decisions asked."""
    plain = match_digest(game, [factory(1), *rivals()], hands, seed)
    asking = Asking(factory(1), seed)
    assert match_digest(game, [asking, *rivals()], hands, seed) == plain
    return asking.asked


class Recorder(BaseBot):
    """Wraps a bot; keeps the events it got and the observations it acted on."""

    def __init__(self, bot: PolicyBot) -> None:
        self.bot, self.events, self.decisions = bot, [], []

    def start(self, context: BotContext) -> None:
        self.context = context
        if hasattr(self.bot, "start"):
            self.bot.start(context)

    def observe(self, event: Event) -> None:
        self.events.append(event)
        if hasattr(self.bot, "observe"):
            self.bot.observe(event)

    def act(self, observation: Observation) -> Action:
        self.decisions.append((len(self.events), observation))
        return self.bot.act(observation)


def replayed(factory: Factory, seed: int, context: BotContext, events: list[Event],
             swap: tuple[int, int] | None = None) -> PolicyBot:
    """A fresh bot told ``events`` (its own hole cards of the last hand replaced by
    ``swap``: what it learned from earlier hands is its own business)."""
    bot = factory(seed)
    if hasattr(bot, "start"):
        bot.start(context)
    last = max((i for i, e in enumerate(events) if isinstance(e, HoleCardsDealt)), default=-1)
    for i, e in enumerate(events):
        if swap is not None and i == last:
            assert isinstance(e, HoleCardsDealt)
            e = HoleCardsDealt(e.seat, swap)
        if hasattr(bot, "observe"):
            bot.observe(e)
    return bot


def at_decision(factory: Factory, rec: Recorder, index: int, seed: int = 0
                ) -> tuple[PolicyBot, Observation]:
    """Recorded decision ``index``'s observation, and a fresh bot told the events before it:
    the bot as it stood at that decision (a bot answers for the hand it is playing, so the
    recorded bot, which has played on, may refuse an earlier hand's observation)."""
    count, obs = rec.decisions[index]
    return replayed(factory, seed, rec.context, rec.events[:count]), obs


def recorded_decisions(factory: Factory, rivals: list[BaseBot], game: GameConfig,
                       hands: int, seed: int) -> Recorder:
    rec = Recorder(factory(seed))
    list(play_match(game, [rec, *rivals], hands, seed=seed))
    return rec


def independent_of_real_cards(factory: Factory, rec: Recorder, picks: int = 6) -> int:
    """At recorded decisions, copies told other hole cards give identical rows."""
    checked = 0
    for count, obs in rec.decisions[-picks:]:
        events = rec.events[:count]
        spare = [c for c in range(52) if c not in obs.board and c not in obs.hole_cards]
        swap = (spare[0], spare[1])
        a = replayed(factory, 3, rec.context, events)
        b = replayed(factory, 3, rec.context, events, swap)
        obs_b = dataclasses.replace(obs, hole_cards=swap)
        holdings = live_holdings(obs)[::5]
        pa, pb = a.policy(obs, holdings), b.policy(obs_b, holdings)
        assert pa.actions == pb.actions
        assert np.array_equal(pa.probabilities, pb.probabilities)
        checked += 1
    return checked


def consistent_with_act(factory: Factory, rec: Recorder, index: int, draws: int,
                        reseed: Callable[[PolicyBot, int], None] | None = None) -> float:
    """The p-value of a chi-square test of ``draws`` actions against the row of the bot's
    own holding at recorded decision ``index``: one fresh bot per seed told the same events,
    or, with ``reseed``, one bot whose generator is re-seeded before each draw (for a bot
    whose ``act`` changes nothing but its generator)."""
    count, obs = rec.decisions[index]
    events = rec.events[:count]
    bot = replayed(factory, 0, rec.context, events)
    row_policy = bot.policy(obs, [tuple(obs.hole_cards)])
    row = row_policy.probabilities[0]
    seen: Counter[int] = Counter()
    for seed in range(draws):
        if reseed is None:
            action = replayed(factory, seed, rec.context, events).act(obs)
        else:
            reseed(bot, seed)
            action = bot.act(obs)
        seen[row_policy.index_of(action)] += 1
    observed = np.array([seen[j] for j in range(len(row))], dtype=np.float64)
    keep = row > 0
    assert observed[~keep].sum() == 0, "act played an action its row gives no chance"
    if keep.sum() < 2:
        return 1.0
    return float(chisquare(observed[keep], row[keep] * draws).pvalue)
