"""The errors of the equilibrium layer: every one a :class:`HoldemError`, so the command
line turns it into one line and exit code 2."""

from __future__ import annotations

from simulator.core.errors import HoldemError


class EquilibriumError(HoldemError, ValueError):
    """A game, tree, abstraction or solver setting the equilibrium layer cannot use."""


class StrategyFileError(EquilibriumError):
    """A strategy or bucket file that is missing, corrupt, too big, of an unknown version, or
    made for another game or abstraction; the message names the file and the problem."""
