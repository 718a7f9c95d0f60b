"""The masked ratio: the quotient where the denominator is positive, the fallback elsewhere,
bit for bit what dividing and then masking gave, and never a warning."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from simulator.core.ratios import ratio

FLOATS = st.floats(-1e6, 1e6, allow_nan=False, width=64)
# masses: zero, negative (nothing left after a subtraction's rounding) or of a usable size
MASSES = st.one_of(st.just(0.0), st.floats(1e-6, 1e6), st.floats(-1e6, -1e-6))


@given(arrays(np.float64, st.integers(0, 20), elements=FLOATS),
       arrays(np.float64, st.integers(0, 20), elements=MASSES),
       st.sampled_from([0.0, np.nan, 1.0]))
def test_ratio_is_the_masked_quotient(num: np.ndarray, den: np.ndarray, otherwise: float
                                      ) -> None:
    n = min(len(num), len(den))
    num, den = num[:n], den[:n]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ratio(num, den, otherwise)
    with np.errstate(all="ignore"):
        want = np.where(den > 0, num / np.where(den > 0, den, 1.0), otherwise)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.float64 and got.shape == (n,)


def test_ratio_broadcasts_like_division() -> None:
    got = ratio(np.array([[1.0], [2.0]]), np.array([4.0, 0.0, 8.0]))
    assert got.tolist() == [[0.25, 0.0, 0.125], [0.5, 0.0, 0.25]]
