"""Former path of :mod:`simulator.core.actions`,
kept so that code written against it still works.

New code imports from :mod:`simulator.core.actions` (bots: the public API of ``simulator``).
"""

from simulator.core.actions import (  # noqa: F401 - re-exported
    Action,
    ActionKind,
    ActionRecord,
    IllegalActionError,
    LegalActions,
)
