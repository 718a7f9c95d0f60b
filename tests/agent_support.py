"""The heuristic agent's pipeline for tests that watch it in heads-up limit."""

from __future__ import annotations

from typing import Any

from agent.heuristic.bot import HeuristicAgent


def pipeline(**params: Any) -> HeuristicAgent:
    """The agent with ``equilibrium.play`` off: in heads-up limit it would otherwise play the
    shipped equilibrium until its opponent deviates (``tests/test_deviation.py`` tests that),
    and these tests watch the decision pipeline itself."""
    return HeuristicAgent(**{"equilibrium.play": False, **params})
