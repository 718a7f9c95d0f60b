"""The opponent modeller: the one object an agent keeps to learn about every opponent.

It follows the hand through the events its bot observes (public ones and the bot's own
``HoleCardsDealt``; shown cards at a showdown are public) and keeps, per opponent:

* a weight array over the 1326 holdings, reset each hand, re-weighted after each action
  (``agent.modeller.weights``; the value is IR7 pre-flop and the shared EHS' vector of the
  board after the flop, ``agent.strength.values``);
* action frequencies per street and context (bets to call, or raised back after its own
  bet or raise), blended with Table B.2 (``agent.modeller.frequencies``), re-weighting with
  the frequencies known before the action;
* a betting-chain store of every finished hand the opponent was dealt into, plus one generic
  store over all opponents (``agent.modeller.chains``).

Opponents are told apart by their names (``HandStarted.names``), so a model follows a bot
when the seats are permuted. Modes: ``"off"`` learns nothing (uniform weights with clashes
removed, Table B.2, empty chain answers); ``"frequencies"`` learns frequencies and
re-weights, without chain stores; ``"full"`` does everything.

>>> from simulator import BotContext, GameConfig, HandStarted, HoleCardsDealt, ActionTaken
>>> from simulator import Action, ActionRecord, ActionKind, Street
>>> from simulator.core.cards import parse_cards
>>> import numpy as np
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> m = OpponentModeller(mode="full")  # IR7 pre-flop
>>> m.start(BotContext(seat=0, names=("me", "villain"), game=game))
>>> m.observe(HandStarted(0, button=1, names=("me", "villain"), stacks=(200, 200),
...                       dealt_in=(True, True)))
>>> m.observe(HoleCardsDealt(0, tuple(parse_cards("AhAd"))))
>>> int((m.weights(1) == 0).sum())  # holdings holding our aces
101
>>> m.observe(ActionTaken(ActionRecord(1, Street.PREFLOP, ActionKind.RAISE, 4, 3)))
>>> m.bets_to_call(0)  # the big blind faces the raise: one bet
1
>>> [round(x, 3) for x in m.frequencies(1, Street.PREFLOP, 1)]  # one raise seen of 20
[0.475, 0.285, 0.24]
>>> m.query(Action.call()).matched  # nothing stored yet
0
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np

from agent.modeller import storage
from agent.modeller.chains import (
    SHOWDOWN,
    THEY_FOLD,
    WE_FOLD,
    ChainAnswer,
    ChainStore,
    encode_rows,
)
from agent.modeller.errors import ModellerError
from agent.modeller.frequencies import KIND_INDEX, ActionFrequencies, at_least_as_strong
from agent.modeller.params import Frequencies, ModellerParams
from agent.modeller.tracker import HandTracker, SeenAction
from agent.modeller.weights import OpponentWeights, reweight_threshold, reweight_triple
from agent.preflop.income_rates import ir_vector
from agent.strength.values import board_values, hand_strengths_of
from simulator import (
    Action,
    ActionTaken,
    BoardDealt,
    BotContext,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.cards import HOLDING_INDEX, clashing_holdings

Mode = Literal["off", "frequencies", "full"]
MODES = ("off", "frequencies", "full")


def default_preflop_values() -> np.ndarray:
    """IR7 (x1000) of every holding, from the shipped income-rate tables."""
    return ir_vector(7).astype(np.float64)


class _Hand:
    """What the modeller keeps about the hand in progress."""

    def __init__(self, tracker: HandTracker, us: int) -> None:
        self.tracker = tracker
        self.us = us
        self.dealt = tracker.dealt_in[us] if 0 <= us < len(tracker.dealt_in) else False
        self.dead = np.zeros(1326, dtype=bool)
        self.weights: dict[int, OpponentWeights] = {
            s: OpponentWeights(self.dead) for s in tracker.order if s != us}
        self.chain = np.zeros((5, 64), dtype=np.int64)  # kind, size, position, seat, street
        self.k = 0
        self.shown: dict[int, tuple[int, int]] = {}
        self.values_street = -1
        self.values: np.ndarray | None = None
        self.order: np.ndarray | None = None

    def append(self, seen: SeenAction) -> None:
        if self.k + 1 >= self.chain.shape[1]:  # keep a spare column for a query's candidate
            self.chain = np.concatenate([self.chain, np.zeros_like(self.chain)], axis=1)
        self.chain[:, self.k] = (KIND_INDEX[seen.kind], seen.size, seen.position, seen.seat,
                                 int(seen.street))
        self.k += 1

    def encode(self, k: int, perspectives: list[int]) -> np.ndarray:
        """The token sequences of the first ``k`` actions (see ``chains.encode``)."""
        return encode_rows(self.chain[:, :k], self.us, self.tracker.players, perspectives)


class OpponentModeller:
    """See the module docstring; the API an agent calls on every decision and event."""

    def __init__(self, params: ModellerParams | None = None, mode: Mode = "full",
                 preflop_values: np.ndarray | None = None) -> None:
        if mode not in MODES:
            raise ModellerError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        self.params = params if params is not None else ModellerParams()
        self.mode = mode
        self._preflop_given = preflop_values
        self._preflop: tuple[np.ndarray, np.ndarray, float] | None = None
        self.generic = ChainStore(self.params.max_nodes, self.params.prune_to)
        self.stores: dict[str, ChainStore] = {}
        self.action_counts: dict[str, ActionFrequencies] = {}
        self._defaults = self._new_counts()
        self._context: BotContext | None = None
        self._hand: _Hand | None = None
        self.frozen = False  # freeze(): the hand's weights move, the learned model does not
        self._dispatch: dict[type, Callable[[Event], None]] = {
            HandStarted: self._hand_started, HoleCardsDealt: self._hole_cards,
            ActionTaken: self._action, BoardDealt: self._board, Showdown: self._showdown,
            HandEnded: self._hand_ended}

    # --- lifecycle --------------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        """Our seat, the seat names and the game; what is learned so far is kept."""
        self._context = context
        self._hand = None

    def freeze(self) -> None:
        """Learn nothing from now on: the action frequencies and chain stores stay as they
        are (loaded or learned before); each hand's weights are still tracked."""
        self.frozen = True

    def reset(self) -> None:
        """Forget everything learned (between independent blocks, duplicate rotations)."""
        self.generic = ChainStore(self.params.max_nodes, self.params.prune_to)
        self.stores = {}
        self.action_counts = {}
        self._hand = None

    def observe(self, event: Event) -> None:
        """Every event our bot gets, in order; other seats' private events are ignored."""
        handler = self._dispatch.get(type(event))
        if handler is not None:
            handler(event)

    # --- events -----------------------------------------------------------------------------

    def _hand_started(self, event: HandStarted) -> None:
        if self._context is None:
            raise ModellerError("observe(): call start(context) before the first hand")
        tracker = HandTracker(self._context.game, self.params.size_edges,
                              self.params.raised_back_context)
        tracker.start(event)
        self._hand = _Hand(tracker, self._context.seat)

    def _hole_cards(self, event: HoleCardsDealt) -> None:
        hand = self._hand
        if hand is None or event.seat != hand.us:
            return  # never ours to read (the engine sends it to its seat alone anyway)
        hand.dead = clashing_holdings(event.hole_cards)
        for ow in hand.weights.values():
            ow.new_round(hand.dead)

    def _action(self, event: ActionTaken) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        record = event.record
        seen = hand.tracker.apply(record)
        hand.append(seen)
        if record.seat == hand.us or self.mode == "off":
            return
        counts = self._counts(hand.tracker.names[record.seat])
        ow = hand.weights.get(record.seat)
        if ow is not None and ow.wants(seen.kind):
            ow.update(self._reweighted(hand, ow.snapshot, seen,
                                       counts.get(seen.street, seen.context)), seen.kind)
        if not self.frozen:
            counts.record(seen.street, seen.context, seen.kind)

    def _board(self, event: BoardDealt) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        hand.tracker.deal(event)
        hand.dead = hand.dead | clashing_holdings(event.cards)
        for seat, ow in hand.weights.items():
            if hand.tracker.active[seat]:
                ow.new_round(hand.dead)

    def _showdown(self, event: Showdown) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        hand.shown = {s: cards for s, cards in event.shown.items() if s != hand.us}

    def _hand_ended(self, event: HandEnded) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        hand.tracker.close_round()
        if self.mode == "full" and not self.frozen:
            self._store(hand)

    # --- re-weighting -----------------------------------------------------------------------

    def _preflop_table(self) -> tuple[np.ndarray, np.ndarray, float]:
        """Pre-flop values, their order (highest first) and the skip percentile."""
        if self._preflop is None:
            values = (default_preflop_values() if self._preflop_given is None
                      else np.asarray(self._preflop_given, dtype=np.float64))
            if values.shape != (1326,) or not np.isfinite(values).all():
                raise ModellerError(f"preflop_values: expected 1326 finite values, got shape "
                                    f"{values.shape}")
            order = np.argsort(-values, kind="stable")
            skip = float(np.percentile(values, self.params.preflop_skip_percentile))
            self._preflop = (values, order, skip)
        return self._preflop

    def _street_values(self, hand: _Hand) -> tuple[np.ndarray, np.ndarray, float | None]:
        street = hand.tracker.street
        if street == 0:
            return self._preflop_table()
        if hand.values_street != street:
            bv = board_values(hand.tracker.board)
            hand.values = bv.weighing
            hand.order = bv.order
            hand.values_street = street
        return hand.values, hand.order, None

    def _reweighted(self, hand: _Hand, base: np.ndarray, seen: SeenAction,
                    freqs: Frequencies) -> np.ndarray:
        values, order, skip = self._street_values(hand)
        p = self.params
        if p.reweighting == "triple":
            return reweight_triple(base, values, order, freqs, seen.kind,
                                   p.triple_spread(seen.street), p.weight_floor)
        return reweight_threshold(base, values, order, at_least_as_strong(freqs, seen.kind),
                                  p.sigma(seen.street), p.weight_floor, skip)

    # --- chains -----------------------------------------------------------------------------

    def _store(self, hand: _Hand) -> None:
        t = hand.tracker
        us = hand.us
        if not t.active[us]:
            ending = WE_FOLD
        elif t.in_hand() == 1:
            ending = THEY_FOLD
        else:
            ending = SHOWDOWN
        shown_sum, shown_n = 0.0, 0
        if ending == SHOWDOWN and hand.shown:
            # Only the shown hands: after an all-in the river had no action, and its whole
            # value vector would cost more than these few.
            shown = [int(HOLDING_INDEX[a, b]) for a, b in hand.shown.values()]
            shown_sum = float(hand_strengths_of(t.board, shown).sum())
            shown_n = len(shown)
        opponents = [s for s in t.order if s != us]
        seqs = hand.encode(hand.k, [-1, *opponents])
        pot, ours = t.pot, t.contributions[us]
        self.generic.add(seqs[0], ending, pot, ours, shown_sum, shown_n)
        for i, seat in enumerate(opponents, start=1):
            self._chains(t.names[seat]).add(seqs[i], ending, pot, ours, shown_sum, shown_n)

    def _chains(self, name: str) -> ChainStore:
        store = self.stores.get(name)
        if store is None:
            store = self.stores[name] = ChainStore(self.params.max_nodes, self.params.prune_to)
        return store

    def _counts(self, name: str) -> ActionFrequencies:
        counts = self.action_counts.get(name)
        if counts is None:
            counts = self.action_counts[name] = self._new_counts()
        return counts

    def _new_counts(self, counts: np.ndarray | None = None) -> ActionFrequencies:
        p = self.params
        return ActionFrequencies(p.prior_observations, p.default_frequencies, counts,
                                 p.raised_back_frequencies)

    # --- questions --------------------------------------------------------------------------

    def _current(self) -> _Hand:
        if self._hand is None or not self._hand.dealt:
            raise ModellerError("no hand in progress that we are dealt into")
        return self._hand

    def _opponent(self, hand: _Hand, seat: int) -> None:
        if seat == hand.us or seat not in hand.weights:
            raise ModellerError(f"seat {seat!r} is not an opponent dealt into this hand "
                                f"(opponents: {sorted(hand.weights)})")

    def weights(self, seat: int) -> np.ndarray:
        """The current (1326,) weights of the opponent in ``seat``; read-only, 0 on clashes."""
        hand = self._current()
        self._opponent(hand, seat)
        return hand.weights[seat].weights

    def frequencies(self, seat: int, street: int, context: int) -> Frequencies:
        """``(fold, call, raise)`` of the opponent in ``seat`` in ``context``: bets to call
        (2: 2+) or ``RAISED_BACK`` (``agent.modeller.tracker``)."""
        if self.mode == "off":
            return self._defaults.get(street, context)
        names = (self._hand.tracker.names if self._hand is not None
                 else self._context.names if self._context is not None else None)
        if names is None:
            raise ModellerError("no seats known yet: call start(context) first (a loaded "
                                "model keeps its counts by player name, not by seat)")
        if not 0 <= seat < len(names) or seat == self._context.seat:
            raise ModellerError(f"seat {seat!r}: not an opponent's seat")
        counts = self.action_counts.get(names[seat])
        return (counts or self._defaults).get(street, context)

    def bets_to_call(self, seat: int) -> int:
        """The bets ``seat`` faces now: 0, 1 or 2 (two or more); pre-flop the big blind
        counts as a bet."""
        return min(self._current().tracker.bets_to_call(seat), 2)

    def context(self, seat: int, after_our_raise: bool = False) -> int:
        """The frequency context of ``seat`` now, or once we bet or raise."""
        tracker = self._current().tracker
        return tracker.context_after_raise(seat) if after_our_raise else tracker.context(seat)

    def query(self, action: Action, seat: int | None = None) -> ChainAnswer:
        """Stored chains like this hand's chain plus our ``action``, from the store of the
        opponent in ``seat`` (None: the generic store), relaxed as ``min_matches`` says."""
        hand = self._current()
        if seat is not None:
            self._opponent(hand, seat)
        if self.mode != "full":
            return ChainAnswer.empty()
        store = self.generic if seat is None else self.stores.get(hand.tracker.names[seat])
        if store is None:
            return ChainAnswer.empty()
        candidate = hand.tracker.candidate(hand.us, action)
        hand.append(candidate)
        hand.k -= 1  # the candidate stays in the spare column only
        seqs = hand.encode(hand.k + 1, [-1 if seat is None else seat])[0]
        return store.answer(seqs, self.params.min_matches)

    # --- persistence ------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the chain stores and frequency counts (see ``agent.modeller.storage``)."""
        storage.save(path, storage.ModelData(
            self.params.size_edges, self.generic, self.stores,
            {name: f.counts for name, f in self.action_counts.items()}))

    def load_from(self, path: str | Path) -> None:
        """Replace what this modeller has learned by what ``path`` holds."""
        p = self.params
        data = storage.load(path, p.size_edges, p.max_nodes, p.prune_to)
        self.generic, self.stores = data.generic, data.stores
        self.action_counts = {name: self._new_counts(counts)
                              for name, counts in data.frequencies.items()}

    @classmethod
    def load(cls, path: str | Path, params: ModellerParams | None = None, mode: Mode = "full",
             preflop_values: np.ndarray | None = None) -> OpponentModeller:
        """A modeller with what ``path`` holds; a bad file raises ``ModelFileError``."""
        model = cls(params, mode, preflop_values)
        model.load_from(path)
        return model
