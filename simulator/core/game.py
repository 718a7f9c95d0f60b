"""The parameters of a game of Texas Hold'em, validated on creation.

The betting structure is data (:class:`Structure`): code that must decide by it matches on
``game.structure`` with every member handled (``assert_never`` in the last case), so a new
member is found by the type checker at every place that must learn it.

>>> g = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> g.big_bet, g.cap, g.bet_size(3), g.bet_unit(3), g.bet_cap, g.raises_allowed(0)
(4, 4, 4, 4, 4, 3)
>>> n = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
>>> n.structure, n.is_limit, n.bet_unit(3), n.bet_cap, n.raises_allowed(0)
(<Structure.NO_LIMIT: 'nolimit'>, False, 2, None, None)
>>> GameConfig(blinds=(5, 10), stack=10)
Traceback (most recent call last):
...
simulator.core.errors.GameError: game.stack: expected more chips than the forced bets (ante 0 \
+ largest blind 10 = 10), got 10
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from simulator.core.errors import GameError

DEFAULT_CAP = 4  # bets a limit round, the big blind counted pre-flop (ACPC maxRaises 3 4 4 4)
MAX_BLINDS = 3  # small blind, big blind, straddle


class Structure(Enum):
    """How much a bet or raise may be."""

    LIMIT = "limit"  # one fixed bet a raise, and a cap on the bets of a round
    NO_LIMIT = "nolimit"  # any raise from the minimum to all-in
    POT_LIMIT = "potlimit"  # any raise from the minimum to the pot after the call, or all-in


_STRUCTURES = {s.value: s for s in Structure}


def check_first_hand(stack: int, blinds: tuple[int, ...], ante: int,
                     key: str = "game.stack") -> None:
    """Refuse a starting ``stack`` that the first hand's forced bets alone put all-in:
    nothing would be left to play (``key`` names the config key in the message).

    >>> check_first_hand(30, (10, 20), 10)
    Traceback (most recent call last):
    ...
    simulator.core.errors.GameError: game.stack: expected more chips than the forced bets \
(ante 10 + largest blind 20 = 30), got 30
    """
    forced = ante + max(blinds)
    if forced >= stack:
        raise GameError(f"{key}: expected more chips than the forced bets (ante {ante} + "
                        f"largest blind {max(blinds)} = {forced}), got {stack}")


@dataclass(frozen=True)
class GameConfig:
    """Blinds are listed from the small blind on (``(1, 2)``; a third entry is a straddle).

    In limit, ``cap`` counts the bets of a round with the big blind counted pre-flop (the ACPC
    ``maxRaises = 3 4 4 4`` is cap 4); None means no cap. ``stack`` is every seat's starting
    stack; ``reset_stacks`` resets them every hand (ACPC "Doyle's game") instead of carrying
    them over.
    """

    variant: Literal["limit", "nolimit", "potlimit"] = "nolimit"
    blinds: tuple[int, ...] = (1, 2)
    ante: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    cap: int | None = DEFAULT_CAP
    stack: int = 200
    reset_stacks: bool = True

    def __post_init__(self) -> None:
        # Every rule on the parameters lives here: the YAML config validates through this
        # record too, so its messages name the key (``game.<field>``) and are written once.
        if self.variant not in _STRUCTURES:
            raise GameError(f"game.variant: expected 'limit', 'nolimit' or 'potlimit', got "
                            f"{self.variant!r}")
        blinds = tuple(int(b) for b in self.blinds)
        object.__setattr__(self, "blinds", blinds)
        if not blinds or any(b < 0 for b in blinds) or blinds[-1] <= 0:
            raise GameError(f"game.blinds: expected non-negative chips ending in the big blind"
                            f" > 0, got {list(self.blinds)}")
        if len(blinds) > MAX_BLINDS:
            raise GameError(f"game.blinds: expected at most {MAX_BLINDS} entries (small blind, "
                            f"big blind, straddle), got {list(self.blinds)}")
        if self.ante < 0:
            raise GameError(f"game.ante: expected >= 0, got {self.ante}")
        if self.stack <= 0:
            raise GameError(f"game.stack: expected > 0, got {self.stack}")
        if self.reset_stacks:
            # With carried stacks (a tournament hand, whose blinds rise past the starting
            # stack) a stack short of the forced bets posts all-in for less; a config refuses
            # such a first hand itself, through check_first_hand.
            check_first_hand(self.stack, blinds, self.ante)
        if self.cap is not None and self.cap < 1:
            raise GameError(f"game.cap: expected >= 1 or null, got {self.cap}")
        if self.is_limit:
            small = self.small_bet if self.small_bet is not None else self.big_blind
            big = self.big_bet if self.big_bet is not None else 2 * small
            if small <= 0 or big <= 0:
                raise GameError(f"game.small_bet/big_bet: expected > 0, got {small}/{big}")
            object.__setattr__(self, "small_bet", int(small))
            object.__setattr__(self, "big_bet", int(big))
        else:
            for key in ("small_bet", "big_bet"):
                if getattr(self, key) is not None:
                    raise GameError(f"game.{key}: expected no {key}: it is for variant 'limit' "
                                    f"only, and variant is {self.variant!r}")

    def copy(self) -> GameConfig:
        """An equal, separate record: each bot gets its own, and the engine keeps its own."""
        # its fields as they are (checked and normalised when it was made): replace() would
        # run __init__ and every check again, at each copy the engine hands out
        return copy.copy(self)

    @property
    def structure(self) -> Structure:
        return _STRUCTURES[self.variant]  # a dict look-up: read at every round and decision

    @property
    def is_limit(self) -> bool:
        """Whether every bet is one fixed size (and only then ``bet_size`` is defined)."""
        return _STRUCTURES[self.variant] is Structure.LIMIT

    @property
    def bet_cap(self) -> int | None:
        """The most bets a round may hold, the big blind counted pre-flop; None: no cap."""
        return self.cap if self.is_limit else None

    def raises_allowed(self, street: int) -> int | None:
        """The most bets and raises a round allows (the big blind is not one); None: no cap."""
        cap = self.bet_cap
        if cap is None:
            return None
        return cap - 1 if street == 0 else cap

    def bet_unit(self, street: int) -> int:
        """A full bet: the fixed bet of the round in limit, the big blind otherwise (the
        smallest opening bet, and the smallest raise where no bet is bigger)."""
        return self.bet_size(street) if self.is_limit else self.big_blind

    @property
    def big_blind(self) -> int:
        return self.blinds[-1] if len(self.blinds) <= 2 else max(self.blinds)

    def bet_size(self, street: int) -> int:
        """The fixed bet of a limit round: small bet pre-flop and flop, big bet after."""
        if not self.is_limit:
            raise GameError("bet_size is defined for limit games only")
        bet = self.small_bet if street < 2 else self.big_bet
        assert bet is not None  # __post_init__ sets both bets of a limit game
        return bet
