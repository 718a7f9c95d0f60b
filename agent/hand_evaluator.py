"""Former path of :mod:`agent.strength.ehs`,
kept so that code written against it still works.

New code imports from :mod:`agent.strength.ehs` (bots: the public API of ``simulator``).
"""

from agent.strength.ehs import (  # noqa: F401 - re-exported
    EHS,
    HandDetail,
    effective_hand_strength,
    ehs_formulas,
    field_hand_strength,
    hand_detail,
    hand_potential,
    hand_strength,
    hand_strength_n,
    hand_strength_product,
    parse_spot,
    potentials_from_hp,
)
