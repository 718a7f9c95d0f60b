"""``vexbot``: the bot. At each decision it finds the context-tree node of the public
history, reads its opponent model for every opponent node and showdown leaf below it, values
each action by miximax (:mod:`.search`) for the holdings asked, and plays a softmax of the
values over ``temperature`` pots (0: the best, ties split) drawn with its own seeded
generator.

It learns at the end of every hand (unless frozen): the opponent's actions at their nodes,
and its shown strength at the showdown leaf. Heads-up fixed-limit only, the game ``cfr``
plays (its prior is ``cfr``'s self-play): refused elsewhere before any hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from agent.equilibrium.player import refusal
from agent.equilibrium.tree import CALL, CHANCE, DECISION, FOLD_ACTION, RAISE, SHOWDOWN
from agent.heuristic.selector import draw
from agent.heuristic.warm_up import WarmsUp
from agent.rivals.vexbot import storage
from agent.rivals.vexbot.contexts import COLUMN, context_tree
from agent.rivals.vexbot.model import Estimate, OpponentModel
from agent.rivals.vexbot.params import VexbotParams, validated
from agent.rivals.vexbot.prior import load_prior
from agent.rivals.vexbot.search import root_values, subtree
from agent.rivals.vexbot.strength import river_strengths, win_matrix
from agent.rivals.vexbot.trace import ActionTrace, DecisionTrace, trace_name
from simulator import (
    Action,
    ActionRecord,
    ActionTaken,
    BaseBot,
    BoardDealt,
    BotContext,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Observation,
    Policy,
    Showdown,
)
from simulator.core.cards import HOLDING_INDEX, format_cards
from simulator.core.errors import GameError
from simulator.play.protocol import PolicyError, holding_indices, own_holding

GAME = ("vexbot plays heads-up fixed-limit hold'em only (blinds b/2 and b, bets b and 2b, "
        "cap 4, no ante, stacks reset every hand, at least 24 big blinds: 48 chips at blinds "
        "1/2)")
ACTION_LEVEL_NAMES = ("sequence", "bet counts", "round", "street", "any round", "prior")
SHOWDOWN_LEVEL_NAMES = ("sequence", "bet counts", "final pot", "any showdown", "prior")


@dataclass(frozen=True)
class Values:
    """A decision for some holdings: the root's actions, their values (H, k) in chips, the
    chances of each (H, k), and the model's estimate right after each action (or None)."""

    actions: tuple[Action, ...]
    values: np.ndarray
    probabilities: np.ndarray
    next_estimates: tuple[tuple[str, float] | None, ...]


