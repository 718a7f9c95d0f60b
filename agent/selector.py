"""The randomised action selector (DESIGN.md section 8).

Among the candidates whose E is positive, choose at random, more likely the larger E is:
proportionally to E, or by a softmax of ``E / (temperature * scale)``, where ``scale`` is the
decision's chip scale (a bet in limit, the pot in no-limit), so that one temperature fits
every stake. When no E is positive: check if it is free, else fold; so we never fold when
checking is free. **Continued aggression**: when we made the last bet or raise of the previous
round, the weight of betting again is multiplied by ``1 + continued_aggression``. All
randomness comes from the generator the bot passes in, so matches replay exactly.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> params = SelectorParams(method="softmax", temperature=0.15, continued_aggression=0.5)
>>> choose([0.0, -1.0, -2.0], [False, False, True], free_check=None, scale=2.0,
...        params=params, rng=rng, continuing=False)   # nothing positive: fold (index 0)
0
>>> choose([0.5, 3.0], [False, True], free_check=0, scale=2.0, params=params, rng=rng,
...        continuing=False)   # E of 3 against 0.5 at temperature 0.15 bets: a sure bet
1
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field


class SelectorParams(BaseModel):
    """How E turns into a choice (values proposed here, in ``configs/agents/default.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    method: Literal["softmax", "proportional"]
    temperature: float = Field(gt=0, le=1e6)
    """Softmax temperature in units of the decision's chip scale."""
    continued_aggression: float = Field(ge=0, le=1e6)
    """Extra weight of a bet when we were the last aggressor of the previous round."""


def selection_weights(values: Sequence[float], aggressive: Sequence[bool], scale: float,
                      params: SelectorParams, continuing: bool) -> np.ndarray:
    """Unnormalised choice weights: 0 for every candidate whose E is not positive.

    >>> selection_weights([1.0, 3.0, -1.0], [False, True, True], 1.0,
    ...                   SelectorParams(method="proportional", temperature=1.0,
    ...                                  continued_aggression=0.0), continuing=False).tolist()
    [1.0, 3.0, 0.0]
    """
    e = np.asarray(values, dtype=np.float64)
    positive = e > 0
    if params.method == "proportional":
        w = np.where(positive, e, 0.0)
    else:
        top = float(e[positive].max()) if positive.any() else 0.0
        w = np.where(positive, np.exp((e - top) / (params.temperature * max(scale, 1e-9))),
                     0.0)
    if continuing and params.continued_aggression:
        w = np.where(np.asarray(aggressive), w * (1.0 + params.continued_aggression), w)
    return w


def choose(values: Sequence[float], aggressive: Sequence[bool], free_check: int | None,
           scale: float, params: SelectorParams, rng: np.random.Generator,
           continuing: bool) -> int:
    """The index of the chosen candidate.

    ``free_check`` is the index of a check that costs nothing (None when we face a bet, in
    which case candidate 0 must be the fold).
    """
    w = selection_weights(values, aggressive, scale, params, continuing)
    total = float(w.sum())
    if not total > 0 or not math.isfinite(total):
        return free_check if free_check is not None else 0
    return int(np.searchsorted(np.cumsum(w), rng.random() * total, side="right").clip(
        0, len(w) - 1))
