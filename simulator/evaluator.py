"""Former path of :mod:`simulator.core.hand_ranks`,
kept so that code written against it still works.

New code imports from :mod:`simulator.core.hand_ranks` (bots: the public API of ``simulator``).
"""

from simulator.core.hand_ranks import (  # noqa: F401 - re-exported
    CLASS_NAMES,
    WORST_RANK,
    class_name,
    evaluate,
    rank_class,
    rank_row,
)
