"""Actions a bot returns, the legal set the engine offers, and the record of each action.

Amounts follow pokerkit and PHH: a raise names the player's total bet *in the current
betting round* after the raise ("raise to"), not the increment and not the hand total.
A bet is a raise when nothing has been bet yet; a check is a call of zero.

>>> Action.raise_to(6)
Action(kind=<ActionKind.RAISE: 'r'>, amount=6)
>>> legal = LegalActions(can_fold=True, call_amount=2, min_raise_to=4, max_raise_to=200)
>>> legal.allows(Action.raise_to(3)), legal.allows(Action.call()), legal.allows(Action.fold())
(False, True, True)
>>> str(legal)
'fold, call 2, raise to 4..200'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from simulator.core.errors import HoldemError
from simulator.core.frozen import quick_init
from simulator.core.streets import Street


class ActionKind(enum.Enum):
    FOLD = "f"
    CALL = "c"  # check when there is nothing to call
    RAISE = "r"  # bet when there is nothing to call

    # A member is its only instance and equal only to itself, so its identity is its hash:
    # in C, where Enum's hashes its name in Python, and actions are dict keys at every step.
    __hash__ = object.__hash__


@quick_init
@dataclass(frozen=True, slots=True)
class Action:
    """What a bot returns; ``amount`` is the raise-to total for this round, raises only."""

    kind: ActionKind
    amount: int | None = None

    @staticmethod
    def fold() -> Action:
        return Action(ActionKind.FOLD)

    @staticmethod
    def call() -> Action:
        """Check or call."""
        return Action(ActionKind.CALL)

    check = call

    @staticmethod
    def raise_to(amount: int) -> Action:
        """Bet or raise so that this round's bet becomes ``amount``."""
        return Action(ActionKind.RAISE, int(amount))

    def __str__(self) -> str:
        return {ActionKind.FOLD: "fold", ActionKind.CALL: "call"}.get(
            self.kind, f"raise to {self.amount}")


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """The legal set for the player to act.

    ``can_fold`` is False when checking is free (as in pokerkit). ``call_amount`` is the chips
    a call adds (0 is a check; capped by the stack). ``min_raise_to``/``max_raise_to`` are
    None when raising is not allowed; in fixed-limit they are equal, and a short stack
    raises all-in to its whole stack.
    """

    can_fold: bool
    call_amount: int
    min_raise_to: int | None = None
    max_raise_to: int | None = None

    def copy(self) -> LegalActions:
        """A new record with the same fields: what a bot gets, never the engine's own."""
        return LegalActions(self.can_fold, self.call_amount, self.min_raise_to,
                            self.max_raise_to)

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None

    @property
    def raise_bounds(self) -> tuple[int, int]:
        """``(min_raise_to, max_raise_to)`` of a set that allows raising (the caller checks
        ``can_raise``; the two bounds are None together)."""
        low, high = self.min_raise_to, self.max_raise_to
        assert low is not None and high is not None, "raising is not allowed here"
        return low, high

    def check_or_fold(self) -> Action:
        """Give up as cheaply as the rules allow: fold, or check when checking is free.

        >>> str(LegalActions(False, 0).check_or_fold()), str(LegalActions(True, 2).check_or_fold())
        ('call', 'fold')
        """
        return Action.fold() if self.can_fold else Action.call()

    def allows(self, action: Action) -> bool:
        if action.kind is ActionKind.FOLD:
            return self.can_fold
        if action.kind is ActionKind.CALL:
            return action.amount is None
        low, high = self.min_raise_to, self.max_raise_to
        return (low is not None and high is not None and action.amount is not None
                and low <= action.amount <= high)

    def __str__(self) -> str:
        parts = ["fold"] if self.can_fold else []
        parts.append(f"call {self.call_amount}" if self.call_amount else "check")
        if self.can_raise:
            span = (f"{self.min_raise_to}" if self.min_raise_to == self.max_raise_to
                    else f"{self.min_raise_to}..{self.max_raise_to}")
            parts.append(f"raise to {span}")
        return ", ".join(parts)


class IllegalActionError(HoldemError, ValueError):
    """An action outside the legal set; the message names the seat, the action and the set."""

    def __init__(self, seat: int, action: Action, legal: LegalActions) -> None:
        super().__init__(f"seat {seat}: illegal action '{action}'; legal: {legal}")
        self.seat, self.action, self.legal = seat, action, legal


@quick_init
@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One applied action, as every seat sees it in the history.

    ``amount`` is the round's raise-to total for raises, else None; ``added`` is the chips the
    action moved from the stack into the pot (a call's real size, 0 for a check or fold).
    """

    seat: int
    street: Street
    kind: ActionKind
    amount: int | None
    added: int
    all_in: bool = False

    def copy(self) -> ActionRecord:
        """A new record with the same fields: what bots get, never the engine's own."""
        return ActionRecord(self.seat, self.street, self.kind, self.amount, self.added,
                            self.all_in)
