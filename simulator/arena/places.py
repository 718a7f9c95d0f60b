"""Finishing places and the prizes they pay, ties shared.

Players busting in the same hand are placed by their stacks at the start of that hand (the
bigger stack finishes higher); equal stacks tie, and tied players share the prizes of the
places they cover equally (:func:`prizes`). A place is a float: the mean of the places a tie
covers (two tied for 5th and 6th both finish 5.5), so the average place of a bot stays
exact.

>>> bust_places([3, 5], {3: 100, 5: 40}, players_left_before=4)
{3: 3.0, 5: 4.0}
>>> bust_places([1, 2], {1: 50, 2: 50}, players_left_before=2)
{1: 1.5, 2: 1.5}
>>> prizes({0: 1.0, 1: 2.0, 2: 3.0}, [0.65, 0.35], pool=300.0)
{0: 195.0, 1: 105.0, 2: 0.0}
>>> prizes({0: 1.0, 1: 2.5, 2: 2.5}, [0.5, 0.3, 0.2], pool=100.0)
{0: 50.0, 1: 25.0, 2: 25.0}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def bust_places(busted: Sequence[int], start_stacks: Mapping[int, int],
                players_left_before: int) -> dict[int, float]:
    """Places of the players who busted in one hand, from their stacks at its start: the
    ``len(busted)`` places just below the players still in (``players_left_before`` were in
    before the hand)."""
    best = players_left_before - len(busted) + 1  # the highest place these players take
    out: dict[int, float] = {}
    by_stack = sorted(busted, key=lambda s: -start_stacks[s])
    k = 0
    while k < len(by_stack):
        stack = start_stacks[by_stack[k]]
        tied = [s for s in by_stack[k:] if start_stacks[s] == stack]
        first, last = best + k, best + k + len(tied) - 1
        for s in tied:
            out[s] = (first + last) / 2
        k += len(tied)
    return out


def places_by_chips(chips: Mapping[int, int]) -> dict[int, float]:
    """Places of players still in when a tournament is stopped (its hand limit): by chips,
    ties sharing."""
    return bust_places(list(chips), chips, len(chips))


def prizes(places: Mapping[int, float], payouts: Sequence[float], pool: float
           ) -> dict[int, float]:
    """Each player's prize: place k pays ``payouts[k-1] * pool``; players tied over places
    share those places' prizes equally. A tie's places are the ``m`` around its mean place."""
    paid = [p * pool for p in payouts]
    groups: dict[float, list[int]] = {}
    for player, place in places.items():
        groups.setdefault(place, []).append(player)
    out: dict[int, float] = {}
    for place, tied in groups.items():
        m = len(tied)
        first = round(place - (m - 1) / 2)  # the tie covers places first .. first + m - 1
        total = sum(paid[k - 1] for k in range(first, first + m) if k - 1 < len(paid))
        for player in tied:
            out[player] = total / m
    return out
