"""The weak share of a range per holding: against its definition, and the numpy form's floats."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.heuristic.opponents import weak_shares
from simulator.core.cards import HOLDINGS
from simulator.core.equity import free_masses
from simulator.core.ratios import ratio


def numpy_form(w: np.ndarray, weak: np.ndarray, holdings: np.ndarray) -> np.ndarray:
    """The array expressions the kernel replaced: every range and its weak part as rows."""
    both = np.empty((2 * w.shape[0], w.shape[1]))
    both[0::2], both[1::2] = w, np.where(weak, w, 0.0)
    masses = free_masses(both, holdings).T
    free, free_weak = masses[0::2], masses[1::2]
    return ratio(free_weak, np.where(free > 1e-12, free, 0.0))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.sampled_from([1, 3, 8, 9, 200]))
def test_weak_shares_are_the_numpy_forms_floats_and_the_definition(seed: int, ranges: int,
                                                                  asked: int) -> None:
    rng = np.random.default_rng(seed)
    w = rng.random((ranges, 1326)) * (rng.random((ranges, 1326)) < rng.random())
    weak = rng.random(1326) < rng.random()
    holdings = rng.choice(1326, size=asked, replace=False)
    got = weak_shares(w, weak, holdings)
    assert got.tolist() == numpy_form(w, weak, holdings).tolist()
    for i, h in enumerate(holdings[:3]):
        free = ~np.isin(HOLDINGS, HOLDINGS[h]).any(axis=1)
        for j in range(ranges):
            mass = w[j][free].sum()
            expected = w[j][free & weak].sum() / mass if mass > 1e-12 else 0.0
            assert abs(got[j, i] - expected) < 1e-12
    assert weak_shares(w[0], weak, holdings).tolist() == got[0].tolist()
