"""Shared by the modeller tests: a bot around the modeller, and oracles built on the engine.

The oracles read the engine's own records (``HandHistory``) and replay them with
``HandState``, never the modeller's tracker, so they check it rather than repeat it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from agent.modeller import ModellerParams, OpponentModeller
from agent.modeller.model import default_preflop_values
from agent.strength.ehs import hand_strength
from simulator import Action, ActionKind, BaseBot, BotContext, Event, Observation
from simulator.core.positions import table_order
from simulator.core.records import HandHistory
from simulator.core.state import HandState


def preflop_values() -> np.ndarray:
    """IR7 of every holding (the shipped income-rate tables)."""
    return default_preflop_values()


class ModelBot(BaseBot):
    """Feeds every event to its modeller and acts at random from its own generator.

    ``probe(bot, observation)`` runs before each decision (queries, weight checks).
    """

    def __init__(self, seed: int, params: ModellerParams | None = None, mode: str = "full",
                 probe: Callable[[ModelBot, Observation], None] | None = None,
                 raise_p: float = 0.3, fold_p: float = 0.15) -> None:
        self.rng = np.random.default_rng(seed)
        self.model = OpponentModeller(params, mode, preflop_values())
        self.probe = probe
        self.raise_p, self.fold_p = raise_p, fold_p

    def start(self, context: BotContext) -> None:
        self.context = context
        self.model.start(context)

    def observe(self, event: Event) -> None:
        self.model.observe(event)

    def random_action(self, obs: Observation) -> Action:
        legal = obs.legal
        roll = self.rng.random()
        if roll < self.fold_p and legal.can_fold:
            return Action.fold()
        if roll < self.fold_p + self.raise_p and legal.can_raise:
            high = legal.max_raise_to if roll < self.fold_p + 0.02 else min(
                legal.max_raise_to, legal.min_raise_to + obs.pot)
            return Action.raise_to(int(self.rng.integers(legal.min_raise_to, high + 1)))
        return Action.call()

    def act(self, obs: Observation) -> Action:
        if self.probe is not None:
            self.probe(self, obs)
        return self.random_action(obs)


# --- oracles --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OracleAction:
    street: int
    kind: int  # 0 fold, 1 call, 2 raise
    size: int
    position: int
    seat: int


KIND = {ActionKind.FOLD: 0, ActionKind.CALL: 1, ActionKind.RAISE: 2}


def full_board(history: HandHistory) -> tuple[int, ...]:
    used = set(history.board) | {c for h in history.holes if h for c in h}
    spare = [c for c in range(52) if c not in used]
    return tuple(history.board) + tuple(spare[:5 - len(history.board)])


def replay(history: HandHistory, upto: int | None = None) -> HandState:
    state = HandState(history.game, history.starting_stacks, history.button, history.holes,
                      full_board(history), hand_number=history.hand_number,
                      dealt_in=history.dealt_in)
    for record in history.actions[:upto]:
        state.apply(Action(record.kind, record.amount))
    return state


def oracle_size(state: HandState, seat: int, action: Action, edges: tuple[float, ...]) -> int:
    """The size code by the definition: pot fraction of the raise over the call, all-in last."""
    if action.kind is not ActionKind.RAISE or state.game.is_limit:
        return 0
    top = max(state.bets)
    frac = (action.amount - top) / (state.pot + top - state.bets[seat])
    if action.amount == state.bets[seat] + state.stacks[seat]:
        return len(edges) + 2
    return 1 + sum(frac >= e for e in edges)


def oracle_chain(history: HandHistory, edges: tuple[float, ...], upto: int | None = None,
                 candidate: tuple[int, Action] | None = None) -> list[OracleAction]:
    """The hand's actions (the first ``upto``, then ``candidate``) as the chain should keep."""
    order = table_order(history.dealt_in, history.button)
    state = HandState(history.game, history.starting_stacks, history.button, history.holes,
                      full_board(history), hand_number=history.hand_number,
                      dealt_in=history.dealt_in)
    out = []
    steps = [(r.seat, Action(r.kind, r.amount)) for r in history.actions[:upto]]
    if candidate is not None:
        steps.append(candidate)
    for i, (seat, action) in enumerate(steps):
        out.append(OracleAction(int(state.street), KIND[action.kind],
                                oracle_size(state, seat, action, edges), order.index(seat), seat))
        if i < len(steps) - 1 or candidate is None:
            state.apply(action)
    return out


def oracle_ending(history: HandHistory, us: int) -> int:
    """0 showdown, 1 everyone else folded, 2 we folded."""
    if any(r.seat == us and r.kind is ActionKind.FOLD for r in history.actions):
        return 2
    return 0 if len(history.shown) > 1 else 1


def oracle_shown(history: HandHistory, us: int) -> list[float]:
    board = full_board(history)
    return [hand_strength(list(cards), list(board)) for s, cards in history.shown.items()
            if s != us]
