"""The opponent modeller: the one object an agent keeps to learn about every opponent.

It follows the hand through the public events its bot observes (shown cards at a showdown
are public; the bot's own cards are not needed) and keeps, per opponent:

* a weight array over the 1326 holdings, reset each hand, re-weighted after each action
  (``agent.modeller.weights``; the value is IR7 pre-flop and the shared EHS' vector of the
  board after the flop, ``agent.strength.values``). Only the board rules holdings out: a
  question is asked for whatever holding we might hold (a policy asks for all of them), so
  the asker leaves out the holdings that clash with the holding it asks about;
* action frequencies per street and context (bets to call, or raised back after its own
  bet or raise), blended with Table B.2 (``agent.modeller.frequencies``), re-weighting with
  the frequencies known before the action;
* a betting-chain store of every finished hand the opponent was dealt into, plus one generic
  store over all opponents (``agent.modeller.chains``).

Opponents are told apart by their names (``HandStarted.names``), so a model follows a bot
when the seats are permuted. Modes: ``"off"`` learns nothing (uniform weights with clashes
removed, Table B.2, empty chain answers); ``"frequencies"`` learns frequencies and
re-weights, without chain stores; ``"full"`` does everything.

>>> from simulator import BotContext, GameConfig, HandStarted, ActionTaken
>>> from simulator import Action, ActionRecord, ActionKind, Street
>>> from simulator.core.cards import parse_cards
>>> import numpy as np
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> m = OpponentModeller(mode="full")  # IR7 pre-flop
>>> m.start(BotContext(seat=0, names=("me", "villain"), game=game))
>>> m.observe(HandStarted(0, button=1, names=("me", "villain"), stacks=(200, 200),
...                       dealt_in=(True, True), game=game))
>>> int((m.weights(1) == 0).sum())  # before the flop no holding is ruled out
0
>>> m.observe(ActionTaken(ActionRecord(1, Street.PREFLOP, ActionKind.RAISE, 4, 3)))
>>> m.bets_to_call(0)  # the big blind faces the raise: one bet
1
>>> [round(x, 3) for x in m.frequencies(1, Street.PREFLOP, 1)]  # one raise seen of 20
[0.475, 0.285, 0.24]
>>> m.query(Action.call()).matched  # nothing stored yet
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, Literal

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
from agent.modeller.hand import HandModel
from agent.modeller.learning import LearningSwitch
from agent.modeller.params import Frequencies, ModellerParams
from agent.modeller.tracker import SeenAction, context, seen
from agent.modeller.weights import OpponentWeights, reweight_threshold, reweight_triple
from agent.preflop.income_rates import ir_vector
from agent.strength.values import ValueLevels, board_values, hand_strengths_of
from simulator import (
    Action,
    ActionRecord,
    ActionTaken,
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
from simulator.core.cards import HOLDING_INDEX

Mode = Literal["off", "frequencies", "full"]
Contexts = Literal["raised_back", "papp"]
"""The frequency contexts counted: Papp's three (bets to call 0, 1, 2+) and the raised-back
one of the agent (``agent.modeller.tracker``), or Papp's three alone (Loki-1's)."""
MODES = ("off", "frequencies", "full")
StreetValues = tuple[np.ndarray, np.ndarray, "float | None", "ValueLevels"]
"""What re-weighting reads of a street: every holding's value, the holdings from the highest
value down, the pre-flop skip threshold (None after the flop) and the values' levels."""


def default_preflop_values() -> np.ndarray:
    """IR7 (x1000) of every holding, from the shipped income-rate tables."""
    return ir_vector(7).astype(np.float64)


def _rows(actions: tuple[SeenAction, ...]) -> np.ndarray:
    """The chain of a hand as the store encodes it: (kind, size, position, seat, street)."""
    # numpy converts five lists of ints at half the cost of one list of 5-tuples
    return np.array([[KIND_INDEX[a.kind] for a in actions], [a.size for a in actions],
                     [a.position for a in actions], [a.seat for a in actions],
                     [int(a.street) for a in actions]], dtype=np.int64)


