"""The state of one hand of Texas Hold'em, fixed-limit, no-limit and pot-limit.

A :class:`HandState` is created with the stacks, the button and the cards (all five board
cards are given up front and revealed only as the hand reaches them), posts antes and blinds,
and then takes one verb at a time from the player to act: :meth:`HandState.fold`,
:meth:`HandState.check_or_call`, :meth:`HandState.raise_to` or :meth:`HandState.apply`.
Every verb is validated; an illegal one raises :class:`IllegalActionError` naming the seat,
the action and the legal set. The state deals the board, returns uncalled bets, runs the
showdown and pays the pots by itself.

Players are listed as in PHH (``order``): from the button's left, so with three or more the
first posts the small blind; heads-up the big blind comes first and the button (small blind)
acts first pre-flop. The betting bookkeeping follows pokerkit's (the last full raise, the
raises this round, the players who acted since the last full raise, the run of short all-ins
since then) with one documented difference: pre-flop the big blind counts as the last full
bet, so a short all-in raise pre-flop does not reopen the betting to limpers (TDA).

>>> from simulator.core.cards import parse_cards
>>> from simulator.core.game import GameConfig
>>> game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
>>> holes = [tuple(parse_cards("AhAd")), tuple(parse_cards("7c2d"))]
>>> s = HandState(game, [100, 100], button=1, holes=holes, board=parse_cards("Ks9s5h4c3d"))
>>> s.actor, str(s.legal_actions())
(1, 'fold, call 1, raise to 4..100')
>>> s.raise_to(6).added, s.actor
(5, 0)
>>> _ = s.check_or_call(); s.street.label, s.board_cards
('flop', (47, 31, 14))
>>> _ = s.check_or_call()
>>> try:
...     s.fold()
... except IllegalActionError as exc:
...     print(exc)
seat 1: illegal action 'fold'; legal: check, raise to 2..94
>>> _ = s.raise_to(94); _ = s.check_or_call(); s.finished, s.stacks
(True, (200, 0))
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import assert_never

import numpy as np

from simulator.core.actions import (
    Action,
    ActionKind,
    ActionRecord,
    IllegalActionError,
    LegalActions,
)
from simulator.core.frozen import FrozenMap
from simulator.core.game import GameConfig, Structure
from simulator.core.hand_ranks import evaluate
from simulator.core.observation import Observation
from simulator.core.positions import table_order
from simulator.core.pots import showdown_payout
from simulator.core.streets import Street
from simulator.core.tournament_view import TournamentView


@dataclass(frozen=True)
class ChancePoint:
    """Recorded when each board round is dealt (flop, turn, river)."""

    street: Street  # flop, turn or river
    contributions: tuple[int, ...]  # each seat's total chips in the pot at that moment
    active: tuple[bool, ...]  # seats still holding cards then


class HandState:
    """One hand from the antes to the payout; see the module docstring."""

    def __init__(self, game: GameConfig, stacks: Sequence[int], button: int,
                 holes: Sequence[tuple[int, int] | None], board: Sequence[int], *,
                 hand_number: int = 0, dealt_in: Sequence[bool] | None = None,
                 tournament: TournamentView | None = None) -> None:
        n = len(stacks)
        self.game, self.num_seats, self.button, self.hand_number = game, n, button, hand_number
        self.tournament = tournament  # handed to every observation as it is (frozen)
        self.dealt_in = tuple(bool(s > 0) for s in stacks) if dealt_in is None else tuple(
            bool(d) for d in dealt_in)
        if len(self.dealt_in) != n or len(holes) != n:
            raise ValueError(f"expected {n} entries in dealt_in and holes")
        self.order = table_order(self.dealt_in, button)
        if len(self.order) < 2:
            raise ValueError(f"a hand needs two players dealt in, got {len(self.order)}")
        if any(stacks[s] <= 0 for s in self.order):
            raise ValueError("every player dealt in needs chips")
        self.holes = tuple(holes)
        self.full_board = tuple(board)
        self.starting_stacks = tuple(int(x) for x in stacks)
        self._stacks = list(self.starting_stacks)
        self._bets = [0] * n
        self._contributions = [0] * n
        self._active = list(self.dealt_in)
        self._history: list[ActionRecord] = []
        self._shared_history: list[ActionRecord] = []  # what bots see: never read back
        self._chance_points: list[ChancePoint] = []
        self._shown: dict[int, tuple[int, int]] = {}
        self.street = Street.PREFLOP
        self.finished = False
        self._to_act: deque[int] = deque()
        self._legal: LegalActions | None = None
        self._post_forced_bets()
        self._begin_round()

    # --- read-only views ---------------------------------------------------------------------

    @property
    def actor(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        return self._to_act[0] if self._to_act else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats still to act this round, the actor first."""
        return tuple(self._to_act)

    @property
    def board_cards(self) -> tuple[int, ...]:
        return self.full_board[:self.street.board_size]

    @property
    def pot(self) -> int:
        return sum(self._contributions)

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind per seat (not in the pot)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """This round's bets per seat."""
        return tuple(self._bets)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Each seat's chips in the pot this hand, antes and blinds included."""
        return tuple(self._contributions)

    @property
    def active(self) -> tuple[bool, ...]:
        """Seats still holding cards."""
        return tuple(self._active)

    @property
    def history(self) -> tuple[ActionRecord, ...]:
        """Every action so far, blinds and antes excluded (the engine's own records)."""
        return tuple(self._history)

    @property
    def chance_points(self) -> tuple[ChancePoint, ...]:
        return tuple(self._chance_points)

    @property
    def shown(self) -> FrozenMap[int, tuple[int, int]]:
        """Seat -> hole cards of every hand shown at the showdown."""
        return FrozenMap(self._shown)

    @property
    def finishing_stacks(self) -> tuple[int, ...]:
        if not self.finished:
            raise ValueError("the hand is not finished")
        return tuple(self._stacks)

    def legal_actions(self) -> LegalActions:
        """The legal set of the player to act; raises ValueError when nobody is to act."""
        if self._legal is None:
            if not self._to_act:
                raise ValueError("the hand is over: nobody is to act")
            self._legal = self._compute_legal(self._to_act[0])
        return self._legal

    def can_fold(self) -> bool:
        return bool(self._to_act) and self.legal_actions().can_fold

    def can_raise_to(self, amount: int | None = None) -> bool:
        if not self._to_act:
            return False
        legal = self.legal_actions()
        if amount is None:
            return legal.can_raise
        return legal.allows(Action.raise_to(amount))

    def observation(self, seat: int, game: GameConfig | None = None) -> Observation:
        """What ``seat`` may see when it is to act (its own cards, public state, legal set).

        Nothing in it is an object the state reads back: the legal set and the action records
        are copies, and ``game`` (default: a copy of the state's) is whatever the caller
        hands this seat, so a bot that forces a frozen record open changes only its own view.
        """
        hole = self.holes[seat]
        return Observation(
            seat=seat, button=self.button, hand_number=self.hand_number,
            game=game if game is not None else self.game.copy(),
            hole_cards=tuple(hole) if hole is not None else (), board=self.board_cards,
            street=self.street, pot=sum(self._contributions), stacks=tuple(self._stacks),
            bets=tuple(self._bets), contributions=tuple(self._contributions),
            active=tuple(self._active), history=tuple(self._shared_history),
            legal=self.legal_actions().copy(), tournament=self.tournament)

    @property
    def last_shared_record(self) -> ActionRecord:
        """The bots' copy of the last action's record (the engine keeps its own)."""
        return self._shared_history[-1]

    # --- verbs -------------------------------------------------------------------------------

    def fold(self) -> ActionRecord:
        return self.apply(Action.fold())

    def check_or_call(self) -> ActionRecord:
        return self.apply(Action.call())

    def raise_to(self, amount: int) -> ActionRecord:
        return self.apply(Action.raise_to(amount))

    def apply(self, action: Action) -> ActionRecord:
        """Validate and apply the action of the player to act; returns what happened."""
        seat = self.actor
        if seat is None:
            raise ValueError(f"the hand is over: no one may act ({action})")
        legal = self.legal_actions()
        if not legal.allows(action):
            raise IllegalActionError(seat, action, legal)
        self._legal = None
        street = self.street
        self._to_act.popleft()
        self._acted.add(seat)
        if action.kind is ActionKind.FOLD:
            self._active[seat] = False
            record = ActionRecord(seat, street, ActionKind.FOLD, None, 0)
        elif action.kind is ActionKind.CALL:
            added = legal.call_amount
            self._move(seat, added)
            record = ActionRecord(seat, street, ActionKind.CALL, None, added,
                                  added > 0 and self._stacks[seat] == 0)
        else:
            assert action.amount is not None  # legal.allows checked the raise's amount
            record = self._raise(seat, int(action.amount))
        self._history.append(record)
        self._shared_history.append(record.copy())
        self._after_action()
        return record

    # --- forced bets -------------------------------------------------------------------------

    def _post_forced_bets(self) -> None:
        """Antes go straight to the pot (they are not bets); blinds are this round's bets."""
        ante = self.game.ante
        if ante:
            for s in self.order:
                paid = min(ante, self._stacks[s])
                self._stacks[s] -= paid
                self._contributions[s] += paid
        posters = (self.order[1], self.order[0]) if len(self.order) == 2 else self.order
        for s, blind in zip(posters, self.game.blinds, strict=False):
            self._move(s, min(blind, self._stacks[s]))

    def _move(self, seat: int, chips: int) -> None:
        self._stacks[seat] -= chips
        self._bets[seat] += chips
        self._contributions[seat] += chips

    # --- betting rounds ----------------------------------------------------------------------

    def _begin_round(self) -> None:
        game = self.game
        self._full_bet = game.bet_unit(self.street)
        # The last full bet or raise: pre-flop the big blind counts (TDA), after it nothing yet.
        self._last_full = self._full_bet if self.street is Street.PREFLOP else 0
        self._raises = 0
        self._acted: set[int] = set()
        self._short_all_ins: list[int] = []
        self._to_act = deque(s for s in self._rotation(self._opener())
                            if self._active[s] and self._stacks[s] > 0
                            and self._effective_stack(s) > 0)
        if len(self._to_act) == 1 and self._bets[self._to_act[0]] >= max(self._bets):
            self._to_act.clear()
        if not self._to_act or self._players_in() <= 1:
            self._end_round()

    def _opener(self) -> int:
        """The player after the largest bet, ties to the later one (pokerkit's rule)."""
        k = max(range(len(self.order)), key=lambda i: (self._bets[self.order[i]], i))
        return (k + 1) % len(self.order)

    def _rotation(self, start: int) -> list[int]:
        return list(self.order[start:] + self.order[:start])

    def _effective_stack(self, seat: int) -> int:
        """Chips this player can still lose: capped by the second-largest live stack."""
        totals = sorted(self._bets[s] + self._stacks[s] for s in self.order if self._active[s])
        return min(self._stacks[seat], max(0, totals[-2] - self._bets[seat]))

    def _players_in(self) -> int:
        return sum(1 for s in self.order if self._active[s])

    def _compute_legal(self, seat: int) -> LegalActions:
        top = max(self._bets)
        call = min(self._stacks[seat], top - self._bets[seat])
        low, high = self._raise_range(seat, top, call)
        return LegalActions(can_fold=top > self._bets[seat], call_amount=call,
                            min_raise_to=low, max_raise_to=high)

    def _hole(self, seat: int) -> tuple[int, int]:
        """The hole cards of a seat still in at the showdown (the unknown ones mucked)."""
        hole = self.holes[seat]
        assert hole is not None  # the showdown folds every seat whose cards are unknown
        return hole

    def _raise_range(self, seat: int, top: int, call: int) -> tuple[int | None, int | None]:
        if not self._may_raise(seat, top, call):
            return None, None
        all_in = self._stacks[seat] + self._bets[seat]
        low = min(all_in, top + max(self._last_full, self._full_bet))
        structure = self.game.structure
        if structure is Structure.LIMIT:
            return low, low
        if structure is Structure.NO_LIMIT:
            return low, all_in
        if structure is Structure.POT_LIMIT:
            # to the pot after the call: the call, then a raise of the pot (every bet on the
            # table and the call included); all-in for less. Never below the minimum.
            return low, max(low, min(all_in, top + sum(self._contributions) + call))
        assert_never(structure)

    def _may_raise(self, seat: int, top: int, call: int) -> bool:
        allowed = self.game.raises_allowed(self.street)
        if allowed is not None and self._raises >= allowed:
            return False
        if seat in self._acted:
            # Reopened only by a full raise, or by short all-ins that add up to one.
            if call < self._last_full:
                return False
            if self._short_all_ins and sum(self._short_all_ins) < self._last_full:
                return False
        if self._stacks[seat] <= top - self._bets[seat]:
            return False  # covered: calling puts this player all-in
        return any(s != seat and self._active[s] and self._stacks[s] + self._bets[s] > top
                   for s in self.order)

    def _raise(self, seat: int, amount: int) -> ActionRecord:
        top = max(self._bets)
        increment = amount - top
        added = amount - self._bets[seat]
        self._move(seat, added)
        if increment >= self._last_full:
            self._acted = {seat}
        self._last_full = max(self._last_full, increment)
        self._raises += 1
        if self._stacks[seat]:
            self._short_all_ins.clear()
        else:
            self._short_all_ins.append(increment)
        if sum(self._short_all_ins) >= self._last_full:
            self._short_all_ins.clear()
        k = self.order.index(seat)
        self._to_act = deque(s for s in self._rotation(k + 1)
                            if s != seat and self._active[s] and self._stacks[s] > 0)
        return ActionRecord(seat, self.street, ActionKind.RAISE, amount, added,
                            self._stacks[seat] == 0)

    def _after_action(self) -> None:
        if not self._to_act or self._players_in() <= 1:
            self._end_round()

    def _end_round(self) -> None:
        self._to_act.clear()
        self._return_uncalled()
        if self._players_in() <= 1:
            self._finish_by_folds()
            return
        with_chips = sum(1 for s in self.order if self._active[s] and self._stacks[s] > 0)
        if self.street is Street.RIVER or with_chips <= 1:
            self._run_out_and_show_down()
            return
        self._deal_next_street()
        self._begin_round()

    def _return_uncalled(self) -> None:
        bets = sorted(self._bets[s] for s in self.order)
        cutoff = bets[-2]
        for s in self.order:
            over = self._bets[s] - cutoff
            if over > 0:
                self._stacks[s] += over
                self._contributions[s] -= over
            self._bets[s] = 0

    def _deal_next_street(self) -> None:
        self.street = Street(self.street + 1)
        if len(self.full_board) < self.street.board_size:
            raise ValueError(f"board has {len(self.full_board)} cards; the {self.street.label}"
                             f" needs {self.street.board_size}")
        self._chance_points.append(ChancePoint(self.street, tuple(self._contributions),
                                              tuple(self._active)))

    # --- the end -----------------------------------------------------------------------------

    def _finish_by_folds(self) -> None:
        winner = next(s for s in self.order if self._active[s])
        self._stacks[winner] += sum(self._contributions)
        self.finished = True

    def _run_out_and_show_down(self) -> None:
        while self.street < 3:
            self._deal_next_street()
        # A player whose cards are unknown (a replayed hand history) has mucked them.
        for s in self.order:
            if self._active[s] and self.holes[s] is None:
                self._active[s] = False
        players = [s for s in self.order if self._active[s]]
        if not players:
            raise ValueError("showdown without the hole cards of any player still in")
        shown = {s: self._hole(s) for s in players}
        hands = np.array([list(shown[s]) + list(self.full_board[:5]) for s in players],
                         dtype=np.int64)
        ranks = [0] * self.num_seats
        for s, r in zip(players, evaluate(hands).tolist(), strict=True):
            ranks[s] = r
        won_by = showdown_payout(self._contributions, self._active, self.order, ranks)
        for s, won in enumerate(won_by):
            self._stacks[s] += won
        self._shown = {s: (shown[s][0], shown[s][1]) for s in players}
        self.finished = True