class VexbotBot(WarmsUp, BaseBot):
    """Vexbot: miximax over the hand's betting tree against a learned, decayed opponent model
    with back-off to a cfr prior (Billings et al. 2004); heads-up limit only."""

    def __init__(self, decay: float = 0.999, prior_weight: float = 5.0, backoff: float = 0.95,
                 bins: int = 16, temperature: float = 0.02, runouts: int = 150,
                 model: str | None = None, save: bool = False, trace: bool = False,
                 seed: int | None = None) -> None:
        self.params = validated(VexbotParams, "vexbot", {
            "decay": decay, "prior_weight": prior_weight, "backoff": backoff, "bins": bins,
            "temperature": temperature, "runouts": runouts, "model": model, "save": save,
            "trace": trace})
        self.contexts = context_tree()
        self.prior = load_prior()
        self.rng = np.random.default_rng(seed)
        self.model = self._new_model()
        self._frozen = False
        self._context: BotContext | None = None
        self._trace: IO[str] | None = None
        self._estimate_key: tuple[int, int, int] | None = None
        self._estimate_cache: tuple[Estimate, Estimate] | None = None
        self._reset_hand()

    def _new_model(self) -> OpponentModel:
        p = self.params
        return OpponentModel(self.contexts, self.prior, p.bins, p.decay, p.prior_weight,
                             p.backoff)

    def _reset_hand(self) -> None:
        self._button = -1
        self._seat: int | None = None
        self._hand: list[ActionRecord] = []
        self._board: tuple[int, ...] = ()
        self._shown: dict[int, tuple[int, int]] = {}

    # --- the game ---------------------------------------------------------------------------

    @classmethod
    def check_game(cls, game: GameConfig, seats: int | None = None) -> None:
        """Refuse, before any work, a game other than heads-up limit of ``cfr``'s structure."""
        problem = refusal(game, seats)
        if problem is not None:
            raise GameError(f"{GAME}; this game is {problem}")

    @classmethod
    def check_seat(cls, params: dict[str, Any], game: GameConfig, seats: int) -> None:
        """The tournament's check of a seat: the game, the parameters, the model file."""
        cls.check_game(game, seats)
        bot = cls(**{k: v for k, v in params.items() if k != "seed"})
        if bot.params.model is not None:
            storage.load(bot.params.model, bot._new_model(), game)

    # --- life -------------------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        self.check_game(context.game, len(context.names))
        started, self._context = self._context is not None, context
        if context.moved and started:  # another table of the same match: model, trace stay
            return
        if self.params.model is not None:
            fresh = self._new_model()
            storage.load(self.params.model, fresh, context.game)
            self.model = fresh
        if self.params.trace and context.directory is not None:
            self._trace = context.open_file(trace_name(context.block, context.permutation))

    def freeze(self) -> None:
        """Learn nothing in this match (``simulator.LearningBot``)."""
        self._frozen = True

    def reset(self) -> None:
        self.model = self._new_model()
        self._reset_hand()

    def close(self) -> None:
        context = self._context
        if self._trace is not None:
            self._trace.close()
            self._trace = None
        if self.params.save and context is not None and context.directory is not None:
            with context.open_file(storage.model_name(context.block, context.permutation),
                                   "wb") as f:
                storage.save(f, self.model, context.game)

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self._reset_hand()
            self._button = event.button
        elif isinstance(event, HoleCardsDealt):
            self._seat = event.seat
        elif isinstance(event, ActionTaken):
            self._hand.append(event.record)
        elif isinstance(event, BoardDealt):
            self._board = event.board
        elif isinstance(event, Showdown):
            self._shown = dict(event.shown.items())
        elif isinstance(event, HandEnded):
            if self._trace is not None:  # a reader between hands (the browser's) sees it whole
                self._trace.flush()
            if not self._frozen and self._seat is not None:
                self._learn()

    def _learn(self) -> None:
        """The finished hand's opponent moves and, at a showdown, its shown strength."""
        t = self.contexts.tree
        opponent = 1 - self._seat if self._seat is not None else 1
        node, moves = 0, []
        for record in self._hand:
            while t.kind[node] == CHANCE:
                node = int(t.child[node, CALL])
            column = COLUMN[record.kind]
            if t.kind[node] != DECISION or t.child[node, column] < 0:
                return  # not a hand of this tree: nothing to learn from it
            if record.seat == opponent:
                moves.append((node, column))
            node = int(t.child[node, column])
        shown = None
        cards = self._shown.get(opponent)
        if cards is not None and t.kind[node] == SHOWDOWN and len(self._board) == 5:
            x = float(river_strengths(self._board)[HOLDING_INDEX[cards[0], cards[1]]])
            shown = (node, 0 if opponent == self._button else 1, x)
        self.model.learn(moves, shown)

    # --- decisions --------------------------------------------------------------------------

    def values(self, obs: Observation, holdings: np.ndarray) -> Values:
        """The decision for the holdings (indices): see the module docstring. Reads only."""
        if obs.num_seats != 2:
            raise PolicyError(f"{GAME}; this hand has {obs.num_seats} seats")
        ct, t = self.contexts, self.contexts.tree
        node = ct.node_of(obs)
        us = 0 if obs.seat == obs.button else 1
        columns = [c for c in (FOLD_ACTION, CALL, RAISE) if t.child[node, c] >= 0]
        legal = obs.legal
        if (FOLD_ACTION in columns) != legal.can_fold or (RAISE in columns) != legal.can_raise:
            raise PolicyError(f"vexbot: the legal actions ({legal}) are not those of its "
                              f"betting tree here")
        sub = subtree(ct, node, us)
        acting_all, shown_all = self._estimates(us)
        acting = _rows(acting_all, sub.nodes[sub.opponent_nodes])
        shown = _rows(shown_all, sub.nodes[sub.showdowns])
        wins = win_matrix(obs.board, self.params.bins, self.params.runouts,
                          self.prior.classes)[holdings]
        rows, inverse = np.unique(wins, axis=0, return_inverse=True)
        value = root_values(ct, sub, us, acting.values, shown.values, rows)
        value = value[inverse.reshape(-1)][:, columns]
        unit = obs.game.blinds[0]  # the tree counts small blinds
        pot = float(t.spent[node].sum())
        chances = _softmax(value, self.params.temperature * pot)
        actions = tuple(Action.fold() if c == FOLD_ACTION else Action.call() if c == CALL
                        else Action.raise_to(int(legal.min_raise_to or 0)) for c in columns)
        nexts = tuple(self._next_estimate(int(t.child[node, c]), sub, acting, shown)
                      for c in columns)
        return Values(actions, value * unit, chances, nexts)

    def _estimates(self, us: int) -> tuple[Estimate, Estimate]:
        """The model's estimates at every opponent node and showdown leaf of the tree, kept
        until the model next learns (why: every decision of a hand read the same model; a
        pre-flop decision reads 6,000 nodes and 10,000 leaves). A cache of what the model
        says, never part of it: asking leaves the model as it was."""
        key = (id(self.model), self.model.hands, us)
        if self._estimate_key != key:
            t = self.contexts.tree
            opponent = np.flatnonzero((t.kind == DECISION) & (t.player != us))
            leaves = np.flatnonzero(t.kind == SHOWDOWN)
            self._estimate_cache = (
                _spread(self.model.action_estimates(opponent), opponent, t.nodes),
                _spread(self.model.showdown_estimates(leaves, 1 - us), leaves, t.nodes))
            self._estimate_key = key
        assert self._estimate_cache is not None
        return self._estimate_cache

    def _next_estimate(self, child: int, sub: Any, acting: Estimate, shown: Estimate
                       ) -> tuple[str, float] | None:
        """The level (named) and observations of the model's estimate at ``child``, when it
        is the opponent's decision or a showdown."""
        local = child - sub.root
        for where, estimate, names in ((sub.opponent_nodes, acting, ACTION_LEVEL_NAMES),
                                       (sub.showdowns, shown, SHOWDOWN_LEVEL_NAMES)):
            hit = np.flatnonzero(where == local)
            if hit.size:
                i = int(hit[0])
                level = int(estimate.level[i])
                seen = (float(estimate.observed[i, level]) if level < len(names) - 1
                        else self.params.prior_weight)
                return names[level], seen
        return None

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        """Every holding's row: one walk of the tree for all of them."""
        v = self.values(observation, holding_indices(holdings, observation.board))
        return Policy(v.actions, v.probabilities)

    def step_with_policy(self, observation: Observation) -> tuple[Policy, Action]:
        v = self.values(observation, holding_indices(own_holding(observation),
                                                     observation.board))
        policy = Policy(v.actions, v.probabilities)
        action = draw(policy, self.rng)
        if self._trace is not None:
            self._write_trace(observation, v, action)
        return policy, action

    def act(self, observation: Observation) -> Action:
        return self.step_with_policy(observation)[1]

    def _write_trace(self, obs: Observation, v: Values, chosen: Action) -> None:
        assert self._trace is not None
        rows = []
        for i, action in enumerate(v.actions):
            estimate = v.next_estimates[i]
            rows.append(ActionTrace(
                action=str(action), value=float(v.values[0, i]),
                probability=float(v.probabilities[0, i]),
                level=None if estimate is None else estimate[0],
                observations=None if estimate is None else estimate[1]))
        context = self._context
        assert context is not None
        record = DecisionTrace(block=context.block, perm=context.permutation,
                               hand=obs.hand_number, seat=obs.seat,
                               street=obs.street.label, hole=format_cards(obs.hole_cards),
                               board=format_cards(obs.board), pot=obs.pot,
                               to_call=obs.legal.call_amount, actions=rows,
                               chosen=str(chosen), hands_learned=self.model.hands)
        self._trace.write(record.line() + "\n")


def _spread(estimate: Estimate, at: np.ndarray, nodes: int) -> Estimate:
    """An estimate of the nodes ``at`` as arrays indexed by node id."""
    def place(a: np.ndarray) -> np.ndarray:
        out = np.zeros((nodes,) + a.shape[1:], dtype=a.dtype)
        out[at] = a
        return out
    return Estimate(place(estimate.values), place(estimate.level), place(estimate.observed))


def _rows(estimate: Estimate, at: np.ndarray) -> Estimate:
    return Estimate(estimate.values[at], estimate.level[at], estimate.observed[at])


def _softmax(values: np.ndarray, scale: float) -> np.ndarray:
    """Rows of chances: a softmax of ``values / scale``; the best (ties split) at scale 0."""
    if scale <= 0:
        best = values >= values.max(axis=1, keepdims=True) - 1e-9
        return best / best.sum(axis=1, keepdims=True)
    z = (values - values.max(axis=1, keepdims=True)) / scale
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)
