"""The agent's tournament parameters (``tournament:`` in ``agent/heuristic/data/default.yaml``).

They act only in a hand that carries a tournament (``Observation.tournament``): in ring
games the agent's decisions are exactly those without them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TournamentParams(BaseModel):
    """How the agent plays a freezeout or sit-and-go (values proposed here)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    equity: bool
    """Value decisions in prize equity (ICM on the stacks after each outcome) rather than in
    chips: the push-or-fold decisions and E(t) after the flop."""
    push_fold_bb: float = Field(ge=0, le=100)
    """Pre-flop, at or below this effective stack in big blinds, an unopened pot is pushed or
    folded and a lone all-in (or a raise from a stack that short) is called or folded, by the
    push-or-fold game (:mod:`agent.heuristic.tournament.push_fold`); 0: never."""
