"""The decision as E(t) sees it (:class:`Spot`, in chips) and the candidate actions it prices:
fold, check or call, and the bets or raises worth considering."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from simulator import Action, LegalActions, Street
from simulator.core.frozen import quick_init
from simulator.core.sizing import pot_fraction, raise_to_fraction

CandidateKind = Literal["fold", "check", "call", "bet", "raise"]


@dataclass(frozen=True)
class Spot:
    """What E needs of the decision, in chips.

    ``pot`` is every chip in the middle, this round's bets included; ``our_bet`` is our bet
    this round; ``stack`` our chips behind. ``bet_unit`` is this round's bet (limit) or the
    big blind (no-limit), ``future_unit`` the bet of the rounds to come. Per live opponent,
    ``opponent_calls`` holds the chips it would need to match the current top bet,
    ``opponent_stacks`` its chips behind, and ``yet_to_act`` whether it still acts in this
    round after a check of ours (an opponent that already checked does not).
    """

    pot: int
    to_call: int
    our_bet: int
    stack: int
    street: int
    is_limit: bool
    bet_unit: int
    future_unit: int
    opponent_calls: tuple[int, ...]
    opponent_stacks: tuple[int, ...]
    yet_to_act: tuple[bool, ...] | None = None  # None: every opponent still acts
    reraise_room: bool = True  # limit: whether a raise of ours still leaves room under the cap

    @property
    def opponents(self) -> int:
        return len(self.opponent_calls)

    @property
    def rounds_left(self) -> int:
        """Betting rounds after this one."""
        return int(Street.RIVER) - int(self.street)

    @property
    def top_bet(self) -> int:
        return self.our_bet + self.to_call

    @property
    def scale(self) -> float:
        """The chip scale decisions are judged on: a bet in limit, the pot in no-limit."""
        return float(self.bet_unit if self.is_limit else max(self.pot, self.bet_unit))


@quick_init
@dataclass(frozen=True, slots=True)
class Candidate:
    """One action we might take, with the chips it puts in now."""

    action: Action
    kind: CandidateKind
    added: int
    pot_fraction: float | None = None  # no-limit bets and raises: the size in pots

    @property
    def aggressive(self) -> bool:
        return self.kind in ("bet", "raise")

    @classmethod
    def fold(cls) -> Candidate:
        return cls(Action.fold(), "fold", 0)

    @classmethod
    def call(cls, spot: Spot) -> Candidate:
        kind: CandidateKind = "call" if spot.to_call else "check"
        return cls(Action.call(), kind, min(spot.to_call, spot.stack))

    @classmethod
    def raise_to(cls, spot: Spot, amount: int) -> Candidate:
        kind: CandidateKind = "raise" if spot.to_call or spot.street == 0 else "bet"
        return cls(Action.raise_to(amount), kind, amount - spot.our_bet,
                   None if spot.is_limit
                   else pot_fraction(spot.top_bet, spot.pot, spot.to_call, amount))


def candidates(spot: Spot, legal: LegalActions, sizes: Sequence[float]) -> list[Candidate]:
    """Fold (when it is not free), check or call, and the bets or raises to consider.

    In limit the one legal raise; in no-limit each size in pots (the raise on top of the call
    is ``size * (pot + to_call)``), clamped to the legal range, and the all-in, without
    repeats.

    >>> spot = Spot(pot=30, to_call=10, our_bet=0, stack=200, street=1, is_limit=False,
    ...             bet_unit=2, future_unit=2, opponent_calls=(0,), opponent_stacks=(190,))
    >>> legal = LegalActions(True, 10, 20, 200)
    >>> [str(c.action) for c in candidates(spot, legal, (0.5, 1.0, 2.0))]
    ['fold', 'call', 'raise to 30', 'raise to 50', 'raise to 90', 'raise to 200']
    """
    out = [Candidate.fold()] if legal.can_fold else []
    out.append(Candidate.call(spot))
    if not legal.can_raise:
        return out
    low, high = legal.min_raise_to, legal.max_raise_to
    assert low is not None and high is not None
    if spot.is_limit:
        return [*out, Candidate.raise_to(spot, low)]
    amounts: list[int] = []
    for size in sorted(sizes):
        amount = min(max(raise_to_fraction(spot.top_bet, spot.pot, spot.to_call, size), low),
                     high)
        if amount not in amounts:
            amounts.append(amount)
    if high not in amounts:
        amounts.append(high)
    return [*out, *(Candidate.raise_to(spot, a) for a in amounts)]
