"""Former path of :mod:`simulator.core.state`,
kept so that code written against it still works.

New code imports from :mod:`simulator.core.state` (bots: the public API of ``simulator``).
"""

from simulator.core.positions import (  # noqa: F401 - re-exported
    table_order,
)
from simulator.core.state import (  # noqa: F401 - re-exported
    ChancePoint,
    HandState,
)
