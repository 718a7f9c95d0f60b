"""Bet sizes in pots, and the price of a call: written once for every bot and yardstick.

A raise's size in pots is what it adds on top of the call, over the pot after that call, so
a pot-sized raise first calls and then raises by the pot (every bet of the pot-limit rule,
the rivals' pot bets and the agent's candidate sizes read it so).

>>> raise_to_fraction(top=10, pot=30, to_call=10, fraction=1.0)
50
>>> pot_fraction(top=10, pot=30, to_call=10, raise_to=50)
1.0
>>> pot_odds(pot=30, to_call=10), pot_odds(pot=30, to_call=0)
(0.25, 0.0)
"""

from __future__ import annotations


def raise_to_fraction(top: int, pot: int, to_call: int, fraction: float) -> int:
    """The raise-to total of a raise by ``fraction`` of the pot after the call (``top``: the
    round's largest bet; ``pot``: every chip in the middle, this round's bets included)."""
    return top + round(fraction * (pot + to_call))


def pot_fraction(top: int, pot: int, to_call: int, raise_to: int) -> float:
    """A raise to ``raise_to``'s size in pots after the call: the inverse of
    :func:`raise_to_fraction`."""
    return (raise_to - top) / max(pot + to_call, 1)


def pot_odds(pot: int, to_call: int) -> float:
    """The share of the pot after our call that the call costs; 0 when checking is free."""
    return to_call / (pot + to_call) if to_call else 0.0
