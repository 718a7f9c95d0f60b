"""AIVAT's action corrections (Burch, Schmid, Moravčík, Morrill & Bowling 2018).

At a decision of a seat whose policy is known (a :class:`~simulator.play.protocol.PolicyBot`),
the action it takes is a draw from its row for the holding it holds. For every seat ``i`` the
**action correction** of that decision is

    value_i(after the action taken) - sum over actions a of row[a] * value_i(after a)

with the fixed value function of :mod:`simulator.arena.values` (every card known). Its
expectation over the draw is exactly zero whatever the value function, so subtracting it
from a seat's winnings keeps the estimate unbiased; with a value function that tracks the
hand it removes the part of the result that the seat's own random choices (and the chance
events, :mod:`simulator.arena.luck`) put there. A raise range (an entry of every size from
``low`` to ``high``, equally likely) is valued at its middle: the value is linear in the
chips a raise adds, so that is the range's mean value.

The AIVAT estimate of a seat's result in a hand is ``net - luck - corrections``: the luck
(chance) correction and the action corrections of every decision of a seat with a policy.
A seat without one gets no action corrections for its own decisions (chance only); it still
gets its share of the others', which are zero-sum across the seats like the values.

A decision whose action was forced (the bot's fault; the engine checked or folded for it) is
not a draw from the row and gets no correction. An action that ``act`` played but its policy
gives probability zero means ``act`` and ``policy`` disagree: that is the seat's fault, and
its correction is left out. A bot whose actions merely do not follow its probabilities is
caught by the test of :mod:`simulator.arena.honesty`, whose sums the recorder keeps too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from simulator.arena.honesty import increments, log_wealth_sums
from simulator.arena.luck import RngSource, when_drawn
from simulator.arena.values import DEFAULT_SAMPLES, HandValues
from simulator.core.actions import Action, ActionKind, ActionRecord
from simulator.core.errors import HoldemError
from simulator.core.state import HandState
from simulator.core.streets import Street
from simulator.play.match import PolicyAsker, describe_decision, describe_moves
from simulator.play.protocol import Policy, PolicyEntry, RaiseRange


class AivatError(HoldemError, RuntimeError):
    """The value function failed: the run stops with this line rather than drop a column."""


@dataclass(frozen=True)
class Node:
    """A decision as the value function sees it: the actor, the chips each seat has in the
    pot, the seats still in, the actor's bet this round and what a call adds."""

    seat: int
    values: HandValues
    paid: tuple[float, ...]
    active: tuple[bool, ...]
    bet: int
    call_amount: int

    @classmethod
    def of(cls, state: HandState, values: HandValues) -> Node:
        seat = state.actor
        assert seat is not None
        return cls(seat, values, tuple(float(c) for c in state.contributions), state.active,
                   state.bets[seat], state.legal_actions().call_amount)

    def value(self, entry: PolicyEntry) -> list[float]:
        """Every seat's value once the actor has played ``entry`` (a raise range at its
        middle: the value is linear in the chips a raise adds), in Python floats."""
        paid, active = list(self.paid), list(self.active)
        if isinstance(entry, RaiseRange):
            paid[self.seat] += (entry.low + entry.high) / 2 - self.bet
        elif entry.kind is ActionKind.FOLD:
            active[self.seat] = False
        elif entry.kind is ActionKind.CALL:
            paid[self.seat] += self.call_amount
        else:
            assert entry.amount is not None
            paid[self.seat] += entry.amount - self.bet
        return self.values.value_list(paid, active)


@dataclass(frozen=True)
class _Noted:
    """A decision waiting for its action: where it is, and the actor's policy with the row
    of the holding it holds (None until the action brings it, :meth:`PolicyAsker.drawn_from`)."""

    node: Node
    hand_number: int
    street: Street
    history: tuple[ActionRecord, ...]
    policy: Policy | None = None
    row_index: int = 0

    @property
    def where(self) -> str:
        """The decision in words, for a message (built only when one is needed)."""
        return f"hand {self.hand_number}, " + describe_moves(
            self.node.seat, self.street, self.history)


