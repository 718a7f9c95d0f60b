"""Small bots whose policies are known in closed form, for the tests of local best response
and AIVAT, and an asker that puts policy questions to bots directly (outside a match)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from simulator.core.actions import Action
from simulator.core.equity import equities
from simulator.core.events import Event
from simulator.core.observation import Observation
from simulator.play.protocol import BaseBot, BotContext, Policy, PolicyBot, holding_indices


@lru_cache(maxsize=64)
def uniform_equities(board: tuple[int, ...]) -> np.ndarray:
    """Every holding's exact equity against a uniform range on ``board``."""
    return equities(board)


class ThresholdBot(BaseBot):
    """Plays on its equity ``e`` against a uniform range: facing a bet it calls with
    probability ``clip((e - call_at) / spread + 1/2)`` and folds otherwise; when it may bet
    (or raise) it does so with probability ``clip((e - bet_at) / spread + 1/2)`` (0 when
    ``bet_at`` is None), else checks or calls. Its rows depend on nothing but the holding and
    the board."""

    def __init__(self, call_at: float = 0.5, bet_at: float | None = None,
                 spread: float = 0.2, seed: int | None = None) -> None:
        self.call_at, self.bet_at, self.spread = call_at, bet_at, spread
        self.rng = np.random.default_rng(seed)

    def _ramp(self, e: np.ndarray, at: float) -> np.ndarray:
        return np.clip((e - at) / self.spread + 0.5, 0.0, 1.0)

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        legal = observation.legal
        e = uniform_equities(tuple(observation.board))[holding_indices(holdings,
                                                                        observation.board)]
        bet = np.zeros_like(e) if self.bet_at is None or legal.min_raise_to is None \
            else self._ramp(e, self.bet_at)
        actions: list[Action] = []
        columns: list[np.ndarray] = []
        rest = 1.0 - bet
        if legal.can_fold:
            call = self._ramp(e, self.call_at) * rest
            actions += [Action.fold(), Action.call()]
            columns += [rest - call, call]
        else:
            actions.append(Action.call())
            columns.append(rest)
        if legal.min_raise_to is not None and self.bet_at is not None:
            actions.append(Action.raise_to(legal.min_raise_to))
            columns.append(bet)
        return Policy(tuple(actions), np.stack(columns, axis=1).reshape(len(holdings), -1))

    def act(self, observation: Observation) -> Action:
        hole = observation.hole_cards
        policy = self.policy(observation, [(hole[0], hole[1])])
        row = policy.probabilities[0]
        return policy.actions[int(self.rng.choice(len(row), p=row / row.sum()))]  # type: ignore[return-value]


class DirectAsker:
    """A :class:`~simulator.play.match.PolicyAsker` stand-in: asks bots directly, checks
    the rows, and fails the test on a fault."""

    def __init__(self, bots: Sequence[object]) -> None:
        self.bots = bots

    def has_policy(self, seat: int) -> bool:
        return isinstance(self.bots[seat], PolicyBot)

    def __call__(self, seat: int, observation: Observation,
                 holdings: Sequence[tuple[int, int]], decision: str | None = None) -> Policy:
        bot = self.bots[seat]
        assert isinstance(bot, PolicyBot)
        policy = bot.policy(observation, holdings)
        policy.check(observation.legal)
        return policy

    def states_row(self, seat: int) -> bool:
        return False  # every row is asked for, as of a bot without step_with_policy

    def drawn_from(self) -> Policy | None:
        return None

    def fault(self, seat: int, problem: str) -> None:
        raise AssertionError(f"seat {seat}: {problem}")


class NoPolicyBot(BaseBot):
    """Checks or calls, and states no policy."""

    def act(self, observation: Observation) -> Action:
        return Action.call()


class BadRowsBot(BaseBot):
    """States a policy whose rows sum to 0.9 on the flop and after (fine before it)."""

    def act(self, observation: Observation) -> Action:
        return Action.call()

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        n = len(holding_indices(holdings, observation.board))
        total = 1.0 if not observation.board else 0.9
        return Policy((Action.call(),), np.full((n, 1), total))


class LiarBot(BaseBot):
    """Says it always calls, but raises whenever it may: act and policy disagree."""

    def act(self, observation: Observation) -> Action:
        low = observation.legal.min_raise_to
        return Action.call() if low is None else Action.raise_to(low)

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        n = len(holding_indices(holdings, observation.board))
        return Policy((Action.call(),), np.ones((n, 1)))


class _Stepping:
    """``step_with_policy`` as the bot's ``policy`` for its holding beside its ``act``,
    whatever the two say (the faulty bots below)."""

    def step_with_policy(self, observation: Observation) -> tuple[Policy, Action]:
        return (self.policy(observation, [observation.hole_cards]),  # type: ignore[attr-defined]
                self.act(observation))  # type: ignore[attr-defined]


class SteppingLiarBot(_Stepping, LiarBot):
    """The liar, stating with each action a row that gives that action no chance."""


class BadStepBot(BaseBot):
    """Calls, but its ``step_with_policy`` answers with the action alone."""

    def act(self, observation: Observation) -> Action:
        return Action.call()

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        n = len(holding_indices(holdings, observation.board))
        return Policy((Action.call(),), np.ones((n, 1)))

    def step_with_policy(self, observation: Observation) -> Action:
        return self.act(observation)


class BadRowStepBot(_Stepping, BadRowsBot):
    """States its action with a row that sums to 0.9 (on the flop and after)."""


class LearningCaller(BaseBot):
    """Calls until it has seen ``learn_after`` hands, then folds to every bet; its policy says
    so. ``freeze()`` stops its counting (the frozen bot keeps calling). It records the order of
    its life's calls in ``calls``."""

    def __init__(self, learn_after: int = 5, seed: int | None = None) -> None:
        self.learn_after = learn_after
        self.seen = 0
        self.frozen = False
        self.calls: list[str] = []

    def freeze(self) -> None:
        self.calls.append("freeze")
        self.frozen = True

    def start(self, context: BotContext) -> None:
        self.calls.append("start")

    def observe(self, event: Event) -> None:
        from simulator.core.events import HandEnded

        if isinstance(event, HandEnded) and not self.frozen:
            self.seen += 1

    def _folds(self, observation: Observation) -> bool:
        return self.seen >= self.learn_after and observation.legal.can_fold

    def act(self, observation: Observation) -> Action:
        return Action.fold() if self._folds(observation) else Action.call()

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        n = len(holding_indices(holdings, observation.board))
        return Policy((self.act(observation),), np.ones((n, 1)))


class UniformLastBot(BaseBot):
    """States a uniform row over its legal actions (fold when it must pay, call, the least
    raise) but always plays the last of them: a lie AIVAT's own check misses, since every
    action it plays has a positive probability."""

    def _actions(self, observation: Observation) -> tuple[Action, ...]:
        legal = observation.legal
        actions = [Action.fold()] if legal.can_fold else []
        actions.append(Action.call())
        if legal.min_raise_to is not None:
            actions.append(Action.raise_to(legal.min_raise_to))
        return tuple(actions)

    def act(self, observation: Observation) -> Action:
        return self._actions(observation)[-1]

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        actions = self._actions(observation)
        n = len(holding_indices(holdings, observation.board))
        return Policy(actions, np.full((n, len(actions)), 1 / len(actions)))


class HalfRowsBot(BaseBot):
    """Calls, and states rows that sum to 0.5: not one of its policy questions is answered."""

    def act(self, observation: Observation) -> Action:
        return Action.call()

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        n = len(holding_indices(holdings, observation.board))
        return Policy((Action.call(),), np.full((n, 1), 0.5))
