"""Former path of :mod:`simulator.arena.config`,
kept so that code written against it still works.

New code imports from :mod:`simulator.arena.config` (bots: the public API of ``simulator``).
"""

from simulator.arena.config import (  # noqa: F401 - re-exported
    ConfigError,
    TournamentConfig,
    load_config,
    parse_config,
)
