"""Errors of the hand evaluator's inputs; both are ``HoldemError`` (exit 2) and ``ValueError``."""

from __future__ import annotations

from simulator import HoldemError


class RangeError(HoldemError, ValueError):
    """A range, a weight array or a mapping of weights that cannot be read."""


class StrengthError(HoldemError, ValueError):
    """A question the hand evaluator cannot answer (lookahead, opponents, denominators)."""
