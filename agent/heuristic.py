"""The heuristic agent: the bot registered as ``heuristic``.

It wires together the paper's five parts:

* pre-flop, the **pre-flop expert** (Loki's rules on the income-rate tables) with the
  pot-odds defence decides (:mod:`agent.preflop_policy`);
* after the flop, the **hand evaluator** measures our strength against each live opponent's
  weight array, which the **opponent modeller** keeps (with its action frequencies and
  betting-chain store, fed by every event the bot observes; with ``calibration.enabled``
  the river strength is mapped by what the showdowns against that opponent showed); the
  **evaluation function** prices every candidate action, with parameters from the chain
  store when enough similar chains exist, else from heuristics; the **selector** gives each
  its chance (:mod:`agent.postflop`).

Both are computed for any list of holdings at once: that is the bot's **policy**, the
chance of each action had it held each holding since the deal (``simulator.PolicyBot``).
``act`` computes the row of its own holding and draws from it, so it plays exactly as its
policy says. A policy question never changes the bot: the modeller answers from its picture
of the hand at the observation, stepping through actions the hand never saw on a copy, and
the bot's random draws are averaged out.

Heads-up limit, with ``equilibrium.play``, the agent first plays the shipped equilibrium
strategy (:mod:`agent.equilibrium.player`) against each opponent, and switches to the play
above once that opponent's actions show it deviates (:mod:`agent.deviation`); the mode is
fixed for a hand when it starts, so it is part of the learned model, never a hidden draw.
A decision taken in the equilibrium is traced with the strategy's chances.

Opponents are told apart by their seat names, so a model follows a bot when seats are
permuted. The model lives for the bot's life (a block, in tournaments); ``model_file``
starts it from a saved one (of the same game), which it only reads; ``close()`` saves the
model into the bot's directory of the output dir when it learned anything (``save_model``),
one file per block, permutation and seat, so results never depend on the number of workers.
All randomness comes from the bot's own generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agent.deviation import EquilibriumFirst
from agent.fold_cap import CappedCall, FoldCap
from agent.learners import Learners
from agent.modeller import OpponentModeller
from agent.modeller.storage import model_name
from agent.params import (
    AgentParams,
    documented_params,
    identity,
    load_agent_params,
    seat_params,
)
from agent.postflop import PostflopRows, postflop_rows
from agent.preflop.expert import PreflopExpert
from agent.preflop_policy import PreflopRows, preflop_reach, preflop_rows, raise_answers
from agent.selector import draw_index
from agent.trace_records import decision_record, end_record
from agent.traces import TraceWriter, trace_name
from agent.warm_up import WarmsUp
from simulator import (
    Action,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    Observation,
    Policy,
    Showdown,
    Street,
)
from simulator.core.cards import HOLDING_INDEX, NUM_HOLDINGS
from simulator.play.protocol import holding_indices, own_holding

ALL_HOLDINGS = np.arange(NUM_HOLDINGS)

Rows = PreflopRows | PostflopRows


class HeuristicAgent(WarmsUp, BaseBot):
    """Direct-estimation heuristic agent: E(t) of each action, chosen at random among the
    positive ones; pre-flop by Loki's income-rate rules. Parameters: ``config`` (a YAML file
    by path, merged over the packaged ``agent/data/default.yaml``) and dotted overrides."""

    def __init__(self, config: str | None = None, seed: int | None = None,
                 **overrides: Any) -> None:
        self.params: AgentParams = load_agent_params(config, overrides)
        self.rng = np.random.default_rng(seed)
        self._frozen = False  # freeze(): nothing learned in this match
        self.modeller = OpponentModeller(self.params.modeller_params(), mode=self.params.model)
        self.expert = PreflopExpert(self.params.preflop_params())
        self.learners = Learners.of(self.params)  # range trust, calibration, fold cap
        self.context: BotContext | None = None
        self._tracer: TraceWriter | None = None
        self._names: tuple[str, ...] = ()
        self.equilibrium: EquilibriumFirst | None = None  # heads-up limit, equilibrium.play

    @classmethod
    def documented_params(cls) -> dict[str, Any]:
        """What ``holdem bots`` lists: ``config`` and every dotted parameter with its
        default (the constructor's signature shows only ``config``)."""
        return documented_params()

    @classmethod
    def identity(cls, params: dict[str, Any]) -> dict[str, Any]:
        """The resolved parameters a seat's ``params`` stand for (file contents included)."""
        return identity(seat_params(params))

    @classmethod
    def check_seat(cls, params: dict[str, Any], game: GameConfig, seats: int) -> None:
        """Refuse, before any work, a ``model_file`` this seat could not start from."""
        resolved = seat_params(params)
        if resolved.model_file is not None:
            OpponentModeller.load(resolved.model_file, resolved.modeller_params(),
                                  resolved.model, game=game, seats=seats)

    # --- the lifecycle ---------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        self.context = context
        self.modeller.start(context)
        if self.params.model_file is not None:
            self.modeller.load_from(self.params.model_file, context.game, len(context.names))
        if self.params.trace and context.directory is not None:
            self._tracer = TraceWriter(context.open_file(trace_name(context.block,
                                                                    context.permutation)))
        self.equilibrium = EquilibriumFirst.of(self.params.equilibrium, context)

    def freeze(self) -> None:
        """Learn nothing in this match (``simulator.LearningBot``): the opponent model, the
        range trust, the calibration and the fold cap's scores stay as they start
        (``model_file`` loads a saved model in ``start``)."""
        self.modeller.freeze()
        self._frozen = True

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self._names = event.names
            self.learners.forget_hand()
            if self.equilibrium is not None:
                self.equilibrium.portfolio.start_hand(event.names, event.button)
        # a hand we were not dealt into (busted, stacks not reset) teaches the learners nothing
        if isinstance(event, Showdown) and self.context is not None and not self._frozen \
                and self.modeller.dealt:
            self.learners.showdown(self.modeller.hand(), event.shown, self.modeller.weights)
        self.modeller.observe(event)
        if isinstance(event, HandEnded) and self.context is not None and self.modeller.dealt:
            if not self._frozen:
                net, big_blind = event.net[self.context.seat], max(self.context.game.blinds)
                self.learners.hand_ended(net, big_blind)
                if self.equilibrium is not None:
                    self.equilibrium.portfolio.end_hand(self.modeller.hand().betting.moves,
                                                        net / big_blind)
            if self._tracer is not None:
                self._tracer.write(end_record(self.context, event.hand_number,
                                              self.modeller.hand(),
                                              event.net[self.context.seat]))

    def close(self) -> None:
        context = self.context
        save = self.params.save_model
        if context is not None and context.directory is not None and (
                save == "always" or save == "changed" and self.modeller.changed):
            with context.open_file(model_name(context.block, context.permutation), "wb") as f:
                self.modeller.save(f)
        if self._tracer is not None:
            self._tracer.close()
            self._tracer = None

    # --- decisions -------------------------------------------------------------------------

    def rows(self, obs: Observation, holdings: np.ndarray) -> Rows:
        """The decision at ``obs`` for each holding (indices): the whole pipeline, read only."""
        path = self.modeller.path_of(obs)
        if obs.street is Street.PREFLOP:
            return preflop_rows(obs, path, self.expert, self.params.defense, holdings,
                                raise_answers(self.modeller))
        def reach() -> np.ndarray:
            return preflop_reach(obs, path, self.expert, self.params.defense, ALL_HOLDINGS,
                                 raise_answers(self.modeller))
        learners = self.learners
        return postflop_rows(obs, path[-1], self.modeller, learners.trust, self.params,
                             holdings, learners.calibration.win
                             if self.params.calibration.enabled else None,
                             FoldCap(learners.fold_cap_of, reach)
                             if self.params.fold_cap.cap else None)

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy:
        """Each holding's chance of each action at ``observation`` (see the module doc)."""
        mode = self._equilibrium_hand()
        if mode is not None:
            self.modeller.check_hand(observation)  # this hand's mode answers this hand only
            return mode.policy(observation, holdings)
        rows = self.rows(observation, holding_indices(holdings, observation.board))
        return Policy(tuple(rows.actions), rows.probabilities)

    def _equilibrium_hand(self) -> EquilibriumFirst | None:
        """The equilibrium mode when this hand is played in it, else None."""
        mode = self.equilibrium
        return mode if mode is not None and mode.playing else None

    def step_with_policy(self, observation: Observation) -> tuple[Policy, Action]:
        """The decision for our own holding: its row, and the action drawn from it."""
        rows, action = self._decide(observation)
        return (rows if isinstance(rows, Policy) else
                Policy(tuple(rows.actions), rows.probabilities)), action

    def act(self, observation: Observation) -> Action:
        return self._decide(observation)[1]  # no Policy record on the hot path

    def _decide(self, observation: Observation) -> tuple[Rows | Policy, Action]:
        """Our own holding's row (the equilibrium's or the pipeline's) and the action drawn
        from it, traced when asked."""
        rows: Rows | Policy
        if self._equilibrium_hand() is not None:
            rows = self.policy(observation, own_holding(observation))
        else:
            hole = observation.hole_cards
            rows = self.rows(observation, np.array([HOLDING_INDEX[hole[0], hole[1]]]))
        index = draw_index(rows.probabilities[0], self.rng)
        action = rows.actions[index]
        assert isinstance(action, Action)  # our rows list fixed actions, never a raise range
        if isinstance(rows, PostflopRows) and (share := rows.cap_share(index)) > 0:
            self.learners.capped(CappedCall(self._names[observation.live_opponents[0]], share,
                                            observation.contributions[observation.seat]))
        if self._tracer is not None and self.context is not None:
            self._tracer.write(decision_record(self.context, observation, rows, action,
                                               self.params.defense.realization))
        return rows, action
