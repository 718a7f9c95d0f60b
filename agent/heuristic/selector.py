"""The randomised action selector.

Among the candidates whose E is positive, choose at random, more likely the larger E is:
proportionally to E, or by a softmax of ``E / (temperature * scale)``, where ``scale`` is the
decision's chip scale (a bet in limit, the pot in no-limit), so that one temperature fits
every stake. When no E is positive: check if it is free, else fold; so we never fold when
checking is free. **Continued aggression**: when we made the last bet or raise of the previous
round, the weight of betting again is multiplied by ``1 + continued_aggression``. All
randomness comes from the generator the bot passes in, so matches replay exactly.

>>> import numpy as np
>>> from agent.heuristic.candidates import Candidate
>>> from simulator import Action
>>> fold, call = Candidate.fold(), Candidate(Action.call(), "call", 2)
>>> bet = Candidate(Action.raise_to(4), "raise", 4)
>>> params = SelectorParams(method="softmax", temperature=0.15, continued_aggression=0.5)
>>> rng = np.random.default_rng(1)
>>> choose([fold, call, bet], [0.0, -1.0, -2.0], 2.0, params, rng, False)  # nothing pays: fold
0
>>> probabilities([fold, call, bet], np.array([[0.0, 0.0], [0.5, -1.0], [3.0, -2.0]]), 2.0,
...               params, False).round(3).tolist()  # a row per holding
[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agent.heuristic.candidates import Candidate
from simulator import Action, Policy


class SelectorParams(BaseModel):
    """How E turns into a choice (values proposed here, in
    ``agent/heuristic/data/default.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    method: Literal["softmax", "proportional"]
    temperature: float = Field(gt=0, le=1e6)
    """Softmax temperature in units of the decision's chip scale."""
    continued_aggression: float = Field(ge=0, le=1e6)
    """Extra weight of a bet when we were the last aggressor of the previous round."""


def selection_weights(values: Sequence[float] | np.ndarray, aggressive: Sequence[bool],
                      scale: float, params: SelectorParams, continuing: bool) -> np.ndarray:
    """Unnormalised choice weights: 0 for every candidate whose E is not positive. ``values``
    has one entry per candidate, or one row per candidate and a column per holding.

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
        top = np.where(positive, e, -np.inf).max(axis=0) if e.size else 0.0
        top = np.where(np.isfinite(top), top, 0.0)
        w = np.where(positive, np.exp((e - top) / (params.temperature * max(scale, 1e-9))),
                     0.0)
    if continuing and params.continued_aggression:
        boost = np.where(np.asarray(aggressive), 1.0 + params.continued_aggression, 1.0)
        w = w * (boost if e.ndim == 1 else boost[:, None])
    return w


def _fallback(candidates: Sequence[Candidate]) -> int:
    """What we play when nothing is worth playing: check if it is free, else fold."""
    kinds = [c.kind for c in candidates]
    return kinds.index("check") if "check" in kinds else kinds.index("fold")


def probabilities(candidates: Sequence[Candidate], values: np.ndarray, scale: float,
                  params: SelectorParams, continuing: bool) -> np.ndarray:
    """The chance of each candidate for each holding: ``values`` has one row per candidate
    and one column per holding (E of that candidate with that holding); the result one row
    per holding. A holding with nothing worth playing checks if it is free, else folds."""
    e = np.asarray(values, dtype=np.float64).reshape(len(candidates), -1)
    w = selection_weights(e, [c.aggressive for c in candidates], scale, params,
                          continuing).T
    total = w.sum(axis=1)
    ok = (total > 0) & np.isfinite(total)
    out = w / np.where(ok, total, 1.0)[:, None]
    if not ok.all():
        out[~ok] = 0.0
        out[~ok, _fallback(candidates)] = 1.0
    return out


def choose(candidates: Sequence[Candidate], values: Sequence[float], scale: float,
           params: SelectorParams, rng: np.random.Generator, continuing: bool) -> int:
    """The index of the candidate chosen for one hand: a draw from its row of
    :func:`probabilities` (nothing worth playing draws nothing)."""
    w = selection_weights(values, [c.aggressive for c in candidates], scale, params,
                          continuing)
    total = float(w.sum())
    if not total > 0 or not math.isfinite(total):
        return _fallback(candidates)
    return draw_index(w, rng)


def draw_index(weights: np.ndarray, rng: np.random.Generator) -> int:
    """An index drawn in proportion to ``weights`` (non-negative, some positive) with one
    number from ``rng``: how every bot of ours samples its own row.

    >>> draw_index(np.array([0.0, 1.0, 0.0]), np.random.default_rng(1))
    1
    """
    values = weights.tolist()
    if len(values) >= 8:  # numpy sums eight or more pairwise
        point = rng.random() * float(weights.sum())
        return min(int(np.searchsorted(np.cumsum(weights), point, side="right")),
                   len(values) - 1)
    # a row this short: numpy's sum and cumsum add in order from 0, as this loop does, and
    # the first running sum past the point is searchsorted's "right"; numpy's three calls
    # cost more than the few additions
    total = 0.0
    for w in values:  # not sum(): Python 3.12's compensates, numpy's does not
        total += w
    point = rng.random() * total
    running = 0.0
    for i, w in enumerate(values):
        running += w
        if running > point:
            return i
    return len(values) - 1


def draw(policy: Policy, rng: np.random.Generator) -> Action:
    """The action of the policy's first row, drawn with one number from ``rng``: for a bot
    whose rows list fixed actions only (no raise range)."""
    entry = policy.actions[draw_index(policy.probabilities[0], rng)]
    assert isinstance(entry, Action)
    return entry
