"""ICM: the prize equity of a tournament's stacks, by the Malmuth-Harville model.

A player finishes first with probability its share of the chips; of the players left, the
next place goes the same way, and so on down. A player's equity is its expected prize.

Exact equities come from a dynamic programme over the sets of players not yet placed: the
chance that the top places went to exactly the others, in any order, is one number per
set, so the whole model costs ``O(n 2**n)`` instead of the ``n!`` of walking every
finishing order (what :func:`pokerkit.analysis.calculate_icm` does), and only the sets that
the paid places reach are visited. Above ``exact_up_to`` players (default 12) :func:`icm`
samples finishing orders instead, seeded, and states each equity's standard error: the
Harville order is that of exponential clocks with rates the stacks (the first to ring
finishes first, and the race among the rest starts afresh), so a sample is one sort.

Players with no chips finish below every player with chips, in a random order among
themselves (each expects the mean of the prizes left for them); prizes past the number of
players are refused.

>>> [round(e, 6) for e in icm_exact([50, 30, 20], [70, 30]).tolist()]
[45.178571, 32.25, 22.571429]
>>> icm_exact([1, 1, 0], [60, 40, 10]).tolist()
[50.0, 50.0, 10.0]
>>> r = icm([50, 30, 20], [70, 30])
>>> r.method, r.standard_errors
('exact', None)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

EXACT_UP_TO = 12  # players: 2**12 sets; past it the exact table grows faster than it pays
MAX_EXACT = 16  # players: the exact tables hold 2**n sets each (n = 16: 1 MB of members)
SAMPLES = 200_000  # finishing orders a Monte Carlo estimate draws by default


@dataclass(frozen=True)
class IcmEquity:
    """Each player's expected prize; ``standard_errors`` is None for exact equities."""

    equities: tuple[float, ...]
    method: Literal["exact", "monte-carlo"]
    standard_errors: tuple[float, ...] | None = None
    samples: int = 0


def _checked(stacks: Sequence[float], prizes: Sequence[float]
             ) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(stacks, dtype=np.float64)
    p = np.asarray(prizes, dtype=np.float64)
    if s.ndim != 1 or not len(s):
        raise ValueError(f"stacks: expected a list of at least one stack, got {list(stacks)}")
    if not np.isfinite(s).all() or (s < 0).any():
        raise ValueError(f"stacks: expected finite chips >= 0, got {list(stacks)}")
    if p.ndim != 1 or len(p) > len(s):
        raise ValueError(f"prizes: expected at most one prize per player ({len(s)}), got "
                         f"{len(p)}")
    if not np.isfinite(p).all():
        raise ValueError(f"prizes: expected finite amounts, got {list(prizes)}")
    return s, p


def icm_exact(stacks: Sequence[float], prizes: Sequence[float]) -> np.ndarray:
    """Every player's exact expected prize (``prizes[k]`` pays place ``k + 1``)."""
    s, p = _checked(stacks, prizes)
    n, paid = len(s), len(p)
    if n > MAX_EXACT:
        raise ValueError(f"stacks: exact ICM is for at most {MAX_EXACT} players, got {n}: "
                         f"use icm() or icm_monte_carlo()")
    eq = np.zeros(n)
    layers, bits = _layers(n)
    size = 1 << n
    chips = np.zeros(size)  # every set's chips, built by doubling
    for i in range(n):
        chips[1 << i:2 << i] = chips[:1 << i] + s[i]
    chipped = int(sum(1 << i for i in range(n) if s[i] > 0))
    flip = 1 << np.arange(n, dtype=np.int64)
    chance = np.zeros(size)
    chance[size - 1] = 1.0  # nobody placed yet
    for place in range(paid):
        left = layers[place]  # the sets with n - place players still to be placed
        c = chance[left]
        live = (left & chipped) != 0
        if not live.all():  # only chipless players left: they share the prizes left
            rest = p[place:].sum() / (n - place)
            eq += rest * (c[~live, None] * bits[left[~live]]).sum(axis=0)
            left, c = left[live], c[live]
        step = (c / chips[left])[:, None] * (bits[left] * s)  # who takes this place, per set
        eq += p[place] * step.sum(axis=0)
        chance = np.bincount((left[:, None] ^ flip).ravel(), weights=step.ravel(),
                             minlength=size).astype(np.float64, copy=False)
    return eq


@functools.lru_cache(maxsize=8)
def _layers(n: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The sets of ``n`` players by how many are placed (``layers[d]``: the sets of
    ``n - d``), and each set's members as a (sets, n) 0/1 table: the same for every stack
    distribution of ``n`` players."""
    masks = np.arange(1 << n, dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(n)) & 1).astype(np.uint8)
    count = bits.sum(axis=1, dtype=np.int64)
    layers = tuple(masks[count == n - d] for d in range(n + 1))
    for a in layers:
        a.setflags(write=False)
    bits.setflags(write=False)
    return layers, bits


def icm_monte_carlo(stacks: Sequence[float], prizes: Sequence[float], samples: int = SAMPLES,
                    seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Sampled expected prizes and their standard errors, from ``samples`` finishing orders
    drawn with the generator seeded ``seed``."""
    s, p = _checked(stacks, prizes)
    if samples < 2:
        raise ValueError(f"samples: expected at least 2, got {samples}")
    n = len(s)
    pay = np.zeros(n)
    pay[:len(p)] = p
    rng = np.random.default_rng(seed)
    total = np.zeros(n)
    squares = np.zeros(n)
    chunk = max(1, min(samples, 4_000_000 // n))  # bounded memory whatever ``samples``
    rate = np.where(s > 0, s, 1.0)
    done = 0
    while done < samples:
        m = min(chunk, samples - done)
        clocks = rng.exponential(size=(m, n)) / rate
        # the chipless ring after everyone with chips, in a random order among themselves
        clocks = np.where(s > 0, clocks, np.inf)
        ties = rng.random((m, n))
        order = np.lexsort((ties, clocks), axis=1)  # order[:, k]: who finishes place k+1
        won = np.zeros((m, n))
        np.put_along_axis(won, order, np.broadcast_to(pay, (m, n)), axis=1)
        total += won.sum(axis=0)
        squares += (won * won).sum(axis=0)
        done += m
    mean = total / samples
    var = np.maximum(squares / samples - mean * mean, 0.0) * samples / (samples - 1)
    return mean, np.sqrt(var / samples)


def icm(stacks: Sequence[float], prizes: Sequence[float], *, exact_up_to: int = EXACT_UP_TO,
        samples: int = SAMPLES, seed: int = 0) -> IcmEquity:
    """The players' prize equities: exact up to ``exact_up_to`` players, else sampled (with
    standard errors)."""
    if len(stacks) <= exact_up_to:
        return IcmEquity(tuple(icm_exact(stacks, prizes).tolist()), "exact")
    mean, se = icm_monte_carlo(stacks, prizes, samples, seed)
    return IcmEquity(tuple(mean.tolist()), "monte-carlo", tuple(se.tolist()), samples)
