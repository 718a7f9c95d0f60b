"""The modeller's picture of one hand at one moment: immutable, one step per event.

What a modeller knows about the hand in progress (the public betting, each opponent's weight
array with its round snapshot, the actions as the chain store keeps them, the shown cards)
is a :class:`HandModel`. Each event gives a new one and leaves the old one as it was, so the
modeller keeps the picture after every action, and a question about a state the hand never
reached (a raise that was not made) is a step taken from a copy: it changes nothing real.

What the modeller *learns* (frequencies, chains) is not here: a step is told how to
re-weight an opponent's range and returns what it saw, and the modeller records that in its
learned model for real events only.

>>> from simulator import ActionKind, ActionRecord, GameConfig, HandStarted, Street
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> h = HandModel.start(game, HandStarted(0, button=1, names=("me", "villain"),
...                     stacks=(200, 200), dealt_in=(True, True), game=game),
...                     us=0, edges=())
>>> h2, seen = h.after_action(ActionRecord(1, Street.PREFLOP, ActionKind.RAISE, 4, 3),
...                           edges=(), reweight=None)
>>> seen.context, h2.betting.current.bets_to_call(0), h.betting.current.bets_to_call(0)
(1, 1, 0)
>>> len(h2.actions), len(h.actions)  # the earlier picture is unchanged
(1, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from agent.modeller.tracker import SeenAction, seen_applied
from agent.modeller.weights import OpponentWeights
from simulator import ActionKind, ActionRecord, GameConfig, HandStarted, Street
from simulator.core.betting import Betting
from simulator.core.cards import clashing_holdings
from simulator.core.frozen import FrozenMap, quick_init

Reweight = Callable[["HandModel", OpponentWeights, SeenAction], np.ndarray | None]
"""Given the picture before an action, the actor's weights and the action as seen: the
re-weighted array (None: keep the weights as they are)."""


@quick_init
@dataclass(frozen=True, slots=True)
class HandModel:
    """One hand as a modeller sees it (see the module docstring).

    ``weights`` maps each opponent dealt in to its weights; ``dead`` marks the holdings
    ruled out for every opponent (they share a board card); ``actions`` are the hand's
    actions as the chains keep them.
    """

    game: GameConfig
    us: int
    names: tuple[str, ...]
    betting: Betting
    board: tuple[int, ...]
    dead: np.ndarray
    weights: FrozenMap[int, OpponentWeights]
    actions: tuple[SeenAction, ...] = ()
    shown: FrozenMap[int, tuple[int, int]] = FrozenMap({})

    @classmethod
    def start(cls, game: GameConfig, event: HandStarted, us: int,
              edges: tuple[float, ...]) -> HandModel:
        betting = Betting.start(game, event.button, event.stacks, event.dealt_in)
        dead = np.zeros(1326, dtype=bool)
        dead.setflags(write=False)
        fresh = OpponentWeights.fresh(dead)  # read-only: one record serves every opponent
        weights = FrozenMap({s: fresh for s in betting.order if s != us})
        return cls(game, us, tuple(event.names), betting, (), dead, weights)

    def _with(self, *, betting: Betting | None = None, board: tuple[int, ...] | None = None,
              dead: np.ndarray | None = None,
              weights: FrozenMap[int, OpponentWeights] | None = None,
              actions: tuple[SeenAction, ...] | None = None,
              shown: FrozenMap[int, tuple[int, int]] | None = None) -> HandModel:
        """A copy with some fields changed (a plain constructor call: dataclasses.replace
        costs a dozen times more, and the modeller steps through every action)."""
        return HandModel(self.game, self.us, self.names,
                         self.betting if betting is None else betting,
                         self.board if board is None else board,
                         self.dead if dead is None else dead,
                         self.weights if weights is None else weights,
                         self.actions if actions is None else actions,
                         self.shown if shown is None else shown)

    @property
    def dealt(self) -> bool:
        """Whether our own seat is dealt into the hand."""
        return self.us in self.betting.order

    @property
    def street(self) -> Street:
        return self.betting.street

    def after_action(self, record: ActionRecord, edges: tuple[float, ...],
                     reweight: Reweight | None, raised_back: bool = True
                     ) -> tuple[HandModel, SeenAction]:
        """The picture after ``record`` (an action of a later street opens that street
        without its board), and the action as seen."""
        hand = self.on_street(record.street, self.board)
        betting = hand.betting.apply(record)
        action = seen_applied(betting, edges, raised_back)
        weights = hand.weights
        ow = weights.get(record.seat)
        if reweight is not None and ow is not None and ow.wants(record.kind):
            new = reweight(hand, ow, action)
            if new is not None:
                weights = weights.with_item(record.seat, ow.update(new, record.kind))
        return hand._with(betting=betting, weights=weights,
                          actions=(*hand.actions, action)), action

    def on_street(self, street: Street, board: tuple[int, ...]) -> HandModel:
        """The picture once ``street`` opens with ``board``: the round closed, the holdings
        that clash with the new cards ruled out, the snapshots taken."""
        if street <= self.street and board == self.board:
            return self
        betting = self.betting.deal(street) if street > self.street else self.betting
        new_cards = tuple(c for c in board if c not in self.board)
        dead = self.dead | clashing_holdings(new_cards) if new_cards else self.dead
        dead.setflags(write=False)
        active = betting.active
        weights = FrozenMap({s: (w.new_round(dead) if active[s] else w)
                             for s, w in self.weights.items()})
        return self._with(betting=betting, board=tuple(board), dead=dead, weights=weights)

    def with_shown(self, shown: dict[int, tuple[int, int]]) -> HandModel:
        return self._with(shown=FrozenMap(dict(shown)))

    def settled(self) -> HandModel:
        """The picture at the hand's end: the last round's uncalled bet given back."""
        return self._with(betting=self.betting.settled())

    def in_hand(self) -> int:
        return self.betting.in_hand()

    def folded(self, seat: int) -> bool:
        return not self.betting.active[seat]

    def last_action_of(self, seat: int) -> ActionKind | None:
        for a in reversed(self.actions):
            if a.seat == seat:
                return a.kind
        return None
