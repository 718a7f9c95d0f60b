"""Former path of :mod:`simulator.play.baseline`,
kept so that code written against it still works.

New code imports from :mod:`simulator.play.baseline` (bots: the public API of ``simulator``).
"""

from simulator.play.baseline import (  # noqa: F401 - re-exported
    CallBot,
    RaiseBot,
    RandomBot,
)
