"""A pre-flop decision's situation, read from the observation alone: what the Loki rules use.

* **position**: the players dealt in who act after us in the first round before the blinds
  (Papp 1998 section 6.1): the button is 0, the seat before it 1, ...; the blinds are 0.
* **expected players**: ``1 + in + probability_play * to_act`` (Papp, appendix B), where
  ``in`` counts the opponents still holding cards who have already called or raised this
  round and ``to_act`` those who have not acted yet (the blinds among them).
* **bet level** ``B``: the bets made this round, the big blind counting as the first
  (pre-flop ``B = 1 +`` the raises so far), and **facing**: how many of those levels we have not
  matched yet (``B`` for a fresh player, ``B - 1`` for the big blind before it acts, 0 after
  we called or raised the last level). The small blind's half bet matches no level.
* **voluntary**: whether we have already called or raised this round (a blind is not).

>>> from simulator.core.game import GameConfig
>>> from simulator.core.state import HandState
>>> game = GameConfig(variant="limit", blinds=(1, 2))
>>> s = HandState(game, [100] * 6, button=5, holes=[(2 * i, 2 * i + 1) for i in range(6)],
...               board=[40, 41, 42, 43, 44])
>>> _ = s.check_or_call()  # UTG (seat 2) limps
>>> _ = s.raise_to(4)  # seat 3 raises
>>> read_situation(s.observation(s.actor), probability_play=0.6)  # seat 4, the cut-off
Situation(position=1, expected_players=4.8, bet_level=2, facing=2, voluntary=False, \
small_blind=False, limpers=1)
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.core.actions import ActionKind
from simulator.core.betting import Betting, BettingRound
from simulator.core.frozen import quick_init
from simulator.core.observation import Observation


@quick_init
@dataclass(frozen=True, slots=True)
class Situation:
    """What the pre-flop rules need to know about the spot (see the module docstring)."""

    position: int
    expected_players: float
    bet_level: int
    facing: int
    voluntary: bool
    small_blind: bool
    limpers: int  # opponents who called the big blind before any raise


def blind_posters(order: tuple[int, ...], blinds: tuple[int, ...]) -> tuple[int, int | None]:
    """The seats that posted the big blind (the largest) and the small blind (None if none).

    Posters follow the engine: from the button's left, heads-up the button first.
    """
    posters = (order[1], order[0]) if len(order) == 2 else order
    posted = list(zip(posters, blinds, strict=False))
    big = max(range(len(posted)), key=lambda i: (posted[i][1], i))
    small = posted[0][0] if big > 0 else None
    return posted[big][0], small


def read_situation(obs: Observation, probability_play: float) -> Situation:
    """The situation of ``obs.seat``, whose pre-flop decision this is."""
    return situation_of(Betting.of(obs), obs.seat, probability_play)


def situation_of(betting: Betting, seat: int, probability_play: float) -> Situation:
    """The situation of ``seat`` at a pre-flop decision, from the betting so far."""
    order = betting.order
    big, small = blind_posters(order, betting.game.blinds)
    posters = len(betting.game.blinds) if len(order) > 2 else 2
    index = order.index(seat)
    position = 0 if index < posters or len(order) == 2 else len(order) - 1 - index
    rnd = betting.rounds[0]
    level = len(rnd.levels)
    others = [s for s in order if s != seat and betting.active[s]]
    playing = sum(1 for s in others if rnd.acted(s))
    expected = 1 + playing + probability_play * (len(others) - playing)
    limpers = rnd.limpers - (1 if _limped(rnd, seat) else 0)
    return Situation(position, round(expected, 9), level, rnd.bets_to_call(seat),
                     rnd.voluntary(seat), seat == small, limpers)


def _limped(rnd: BettingRound, seat: int) -> bool:
    """Whether ``seat`` is one of the round's limpers (it called the big blind before any
    raise): the limpers a player's raise is sized on are the others."""
    for m in rnd.moves:
        if m.record.kind is ActionKind.RAISE:
            return False
        if (m.seat == seat and m.record.kind is ActionKind.CALL and m.record.added > 0
                and m.to_call):
            return True
    return False
