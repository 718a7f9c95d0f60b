"""``maniac``: loose-aggressive. It plays 85% of hands pre-flop and raises half of them;
after the flop it bets or raises with any better than fair hand (equity times players at 1.1
or more, 0.55 heads-up), calls down light (0.6, 0.3 heads-up) and bets or raises at random
30% of the time whatever it holds. The settings are proposed here.

>>> bot = ManiacBot(seed=3)
>>> bot.preflop_play, bot.preflop_raise, bot.bluff
(0.85, 0.5, 0.3)
"""

from __future__ import annotations

from agent.rivals.style import StyleBot


class ManiacBot(StyleBot):
    """Loose-aggressive: most hands, bets and raises often, bluffs at random."""

    def __init__(self, preflop_play: float = 0.85, preflop_raise: float = 0.5,
                 value: float = 1.1, call: float = 0.6, bluff: float = 0.3,
                 jitter: float = 0.05, seed: int | None = None) -> None:
        super().__init__(preflop_play, preflop_raise, value, call, bluff, jitter, seed)
