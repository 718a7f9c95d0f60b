"""The public betting of a hand, read once: who bet, who raised, who faces what, who acted
voluntarily and who is yet to act.

Every bot that models the game asks these questions of the same actions. :class:`Betting` is
the one answer, built alike from events (:meth:`Betting.start`, then :meth:`Betting.apply`
per action and :meth:`Betting.deal` per board round) and from an observation
(:meth:`Betting.of`, which replays the observation's history from the start of the hand).
It is immutable: each step returns a new record, so a bot can keep the record of every point
of a hand and ask about states the hand never reached without touching the real one.

Terms, per betting round:

* **levels**: the round's bet levels, the raise-to amount of each bet or raise; pre-flop the
  big blind (what it posted) is the first. A short all-in raise is a level too.
* **bets to call** of a seat: the levels above its own bet this round (the small blind faces
  the big blind's level; the big blind facing only limpers faces none).
* **raised**: the seat bet or raised this round (a blind is not a raise).
* **voluntary**: the seat put chips in this round by calling or raising.
* **acted**: the seat acted this round (a blind is not an action).
* **limpers**: pre-flop, the players who called the big blind before anyone raised.

Forced bets follow the rules: antes (every player, straight into the pot) then the blinds
from the seat left of the button, heads-up the button posting the small blind, each capped
by the stack; when a round closes the uncalled part of the highest bet goes back.

>>> from simulator.core.game import GameConfig
>>> from simulator.core.actions import ActionRecord, ActionKind
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> b = Betting.start(game, button=2, stacks=(100, 100, 100))
>>> b.pot, b.current.bets, b.current.bets_to_call(2), b.current.bets_to_call(1)
(3, (1, 2, 0), 1, 0)
>>> b = b.apply(ActionRecord(2, Street.PREFLOP, ActionKind.CALL, None, 2))
>>> b = b.apply(ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 4, 3))
>>> m = b.moves[-1]
>>> m.bets, m.to_call, m.raised, b.current.limpers, b.current.bets_to_call(1)
(1, 1, False, 1, 1)
>>> b.current.raised(0), b.current.voluntary(2), b.current.last_raiser
(True, True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from simulator.core.actions import ActionKind, ActionRecord
from simulator.core.frozen import quick_init
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.positions import table_order
from simulator.core.streets import Street

T = TypeVar("T")


def _replaced(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``items`` with entry ``i`` replaced."""
    return (*items[:i], value, *items[i + 1:])


@quick_init
@dataclass(frozen=True, slots=True)
class Move:
    """One action, with its betting round as it stood just before it.

    ``bets`` counts the round's bets and raises made before it (pre-flop the big blind is
    the first), ``to_call`` those above the actor's own bet, ``raised`` whether the actor had
    already bet or raised in the round; ``pot`` is every chip in the middle before it (the
    round's bets included), ``top`` the round's highest bet and ``own`` the actor's bet.
    """

    record: ActionRecord
    bets: int
    to_call: int
    raised: bool
    pot: int
    top: int
    own: int

    @property
    def seat(self) -> int:
        return self.record.seat

    @property
    def street(self) -> Street:
        return self.record.street