class AivatRecorder:
    """An overseer (:class:`~simulator.play.match.Overseer`) that keeps every seat's action
    corrections for the hand under way; :meth:`take` hands them over after each hand.

    ``rng_of(hand_number)`` gives the generator of the value function's Monte Carlo equity
    (three or more players before the flop only). A caller that already holds the actor's
    row (a best response asks for every holding) passes it to :meth:`decision` instead of
    letting :meth:`before` ask; a bot that states its row with its action is not asked.
    """

    def __init__(self, num_seats: int,
                 rng_of: Callable[[int], np.random.Generator | None] | None = None,
                 samples: int = DEFAULT_SAMPLES) -> None:
        self._terms = np.zeros(num_seats)
        self._rng_of = rng_of
        self._samples = samples
        self._hand: int | None = None
        self._values: dict[int, HandValues] = {}
        self._rng: RngSource = None
        self._pending: _Noted | None = None
        # per seat, every tested decision's increments: summed as logs when asked, at
        # array speed, rather than as 32 logarithms at each decision
        self._increments: list[list[tuple[float, ...]]] = [[] for _ in range(num_seats)]

    @property
    def honesty(self) -> np.ndarray:
        """Per seat, the sums of logs of the honesty test's martingales over every decision
        corrected so far (:mod:`simulator.arena.honesty`), shape ``(seats, TESTS)``."""
        return np.array([log_wealth_sums(ds) for ds in self._increments])

    @property
    def tested(self) -> np.ndarray:
        """Per seat, the decisions those sums are over: its policy read, its action not
        forced."""
        return np.array([len(ds) for ds in self._increments], dtype=np.int64)

    # --- the overseer ----------------------------------------------------------------------

    def before(self, seat: int, state: HandState, ask: PolicyAsker) -> Action | None:
        if ask.states_row(seat):
            self._pending = self._note(state, None, 0)
        elif ask.has_policy(seat):
            hole = state.holes[seat]
            assert hole is not None
            policy = ask(seat, state.observation(seat), [hole])
            if policy is not None:
                self.decision(state, policy, 0)
        return None

    def after(self, seat: int, state: HandState, record: ActionRecord, forced: bool,
              ask: PolicyAsker) -> None:
        pending, self._pending = self._pending, None
        if pending is None or pending.node.seat != seat or forced:
            return
        policy = pending.policy if pending.policy is not None else ask.drawn_from()
        if policy is None:
            return
        row = policy.probabilities[pending.row_index].tolist()
        taken = Action(record.kind, record.amount)
        if _probability(policy, row, taken) <= 0.0:
            ask.fault(seat, f"act() played '{taken}', which its policy() gives probability 0 "
                            f"(at {pending.where}): act must draw from its policy")
            return
        self._increments[seat].append(increments(policy.actions, row, taken))
        # In Python floats, seat by seat, the operations the arrays of a few seats did (each
        # seat's sum in the same order), at a fraction of their cost at every decision.
        taken_value = _valued(pending, taken)  # valued once, though also an entry of the row
        mean = [0.0] * len(taken_value)
        for entry, p in zip(policy.actions, row, strict=True):
            if p > 0:
                value = taken_value if entry == taken else _valued(pending, entry)
                mean = [m + p * v for m, v in zip(mean, value, strict=True)]
        self._terms += np.array([v - m for v, m in zip(taken_value, mean, strict=True)])

    # --- for callers that hold the row already ---------------------------------------------

    def decision(self, state: HandState, policy: Policy, row_index: int) -> None:
        """Note the decision of the seat to act in ``state``: its policy, and which of the
        policy's rows is the holding the seat holds."""
        self._pending = self._note(state, policy, row_index)

    def take(self) -> np.ndarray:
        """The corrections of the hand just played, per seat in chips (zeros when none), and
        a clean slate for the next."""
        out, self._terms = self._terms, np.zeros(len(self._terms))
        self._pending = None
        return out

    # --- inside ----------------------------------------------------------------------------

    def _note(self, state: HandState, policy: Policy | None, row_index: int) -> _Noted:
        seat = state.actor
        assert seat is not None
        try:
            node = Node.of(state, self._hand_values(state))
        except Exception as exc:  # the value function's own failure: say so, stop the run
            where = f"hand {state.hand_number}, {describe_decision(state.observation(seat))}"
            raise AivatError(f"AIVAT: the value function failed at {where}: "
                             f"{type(exc).__name__}: {exc}") from exc
        return _Noted(node, state.hand_number, state.street, state.history, policy, row_index)

    def _hand_values(self, state: HandState) -> HandValues:
        if state.hand_number != self._hand:
            self._hand = state.hand_number
            self._values = {}
            # made when Monte Carlo first needs it (seldom: see RngSource), once a hand
            self._rng = None if self._rng_of is None else when_drawn(self._rng_of,
                                                                      state.hand_number)
        street = int(state.street)
        if street not in self._values:
            self._values[street] = HandValues(state.holes, state.board_cards, self._rng,
                                              self._samples)
        return self._values[street]


def _valued(noted: _Noted, entry: PolicyEntry) -> list[float]:
    """The noted decision's ``node.value(entry)``; a failure is an :class:`AivatError`
    naming the decision (whose words are built only then)."""
    try:
        return noted.node.value(entry)
    except Exception as exc:
        raise AivatError(f"AIVAT: the value function failed at {noted.where}, valuing '{entry}': "
                         f"{type(exc).__name__}: {exc}") from exc


def _probability(policy: Policy, row: np.ndarray | Sequence[float], action: Action) -> float:
    """The row's probability of ``action`` (a raise range's mass spread over its sizes)."""
    total = 0.0
    for entry, p in zip(policy.actions, row, strict=True):
        if entry == action:
            total += float(p)
        elif isinstance(entry, RaiseRange) and entry.contains(action):
            total += float(p) / entry.sizes
    return total
