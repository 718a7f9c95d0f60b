"""Former path of :mod:`simulator.play.match`,
kept so that code written against it still works.

New code imports from :mod:`simulator.play.match` (bots: the public API of ``simulator``).
"""

from simulator.play.match import (  # noqa: F401 - re-exported
    BotError,
    BotFault,
    Deal,
    HandHistory,
    HandResult,
    deal_cards,
    next_button,
    play_hand,
    play_match,
)
