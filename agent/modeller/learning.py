"""One switch for everything an agent learns.

An agent's learners (the opponent model, and above it the range trust, the showdown
calibration, the fold cap's call outcomes, the equilibrium's portfolio) share one
:class:`LearningSwitch`: ``freeze()`` turns learning off for every one of them at once, so a
learner added later cannot be forgotten by a ``freeze`` that lists them.

>>> switch = LearningSwitch()
>>> switch.frozen, switch.freeze(), switch.frozen
(False, None, True)
"""

from __future__ import annotations


class LearningSwitch:
    """Whether the learners holding it learn; ``freeze`` is for good (a match's)."""

    __slots__ = ("frozen",)

    def __init__(self) -> None:
        self.frozen = False

    def freeze(self) -> None:
        """Learn nothing from now on."""
        self.frozen = True
