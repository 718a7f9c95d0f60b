"""Errors of the opponent modeller; both are ``HoldemError`` (exit 2) and ``ValueError``."""

from __future__ import annotations

from simulator import HoldemError


class ModellerError(HoldemError, ValueError):
    """A bad parameter or a question the modeller cannot answer (a seat not in the hand)."""


class ModelFileError(HoldemError, ValueError):
    """A saved model that cannot be read: missing, corrupt, truncated or of another version."""
