"""Former path of :mod:`simulator.play.protocol`,
kept so that code written against it still works.

New code imports from :mod:`simulator.play.protocol` (bots: the public API of ``simulator``).
"""

from simulator.play.protocol import (  # noqa: F401 - re-exported
    BaseBot,
    Bot,
    BotContext,
)
