"""Errors of the pre-flop part's inputs; both are ``HoldemError`` (exit 2) and ``ValueError``."""

from __future__ import annotations

from simulator import HoldemError


class IncomeRateError(HoldemError, ValueError):
    """A hand, table size or income-rate data file that cannot be read."""


class PreflopParamsError(HoldemError, ValueError):
    """A pre-flop parameter file or mapping with an unknown key or a value of the wrong type."""


class PreflopError(HoldemError, ValueError):
    """An observation the pre-flop expert cannot decide on (not pre-flop, no hole cards)."""