class OpponentModeller:
    """See the module docstring; the API an agent calls on every decision and event."""

    def __init__(self, params: ModellerParams | None = None, mode: Mode = "full",
                 preflop_values: np.ndarray | None = None,
                 contexts: Contexts = "raised_back",
                 switch: LearningSwitch | None = None) -> None:
        if mode not in MODES:
            raise ModellerError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        if contexts not in ("raised_back", "papp"):
            raise ModellerError(f"contexts: expected 'raised_back' or 'papp', got {contexts!r}")
        self.params = params if params is not None else ModellerParams()
        self.mode = mode
        self.raised_back = contexts == "raised_back"
        self._preflop_given = preflop_values
        self._preflop: StreetValues | None = None
        self.generic = ChainStore(self.params.max_nodes, self.params.prune_to)
        self.stores: dict[str, ChainStore] = {}
        self.action_counts: dict[str, ActionFrequencies] = {}
        self._defaults = self._new_counts()
        self._context: BotContext | None = None
        self._path: list[HandModel] = []  # the hand after 0, 1, 2, ... of its actions
        self._records: list[ActionRecord] = []
        self._hand_number: int | None = None  # the hand _path pictures
        self._changed = False
        self._loaded_game: tuple[GameConfig, int] | None = None
        # freeze(): the hand's weights move, the learned model does not; the agent's other
        # learners may share the switch (one freeze for all)
        self.switch = switch if switch is not None else LearningSwitch()
        self.version = 0  # moves with every event and every change of the learned model
        # each handler takes the events of its key's type (which a dict's type cannot say)
        self._dispatch: dict[type[Event], Callable[[Any], None]] = {
            HandStarted: self._hand_started, ActionTaken: self._action,
            BoardDealt: self._board, Showdown: self._showdown, HandEnded: self._hand_ended}

    # --- lifecycle --------------------------------------------------------------------------

    def start(self, context: BotContext) -> None:
        """Our seat, the seat names and the game; what is learned so far is kept."""
        self._context = context
        self._path, self._records = [], []

    def freeze(self) -> None:
        """Learn nothing from now on: the action frequencies and chain stores stay as they
        are (loaded or learned before); each hand's weights are still tracked. Freezes
        whatever shares the switch."""
        self.switch.freeze()

    @property
    def frozen(self) -> bool:
        return self.switch.frozen

    def reset(self) -> None:
        """Forget everything learned (between independent blocks, duplicate rotations)."""
        self.version += 1
        self.generic = ChainStore(self.params.max_nodes, self.params.prune_to)
        self.stores = {}
        self.action_counts = {}
        self._path, self._records = [], []
        self._changed = False

    def observe(self, event: Event) -> None:
        """Every event our bot gets, in order; other seats' private events are ignored."""
        self.version += 1
        handler = self._dispatch.get(type(event))
        if handler is not None:
            handler(event)

    # --- events -----------------------------------------------------------------------------

    @property
    def _hand(self) -> HandModel | None:
        return self._path[-1] if self._path else None

    def _replace(self, hand: HandModel) -> None:
        self._path[-1] = hand

    def _hand_started(self, event: HandStarted) -> None:
        if self._context is None:
            raise ModellerError("observe(): call start(context) before the first hand")
        # the hand's own game: a tournament's blinds and antes rise between hands
        self._path = [HandModel.start(event.game, event, self._context.seat,
                                      self.params.size_edges)]
        self._records = []
        self._hand_number = event.hand_number

    def _action(self, event: ActionTaken) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        record = event.record
        new, seen = self._step(hand, record)
        self._path.append(new)
        self._records.append(record)
        if record.seat != hand.us and self.mode != "off" and not self.frozen:
            self._counts(hand.names[record.seat]).record(seen.street, seen.context, seen.kind)

    def _step(self, hand: HandModel, record: ActionRecord) -> tuple[HandModel, SeenAction]:
        """The hand after ``record``, re-weighted with the frequencies known before it; the
        learned model is not touched (the caller records real actions)."""
        reweight = None if record.seat == hand.us or self.mode == "off" else self._reweighted
        return hand.after_action(record, self.params.size_edges, reweight,
                                 self.raised_back)

    def _board(self, event: BoardDealt) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        self._replace(hand.on_street(event.street, tuple(event.board)))

    def _showdown(self, event: Showdown) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        self._replace(hand.with_shown(dict(event.shown.items())))

    def _hand_ended(self, event: HandEnded) -> None:
        hand = self._hand
        if hand is None or not hand.dealt:
            return
        self._changed = self._changed or (self.mode != "off" and not self.frozen)
        self._replace(hand.settled())
        if self.mode == "full" and not self.frozen:
            self._store(self._path[-1])

    # --- re-weighting -----------------------------------------------------------------------

    def _preflop_table(self) -> StreetValues:
        """Pre-flop values, their order (highest first), the skip percentile and the
        values' levels (169 income rates)."""
        if self._preflop is None:
            values = (default_preflop_values() if self._preflop_given is None
                      else np.asarray(self._preflop_given, dtype=np.float64))
            if values.shape != (1326,) or not np.isfinite(values).all():
                raise ModellerError(f"preflop_values: expected 1326 finite values, got shape "
                                    f"{values.shape}")
            order = np.argsort(-values, kind="stable")
            skip = float(np.percentile(values, self.params.preflop_skip_percentile))
            self._preflop = (values, order, skip, ValueLevels.along(values, order))
        return self._preflop

    def _street_values(self, hand: HandModel) -> StreetValues:
        if hand.street == 0:
            return self._preflop_table()
        bv = board_values(hand.board)
        return bv.weighing, bv.order, None, bv.levels

    def _reweighted(self, hand: HandModel, ow: OpponentWeights, seen: SeenAction
                    ) -> np.ndarray:
        counts = self.action_counts.get(hand.names[seen.seat], self._defaults)
        freqs = counts.get(seen.street, seen.context)
        values, order, skip, levels = self._street_values(hand)
        p = self.params
        if p.reweights_by_triple(seen.kind):
            return reweight_triple(ow.snapshot, values, order, freqs, seen.kind,
                                   p.triple_spread(seen.street), p.weight_floor,
                                   p.floors_factor, levels)
        return reweight_threshold(ow.snapshot, values, order,
                                  at_least_as_strong(freqs, seen.kind),
                                  p.sigma(seen.street), p.weight_floor, skip,
                                  p.floors_factor)

    # --- chains -----------------------------------------------------------------------------

    def _store(self, hand: HandModel) -> None:
        us, betting = hand.us, hand.betting
        if hand.folded(us):
            ending = WE_FOLD
        elif hand.in_hand() == 1:
            ending = THEY_FOLD
        else:
            ending = SHOWDOWN
        shown_sum, shown_n = 0.0, 0
        theirs = [cards for seat, cards in hand.shown.items() if seat != us]
        if ending == SHOWDOWN and theirs:
            # Only the shown hands: after an all-in the river had no action, and its whole
            # value vector would cost more than these few.
            shown = [int(HOLDING_INDEX[a, b]) for a, b in theirs]
            shown_sum = float(hand_strengths_of(hand.board, shown).sum())
            shown_n = len(shown)
        opponents = [s for s in betting.order if s != us]
        seqs = encode_rows(_rows(hand.actions), us, betting.players, [-1, *opponents])
        pot, ours = betting.pot, betting.contributions[us]
        self.generic.add(seqs[0], ending, pot, ours, shown_sum, shown_n)
        for i, seat in enumerate(opponents, start=1):
            self._chains(hand.names[seat]).add(seqs[i], ending, pot, ours, shown_sum,
                                               shown_n)

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
                                 p.raised_back_frequencies, p.pool_streets)

    # --- questions --------------------------------------------------------------------------

    def _current(self, hand: HandModel | None = None) -> HandModel:
        if hand is not None:
            return hand
        if self._hand is None or not self._hand.dealt:
            raise ModellerError("no hand in progress that we are dealt into")
        return self._hand

    def _opponent(self, hand: HandModel, seat: int) -> None:
        if seat == hand.us or seat not in hand.weights:
            raise ModellerError(f"seat {seat!r} is not an opponent dealt into this hand "
                                f"(opponents: {sorted(hand.weights)})")

    @property
    def dealt(self) -> bool:
        """Whether the hand in progress (or just ended) is one our seat is dealt into: a seat
        that has busted, in a match without stack resets, watches hands it is not in."""
        return self._hand is not None and self._hand.dealt

    def hand(self) -> HandModel:
        """The hand in progress as the modeller sees it now."""
        return self._current()

    def hand_at(self, history: Sequence[ActionRecord], board: Sequence[int],
                street: Street | None = None) -> HandModel:
        """The hand after ``history`` with ``board``, which may hold actions the hand never
        saw: they are stepped through from the last real picture they share, with the
        frequencies known now, and nothing learned. Nothing real changes."""
        return self.path_at(history, board, street)[-1]

    def path_of(self, obs: Observation) -> list[HandModel]:
        """:meth:`path_at` for an observation of the hand in progress (:meth:`check_hand`)."""
        self.check_hand(obs)
        return self.path_at(obs.history, obs.board, obs.street)

    def check_hand(self, obs: Observation) -> None:
        """Refuse an observation of another hand than the one in progress: the pictures are
        this hand's, so its actions would be read against this hand's board and blinds."""
        if obs.hand_number != self._hand_number:
            raise ModellerError(f"an observation of hand {obs.hand_number}, but the hand in "
                                f"progress is {self._hand_number}: a bot answers for the "
                                f"hand it is playing")

    def path_at(self, history: Sequence[ActionRecord], board: Sequence[int],
                street: Street | None = None) -> list[HandModel]:
        """The hand before each action of ``history`` and after the last (len + 1
        pictures), as :meth:`hand_at` builds them."""
        cards = tuple(int(c) for c in board)
        path = self._stepped(history, cards)
        last = path[-1]
        target = max(street if street is not None else last.street, last.street)
        if target > last.street or cards != last.board:
            path[-1] = last.on_street(target, cards[:target.board_size])
        return path

    def _shared(self, history: Sequence[ActionRecord]) -> int:
        """How many actions ``history`` shares with the hand's real ones, from the start."""
        self._current()
        limit = min(len(history), len(self._records))
        # a decision asks about the hand as it went: tuples compare the very same records by
        # identity, without a dataclass comparison per record
        if tuple(history[:limit]) == tuple(self._records[:limit]):
            return limit
        shared = 0
        while shared < limit and history[shared] == self._records[shared]:
            shared += 1
        return shared

    def _stepped(self, history: Sequence[ActionRecord], cards: tuple[int, ...]
                 ) -> list[HandModel]:
        """:meth:`path_at`'s pictures before the last one is brought to the street and the
        board asked about."""
        shared = self._shared(history)
        path = self._path[:shared + 1]
        for record in history[shared:]:
            hand = path[-1]
            if record.street > hand.street:
                hand = hand.on_street(record.street, cards[:record.street.board_size])
            path.append(self._step(hand, record)[0])
        return path

    def all_called(self, history: Sequence[ActionRecord], board: Sequence[int],
                   street: Street, ours: ActionRecord, calls: Sequence[ActionRecord]
                   ) -> tuple[dict[int, np.ndarray], int]:
        """Each opponent's weights and the pot once ``calls`` answer our bet or raise
        ``ours`` after ``history``: what ``hand_at((*history, ours, *calls), board,
        street)`` holds, without the betting records of each call. A call adds no bet
        level and moves only its caller's weights, so each caller is re-weighted in the
        context our raise leaves it in, whoever calls before it. Where the real hand went on
        with ``ours``, the real pictures are read instead (as :meth:`path_at` reads them)."""
        cards = tuple(int(c) for c in board)
        base = self._stepped(history, cards)[-1]
        steps = (*history, ours, *calls)
        if (self._shared(steps) > len(history) or base.street != street
                or cards != base.board
                or any(r.street != street for r in (ours, *calls))):
            last = self.path_at(steps, board, street)[-1]
            return {s: w.weights for s, w in last.weights.items()}, last.betting.pot
        # our raise moves no weights (we never re-weight ourselves), only the betting: the
        # callers are read against it, and re-weighted on this street's values as before it
        raised = base.betting.apply(ours)
        weights = {s: w.weights for s, w in base.weights.items()}
        pot = raised.pot
        for record in calls:
            pot += record.added
            ow = base.weights.get(record.seat)
            if (record.seat == base.us or self.mode == "off" or ow is None
                    or not ow.wants(record.kind)):
                continue
            action = seen(raised, record, self.params.size_edges, self.raised_back)
            weights[record.seat] = self._reweighted(base, ow, action)
        return weights, pot

    def weights(self, seat: int, hand: HandModel | None = None) -> np.ndarray:
        """The (1326,) weights of the opponent in ``seat`` (now, or in ``hand``); read-only,
        0 on clashes."""
        h = self._current(hand)
        self._opponent(h, seat)
        return h.weights[seat].weights

    def frequencies(self, seat: int, street: int, context: int) -> Frequencies:
        """``(fold, call, raise)`` of the opponent in ``seat`` in ``context``: bets to call
        (2: 2+) or ``RAISED_BACK`` (``agent.modeller.tracker``)."""
        if self.mode == "off":
            return self._defaults.get(street, context)
        return (self._counts_of(seat) or self._defaults).get(street, context)

    def _counts_of(self, seat: int) -> ActionFrequencies | None:
        """The learned action counts of the opponent in ``seat`` (None: nothing yet)."""
        names = (self._hand.names if self._hand is not None
                 else self._context.names if self._context is not None else None)
        if names is None or self._context is None:
            raise ModellerError("no seats known yet: call start(context) first (a loaded "
                                "model keeps its counts by player name, not by seat)")
        if not 0 <= seat < len(names) or seat == self._context.seat:
            raise ModellerError(f"seat {seat!r}: not an opponent's seat")
        return self.action_counts.get(names[seat])

    def seen_fold(self, seat: int, street: int, context: int) -> float:
        """The folds of the opponent in ``seat`` seen in ``context``, with no folds as the
        default (:meth:`ActionFrequencies.seen_fold`); 0 with the modeller off."""
        if self.mode == "off":
            return 0.0
        counts = self._counts_of(seat)
        return counts.seen_fold(street, context) if counts is not None else 0.0

    def bets_to_call(self, seat: int, hand: HandModel | None = None) -> int:
        """The bets ``seat`` faces now: 0, 1 or 2 (two or more); pre-flop the big blind
        counts as a bet."""
        return min(self._current(hand).betting.current.bets_to_call(seat), 2)

    def context(self, seat: int, after_our_raise: bool = False,
                hand: HandModel | None = None) -> int:
        """The frequency context of ``seat`` now, or once we bet or raise."""
        return context(self._current(hand).betting, seat, after_our_raise,
                       self.raised_back)

    def query(self, action: Action, seat: int | None = None,
              hand: HandModel | None = None) -> ChainAnswer:
        """Stored chains like this hand's chain plus our ``action``, from the store of the
        opponent in ``seat`` (None: the generic store), relaxed as ``min_matches`` says."""
        h = self._current(hand)
        if seat is not None:
            self._opponent(h, seat)
        if self.mode != "full":
            return ChainAnswer.empty()
        store = self.generic if seat is None else self.stores.get(h.names[seat])
        if store is None:
            return ChainAnswer.empty()
        ours = seen(h.betting, action, self.params.size_edges,
                    self.raised_back, seat=h.us)
        seqs = encode_rows(_rows((*h.actions, ours)), h.us, h.betting.players,
                           [-1 if seat is None else seat])[0]
        return store.answer(seqs, self.params.min_matches)

    # --- persistence ------------------------------------------------------------------------

    @property
    def changed(self) -> bool:
        """Whether it learned anything since it was made, reset or loaded (a hand seen in a
        mode that learns)."""
        return self._changed

    def save(self, target: str | Path | IO[bytes]) -> None:
        """Write the chain stores and frequency counts into an open binary file or to a path
        (see ``agent.modeller.storage``); the game is the one of ``start``."""
        context = self._context
        game = (context.game, len(context.names)) if context is not None else self._loaded_game
        if game is None:
            raise ModellerError("save(): call start(context) first: a model records its game")
        storage.save(target, storage.ModelData(
            self.params.size_edges, self.generic, self.stores,
            {name: f.counts for name, f in self.action_counts.items()}, *game))

    def load_from(self, path: str | Path, game: GameConfig | None = None,
                  seats: int | None = None) -> None:
        """Replace what this modeller has learned by what ``path`` holds; a model of another
        game than ``game`` with ``seats`` (when given) is a ``ModelFileError``."""
        p = self.params
        data = storage.load(path, p.size_edges, p.max_nodes, p.prune_to, game, seats)
        self.generic, self.stores = data.generic, data.stores
        self.action_counts = {name: self._new_counts(counts)
                              for name, counts in data.frequencies.items()}
        self._loaded_game = (data.game, data.seats)
        self._changed = False
        self.version += 1

    @classmethod
    def load(cls, path: str | Path, params: ModellerParams | None = None, mode: Mode = "full",
             preflop_values: np.ndarray | None = None, game: GameConfig | None = None,
             seats: int | None = None) -> OpponentModeller:
        """A modeller with what ``path`` holds; a bad file raises ``ModelFileError``."""
        model = cls(params, mode, preflop_values)
        model.load_from(path, game, seats)
        return model
