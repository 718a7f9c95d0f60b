"""The parameters of E(t), the evaluation function (:mod:`agent.heuristic.e_value`), as the
agent's configuration reads them (``evaluation:`` in ``agent/heuristic/data/default.yaml``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SIZE_POTS = 1000.0


class EvaluationParams(BaseModel):
    """Parameters of E(t), all proposed here (the seed report fixes none); their values live in
    ``agent/heuristic/data/default.yaml``. Every one is finite and bounded so that play is
    possible."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    chain_threshold: int = Field(ge=1, le=10**9)
    """Chains that must match before the chain store is used at all."""
    chain_prior: float = Field(ge=0, le=1e9)
    """Pseudo-observations of the heuristic that chain counts are blended with."""
    shown_prior: float = Field(ge=0, le=1e9)
    """Pseudo-observations of our own win probability blended with the showdown evidence."""
    shown_scale: float = Field(gt=0, le=100)
    """Logistic scale of "our strength minus their mean shown strength" -> win probability."""
    future_bet_rate: float = Field(ge=0, le=3)
    """Bets (future units) each player still in puts in per betting round still to come."""
    hf_given_bet_behind: float = Field(ge=0, le=1)
    """Chance that we give up when we face a bet later while behind."""
    give_up: Literal["independent", "behind", "by_trust"]
    """How giving up later meets our wins (see :func:`heuristic_params`): ``independent``, as
    if we gave up at random, ``behind``, only hands behind give up, or ``by_trust``, by how
    far the opponents' bets are trusted (:func:`behind_share`)."""
    give_up_trust: float = Field(gt=0, le=1)
    """``by_trust``: the trust in an opponent's bets from which its bets make us give up as
    if at random (below it, the more so the less it is trusted, only hands behind give up)."""
    call_margin: float = Field(gt=0, le=1)
    """Width of the soft pot-odds threshold by which we decide to call a later bet."""
    fold_value: float = Field(ge=0, le=1)
    """Hand value (EHS' against anyone) below which an opponent's holding may fold to a bet:
    an opponent folds at most the share of its range below it."""
    size_fold_exponent: float = Field(ge=0, le=3)
    """No-limit: how much more often opponents fold to bigger bets (0: not at all)."""
    nolimit_sizes: Annotated[tuple[Annotated[float, Field(gt=0, le=MAX_SIZE_POTS)], ...],
                             Field(strict=False, min_length=1, max_length=16)]
    """No-limit bet and raise sizes in pots (an all-in is always a candidate too); a size
    past :data:`MAX_SIZE_POTS` pots is an all-in in any game, and overflows the chips."""