@quick_init
@dataclass(frozen=True, slots=True)
class BettingRound:
    """One street's betting so far (see the module docstring for the terms)."""

    street: Street
    levels: tuple[int, ...]
    bets: tuple[int, ...]
    moves: tuple[Move, ...] = ()

    @property
    def top(self) -> int:
        return max(self.bets)

    @property
    def raises(self) -> int:
        """Bets and raises made this round (the big blind is not one)."""
        return sum(1 for m in self.moves if m.record.kind is ActionKind.RAISE)

    @property
    def last_raiser(self) -> int | None:
        """The seat that made the round's last bet or raise, None if nobody did."""
        for m in reversed(self.moves):
            if m.record.kind is ActionKind.RAISE:
                return m.seat
        return None

    @property
    def limpers(self) -> int:
        """Pre-flop, the players who called the big blind before anyone raised."""
        out = 0
        for m in self.moves:
            if m.record.kind is ActionKind.RAISE:
                break
            if m.record.kind is ActionKind.CALL and m.record.added > 0 and m.to_call:
                out += 1
        return out if self.street is Street.PREFLOP else 0

    # Plain loops below: a generator costs more than the few items these tuples hold, and
    # every modeller asks these at every action it steps.

    def bets_to_call(self, seat: int) -> int:
        mine = self.bets[seat]
        count = 0
        for level in self.levels:
            if level > mine:
                count += 1
        return count

    def raised(self, seat: int) -> bool:
        for m in self.moves:
            if m.record.seat == seat and m.record.kind is ActionKind.RAISE:
                return True
        return False

    def voluntary(self, seat: int) -> bool:
        for m in self.moves:
            record = m.record
            if record.seat == seat and record.added > 0 and record.kind is not ActionKind.FOLD:
                return True
        return False

    def acted(self, seat: int) -> bool:
        for m in self.moves:
            if m.record.seat == seat:
                return True
        return False


