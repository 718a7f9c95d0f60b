"""Which of our modules one decision of the heuristic agent passes through, in order.

The agent's decision is meant to be a pipeline: each module entered once, in the order spot,
opponent views, strength, E, selector, record. This follows one post-flop ``act`` of a
six-max agent with ``sys.setprofile`` and prints the modules of ``agent`` and ``simulator``
in the order the decision enters them (runs of calls within one module as one entry), how
many there are, and how many entries go back to a module the decision had already left.

    python experiments/studies/decision_modules.py [--hands 30] [--game limit|nolimit]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from agent.heuristic.bot import HeuristicAgent
from simulator import Action, Observation, Street
from simulator.core.game import GameConfig
from simulator.play.match import play_match

GAMES = {"limit": GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000),
         "nolimit": GameConfig(variant="nolimit", blinds=(1, 2), stack=200)}
OURS = ("agent", "simulator")


def modules_entered(call: Callable[[], Any]) -> list[str]:
    """Our modules in the order ``call`` enters them, consecutive repeats merged."""
    entered: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        name = frame.f_globals.get("__name__", "")
        if name.split(".")[0] in OURS and (not entered or entered[-1] != name):
            entered.append(name)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return entered


def returns(entered: list[str]) -> int:
    """Entries that go back to a module already left."""
    seen: set[str] = set()
    back = 0
    for name in entered:
        back += name in seen
        seen.add(name)
    return back


class Traced(HeuristicAgent):
    """The agent, tracing its first post-flop decision after ``after`` hands."""

    def __init__(self, after: int, seed: int) -> None:
        super().__init__(seed=seed, **{"equilibrium.play": False})
        self.after, self.entered = after, list[str]()

    def act(self, observation: Observation) -> Action:
        if (self.entered or observation.street is Street.PREFLOP
                or observation.hand_number < self.after):
            return super().act(observation)
        out: list[Action] = []
        self.entered = modules_entered(lambda: out.append(super(Traced, self).act(observation)))
        return out[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=30, help="hands before the traced one")
    parser.add_argument("--game", choices=sorted(GAMES), default="limit")
    args = parser.parse_args(argv)
    bots = [Traced(args.hands, 0), *(HeuristicAgent(seed=s, **{"equilibrium.play": False})
                                     for s in range(1, 6))]
    for _ in play_match(GAMES[args.game], bots, args.hands + 40, seed=7):
        if bots[0].entered:
            break
    entered = bots[0].entered
    if not entered:
        print("no post-flop decision of seat 0 was reached", file=sys.stderr)
        return 1
    for name in entered:
        print(name)
    print(f"{len(set(entered))} modules, {len(entered)} entries, "
          f"{returns(entered)} returns to a module already left")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
