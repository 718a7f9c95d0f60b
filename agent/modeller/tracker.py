"""The current hand as one bot sees it, rebuilt from public events: chips, contexts and sizes.

A bot is told the hand's start, every action, the board and the showdown; the blinds and
antes are not actions, so the tracker posts them itself by the engine's rules
(antes first, then the blinds from the seat left of the button, heads-up the button posting
the small blind, each capped by the stack), and gives uncalled bets back when a round closes.

**Bets to call** (the frequency model's context): the number of bets and
raises made in the current round that are above what the player has already put in this
round. Pre-flop the big blind counts as the first bet, so the small blind and the players
who have not acted face 1 bet, a limper facing a raise faces 1 more, and the big blind
facing only limpers faces 0. Every bet or raise counts, a short all-in raise included.
**Contexts** are 0, 1 and 2, where 2 stands for two or more bets to call, and
``RAISED_BACK`` (3) for a player who bet or raised in this round (the big blind's forced bet
is not a raise) and faces more: the frequency model counts it apart, because a player raised
back folds far less often than one facing the same bets cold.

**Size codes** (no-limit bets and raises only; 0 otherwise): a bet or raise of ``amount``
(raise-to) by a player facing ``to_call`` with ``pot`` chips in the middle is the pot
fraction ``(amount - top) / (pot + to_call)``, where ``top`` is the round's highest bet: a
bet's share of the pot before it, and for a raise the share of the pot after calling, so
that a "pot-sized raise" is 1 (proposed here). Edges ``e1 < e2 < ...`` make codes 1 (below
e1), 2 (from e1 to below e2), ..., and an all-in gets the last code of its own.

>>> size_code((0.4, 0.8, 1.5), 0.5, False), size_code((0.4, 0.8, 1.5), 3.0, True)
(2, 5)
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from simulator import (
    Action,
    ActionKind,
    ActionRecord,
    BoardDealt,
    GameConfig,
    HandStarted,
    Street,
)
from simulator.core.positions import table_order

RAISED_BACK = 3


def size_code(edges: tuple[float, ...], fraction: float, all_in: bool) -> int:
    """The size code of a no-limit bet or raise: 1 + the edges at or below it; all-in last."""
    if all_in:
        return len(edges) + 2
    return 1 + bisect_right(edges, fraction)


@dataclass(frozen=True)
class SeenAction:
    """One action as the modeller keeps it.

    ``position`` is the actor's place in table order (0 is the first seat left of the
    button; the button is last); ``size`` its size code; ``context`` the context the actor
    faced (0, 1, 2 for two or more bets to call, or ``RAISED_BACK``).
    """

    street: Street
    seat: int
    position: int
    kind: ActionKind
    size: int
    context: int


class HandTracker:
    """Public chips and betting of one hand, updated event by event (see the module doc).

    >>> from simulator import ActionRecord, ActionKind, GameConfig, HandStarted, Street
    >>> t = HandTracker(GameConfig(variant="nolimit", blinds=(1, 2), stack=100), (0.4, 0.8, 1.5))
    >>> t.start(HandStarted(0, button=2, names=("a", "b", "c"), stacks=(100,) * 3,
    ...                     dealt_in=(True,) * 3))
    >>> t.pot, t.bets, t.bets_to_call(2), t.bets_to_call(1)
    (3, [1, 2, 0], 1, 0)
    >>> a = t.apply(ActionRecord(2, Street.PREFLOP, ActionKind.RAISE, 7, 7))
    >>> a.position, a.size, a.context, t.bets_to_call(1)  # a pot-sized raise: code 3
    (2, 3, 1, 1)
    >>> b = t.apply(ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 20, 19))
    >>> t.context(1), t.context(2), t.context_after_raise(1)  # seat 2 raised: raised back
    (2, 3, 2)
    """

    def __init__(self, game: GameConfig, size_edges: tuple[float, ...],
                 raised_back: bool = True) -> None:
        self.game = game
        self.edges = size_edges
        self.raised_back = raised_back  # False: Papp's three contexts only
        self.sized = not game.is_limit
        self.started = False

    def start(self, event: HandStarted) -> None:
        n = len(event.stacks)
        self.num_seats = n
        self.button = event.button
        self.names = event.names
        self.dealt_in = event.dealt_in
        self.order = table_order(event.dealt_in, event.button)
        self.position = [-1] * n
        for i, seat in enumerate(self.order):
            self.position[seat] = i
        self.active = list(event.dealt_in)
        self.stacks = list(event.stacks)
        self.bets = [0] * n
        self.contributions = [0] * n
        self.street = Street.PREFLOP
        self.board: tuple[int, ...] = ()
        self.actions: list[SeenAction] = []
        self.round_open = True
        self._post_forced_bets()
        self.levels = [self.game.big_blind]  # the big blind is the first bet pre-flop
        self.raisers: set[int] = set()  # who bet or raised in this round
        self.started = True

    def _post_forced_bets(self) -> None:
        ante = self.game.ante
        if ante:
            for s in self.order:
                paid = min(ante, self.stacks[s])
                self.stacks[s] -= paid
                self.contributions[s] += paid
        posters = (self.order[1], self.order[0]) if len(self.order) == 2 else self.order
        for s, blind in zip(posters, self.game.blinds, strict=False):
            self._move(s, min(blind, self.stacks[s]))

    def _move(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] += chips
        self.contributions[seat] += chips

    # --- reading ---------------------------------------------------------------------------

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self.contributions)

    @property
    def players(self) -> int:
        """Players dealt into the hand."""
        return len(self.order)

    def bets_to_call(self, seat: int) -> int:
        """Bets and raises of this round above the seat's own bet (not clipped)."""
        mine = self.bets[seat]
        return sum(1 for level in self.levels if level > mine)

    def context(self, seat: int) -> int:
        """The frequency model's context of ``seat`` now: ``RAISED_BACK``, or its bets to call
        clipped to 0, 1, 2 (two or more)."""
        to_call = self.bets_to_call(seat)
        return RAISED_BACK if to_call and self._raised(seat) else min(to_call, 2)

    def context_after_raise(self, seat: int) -> int:
        """The context ``seat`` would face after one more bet or raise by someone else."""
        return RAISED_BACK if self._raised(seat) else min(self.bets_to_call(seat) + 1, 2)

    def _raised(self, seat: int) -> bool:
        """Whether ``seat`` bet or raised in this round, as far as the contexts tell."""
        return self.raised_back and seat in self.raisers

    def raise_size(self, seat: int, amount: int, all_in: bool) -> int:
        """The size code of a raise to ``amount`` by ``seat`` now (0 in limit)."""
        if not self.sized:
            return 0
        top = max(self.bets)
        to_call = top - self.bets[seat]
        return size_code(self.edges, (amount - top) / (self.pot + to_call), all_in)

    def seen(self, seat: int, action: Action | ActionRecord, all_in: bool = False
             ) -> SeenAction:
        """The action of ``seat`` as it would be kept, before it is applied."""
        size = 0
        if action.kind is ActionKind.RAISE:
            size = self.raise_size(seat, int(action.amount), all_in)
        return SeenAction(self.street, seat, self.position[seat], action.kind, size,
                          self.context(seat))

    def candidate(self, seat: int, action: Action) -> SeenAction:
        """Our own action as it would be kept (all-in when it raises to the whole stack)."""
        all_in = (action.kind is ActionKind.RAISE
                  and int(action.amount) >= self.bets[seat] + self.stacks[seat])
        return self.seen(seat, action, all_in)

    # --- updating --------------------------------------------------------------------------

    def apply(self, record: ActionRecord) -> SeenAction:
        """Apply one action and return it as kept."""
        seen = self.seen(record.seat, record, record.all_in)
        self.actions.append(seen)
        if record.kind is ActionKind.FOLD:
            self.active[record.seat] = False
        else:
            self._move(record.seat, record.added)
            if record.kind is ActionKind.RAISE:
                self.levels.append(int(record.amount))
                self.raisers.add(record.seat)
        return seen

    def deal(self, event: BoardDealt) -> None:
        """A new round: close the last one and show the board."""
        self.close_round()
        self.street = event.street
        self.board = tuple(event.board)
        self.levels = []
        self.raisers = set()
        self.round_open = True

    def close_round(self) -> None:
        """Give the uncalled part of the highest bet back, as the engine does; once a round."""
        if not self.round_open:
            return
        bets = sorted(self.bets[s] for s in self.order)
        cutoff = bets[-2]
        for s in self.order:
            over = self.bets[s] - cutoff
            if over > 0:
                self.stacks[s] += over
                self.contributions[s] -= over
        self.bets = [0] * self.num_seats
        self.round_open = False

    def in_hand(self) -> int:
        """Players still holding cards."""
        return sum(1 for s in self.order if self.active[s])
