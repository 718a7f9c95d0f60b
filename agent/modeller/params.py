"""The opponent modeller's parameters, validated on creation.

Values the literature fixes: the 20-observation blend and Table B.2's defaults (Papp 1998),
the pre-flop spread of 330 income-rate units and the 5th-percentile skip (Papp section 7.2),
the 0.01 weight floor. Everything else is "proposed here" and tunable: the post-flop spread
0.2, the no-limit size edges, the query threshold, the node cap and how far pruning cuts, the
generic probability-triple spreads, and what the floor applies to.

>>> p = ModellerParams()
>>> p.size_buckets, p.sigma(0), p.sigma(2)
(5, 330.0, 0.2)
>>> try:
...     ModellerParams(size_edges=(0.8, 0.4))
... except ModellerError as exc:
...     print(exc)
modeller: size_edges: expected 1 to 6 increasing positive pot fractions, got [0.8, 0.4]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from agent.modeller.errors import ModellerError
from simulator import ActionKind
from simulator.core.validation import validation_message

Frequencies = tuple[float, float, float]
TABLE_B2: tuple[Frequencies, Frequencies, Frequencies] = (
    (0.0, 0.5, 0.5),  # facing 0 bets: fold, call, raise
    (0.5, 0.3, 0.2),  # facing 1 bet
    (0.7, 0.2, 0.1),  # facing 2 or more bets
)
"""Papp's default action frequencies (Table B.2), by bets to call 0, 1, 2+."""
RAISED_BACK_FREQUENCIES: Frequencies = (0.1, 0.6, 0.3)
"""Default frequencies of a player raised back after its own bet or raise in the round
(proposed here): it has shown strength and put chips in, so it folds far less than a player
facing as many bets cold."""

MAX_SIZE_EDGES = 6  # chain tokens hold 9 size codes: none, up to 7 buckets, all-in
MAX_NODES = 10_000_000  # a model file holds at most this many nodes a store
MAX_EDGE = 1000.0  # pots: a bet of more is all-in in any game we play
MAX_SPREAD = 1e6
Whole = Annotated[int, Field(ge=0, le=10**9)]
Spread = Annotated[float, Field(gt=0, le=MAX_SPREAD)]


