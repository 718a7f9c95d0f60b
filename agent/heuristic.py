"""The heuristic agent: the bot registered as ``heuristic`` (DESIGN.md sections 7-9).

It wires together the paper's five parts:

* pre-flop, the **pre-flop expert** (Loki's rules on the income-rate tables) decides;
* after the flop, the **hand evaluator** measures our strength against each live opponent's
  weight array, which the **opponent modeller** keeps (with its action frequencies and
  betting-chain store, fed by every event the bot observes);
* the **evaluation function** prices every candidate action (fold, check/call, bet/raise; in
  no-limit a set of sizes and the all-in), with parameters from the chain store when enough
  similar chains exist, else from heuristics;
* the **selector** chooses at random among the actions worth playing.

Opponents are told apart by their seat names, so a model follows a bot when seats are
permuted. The model lives for the bot's life (a block, in tournaments); ``model_file``
starts it from a saved one, which it only reads; ``close()`` saves the model into the bot's
directory of the output dir, one file per block, permutation and seat, so results never
depend on the number of workers. All randomness comes from the bot's own generator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agent.defense import preflop_equity, worth_calling
from agent.evaluation import (
    FOLD_NOW,
    Candidate,
    EParams,
    OpponentTendency,
    Spot,
    candidates,
    chain_params,
    heuristic_params,
)
from agent.modeller import OpponentModeller
from agent.params import AgentParams, identity, load_agent_params
from agent.preflop.expert import PreflopExpert
from agent.selector import choose
from agent.strength.against import TableStrength, hs_against, strength_against, top_share
from agent.strength.ehs import ehs_formulas
from agent.strength.values import BoardValues, board_values
from agent.traces import TraceWriter, trace_path
from agent.trust import RangeTrust, mixed, shown_likelihoods
from simulator import (
    Action,
    ActionKind,
    ActionTaken,
    BaseBot,
    BoardDealt,
    BotContext,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    Observation,
    Showdown,
    Street,
)
from simulator.core.cards import HOLDING_INDEX, format_cards

MODEL_SUFFIX = ".model"


def model_path(directory: Path, block: int, permutation: int) -> Path:
    return Path(directory) / f"model-b{block}-p{permutation}{MODEL_SUFFIX}"


class HeuristicAgent(BaseBot):
    """Direct-estimation heuristic agent: E(t) of each action, chosen at random among the
    positive ones; pre-flop by Loki's income-rate rules. Parameters: ``config`` (a YAML file
    under configs/agents/, default ``default.yaml``) and dotted overrides."""

    def __init__(self, config: str | None = None, seed: int | None = None,
                 **overrides: Any) -> None:
        self.params: AgentParams = load_agent_params(config, overrides)
        self.rng = np.random.default_rng(seed)
        self._frozen = False  # freeze(): nothing learned in this match
        self.modeller = OpponentModeller(self.params.modeller_params(), mode=self.params.model)
        self.expert = PreflopExpert(self.params.preflop_params())
        self.trust = RangeTrust(self.params.trust.prior, self.params.trust.prior_weight)
        self.context: BotContext | None = None
        self._tracer: TraceWriter | None = None
        self._raisers: dict[int, int] = {}  # street -> seat of its last bet or raise
        self._names: tuple[str, ...] = ()
        self._course: dict[str, Any] = {}

    @classmethod
    def identity(cls, params: dict[str, Any]) -> dict[str, Any]:
        """The resolved parameters a seat's ``params`` stand for (file contents included)."""
        overrides = {k: v for k, v in params.items() if k not in ("config", "seed")}
        return identity(load_agent_params(params.get("config"), overrides))

    # --- the lifecycle ---------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        self.context = context
        self.modeller.start(context)
        if self.params.model_file is not None:
            self.modeller.load_from(self.params.model_file)
        if self.params.trace and context.directory is not None:
            self._tracer = TraceWriter(trace_path(context.directory, context.block,
                                                  context.permutation))

    def freeze(self) -> None:
        """Learn nothing in this match (``simulator.LearningBot``): the opponent model and the
        range trust stay as they start (``model_file`` loads a saved model in ``start``)."""
        self.modeller.freeze()
        self._frozen = True

    def observe(self, event: Event) -> None:
        if isinstance(event, Showdown) and self.context is not None and not self._frozen:
            self._learn_trust(event)
        self.modeller.observe(event)
        if isinstance(event, HandStarted):
            self._raisers = {}
            self._names = event.names
        elif isinstance(event, ActionTaken) and event.record.kind is ActionKind.RAISE:
            self._raisers[int(event.record.street)] = event.record.seat
        if self._tracer is not None:
            self._trace_hand(event)

    def _learn_trust(self, event: Showdown) -> None:
        """Score the weights each opponent had against the holding it showed."""
        us = self.context.seat if self.context is not None else -1
        for seat, cards in event.shown.items():
            if seat == us or not self._names:
                continue
            weights = self.modeller.weights(seat)
            p_w, p_u = shown_likelihoods(weights, int(HOLDING_INDEX[cards[0], cards[1]]))
            if p_u > 0:
                self.trust.add(self._names[seat], p_w, p_u)

    def _trace_hand(self, event: Event) -> None:
        """Keep the hand's public course, and write it out as the hand's last trace record."""
        if isinstance(event, HandStarted):
            self._course = {"actions": [], "board": "", "shown": {}}
        elif isinstance(event, ActionTaken):
            r = event.record
            verb = {ActionKind.FOLD: "f", ActionKind.CALL: "c"}.get(r.kind, f"r{r.amount}")
            self._course["actions"].append(f"{self._names[r.seat]}:{verb}")
        elif isinstance(event, BoardDealt):
            self._course["actions"].append(f"[{format_cards(event.cards)}]")
            self._course["board"] = format_cards(event.board)
        elif isinstance(event, Showdown):
            self._course["shown"] = {self._names[s]: format_cards(c)
                                     for s, c in event.shown.items()}
        elif isinstance(event, HandEnded) and self.context is not None:
            seat = self._names.index(self.context.name)
            self._tracer.write({"hand": event.hand_number, "seat": seat,
                                "end": {**self._course, "net": event.net[seat]}})

    def close(self) -> None:
        context = self.context
        if context is not None and context.directory is not None:
            self.modeller.save(model_path(context.directory, context.block,
                                          context.permutation))
        if self._tracer is not None:
            self._tracer.close()
            self._tracer = None

    # --- decisions -------------------------------------------------------------------------

    def act(self, observation: Observation) -> Action:
        if observation.street is Street.PREFLOP:
            decision = self.expert.decide(observation, self.rng)
            defended = self._defend(observation, decision.action)
            action = Action.call() if defended is not None and defended[1] else decision.action
            if self._tracer is not None:
                self._tracer.write(self._record(observation, {"preflop": {
                    "strategy": decision.strategy, "ir": decision.ir,
                    "expected_players": decision.expected_players,
                    "position": decision.position,
                    "thresholds": dict(decision.thresholds),
                    "defense_equity": defended}}, action))
            return action
        return self._postflop(observation)

    def _defend(self, obs: Observation, action: Action) -> tuple[float, bool] | None:
        """Our equity against the live ranges, and whether it pays for the call, where the
        pre-flop rules fold a hand facing a bet (None elsewhere)."""
        params = self.params.defense
        if not params.enabled or action.kind is not ActionKind.FOLD:
            return None
        opponents = obs.live_opponents
        share = preflop_equity(obs.hole_cards, [self.modeller.weights(s) for s in opponents],
                               params, self.rng)
        return share, worth_calling(share, obs.legal.call_amount, obs.pot, params)

    def _postflop(self, obs: Observation) -> Action:
        seat = obs.seat
        opponents = list(obs.live_opponents)
        trust = [self.trust.alpha(self._names[s]) if self._names else self.trust.prior
                 for s in opponents]
        weights = [mixed(self.modeller.weights(s), a) for s, a in zip(opponents, trust,
                                                                      strict=True)]
        strength = strength_against(obs.hole_cards, obs.board, weights, self.params.lookahead)
        spot = _spot(obs, opponents)
        cands = candidates(spot, obs.legal, self.params.evaluation.nolimit_sizes)
        values = board_values(obs.board)
        hero = int(HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]])
        weak_value = self.params.evaluation.fold_value
        weak = [float(w[values.ehs_prime < weak_value].sum() / max(w.sum(), 1e-12))
                for w in weights]
        guesses = self._estimates(obs, spot, cands, strength, opponents, weights, values,
                                  weak, trust)
        estimates = self._from_chains(obs, cands, guesses, float(values.ehs_prime[hero]),
                                      opponents)
        worth = [e.value for e in estimates]
        continuing = spot.to_call == 0 and self._raisers.get(int(obs.street) - 1) == seat
        index = choose(cands, worth, spot.scale, self.params.selector, self.rng, continuing)
        action = cands[index].action
        if self._tracer is not None:
            self._tracer.write(self._record(obs, {
                "strength": {"hs": list(strength.hs), "hs_n": strength.hs_n,
                             "ppot": strength.ppot, "npot": strength.npot,
                             "ehs": strength.ehs, "ehs_optimistic": strength.ehs_optimistic},
                "continued_aggression": continuing,
                "candidates": [{"action": str(c.action), "E": e.value, **e.as_dict()}
                               for c, e in zip(cands, estimates, strict=True)]}, action))
        return action

    def _estimates(self, obs: Observation, spot: Spot, cands: list[Candidate],
                   strength: TableStrength, opponents: list[int], weights: list[np.ndarray],
                   values: BoardValues, weak: list[float], trust: list[float]
                   ) -> list[EParams]:
        """Every candidate's heuristic parameters. The opponents' answers depend only on
        whether we bet, so they, and our strength against those who call or re-raise a bet,
        are worked out once per decision, not once per bet size."""
        p_win = strength.ehs
        draw = (1.0 - strength.hs_n) * strength.ppot / p_win if p_win > 0 else 0.0
        answers = {aggressive: [self._tendency(obs, s, aggressive, share)
                                for s, share in zip(opponents, weak, strict=True)]
                   for aggressive in {c.aggressive for c in cands if c.kind != "fold"}}
        p_called = p_reraised = p_win
        if True in answers:
            # an opponent calls with the top of its range and re-raises with the top of that,
            # as far as its bets are trusted
            p_called = self._against_top(obs, strength, weights, values, trust,
                                         [1.0 - t.fold for t in answers[True]])
            p_reraised = self._against_top(obs, strength, weights, values, trust,
                                           [t.raise_ for t in answers[True]])
        params = self.params.evaluation
        return [FOLD_NOW if c.kind == "fold" else heuristic_params(
                    spot, c, p_win, p_called if c.aggressive else p_win, answers[c.aggressive],
                    params, p_reraised if c.aggressive else p_win, draw)
                for c in cands]

    @staticmethod
    def _against_top(obs: Observation, strength: TableStrength, weights: list[np.ndarray],
                     values: BoardValues, trust: list[float], keep: list[float]) -> float:
        """Our EHS against the top ``keep`` share of each opponent's range, the trusted part
        of the weights taken from the top and the rest evenly."""
        tops = [a * top_share(w, values.order, k) + (1 - a) * k * w
                for w, k, a in zip(weights, keep, trust, strict=True)]
        hs = hs_against(obs.hole_cards, obs.board, tops)
        return ehs_formulas(hs, strength.ppot, strength.npot)[0]

    def _from_chains(self, obs: Observation, cands: list[Candidate], guesses: list[EParams],
                     our_value: float, opponents: list[int]) -> list[EParams]:
        """E's parameters from the chain store, for every candidate or for none: chains
        count what happened later in the hand (later folds, bigger pots) and the heuristic
        does not, so pricing one action by chains and its alternative by heuristics would
        favour whichever has the data, and the agent would only ever learn about that one."""
        params = self.params.evaluation
        if self.params.model != "full":
            return guesses
        answers = []
        for candidate in cands:
            if candidate.kind == "fold":
                answers.append(None)
                continue
            answer = self.modeller.query(candidate.action,
                                         seat=opponents[0] if len(opponents) == 1 else None)
            if answer.matched < params.chain_threshold and len(opponents) == 1:
                answer = self.modeller.query(candidate.action, seat=None)
            if answer.matched < params.chain_threshold:
                return guesses
            answers.append(answer)
        return [g if a is None else chain_params(a, g, c, obs.contributions[obs.seat],
                                                 our_value, params)
                for c, g, a in zip(cands, guesses, answers, strict=True)]

    def _tendency(self, obs: Observation, seat: int, aggressive: bool,
                  weak_share: float) -> OpponentTendency:
        """How the opponent in ``seat`` answers our action: its frequencies in the context our
        action leaves it (a bet or raise adds a bet to call, or raises it back), with its fold
        rate capped by the share of its range that is weak (``evaluation.fold_value``): a
        range the modeller has narrowed to strong hands by its bets does not fold, whatever
        the generic rates say."""
        context = self.modeller.context(seat, after_our_raise=aggressive)
        fold, call, raise_ = self.modeller.frequencies(seat, obs.street, context)
        if aggressive and fold > weak_share:
            rest = call + raise_
            keep = (1.0 - weak_share) / rest if rest > 0 else 0.0
            return OpponentTendency(weak_share, call * keep, raise_ * keep)
        return OpponentTendency(fold, call, raise_)

    def _record(self, obs: Observation, detail: dict[str, Any], action: Action
                ) -> dict[str, Any]:
        context = self.context
        return {"block": context.block if context else 0,
                "perm": context.permutation if context else 0,
                "hand": obs.hand_number, "seat": obs.seat,
                "street": obs.street.label, "hole": format_cards(obs.hole_cards),
                "board": format_cards(obs.board), "pot": obs.pot,
                "to_call": obs.legal.call_amount, **detail, "chosen": str(action)}


def _spot(obs: Observation, opponents: list[int]) -> Spot:
    game: GameConfig = obs.game
    street = obs.street
    top = max(obs.bets)
    acted = {r.seat for r in obs.history if r.street == street}
    return Spot(
        pot=obs.pot, to_call=obs.legal.call_amount, our_bet=obs.bets[obs.seat],
        stack=obs.stacks[obs.seat], street=int(street), is_limit=game.is_limit,
        bet_unit=game.bet_size(street) if game.is_limit else game.big_blind,
        future_unit=(game.bet_size(min(int(street) + 1, int(Street.RIVER)))
                     if game.is_limit else game.big_blind),
        opponent_calls=tuple(top - obs.bets[s] for s in opponents),
        opponent_stacks=tuple(obs.stacks[s] for s in opponents),
        yet_to_act=tuple(s not in acted and obs.stacks[s] > 0 for s in opponents),
        reraise_room=not game.is_limit or game.cap is None
        or top // game.bet_size(street) + 1 < game.cap)
