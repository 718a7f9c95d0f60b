"""One freezeout: hands at rising blinds until one entrant holds every chip.

The coordinator seats the entrants (entrant ``e`` at seat ``(e + rotation) % n`` of the
field, spread in order over as few tables of ``table_size`` seats as hold them, their
sizes differing by one at most, as balancing keeps them), then plays rounds: each table with two
players or more plays one hand at the round's level (the schedule counts rounds, one hand per
table each), by the dead button rule (:mod:`simulator.arena.dead_button`). After the round
the players who busted are placed (by their stacks at the start of the hand, ties sharing,
:mod:`simulator.arena.places`) and the tables are broken and balanced
(:mod:`simulator.arena.balancing`). Chips are conserved at every round (checked: a leak
raises). A tournament still running after ``max_hands`` rounds places the players left by
their chips.

The cards of a table's hand depend only on the seed, the tournament, the table and the
hand's number at that table (``deal_cards`` over the table's seats), so a duplicate rotation
replays the same cards per seat while the tables' play goes the same way. Each tournament
builds fresh bots (seeded by tournament, rotation and entrant), so tournaments are
independent and an interval over them is honest.

Every observation of a tournament hand carries a
:class:`~simulator.core.tournament_view.TournamentView`: the prizes of the places still to be
paid and the chips of the players left who are not dealt into the hand, so a bot may price
its decisions in prize equity (ICM).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from simulator.arena.balancing import rebalance
from simulator.arena.dead_button import (
    Positions,
    first_positions,
    next_positions,
    waiting_seats,
)
from simulator.arena.places import bust_places, places_by_chips, prizes
from simulator.arena.sng_config import SngConfig
from simulator.core.deal import deal_cards
from simulator.core.game import GameConfig
from simulator.core.records import BotFault, HandHistory
from simulator.core.seeds import Domain, derive_seed
from simulator.core.tournament_view import TournamentView
from simulator.play.match import (  # the guard of bot calls and the start and close of bots
    _close_bots,
    _Guard,
    _start_bots,
    build_bots,
    play_hand,
)
from simulator.play.protocol import BaseBot, Bot
from simulator.play.registry import build, resolve

EMPTY = "-"  # the name of an empty seat (never dealt in, so never in a hand history)


@dataclass(frozen=True)
class PlayedHand:
    """A hand of the tournament as it was played, for PHH: its table and level (1-based)."""

    table: int
    level: int
    history: HandHistory


@dataclass(frozen=True)
class TournamentResult:
    """Per entrant (config order): place (ties: the mean place), prize and final chips."""

    tournament: int
    rotation: int
    places: tuple[float, ...]
    prizes: tuple[float, ...]
    chips: tuple[int, ...]
    rounds: int
    finished: bool  # False: stopped at max_hands and placed by chips
    faults: int
    trace: tuple[tuple[int, ...], ...] = ()  # chips per entrant after each round, if kept
    hands: tuple[PlayedHand, ...] = field(default=(), repr=False)


def _bots(config: SngConfig, tournament: int, rotation: int) -> tuple[list[Bot], list[BotFault]]:
    def maker(e: int) -> Callable[[], Bot]:
        entry = config.entrants[e]
        spec = resolve(entry.bot)
        seed = derive_seed(config.seed, Domain.BOT, tournament, rotation, e)
        return lambda: build(spec, entry.params, seed)

    n = len(config.entrants)
    return build_bots([maker(e) for e in range(n)], config.names,
                      on_bot_error=config.on_bot_error, bot_timeout=config.bot_timeout)


class _Table:
    """One table's seats (entrant or None) and its last hand's positions."""

    def __init__(self, seats: list[int | None]) -> None:
        self.seats = seats
        self.positions: Positions | None = None
        self.hand = 0  # hands played at this table: its deal's number

    def live(self, chips: Sequence[int]) -> list[bool]:
        return [e is not None and chips[e] > 0 for e in self.seats]


class Freezeout:
    """The state of one tournament between rounds; :meth:`play` runs it to the end."""

    def __init__(self, config: SngConfig, tournament: int, rotation: int = 0, *,
                 keep_hands: bool = False, keep_trace: bool = False) -> None:
        self.config, self.tournament, self.rotation = config, tournament, rotation
        self.keep_hands, self.keep_trace = keep_hands, keep_trace
        n, size = len(config.entrants), config.seats_per_table
        self.chips = [config.starting_stack] * n
        self.total = n * config.starting_stack
        field_seats = [0] * n
        for e in range(n):
            field_seats[(e + rotation) % n] = e
        count = -(-n // size)
        self.tables = [_Table([None] * size) for _ in range(count)]
        seated = iter(field_seats)
        for t, table in enumerate(self.tables):  # as even as balancing keeps them
            for s in range(n // count + (t < n % count)):
                table.seats[s] = next(seated)
        self.places: dict[int, float] = {}
        self.bots, faults = _bots(config, tournament, rotation)
        self.faults = len(faults)
        self._empty: Bot = BaseBot()
        self._games: dict[tuple[int, bool], GameConfig] = {}
        self._guard = _Guard(config.names, config.on_bot_error, config.bot_timeout, None)
        self.trace: list[tuple[int, ...]] = []
        self.hands: list[PlayedHand] = []
        self._start()

    def _names(self, table: _Table) -> list[str]:
        return [self.config.names[e] if e is not None else EMPTY for e in table.seats]

    def _start(self) -> None:
        """Each bot's ``start``, told its table's seat and names and the first level's game
        (a bot that moves is started again: :meth:`_start_moved`)."""
        game = self._game(0, False)
        for table in self.tables:
            self._guard.names = tuple(self._names(table))
            bots = [self.bots[e] if e is not None else self._empty for e in table.seats]
            found = _start_bots(self._guard, bots, [game.copy() for _ in bots],
                                self.tournament, self.rotation, None)
            self.faults += len(found)

    # --- one hand ---------------------------------------------------------------------------

    def _game(self, level: int, dead_small_blind: bool) -> GameConfig:
        key = (level, dead_small_blind)
        if key not in self._games:
            self._games[key] = self.config.game_of(self.config.schedule[level],
                                                   dead_small_blind)
        return self._games[key]

    def _positions(self, table: _Table, live: list[bool]) -> tuple[Positions, tuple[int, ...]]:
        last = table.positions
        positions = first_positions(live) if last is None else next_positions(last, live)
        waiting = waiting_seats(positions, live)
        if waiting and sum(live) - len(waiting) < 3:
            # waiting would leave a heads-up hand under three-handed positions: start afresh
            positions, waiting = first_positions(live), ()
        return positions, waiting

    def _play_table(self, t: int, table: _Table, level: int) -> None:
        live = table.live(self.chips)
        positions, waiting = self._positions(table, live)
        stacks = [self.chips[e] if e is not None and live[s] and s not in waiting else 0
                  for s, e in enumerate(table.seats)]
        bots = [self.bots[e] if e is not None and stacks[s] > 0 else self._empty
                for s, e in enumerate(table.seats)]
        names = self._names(table)
        game = self._game(level, positions.small_blind is None)
        seed = derive_seed(self.config.seed, Domain.TOURNAMENT, self.tournament, t)
        deal = deal_cards(seed, table.hand, len(table.seats))
        self._guard.names = tuple(names)
        result = play_hand(game, bots, stacks, positions.button, deal, table.hand, names,
                           on_bot_error=self.config.on_bot_error,
                           bot_timeout=self.config.bot_timeout, guard=self._guard,
                           tournament=self._view(table, stacks, level))
        self.faults += len(result.faults)
        for s, e in enumerate(table.seats):
            if e is not None and stacks[s] > 0:
                self.chips[e] = result.stacks[s]
        table.positions = positions
        table.hand += 1
        if self.keep_hands:
            self.hands.append(PlayedHand(t, level + 1, result.history))

    def _view(self, table: _Table, stacks: Sequence[int], level: int) -> TournamentView:
        """What this hand's observations tell of the tournament: the prizes of the places
        still to be paid and the chips of the players left who are not dealt in (other
        tables, or waiting at this one), as they stand before the hand."""
        dealt = {e for s, e in enumerate(table.seats) if e is not None and stacks[s] > 0}
        left = self._left()
        pool = self.config.buy_in * len(self.chips)
        paid = tuple(pool * p / 100 for p in self.config.payouts[:len(left)])
        others = tuple(self.chips[e] for e in left if e not in dealt and self.chips[e] > 0)
        return TournamentView(paid, others, level + 1)

    # --- rounds -----------------------------------------------------------------------------

    def _left(self) -> list[int]:
        return [e for e in range(len(self.chips)) if e not in self.places]

    def play_round(self, round_number: int) -> None:
        level = self.config.level_index(round_number)
        before = list(self.chips)
        left = self._left()
        for t, table in enumerate(self.tables):
            if sum(table.live(self.chips)) >= 2:
                self._play_table(t, table, level)
        if sum(self.chips) != self.total:
            raise RuntimeError(f"tournament {self.tournament}: chips not conserved "
                               f"({sum(self.chips)} != {self.total}) at round {round_number}")
        busted = [e for e in left if self.chips[e] == 0]
        if busted:
            self.places.update(bust_places(busted, {e: before[e] for e in busted}, len(left)))
            for table in self.tables:
                table.seats = [None if e in busted else e for e in table.seats]
            self._rebalance()
        if self.keep_trace:
            self.trace.append(tuple(self.chips))

    def _rebalance(self) -> None:
        if len(self.tables) < 2:
            return
        seats = [table.seats for table in self.tables]
        bbs = [t.positions.big_blind if t.positions is not None else len(t.seats) - 1
               for t in self.tables]
        moves = rebalance(seats, bbs)
        if moves:
            for table, after in zip(self.tables, seats, strict=True):
                table.seats = after
                if sum(1 for e in after if e is not None) < 2:
                    table.positions = None  # a broken or emptied table starts afresh
            self._start_moved({m.entrant for m in moves})

    def _start_moved(self, moved: set[int]) -> None:
        """Each moved bot's ``start`` again (its context's ``moved`` True), told the seat and
        names of its new table as it stands after every move of the round: the seat of its
        first context is another table's, and a bot that keeps its seat from ``start`` (an
        opponent modeller does) would take another seat's cards and chips for its own."""
        game = self._game(0, False)
        for table in self.tables:
            if not any(e is not None and e in moved for e in table.seats):
                continue
            self._guard.names = tuple(self._names(table))
            bots = [self.bots[e] if e is not None and e in moved else self._empty
                    for e in table.seats]
            found = _start_bots(self._guard, bots, [game.copy() for _ in bots],
                                self.tournament, self.rotation, None, moved=True)
            self.faults += len(found)

    def play(self) -> TournamentResult:
        rounds = 0
        while len(self._left()) > 1 and rounds < self.config.max_hands:
            self.play_round(rounds)
            rounds += 1
        left = self._left()
        finished = len(left) <= 1
        self.places.update(places_by_chips({e: self.chips[e] for e in left}))
        n = len(self.chips)
        pool = self.config.buy_in * n
        paid = prizes(self.places, [p / 100 for p in self.config.payouts], pool)
        self._close()
        return TournamentResult(
            self.tournament, self.rotation, tuple(self.places[e] for e in range(n)),
            tuple(paid[e] for e in range(n)), tuple(self.chips), rounds, finished,
            self.faults, tuple(self.trace), tuple(self.hands))

    def _close(self) -> None:
        self._guard.names = self.config.names
        self.faults += len(_close_bots(self._guard, self.bots))


def play_tournament(config: SngConfig, tournament: int, rotation: int = 0, *,
                    keep_hands: bool = False, keep_trace: bool = False) -> TournamentResult:
    """Play tournament ``tournament`` (its cards) in seat rotation ``rotation``."""
    return Freezeout(config, tournament, rotation, keep_hands=keep_hands,
                     keep_trace=keep_trace).play()
