"""Random streams derived from one seed, each in its own domain so that no two coincide.

numpy's ``SeedSequence`` ignores trailing zero words of its entropy, so ``default_rng(s)``
equals ``default_rng([s, 0])`` and keys built by appending indices collide (the deck of hand
0 was once the stream of player 0's bot). Here the user's seed is the entropy and the rest of
the key is a ``spawn_key`` that starts with a domain tag: numpy pads the entropy to its pool
size before a spawn key, so every ``(domain, *keys)`` of one seed is a different input, and
keys within a domain always have the same length.

>>> int(deck_stream(7, 0).integers(1 << 62)) == int(deck_stream(7, 0).integers(1 << 62))
True
>>> derive_seed(7, Domain.BOT, 0, 0, 0) != derive_seed(7, Domain.MATCH, 0)
True
>>> bool(stream(1, Domain.DECK, 0).random() == stream(1, Domain.LUCK, 0).random())
False
"""

from __future__ import annotations

import enum

import numpy as np


class Domain(enum.IntEnum):
    """What a stream is for; the first word of every derived key (values never change)."""

    DECK = 1  # the cards of one hand: (match seed, hand number)
    MATCH = 2  # a block's match seed, from which its decks come: (run seed, block)
    BOT = 3  # a bot's seed: (run seed, block, permutation, player)
    LUCK = 4  # the luck correction's Monte Carlo runouts: (run seed, block, perm, hand)
    AIVAT = 5  # the value function's Monte Carlo runouts: (run seed, block, perm, hand)
    SECOND_STAGE = 6  # the run seed of a league pair's second stage: (league seed,)
    TOURNAMENT = 7  # the match seed of a sit-and-go's table: (run seed, tournament, table)


def _sequence(seed: int, domain: Domain, keys: tuple[int, ...]) -> np.random.SeedSequence:
    return np.random.SeedSequence(int(seed), spawn_key=(int(domain), *(int(k) for k in keys)))


def stream(seed: int, domain: Domain, *keys: int) -> np.random.Generator:
    """The generator of ``(domain, *keys)`` under ``seed``."""
    return np.random.default_rng(_sequence(seed, domain, keys))


def derive_seed(seed: int, domain: Domain, *keys: int) -> int:
    """A 63-bit integer seed for ``(domain, *keys)`` under ``seed`` (for APIs that take ints)."""
    state = _sequence(seed, domain, keys).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def deck_stream(seed: int, hand_number: int) -> np.random.Generator:
    """The generator that shuffles the deck of hand ``hand_number`` of a match."""
    return stream(seed, Domain.DECK, hand_number)
