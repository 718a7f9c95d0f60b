"""The heuristic agent's speed: six-max self-play, decision times, and a decision's profile.

Ours: six ``heuristic`` agents play 6-max fixed-limit (blinds 1/2, bets 2/4) on one core
through ``play_match``, every decision timed. The anchor, measured in the same run: pokerkit
playing 6-max no-limit (blinds 1/2, stacks 200) with random players that fold 15% of the time
when facing a bet, make a minimum raise 10% of the time, and otherwise check or call.
Goals: ours >= 0.5x pokerkit's hands per second; a median decision under 1 ms and the 99th
percentile under 10 ms.

    python experiments/bench/bench_agent.py [--hands 400] [--rounds 4] [--profile] [--steps]
        [--cli 1500] [--params JSON]

The two are measured in alternating turns (``--rounds``, 4 by default: 100 of our hands,
then 1.25 s of pokerkit's, four times), so that both see the same minute of a shared
machine: one turn each, a minute apart, gave ratios from 0.42 to 0.54 for the same code.

``--profile`` adds where the time of the agents' decisions goes (cProfile, own time per
function, the top entries). ``--steps`` adds the profile of a post-flop decision by its steps:
each function the agent calls is wrapped in a timer, and a step's time excludes the steps it
calls (a new board's value vector and table are steps of their own, paid by the first
decision on that board). ``--cli N`` adds the figure a user meets: ``holdem run`` of N hands of
the same self-play (a config with 2 workers and blocks of 250 deals, not duplicate), start-up
and worker processes included, timed before the script pins itself to one core.
``--params`` gives the six agents overrides (JSON, dotted keys), to see what an option costs.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import subprocess
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pokerkit
import yaml
from benchlib import pin_to_one_core

import agent.heuristic.pipeline
import agent.heuristic.postflop
from agent.heuristic.bot import HeuristicAgent
from agent.modeller import OpponentModeller
from agent.strength import values
from simulator import Action, Observation
from simulator.core.board_ranks import BoardRanks
from simulator.core.game import GameConfig
from simulator.play.match import play_match

GAME = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000)
AUTOMATIONS = tuple(a for a in pokerkit.Automation
                    if a is not pokerkit.Automation.RUNOUT_COUNT_SELECTION)


class Timed(HeuristicAgent):
    """The agent with every decision's wall time kept."""

    times: list[float] = []

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = super().act(observation)
        Timed.times.append(time.perf_counter() - start)
        return action


class Steps:
    """Exclusive wall time and calls per step: a step's time excludes the steps it calls."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._children: list[float] = []

    def wrap(self, name: str, fn: Callable[..., Any], root: bool = False
             ) -> Callable[..., Any]:
        """``fn`` timed as step ``name``; a step other than a root counts only within a root
        (a decision), not when the modeller calls it while observing."""
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not root and not self._children:
                return fn(*args, **kwargs)
            self._children.append(0.0)
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                self.seconds[name] += elapsed - self._children.pop()
                self.calls[name] += 1
                if self._children:
                    self._children[-1] += elapsed
        return timed

    def install(self) -> None:
        """Wrap the decision pipelines and their steps, where the pipeline looks them up."""
        for owner, attr, name in (
                (agent.heuristic.pipeline, "postflop_rows",
                 "the rest (glue of the post-flop pipeline)"),
                (agent.heuristic.postflop, "range_strength",
                 "range_strength (HS, HS_n, PPOT, NPOT)"),
                (agent.heuristic.postflop, "hs_against_tops",
                 "hs_against_tops (callers, re-raisers)"),
                (agent.heuristic.postflop, "board_values", "board_values (look-up)"),
                (agent.heuristic.postflop, "spot_of", "spot and candidates"),
                (agent.heuristic.postflop, "candidates", "spot and candidates"),
                (agent.heuristic.postflop, "_views", "opponent views (weak shares, answers)"),
                (agent.heuristic.postflop, "heuristic_estimates", "heuristic E parameters"),
                (agent.heuristic.postflop, "_chain_answers", "modeller.query (chain store)"),
                (agent.heuristic.postflop, "from_chains", "chain E parameters"),
                (agent.heuristic.postflop, "probabilities", "selector probabilities"),
                (OpponentModeller, "path_at", "modeller.path_at (the hand's picture)"),
                (values, "_compute", "value vector of a new board"),
                (BoardRanks, "_build", "board rank rows of a new board"),
                (agent.heuristic.pipeline, "preflop_rows", "pre-flop decision")):
            root = attr in ("postflop_rows", "preflop_rows")
            setattr(owner, attr, self.wrap(name, getattr(owner, attr), root))

    def report(self) -> str:
        decisions = self.calls["the rest (glue of the post-flop pipeline)"]
        post = {k: v for k, v in self.seconds.items() if k != "pre-flop decision"}
        total = sum(post.values())
        lines = [f"profile of a post-flop decision by steps ({decisions} decisions, mean "
                 f"{total / decisions * 1e3:.3f} ms; timers included)",
                 f"  {'step':42s} {'ms/decision':>11s} {'share':>6s}"]
        for name, sec in sorted(post.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {name:42s} {sec / decisions * 1e3:11.4f} {sec / total:6.1%}")
        pre = self.calls["pre-flop decision"]
        if pre:
            lines.append(f"pre-flop decisions: {pre}, mean "
                         f"{self.seconds['pre-flop decision'] / pre * 1e3:.3f} ms")
        return "\n".join(lines)


def ours_and_anchor(hands: int, seconds: float, rounds: int, profile: bool,
                    steps: Steps | None = None, params: dict[str, Any] | None = None
                    ) -> tuple[float, float, np.ndarray, str]:
    """Our hands/s and pokerkit's, measured in ``rounds`` alternating turns (each of
    ``hands / rounds`` hands and ``seconds / rounds`` of pokerkit), so that both see the
    machine as it is over the same minute: on a shared machine pokerkit's own rate swings by
    a third between runs a minute apart. Also every decision's time and the profile."""
    bots = [Timed(seed=s, **(params or {})) for s in range(6)]
    list(play_match(GAME, bots, 30, seed=1))  # warm-up: numba, tables
    Timed.times.clear()
    if steps is not None:
        steps.install()
    profiler = cProfile.Profile() if profile else None
    rng = random.Random(0)
    ours_seconds, theirs_hands, theirs_seconds = 0.0, 0, 0.0
    per_round = -(-hands // rounds)
    for r in range(rounds):
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        list(play_match(GAME, bots, per_round, seed=2 + r))
        if profiler:
            profiler.disable()
        ours_seconds += time.perf_counter() - start
        n, elapsed = pokerkit_random(seconds / rounds, rng)
        theirs_hands, theirs_seconds = theirs_hands + n, theirs_seconds + elapsed
    report = ""
    if profiler:
        buf = io.StringIO()
        pstats.Stats(profiler, stream=buf).sort_stats("tottime").print_stats(14)
        report = buf.getvalue()
    return (per_round * rounds / ours_seconds, theirs_hands / theirs_seconds,
            np.array(Timed.times), report)


def pokerkit_random(seconds: float, rng: random.Random) -> tuple[int, float]:
    """Hands of pokerkit's random play for ``seconds``, and the seconds they took."""
    hands, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = pokerkit.NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2,
                                                         200, 6)
        while state.status:
            u = rng.random()
            if state.can_fold() and u < 0.15:
                state.fold()
            elif u < 0.25 and state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
            else:
                state.check_or_call()
        hands += 1
    return hands, time.perf_counter() - start


