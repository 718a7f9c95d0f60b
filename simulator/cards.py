"""Former path of :mod:`simulator.core.cards`,
kept so that code written against it still works.

New code imports from :mod:`simulator.core.cards` (bots: the public API of ``simulator``).
"""

from simulator.core.cards import (  # noqa: F401 - re-exported
    HOLDING_INDEX,
    HOLDINGS,
    NUM_CARDS,
    NUM_HOLDINGS,
    RANKS,
    SUITS,
    Deck,
    card,
    card_mask,
    clashing_holdings,
    format_card,
    format_cards,
    from_treys,
    holding_cards,
    holding_index,
    parse_card,
    parse_cards,
    parse_holding,
    rank_of,
    suit_of,
    to_treys,
)