def observation_after(state: HandState, actions: Sequence[Action], seat: int | None = None
                      ) -> Observation:
    """The observation of a state the hand did not reach: ``state`` plus ``actions`` (taken
    in turn by whoever is to act), as the player then to act sees it. ``seat``, if given,
    must be that player: an observation is what a seat sees when it is to act.

    The state itself is never changed; a best-response tool asks "would you fold if I
    raised here?" with it. An illegal action raises :class:`IllegalActionError`.

    >>> from simulator.core.game import GameConfig
    >>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    >>> s = HandState(game, [100, 100], button=1, holes=[(0, 1), (2, 3)],
    ...               board=[10, 11, 12, 13, 14])
    >>> obs = observation_after(s, [Action.raise_to(4)])
    >>> obs.seat, str(obs.legal), len(obs.history), len(s.history)
    (0, 'fold, call 2, raise to 6', 1, 0)
    """
    scratch = copy.deepcopy(state)
    for action in actions:
        scratch.apply(action)
    who = scratch.actor
    if who is None:
        raise ValueError("the hand is over after those actions: no one is to act")
    if seat is not None and seat != who:
        raise ValueError(f"seat {seat} is not to act after those actions (seat {who} is)")
    return scratch.observation(who)


def observations_along(obs: Observation, only: Collection[int] | None = None
                       ) -> list[Observation]:
    """The observation of the player to act before each action of ``obs.history``, replayed
    from the start of the hand: what each decision looked like (legal sets included). With
    ``only`` (indices into the history, ``len(obs.history)`` for ``obs``'s own state), those
    alone, in the history's order: an observation costs more than a step, and the replay
    stops after the last one asked for.

    Only ``obs``'s own seat's cards are real; the other seats get stand-in cards, which none
    of the public facts depend on. The last entry is ``obs``'s own state again.

    >>> from simulator.core.game import GameConfig
    >>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    >>> s = HandState(game, [100, 100], button=1, holes=[(0, 1), (2, 3)],
    ...               board=[10, 11, 12, 13, 14])
    >>> _ = s.raise_to(4); _ = s.check_or_call()
    >>> past = observations_along(s.observation(s.actor))
    >>> [(o.seat, str(o.legal)) for o in past]
    [(1, 'fold, call 1, raise to 4'), (0, 'fold, call 2, raise to 6'), (0, 'check, raise to 2')]
    >>> [str(o.legal) for o in observations_along(s.observation(s.actor), only=(1,))]
    ['fold, call 2, raise to 6']
    """
    dealt, start = obs.dealt_in, obs.starting_stacks
    known = set(obs.hole_cards) | set(obs.board)
    spare = iter(c for c in range(52) if c not in known)
    holes: list[tuple[int, int] | None] = []
    for s in range(obs.num_seats):
        if s == obs.seat and len(obs.hole_cards) == 2:
            holes.append((obs.hole_cards[0], obs.hole_cards[1]))
        else:
            holes.append((next(spare), next(spare)) if dealt[s] else None)
    board = tuple(obs.board) + tuple(next(spare) for _ in range(5 - len(obs.board)))
    state = HandState(obs.game, start, obs.button, holes, board,
                      hand_number=obs.hand_number, dealt_in=dealt, tournament=obs.tournament)
    wanted = range(len(obs.history) + 1) if only is None else frozenset(only)
    last = max(wanted, default=-1)
    out: list[Observation] = []
    for i, record in enumerate(obs.history):
        if i > last:
            return out
        if i in wanted:
            out.append(state.observation(int(record.seat)))
        state.apply(Action(record.kind, record.amount))
    if state.actor is not None and len(obs.history) in wanted:
        out.append(state.observation(state.actor))
    return out
