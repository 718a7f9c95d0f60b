"""Every bot that plays no-limit plays pot-limit: only legal actions, sizes within the range.

The engine refuses any raise over the pot (``on_bot_error="stop"`` makes that a failure);
the wrapper below checks each size against the legal range the bot was shown, and counts
the raises that hit the pot-limit maximum below all-in (the limit actually binding).
"""

from __future__ import annotations

import pytest

from agent.heuristic.bot import HeuristicAgent
from agent.rivals.exploiter import ExploiterBot
from agent.rivals.loki import LokiBot
from agent.rivals.maniac import ManiacBot
from agent.rivals.mc import MonteCarloBot
from agent.rivals.rock import RockBot
from simulator import Action, BaseBot, BotContext, Event, Observation
from simulator.core.actions import ActionKind
from simulator.core.cards import parse_cards
from simulator.core.game import GameConfig
from simulator.core.state import HandState
from simulator.play.baseline import CallBot, RaiseBot, RandomBot
from simulator.play.match import play_match

POT_LIMIT = GameConfig(variant="potlimit", blinds=(1, 2), stack=200)
BOTS = {"heuristic": HeuristicAgent, "loki": LokiBot, "exploiter": ExploiterBot,
        "mc": MonteCarloBot, "rock": RockBot, "maniac": ManiacBot,
        "random": RandomBot, "call": CallBot, "raise": RaiseBot}


POT_BETTORS = ("exploiter", "loki", "maniac", "mc")  # the rivals: their raise is the pot


class Checked(BaseBot):
    """A bot whose every action is checked against the legal set it was shown."""

    def __init__(self, inner: BaseBot) -> None:
        self.inner = inner
        self.capped = 0  # raises to the pot-limit maximum while all-in was more

    def start(self, context: BotContext) -> None:
        self.inner.start(context)

    def observe(self, event: Event) -> None:
        self.inner.observe(event)

    def reset(self) -> None:
        self.inner.reset()

    def close(self) -> None:
        self.inner.close()

    def act(self, obs: Observation) -> Action:
        action = self.inner.act(obs)
        assert obs.legal.allows(action), (action, obs.legal)
        if action.kind is ActionKind.RAISE:
            all_in = obs.stacks[obs.seat] + obs.bets[obs.seat]
            if action.amount == obs.legal.max_raise_to < all_in:
                self.capped += 1
        return action


@pytest.mark.parametrize("seats", [2, 3, 6])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_plays_potlimit_legally(name: str, seats: int) -> None:
    hands = {2: 120, 3: 80, 6: 40}[seats]
    bot = Checked(BOTS[name]() if name in ("call", "raise") else BOTS[name](seed=1))
    bots: list[BaseBot] = [bot] + [
        Checked(RandomBot(fold=0.2, call=0.5, raise_=0.3, seed=10 + i))
        for i in range(seats - 1)]
    results = list(play_match(POT_LIMIT, bots, hands, seed=seats, on_bot_error="stop"))
    assert len(results) == hands
    assert all(not r.faults and sum(r.net) == 0 for r in results)
    raises = sum(1 for r in results for a in r.history.actions
                 if a.seat == 0 and a.kind is ActionKind.RAISE)
    if name not in ("call", "rock"):
        assert raises, "the bot never raised: nothing was checked"
    if name in POT_BETTORS:
        assert bot.capped, "a pot bettor never bet the pot-limit maximum short of all-in"


def _spot(actions: list[Action]) -> Observation:
    state = HandState(POT_LIMIT, [200, 200], 0, [tuple(parse_cards("AhAs")),
                                                  tuple(parse_cards("7c2d"))],
                      parse_cards("AdAc5h4c3d"))
    for action in actions:
        state.apply(action)
    assert state.actor is not None
    return state.observation(state.actor)


def test_rivals_bet_the_pot_which_is_the_most_pot_limit_allows() -> None:
    """The rivals' pot bet (call, then raise the pot after the call) is the pot-limit
    maximum: the button's pre-flop open is to 6 at blinds 1/2 heads-up, the flop's bet at
    most the pot of 4."""
    opening = _spot([])
    assert opening.legal.max_raise_to == 6 < 200
    flop = _spot([Action.call(), Action.call()])
    assert (flop.legal.min_raise_to, flop.legal.max_raise_to) == (2, 4)
    assert MonteCarloBot(seed=1).act(opening) == Action.raise_to(6)
    facing = _spot([Action.call(), Action.call(), Action.raise_to(4)])  # the flop's pot bet
    assert facing.legal.max_raise_to == 4 + 12  # call 4, then the pot of 4 + 4 + 4
    assert MonteCarloBot(seed=1).act(facing) == Action.raise_to(16)
    assert ManiacBot(seed=1).act(facing) in (Action.raise_to(16), Action.call())
