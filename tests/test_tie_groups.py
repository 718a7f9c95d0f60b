"""The showdown walk and the board canonicaliser against brute force.

The walk (``simulator.core.tie_groups``) serves every strength sum after the flop: HS of every
holding, the now-sums of a policy, the exact equities, the HS codes of the abstraction. Here it
is checked against the definition, one (holding, opponent) pair at a time, on random ranks with
many ties, both walking directions and both weight types; the canonicaliser against the 24
permutations applied by hand.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.core.board_ranks import HOLD_A, HOLD_B, board_ranks
from simulator.core.canonical_boards import canonical_classes, canonical_code, decode_boards
from simulator.core.cards import NUM_HOLDINGS, parse_cards
from simulator.core.suits import CARD_PERMS

SHARES = ((HOLD_A[:, None] == HOLD_A[None, :]) | (HOLD_A[:, None] == HOLD_B[None, :])
          | (HOLD_B[:, None] == HOLD_A[None, :]) | (HOLD_B[:, None] == HOLD_B[None, :]))


def _oracle(ranks: np.ndarray, w: np.ndarray, worst_first: bool
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per live holding: the weight of the live opponents sharing no card with it that rank
    before it in the walk (worse when walking from the worst, else better), tie it, and in
    all; each pair summed apart, in holding order, with exact fractions of the weights."""
    live = ranks > 0
    free = live[None, :] & ~SHARES
    earlier = (ranks[None, :] > ranks[:, None]) if worst_first else (
        ranks[None, :] < ranks[:, None])
    same = ranks[None, :] == ranks[:, None]
    weights = w.astype(np.float64)
    before = ((free & earlier) * weights).sum(axis=1)
    tied = ((free & same) * weights).sum(axis=1)  # h shares its cards with itself: left out
    met = (free * weights).sum(axis=1)
    return before, tied, met


def _walk(ranks: np.ndarray, w: np.ndarray | None, worst_first: bool
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    from simulator.core.tie_groups import walk_tie_groups

    live = np.flatnonzero(ranks > 0)
    key = -ranks[live].astype(np.int64) if worst_first else ranks[live]
    order = live[np.argsort(key, kind="stable")]
    # the walk adds: from -7, so that a holding it left alone shows, and a sum assigned
    # rather than added would not pass
    dtype = np.int64 if w is None else w.dtype
    before, tied, met = (np.full(NUM_HOLDINGS, -7, dtype=dtype) for _ in range(3))
    walk_tie_groups(ranks, order, order.size, w, HOLD_A, HOLD_B, before, tied, met)
    return order, before + 7, tied + 7, met + 7


def _random_ranks(seed: int, levels: int, dead: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ranks = rng.integers(1, levels + 1, NUM_HOLDINGS).astype(np.int16)
    ranks[rng.random(NUM_HOLDINGS) < dead] = 0
    return ranks


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), levels=st.sampled_from([1, 3, 40, 7462]),
       dead=st.sampled_from([0.0, 0.2, 0.9]), worst_first=st.booleans())
def test_walk_counts_as_the_definition(seed: int, levels: int, dead: float,
                                       worst_first: bool) -> None:
    ranks = _random_ranks(seed, levels, dead)
    ones = np.ones(NUM_HOLDINGS, dtype=np.int64)
    want = _oracle(ranks, ones, worst_first)
    for weights in (None, ones):  # counts: no weights, or integer ones
        order, before, tied, met = _walk(ranks, weights, worst_first)
        for got, expected in zip((before, tied, met), want, strict=True):
            assert got.dtype == np.int64
            assert np.array_equal(got[order], expected[order].astype(np.int64))
            assert (got[ranks == 0] == 0).all()  # holdings off the walk are not written


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), levels=st.sampled_from([2, 50, 7462]),
       worst_first=st.booleans())
def test_walk_weighs_as_the_definition(seed: int, levels: int, worst_first: bool) -> None:
    ranks = _random_ranks(seed, levels, 0.3)
    rng = np.random.default_rng(seed)
    w = rng.random(NUM_HOLDINGS) * (rng.random(NUM_HOLDINGS) < 0.8)
    order, before, tied, met = _walk(ranks, w, worst_first)
    want = _oracle(ranks, w, worst_first)
    for got, expected in zip((before, tied, met), want, strict=True):
        # running sums less per-card sums: the floats of the pairwise sums to rounding
        assert got[order] == pytest.approx(expected[order], rel=1e-12, abs=1e-12)


def test_walk_on_a_real_board_splits_every_opponent() -> None:
    ranks = board_ranks(parse_cards("3h4cJh5s9d")).ranks
    order, beaten, tied, met = _walk(ranks, None, worst_first=True)
    _, beating, tied_again, _ = _walk(ranks, None, worst_first=False)
    # on a river every live holding meets the same 990 opponents
    assert (met[order] == 990).all()
    assert np.array_equal(tied[order], tied_again[order])
    assert np.array_equal(beaten[order] + tied[order] + beating[order], met[order])


def _brute_canonical(cards: list[int]) -> int:
    codes = []
    for perm in CARD_PERMS:
        code = 0
        for c in sorted(int(perm[c]) for c in cards):
            code = code * 52 + c
        codes.append(code)
    return min(codes)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=5, unique=True))
def test_canonical_code_is_the_smallest_permuted_board(cards: list[int]) -> None:
    code, perm = canonical_code(np.array(cards, dtype=np.int64), CARD_PERMS)
    assert code == _brute_canonical(cards)
    mapped = sorted(int(CARD_PERMS[perm][c]) for c in cards)
    assert decode_boards(np.array([code]), len(cards))[0].tolist() == mapped


def test_canonical_classes_partition_every_flop() -> None:
    codes, sizes = canonical_classes(3, CARD_PERMS)
    brute: dict[int, int] = {}
    for cards in itertools.combinations(range(52), 3):
        key = _brute_canonical(list(cards))
        brute[key] = brute.get(key, 0) + 1
    assert codes.tolist() == sorted(brute)
    assert sizes.tolist() == [brute[c] for c in sorted(brute)]
