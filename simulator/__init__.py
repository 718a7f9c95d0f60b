"""Rules, cards, matches and tournaments for Texas Hold'em; never imports the agent package.

The public API for bot writers is what this package exports: it stays put when modules move.

>>> from simulator import Action, BaseBot, Observation
>>> class Caller(BaseBot):
...     def act(self, observation: Observation) -> Action:
...         return Action.call()
>>> Caller().act  # doctest: +ELLIPSIS
<bound method Caller.act of ...>
"""

from simulator.core.actions import (
    Action,
    ActionKind,
    ActionRecord,
    IllegalActionError,
    LegalActions,
)
from simulator.core.errors import HoldemError
from simulator.core.events import (
    ActionTaken,
    BoardDealt,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.streets import Street
from simulator.core.tournament_view import TournamentView
from simulator.play.protocol import (
    BaseBot,
    Bot,
    BotContext,
    LearningBot,
    Policy,
    PolicyBot,
    PolicyError,
    RaiseRange,
    StepWithPolicyBot,
)

__all__ = [
    "Action", "ActionKind", "ActionRecord", "ActionTaken", "BaseBot", "BoardDealt", "Bot",
    "BotContext", "Event", "GameConfig", "HandEnded", "HandStarted", "HoldemError",
    "HoleCardsDealt", "IllegalActionError", "LearningBot", "LegalActions", "Observation",
    "Policy", "PolicyBot", "StepWithPolicyBot",
    "PolicyError", "RaiseRange", "Showdown", "Street", "TournamentView",
]
