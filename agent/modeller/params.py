"""The opponent modeller's parameters, validated on creation.

Values the literature fixes: the 20-observation blend and Table B.2's defaults (Papp 1998),
the pre-flop spread of 330 income-rate units and the 5th-percentile skip (Papp section 7.2),
the 0.01 weight floor. Everything else is "proposed here" and tunable: the post-flop spread
0.2, the no-limit size edges, the query threshold, the node cap and how far pruning cuts, and
the generic probability-triple spreads.

>>> p = ModellerParams()
>>> p.size_buckets, p.sigma(0), p.sigma(2)
(5, 330.0, 0.2)
>>> try:
...     ModellerParams(size_edges=(0.8, 0.4))
... except ModellerError as exc:
...     print(exc)
size_edges: expected 1 to 6 increasing positive pot fractions, got (0.8, 0.4)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from agent.modeller.errors import ModellerError

Frequencies = tuple[float, float, float]
TABLE_B2: tuple[Frequencies, Frequencies, Frequencies] = (
    (0.0, 0.5, 0.5),  # facing 0 bets: fold, call, raise
    (0.5, 0.3, 0.2),  # facing 1 bet
    (0.7, 0.2, 0.1),  # facing 2 or more bets
)
"""Papp's default action frequencies (Table B.2), by bets to call 0, 1, 2+."""
RAISED_BACK: Frequencies = (0.1, 0.6, 0.3)
"""Default frequencies of a player raised back after its own bet or raise in the round
(proposed here): it has shown strength and put chips in, so it folds far less than a player
facing as many bets cold."""

MAX_SIZE_EDGES = 6  # chain tokens hold 9 size codes: none, up to 7 buckets, all-in


@dataclass(frozen=True)
class ModellerParams:
    """Everything the modeller learns by; see the module docstring for the sources.

    Chains: ``min_matches`` chains must match a query at a level before it is used (else the
    query relaxes to the next level); ``size_edges`` split no-limit bets and raises into
    buckets by pot fraction (all-in has a bucket of its own); ``max_nodes`` caps each store's
    prefix-tree nodes (its three levels together) and pruning then keeps at most
    ``prune_to * max_nodes`` of the most frequent ones.

    Frequencies: ``prior_observations`` is the n below which a context blends with its
    default as ``(n * observed + (prior - n) * default) / prior``; the defaults are
    ``default_frequencies`` by bets to call and ``raised_back_frequencies`` for a player
    raised back after its own bet or raise; ``raised_back_context: false`` keeps Papp's
    three contexts only (the ``loki`` rival's Loki-1 does).

    Weights: ``reweighting`` is ``"threshold"`` (Loki-1) or ``"triple"`` (Loki-2 with the
    generic triple of ``agent.modeller.weights``); ``sigma_preflop`` in income-rate units
    x1000, ``sigma_postflop`` in EHS'; ``preflop_skip_percentile`` of the pre-flop values
    over all 1326 holdings below which a threshold does not re-weight; ``weight_floor``;
    ``triple_spread_preflop`` and ``triple_spread_postflop`` are the logistic spreads of the
    generic triple.
    """

    min_matches: int = 20
    size_edges: tuple[float, ...] = (0.4, 0.8, 1.5)
    max_nodes: int = 1_000_000
    prune_to: float = 0.8
    prior_observations: int = 20
    default_frequencies: tuple[Frequencies, Frequencies, Frequencies] = TABLE_B2
    raised_back_frequencies: Frequencies = RAISED_BACK
    raised_back_context: bool = True
    reweighting: Literal["threshold", "triple"] = "threshold"
    sigma_preflop: float = 330.0
    sigma_postflop: float = 0.2
    preflop_skip_percentile: float = 5.0
    weight_floor: float = 0.01
    triple_spread_preflop: float = 165.0
    triple_spread_postflop: float = 0.1

    def __post_init__(self) -> None:
        edges = tuple(float(e) for e in self.size_edges)
        object.__setattr__(self, "size_edges", edges)
        if not 1 <= len(edges) <= MAX_SIZE_EDGES or edges[0] <= 0 or any(
                b <= a for a, b in zip(edges, edges[1:], strict=False)):
            raise ModellerError(f"size_edges: expected 1 to {MAX_SIZE_EDGES} increasing positive"
                                f" pot fractions, got {self.size_edges}")
        _at_least("min_matches", self.min_matches, 1)
        _at_least("max_nodes", self.max_nodes, 64)
        _at_least("prior_observations", self.prior_observations, 0)
        if not 0 < self.prune_to < 1:
            raise ModellerError(f"prune_to: expected a fraction in (0, 1), got {self.prune_to}")
        defaults = tuple(tuple(float(x) for x in row) for row in self.default_frequencies)
        if len(defaults) != 3 or not all(_is_frequencies(r) for r in defaults):
            raise ModellerError("default_frequencies: expected 3 rows (0, 1, 2+ bets to call) of"
                                f" 3 non-negative frequencies summing to 1, got "
                                f"{self.default_frequencies}")
        object.__setattr__(self, "default_frequencies", defaults)
        raised = tuple(float(x) for x in self.raised_back_frequencies)
        if not _is_frequencies(raised):
            raise ModellerError("raised_back_frequencies: expected 3 non-negative frequencies "
                                f"summing to 1, got {self.raised_back_frequencies}")
        object.__setattr__(self, "raised_back_frequencies", raised)
        if not isinstance(self.raised_back_context, bool):
            raise ModellerError(f"raised_back_context: expected true or false, got "
                                f"{self.raised_back_context!r}")
        if self.reweighting not in ("threshold", "triple"):
            raise ModellerError(f"reweighting: expected 'threshold' or 'triple', got "
                                f"{self.reweighting!r}")
        for name in ("sigma_preflop", "sigma_postflop", "triple_spread_preflop",
                     "triple_spread_postflop"):
            if not getattr(self, name) > 0:
                raise ModellerError(f"{name}: expected > 0, got {getattr(self, name)}")
        if not 0 <= self.preflop_skip_percentile < 100:
            raise ModellerError("preflop_skip_percentile: expected 0 <= p < 100, got "
                                f"{self.preflop_skip_percentile}")
        if not 0 < self.weight_floor < 1:
            raise ModellerError(f"weight_floor: expected a fraction in (0, 1), got "
                                f"{self.weight_floor}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModellerParams:
        """From a mapping (a YAML section); an unknown key is a ``ModellerError`` naming it.

        >>> ModellerParams.from_dict({"min_matches": 10, "size_edges": [0.5, 1]}).size_edges
        (0.5, 1.0)
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ModellerError(f"unknown modeller parameter(s) {', '.join(unknown)}; known: "
                                f"{', '.join(sorted(known))}")
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


def _is_frequencies(row: tuple[float, ...]) -> bool:
    """Whether ``row`` is a fold/call/raise triple: 3 non-negative values summing to 1."""
    return len(row) == 3 and min(row) >= 0 and abs(sum(row) - 1) <= 1e-9


def _at_least(name: str, value: int, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ModellerError(f"{name}: expected an integer >= {low}, got {value!r}")
