"""The heuristic agent: the bot registered as ``heuristic``.

It wires together the paper's five parts:

* pre-flop, the **pre-flop expert** (Loki's rules on the income-rate tables) with the
  pot-odds defence decides (:mod:`agent.heuristic.preflop_policy`);
* after the flop, the **hand evaluator** measures our strength against each live opponent's
  weight array, which the **opponent modeller** keeps (with its action frequencies and
  betting-chain store, fed by every event the bot observes; with ``calibration.enabled``
  the river strength is mapped by what the showdowns against that opponent showed); the
  **evaluation function** prices every candidate action, with parameters from the chain
  store when enough similar chains exist, else from heuristics; the **selector** gives each
  its chance (:mod:`agent.heuristic.postflop`).

Both are computed for any list of holdings at once: that is the bot's **policy**, the
chance of each action had it held each holding since the deal (``simulator.PolicyBot``).
``act`` computes the row of its own holding and draws from it, so it plays exactly as its
policy says. A policy question never changes the bot: the modeller answers from its picture
of the hand at the observation, stepping through actions the hand never saw on a copy, and
the bot's random draws are averaged out.

Heads-up limit, with ``equilibrium.play``, the agent first plays the shipped equilibrium
strategy (:mod:`agent.equilibrium.player`) against each opponent, and switches to the play
above once that opponent's actions show it deviates (:mod:`agent.heuristic.deviation`); the mode is
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
from dataclasses import dataclass
from typing import Any

import numpy as np

from agent.heuristic.deviation import EquilibriumFirst
from agent.heuristic.fold_cap import CappedCall
from agent.heuristic.learners import Learners
from agent.heuristic.params import (
    AgentParams,
    documented_params,
    identity,
    load_agent_params,
    seat_params,
)
from agent.heuristic.pipeline import Pipeline, Rows
from agent.heuristic.selector import draw_index
from agent.heuristic.trace_records import DecisionRows, decision_record, end_record
from agent.heuristic.traces import TraceWriter, trace_name
from agent.heuristic.warm_up import WarmsUp
from agent.modeller import OpponentModeller
from agent.modeller.learning import LearningSwitch
from agent.modeller.storage import model_name
from agent.preflop.expert import PreflopExpert
from simulator import (
    Action,
    ActionTaken,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    Observation,
    Policy,
    Showdown,
)
from simulator.core.cards import HOLDING_INDEX
from simulator.play.protocol import holding_indices, own_holding


@dataclass(frozen=True, slots=True)
class _Decided:
    """A decision of ours, kept until the action it chose is seen played: what the agent
    learns from it (the fold cap's calls) and traces is done then, in ``observe``."""

    observation: Observation
    rows: DecisionRows
    index: int
    action: Action


class HeuristicAgent(WarmsUp, BaseBot):
    """Direct-estimation heuristic agent: E(t) of each action, chosen at random among the
    positive ones; pre-flop by Loki's income-rate rules. Parameters: ``config`` (a YAML file
    by path, merged over the packaged ``agent/heuristic/data/default.yaml``) and dotted
    overrides."""

    def __init__(self, config: str | None = None, seed: int | None = None,
                 **overrides: Any) -> None:
        self.params: AgentParams = load_agent_params(config, overrides)
        self.rng = np.random.default_rng(seed)
        self.switch = LearningSwitch()  # every learner's: freeze() stops them all
        self.modeller = OpponentModeller(self.params.modeller_params(), mode=self.params.model,
                                         switch=self.switch)
        self.expert = PreflopExpert(self.params.preflop_params())
        self.learners = Learners.of(self.params, self.switch)  # trust, calibration, fold cap
        self.context: BotContext | None = None
        self._tracer: TraceWriter | None = None
        self._names: tuple[str, ...] = ()
        self.equilibrium: EquilibriumFirst | None = None  # heads-up limit, equilibrium.play
        self.pipeline = Pipeline.of(self.params, self.expert, self.modeller, self.learners)
        self._decided: _Decided | None = None

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
        if context.moved and self.context is not None:
            self._moved(context)
            return
        self.context = context
        self.modeller.start(context)
        if self.params.model_file is not None:
            self.modeller.load_from(self.params.model_file, context.game, len(context.names))
        if self.params.trace and context.directory is not None:
            self._tracer = TraceWriter(context.open_file(trace_name(context.block,
                                                                    context.permutation)))
        self.equilibrium = EquilibriumFirst.of(self.params.equilibrium, context, self.switch)

    def _moved(self, context: BotContext) -> None:
        """A tournament moved us to another table: our seat and the names are the new
        table's. What is learned stays (opponents are known by name), and the trace, a
        loaded model and the equilibrium's portfolio are the match's, not made again."""
        self.context = context
        self.modeller.start(context)
        if self.equilibrium is not None:
            self.equilibrium.portfolio.seat = context.seat

    def freeze(self) -> None:
        """Learn nothing in this match (``simulator.LearningBot``): the opponent model, the
        range trust, the calibration and the fold cap's scores stay as they start
        (``model_file`` loads a saved model in ``start``), and so does the equilibrium's
        portfolio: one switch, shared by every learner."""
        self.switch.freeze()

    def observe(self, event: Event) -> None:
        """Every event, our own actions included: all learning happens here, and none while
        frozen (``freeze``). The learners read the modeller's picture from before a
        showdown, which is passed to them."""
        modeller = self.modeller
        if isinstance(event, HandStarted):
            self._names = event.names
            self._decided = None
            self.learners.forget_hand()
            if self.equilibrium is not None:
                self.equilibrium.portfolio.start_hand(event.names, event.button)
        # a hand we were not dealt into (busted, stacks not reset) teaches the learners nothing
        before = (modeller.hand() if isinstance(event, Showdown) and modeller.dealt
                  and self.context is not None else None)
        modeller.observe(event)
        if isinstance(event, ActionTaken) and self._decided is not None:
            self._played(event, self._decided)
        elif isinstance(event, Showdown) and before is not None:
            self.learners.showdown(before, event.shown,
                                   lambda seat: modeller.weights(seat, before))
        elif isinstance(event, HandEnded) and self.context is not None and modeller.dealt:
            self._hand_ended(event, self.context)

    def _played(self, event: ActionTaken, decided: _Decided) -> None:
        """Our decision's action was played (or, after a fault, another one was)."""
        record, obs = event.record, decided.observation
        if record.seat != obs.seat:
            return
        self._decided = None
        if self._tracer is not None and self.context is not None:
            # our own action re-weights no opponent: the picture is the decision's
            self._tracer.write(decision_record(self.context, obs, decided.rows,
                                               decided.action, self.modeller.hand()))
        taken = Action(record.kind, record.amount) == decided.action
        share = decided.rows.cap_share(decided.index)
        if taken and share > 0:
            self.learners.capped(CappedCall(self._names[obs.live_opponents[0]], share,
                                            obs.contributions[obs.seat]))

    def _hand_ended(self, event: HandEnded, context: BotContext) -> None:
        # this hand's big blind (a tournament's rise between hands), not the first hand's
        net, big_blind = event.net[context.seat], max(self.modeller.hand().game.blinds)
        self.learners.hand_ended(net, big_blind)
        if self.equilibrium is not None:
            self.equilibrium.portfolio.end_hand(self.modeller.hand().betting.moves,
                                                net / big_blind)
        if self._tracer is not None:
            self._tracer.write(end_record(context, event.hand_number, self.modeller.hand(),
                                          event.net[context.seat]))

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
        """The pipeline's decision at ``obs`` for each holding (indices), read only."""
        return self.pipeline.rows(obs, holdings)

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy:
        """Each holding's chance of each action at ``observation`` (see the module doc)."""
        mode = self.equilibrium
        if mode is not None and mode.playing:
            self.modeller.check_hand(observation)  # this hand's mode answers this hand only
            return mode.policy(observation, holdings)
        return self.pipeline.rows(observation, holding_indices(holdings, observation.board)
                                  ).as_policy()

    def step_with_policy(self, observation: Observation) -> tuple[Policy, Action]:
        """The decision for our own holding: its row, and the action drawn from it."""
        rows, action = self._decide(observation)
        return rows.as_policy(), action

    def act(self, observation: Observation) -> Action:
        return self._decide(observation)[1]  # no Policy record on the hot path

    def _decide(self, observation: Observation) -> tuple[DecisionRows, Action]:
        """Our own holding's row (the equilibrium's or the pipeline's) and the action drawn
        from it; what follows from it waits until it is played (``observe``)."""
        rows: DecisionRows
        mode = self.equilibrium
        if mode is not None and mode.playing:
            self.modeller.check_hand(observation)
            rows = mode.rows(observation, own_holding(observation))
        else:
            hole = observation.hole_cards
            rows = self.pipeline.rows(observation,
                                      np.array([HOLDING_INDEX[hole[0], hole[1]]]))
        index = draw_index(rows.probabilities[0], self.rng)
        action = rows.actions[index]
        assert isinstance(action, Action)  # our rows list fixed actions, never a raise range
        self._decided = _Decided(observation, rows, index, action)
        return rows, action
