"""``rock``: tight-passive. It plays the top 15% of hands pre-flop and raises only the top 3%
(about QQ+ and AK); after the flop it bets or raises only with a strong hand (equity times
players at 1.6 or more, 0.8 heads-up), calls with a fair one (1.2, 0.6 heads-up) and
never bluffs. The settings are proposed here.

>>> bot = RockBot(seed=3)
>>> bot.preflop_play, bot.preflop_raise, bot.bluff
(0.15, 0.03, 0.0)
"""

from __future__ import annotations

from agent.rivals.style import StyleBot


class RockBot(StyleBot):
    """Tight-passive: few hands, bets only the strong ones, never bluffs."""

    def __init__(self, preflop_play: float = 0.15, preflop_raise: float = 0.03,
                 value: float = 1.6, call: float = 1.2, bluff: float = 0.0,
                 jitter: float = 0.05, seed: int | None = None) -> None:
        super().__init__(preflop_play, preflop_raise, value, call, bluff, jitter, seed)