def through_cli(hands: int) -> float:
    """Hands per second of ``holdem run`` playing ``hands`` hands of 6-max limit heuristic
    self-play, start-up and worker processes included."""
    config = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
              "seats": [{"name": f"h{i}", "bot": "heuristic"} for i in range(6)],
              "hands": hands, "block_size": 250, "seed": 5, "duplicate": False,
              "workers": 2, "on_bot_error": "stop"}
    with tempfile.TemporaryDirectory() as tmp:
        config["output"] = {"dir": str(Path(tmp) / "run"), "plots": False}
        path = Path(tmp) / "run.yaml"
        path.write_text(yaml.safe_dump(config))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simulator.cli", "run", str(path), "--force"],
                       check=True, stdout=subprocess.DEVNULL)
        return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=5.0, help="pokerkit's measurement")
    parser.add_argument("--rounds", type=int, default=4,
                        help="alternate ours and pokerkit's in this many turns")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--steps", action="store_true",
                        help="profile a post-flop decision by its steps (timers slow it a bit)")
    parser.add_argument("--cli", type=int, default=0, metavar="HANDS",
                        help="also time `holdem run` of this many hands (2 workers)")
    parser.add_argument("--params", default="{}",
                        help="the agents' overrides (JSON, dotted keys), to see what an option "
                             "costs; the --cli run plays the defaults")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    cli_rate = through_cli(args.cli) if args.cli else None
    pin_to_one_core()
    steps = Steps() if args.steps else None
    rate, anchor, times, report = ours_and_anchor(args.hands, args.seconds, args.rounds,
                                                  args.profile, steps, json.loads(args.params))
    ms = times * 1000
    print(f"ours: 6-max limit, six heuristic agents   {rate:8.1f} hands/s")
    print(f"pokerkit: 6-max no-limit, random players  {anchor:8.1f} hands/s")
    print(f"ratio ours/pokerkit                       {rate / anchor:8.2f}   (goal >= 0.5)")
    if cli_rate is not None:
        print(f"holdem run, {args.cli} hands, 2 workers     {cli_rate:8.1f} hands/s   ratio "
              f"{cli_rate / anchor:.2f} (goal >= 0.5)")
    print(f"decisions: {len(ms)}; median {np.median(ms):.3f} ms (goal < 1), 99th percentile "
          f"{np.percentile(ms, 99):.3f} ms (goal < 10), max {ms.max():.1f} ms")
    if report:
        print(report)
    if steps is not None:
        print(steps.report())


if __name__ == "__main__":
    main()
