"""The one root of every error a user can cause, so callers and the CLI catch one class.

Subclasses keep a second, older base (``ValueError`` for bad values, ``RuntimeError`` for a
store that does not fit), so code written as ``except ValueError`` goes on working.

>>> from simulator.core.cards import parse_cards
>>> try:
...     parse_cards("Zz")
... except HoldemError as exc:
...     print(type(exc).__name__, isinstance(exc, ValueError))
CardError True
"""

from __future__ import annotations

KEYWORD_FLAGS = {"resume=True": "--resume", "force=True": "--force"}
"""Advice in a message names the keyword argument of the Python call; a command that has the
same choice as a flag says the flag instead (:func:`for_command_line`)."""


def for_command_line(message: str) -> str:
    """``message`` with each keyword argument it advises replaced by its command-line flag.

    >>> for_command_line("results there: resume=True continues, force=True starts over")
    'results there: --resume continues, --force starts over'
    """
    for keyword, flag in KEYWORD_FLAGS.items():
        message = message.replace(keyword, flag)
    return message


class HoldemError(Exception):
    """Raised for a user's mistake (a config, a bot spec, cards, a range, a file, a store).

    The ``holdem`` command turns it into one line on stderr and exit code ``exit_code``: 2,
    bad input refused before any work, unless a subclass says otherwise.
    """

    exit_code = 2


class RunError(HoldemError):
    """A run that failed on its way (a bot's fault under ``on_bot_error: stop``, a failed
    block, an interrupt, a full disk): exit code 1. What finished before it stays."""

    exit_code = 1


class CardError(HoldemError, ValueError):
    """A card, holding or board that cannot be read, or cards repeated where they may not."""


class GameError(HoldemError, ValueError):
    """Game parameters the rules cannot play (blinds, bet sizes, stacks)."""