class ModellerParams(BaseModel):
    """Everything the modeller learns by; see the module docstring for the sources.

    Chains: ``min_matches`` chains must match a query at a level before it is used (else the
    query relaxes to the next level); ``size_edges`` split no-limit bets and raises into
    buckets by pot fraction (all-in has a bucket of its own); ``max_nodes`` caps each store's
    prefix-tree nodes (its three levels together) and pruning then keeps at most
    ``prune_to * max_nodes`` of the most frequent ones.

    Frequencies: ``prior_observations`` is the n below which a context blends with its
    default as ``(n * observed + (prior - n) * default) / prior``; the defaults are
    ``default_frequencies`` by bets to call and ``raised_back_frequencies`` for a player
    raised back after its own bet or raise (a context the agent's modeller counts apart;
    see :class:`agent.modeller.OpponentModeller`'s ``contexts``); with ``pool_streets`` a
    thin post-flop context's default first learns from the same context on the other
    post-flop streets (:mod:`agent.modeller.frequencies`).

    Weights: ``reweighting`` is ``"threshold"`` (Loki-1), ``"triple"`` (Loki-2 with the
    generic triple of ``agent.modeller.weights``) or ``"passive_triple"`` (the default: the
    triple for checks and calls, which take the holdings that would have raised out; the
    threshold for raises); ``sigma_preflop`` in income-rate units
    x1000, ``sigma_postflop`` in EHS'; ``preflop_skip_percentile`` of the pre-flop values
    over all 1326 holdings below which a threshold does not re-weight; ``weight_floor``, and
    ``floor_on``: ``"factor"`` (the default) floors each action's factor, so that no action
    rules a holding out but every action counts, ``"weight"`` (Papp) the weight itself;
    ``triple_spread_preflop`` and ``triple_spread_postflop`` are the logistic spreads of the
    generic triple.

    Every value is bounded so that play is possible (a finite spread, a node cap a model
    file can hold); a bad one is a :class:`ModellerError` naming its key.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    min_matches: Annotated[int, Field(ge=1, le=10**9)] = 20
    size_edges: Annotated[tuple[Annotated[float, Field(gt=0, le=MAX_EDGE)], ...],
                          Field(min_length=1, max_length=MAX_SIZE_EDGES)] = (0.4, 0.8, 1.5)
    max_nodes: Annotated[int, Field(ge=64, le=MAX_NODES)] = 1_000_000
    prune_to: Annotated[float, Field(gt=0, lt=1)] = 0.8
    prior_observations: Whole = 20
    default_frequencies: tuple[Frequencies, Frequencies, Frequencies] = TABLE_B2
    raised_back_frequencies: Frequencies = RAISED_BACK_FREQUENCIES
    pool_streets: bool = True
    reweighting: Literal["threshold", "triple", "passive_triple"] = "passive_triple"
    sigma_preflop: Spread = 330.0
    sigma_postflop: Spread = 0.2
    preflop_skip_percentile: Annotated[float, Field(ge=0, lt=100)] = 5.0
    weight_floor: Annotated[float, Field(gt=0, lt=1)] = 0.01
    floor_on: Literal["weight", "factor"] = "factor"
    triple_spread_preflop: Spread = 165.0
    triple_spread_postflop: Spread = 0.1

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ModellerError(validation_message(exc, "modeller")) from None

    @field_validator("size_edges", "default_frequencies", "raised_back_frequencies",
                     mode="before")
    @classmethod
    def _lists(cls, value: Any) -> Any:
        """YAML's lists as the tuples the fields are (nothing else is converted)."""
        if isinstance(value, list):
            return tuple(tuple(v) if isinstance(v, list) else v for v in value)
        return value

    @field_validator("size_edges")
    @classmethod
    def _increasing(cls, edges: tuple[float, ...]) -> tuple[float, ...]:
        if any(b <= a for a, b in zip(edges, edges[1:], strict=False)):
            raise ValueError(f"expected 1 to {MAX_SIZE_EDGES} increasing positive pot "
                             f"fractions, got {list(edges)}")
        return edges

    @field_validator("default_frequencies")
    @classmethod
    def _rows(cls, rows: tuple[Frequencies, ...]) -> tuple[Frequencies, ...]:
        if not all(_is_frequencies(r) for r in rows):
            raise ValueError(f"expected 3 rows (0, 1, 2+ bets to call) of 3 non-negative "
                             f"frequencies summing to 1, got {[list(r) for r in rows]}")
        return rows

    @field_validator("raised_back_frequencies")
    @classmethod
    def _row(cls, row: Frequencies) -> Frequencies:
        if not _is_frequencies(row):
            raise ValueError(f"expected 3 non-negative frequencies summing to 1, got "
                             f"{list(row)}")
        return row

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModellerParams:
        """From a mapping (a YAML section); a bad or unknown key is a ``ModellerError``
        naming it.

        >>> ModellerParams.from_dict({"min_matches": 10, "size_edges": [0.5, 1]}).size_edges
        (0.5, 1.0)
        """
        if not isinstance(data, dict):
            raise ModellerError(f"modeller: expected a mapping of parameters, got "
                                f"{type(data).__name__}")
        return cls(**data)

    @property
    def size_buckets(self) -> int:
        """Buckets a no-limit bet can fall in: one per gap between edges, above, all-in."""
        return len(self.size_edges) + 2

    def sigma(self, street: int) -> float:
        """The threshold method's spread on ``street`` (0 is pre-flop)."""
        return self.sigma_preflop if street == 0 else self.sigma_postflop

    def triple_spread(self, street: int) -> float:
        return self.triple_spread_preflop if street == 0 else self.triple_spread_postflop

    @property
    def floors_factor(self) -> bool:
        """Whether the weight floor bounds each action's factor (else the weight itself).

        >>> ModellerParams().floors_factor, ModellerParams(floor_on="weight").floors_factor
        (True, False)
        """
        return self.floor_on == "factor"

    def reweights_by_triple(self, kind: ActionKind) -> bool:
        """Whether an action of ``kind`` re-weights by the triple (else by the threshold).

        >>> p = ModellerParams()  # passive_triple
        >>> p.reweights_by_triple(ActionKind.CALL), p.reweights_by_triple(ActionKind.RAISE)
        (True, False)
        """
        return self.reweighting == "triple" or (self.reweighting == "passive_triple"
                                                and kind is not ActionKind.RAISE)


def _is_frequencies(row: Sequence[float]) -> bool:
    """Whether ``row`` is a fold/call/raise triple: 3 non-negative values summing to 1."""
    return (len(row) == 3 and all(math.isfinite(x) for x in row) and min(row) >= 0
            and abs(sum(row) - 1) <= 1e-9)