@quick_init
@dataclass(frozen=True, slots=True)
class Betting:
    """A hand's public betting and chips; see the module docstring.

    ``order`` lists the seats dealt in from the button's left to the button; ``stacks`` are
    chips behind, ``contributions`` each seat's chips in the pot (blinds and antes included),
    ``active`` the seats still holding cards; ``rounds`` the streets so far, the current last.
    """

    game: GameConfig
    button: int
    order: tuple[int, ...]
    stacks: tuple[int, ...]
    contributions: tuple[int, ...]
    active: tuple[bool, ...]
    rounds: tuple[BettingRound, ...]

    # --- building ----------------------------------------------------------------------------

    @classmethod
    def start(cls, game: GameConfig, button: int, stacks: Sequence[int],
              dealt_in: Sequence[bool] | None = None) -> Betting:
        """The hand before its first action: antes and blinds posted."""
        n = len(stacks)
        dealt = tuple(bool(s > 0) for s in stacks) if dealt_in is None else tuple(dealt_in)
        order = table_order(dealt, button)
        behind, paid, bets = [int(s) for s in stacks], [0] * n, [0] * n
        for s in order:
            ante = min(game.ante, behind[s])
            behind[s] -= ante
            paid[s] += ante
        posters = (order[1], order[0]) if len(order) == 2 else order
        for s, blind in zip(posters, game.blinds, strict=False):
            chips = min(blind, behind[s])
            behind[s] -= chips
            paid[s] += chips
            bets[s] += chips
        # the big blind's level is what it posted: a short stack posts less
        first = BettingRound(Street.PREFLOP, (max(bets),) if max(bets) else (), tuple(bets))
        return cls(game, button, order, tuple(behind), tuple(paid), dealt, (first,))

    @classmethod
    def of(cls, obs: Observation) -> Betting:
        """The betting an observation shows, replayed from the start of its hand."""
        return cls.opening(obs).replayed(obs.history, obs.street)

    @classmethod
    def opening(cls, obs: Observation) -> Betting:
        """The start of the hand an observation shows: before its first action."""
        return cls.start(obs.game, obs.button, obs.starting_stacks, obs.dealt_in)

    def replayed(self, records: Sequence[ActionRecord], street: Street) -> Betting:
        """The betting after ``records``, with ``street`` open. From the betting of an
        observation whose history the records go on from, it is what the hand's start gives
        with the whole history: a reader of successive observations of a hand may apply only
        the actions it has not seen."""
        betting = self
        for record in records:
            betting = betting.apply(record)
        return betting.deal(street) if street > betting.street else betting

    def apply(self, record: ActionRecord) -> Betting:
        """The betting after ``record`` (a later street's action opens that street)."""
        betting = self.deal(record.street) if record.street > self.street else self
        rnd = betting.rounds[-1]
        seat, added, kind = record.seat, record.added, record.kind
        stacks, paid, active = betting.stacks, betting.contributions, betting.active
        bets, levels = rnd.bets, rnd.levels
        move = Move(record, len(levels), rnd.bets_to_call(seat), rnd.raised(seat), sum(paid),
                    max(bets), bets[seat])
        # only the tuples the action changes are rebuilt: a modeller steps every action
        if kind is ActionKind.FOLD:
            active = _replaced(active, seat, False)
        else:
            if added:
                stacks = _replaced(stacks, seat, stacks[seat] - added)
                paid = _replaced(paid, seat, paid[seat] + added)
                bets = _replaced(bets, seat, bets[seat] + added)
            if kind is ActionKind.RAISE:
                levels = (*levels, bets[seat])  # the raise-to total
        rnd = BettingRound(rnd.street, levels, bets, (*rnd.moves, move))
        return Betting(betting.game, betting.button, betting.order, stacks, paid, active,
                       (*betting.rounds[:-1], rnd))

    def deal(self, street: Street) -> Betting:
        """The betting once ``street`` opens: earlier rounds closed, the uncalled part of
        each round's highest bet given back."""
        betting = self
        while betting.street < street:
            betting = betting.settled()
            nxt = BettingRound(Street(betting.street + 1), (), (0,) * len(betting.stacks))
            betting = betting._with_rounds((*betting.rounds, nxt))
        return betting

    def settled(self) -> Betting:
        """The betting once the current round closes: the uncalled part of its highest bet
        given back (as when the hand ends). Settling twice changes nothing more."""
        rnd = self.current
        live = sorted([rnd.bets[s] for s in self.order])
        cutoff = live[-2] if len(live) > 1 else 0
        stacks, paid, bets = list(self.stacks), list(self.contributions), list(rnd.bets)
        for s in self.order:
            over = rnd.bets[s] - cutoff
            if over > 0:
                stacks[s] += over
                paid[s] -= over
                bets[s] = cutoff
        rounds = (*self.rounds[:-1], BettingRound(rnd.street, rnd.levels, tuple(bets),
                                                  rnd.moves))
        return Betting(self.game, self.button, self.order, tuple(stacks), tuple(paid),
                       self.active, rounds)

    def _with_rounds(self, rounds: tuple[BettingRound, ...]) -> Betting:
        # a plain constructor call: dataclasses.replace costs a dozen times more, and a
        # modeller steps every bot's view through every action
        return Betting(self.game, self.button, self.order, self.stacks, self.contributions,
                       self.active, rounds)

    # --- reading -----------------------------------------------------------------------------

    @property
    def current(self) -> BettingRound:
        return self.rounds[-1]

    @property
    def raises_left(self) -> int | None:
        """How many more bets and raises the round allows (None: no cap), as the engine
        counts them (:meth:`~simulator.core.game.GameConfig.raises_allowed`)."""
        allowed = self.game.raises_allowed(self.street)
        return None if allowed is None else max(0, allowed - self.current.raises)

    @property
    def street(self) -> Street:
        return self.rounds[-1].street  # not through current: asked at every step

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self.contributions)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every action of the hand so far, with its round as it stood before it."""
        return tuple(m for rnd in self.rounds for m in rnd.moves)

    @property
    def players(self) -> int:
        """Players dealt into the hand."""
        return len(self.order)

    def position(self, seat: int) -> int:
        """The seat's place in table order: 0 left of the button, the button last."""
        return self.order.index(seat)

    def in_hand(self) -> int:
        """Players still holding cards."""
        active = self.active
        count = 0
        for s in self.order:
            if active[s]:
                count += 1
        return count

    def previous_raiser(self) -> int | None:
        """Who made the last bet or raise of the previous round (None on the first)."""
        return self.rounds[-2].last_raiser if len(self.rounds) > 1 else None

    def yet_to_act(self, seat: int) -> bool:
        """Whether ``seat`` still acts in this round when nobody raises: it holds cards and
        chips and has not acted in the round yet."""
        return self.active[seat] and self.stacks[seat] > 0 and not self.current.acted(seat)
