"""Former path of :mod:`simulator.core.observation`,
kept so that code written against it still works.

New code imports from :mod:`simulator.core.observation` (bots: the public API of ``simulator``).
"""

from simulator.core.events import (  # noqa: F401 - re-exported
    ActionTaken,
    BoardDealt,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.observation import (  # noqa: F401 - re-exported
    Observation,
)
