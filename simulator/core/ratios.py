"""A ratio that is defined everywhere: ``num / den`` where ``den > 0``, a fixed value elsewhere.

Shares of weight mass (HS, potentials, equity, fold shares) divide by a mass that may be 0 when
a range has nothing left. Masking the division, rather than dividing and then discarding the
result under ``np.errstate``, warns about nothing and costs a few microseconds less, which a
decision that forms dozens of these ratios notices. The quotients are numpy's own, bit for bit.

>>> ratio(np.array([1.0, 2.0, 3.0]), np.array([2.0, 0.0, -1.0])).tolist()
[0.5, 0.0, 0.0]
>>> ratio(1.0, 0.0, np.nan).tolist(), float(ratio(3.0, 4.0))
(nan, 0.75)
"""

from __future__ import annotations

from typing import Any

import numpy as np


def ratio(num: Any, den: Any, otherwise: float = 0.0) -> np.ndarray:
    """``num / den`` (broadcast) where ``den > 0``, else ``otherwise``: a float array."""
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    shape = n.shape if n.shape == d.shape else np.broadcast_shapes(n.shape, d.shape)
    out = np.full(shape, otherwise)
    np.divide(n, d, out=out, where=d > 0)
    return out
