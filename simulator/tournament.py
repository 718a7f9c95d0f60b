"""Former path of :mod:`simulator.arena.tournament`,
kept so that code written against it still works.

New code imports from :mod:`simulator.arena.tournament` (bots: the public API of ``simulator``).
"""

from simulator.arena.tournament import (  # noqa: F401 - re-exported
    BlockOutcome,
    Summary,
    TournamentError,
    check_bots,
    derive_seed,
    permutations,
    play_block,
    run_tournament,
)
