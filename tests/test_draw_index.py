"""How every bot of ours samples its own row: one number, the numpy form's index."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.heuristic.selector import draw_index


def numpy_form(weights: np.ndarray, rng: np.random.Generator) -> int:
    point = rng.random() * float(weights.sum())
    return min(int(np.searchsorted(np.cumsum(weights), point, side="right")),
               len(weights) - 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_draw_index_is_the_numpy_forms_index_with_one_number(seed: int, n: int) -> None:
    rows = np.random.default_rng(seed)
    mine, theirs = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    for _ in range(200):
        w = rows.random(n) * (rows.random(n) < 0.6) * 10.0 ** rows.integers(-3, 4, size=n)
        assert draw_index(w, mine) == numpy_form(w, theirs)
    assert mine.random() == theirs.random()  # one number a draw, no more


def test_draw_index_follows_the_weights() -> None:
    rng = np.random.default_rng(3)
    counts = np.bincount([draw_index(np.array([0.2, 0.0, 0.5, 0.3]), rng)
                          for _ in range(20_000)], minlength=4)
    assert counts[1] == 0
    assert np.allclose(counts / 20_000, [0.2, 0.0, 0.5, 0.3], atol=0.015)
