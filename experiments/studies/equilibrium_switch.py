"""When does the agent leave the equilibrium? The hand of the switch against each rival.

Heads-up limit, the agent (its defaults: ``equilibrium.play`` on) plays each rival for
``--hands`` hands in both seats from tuning seed ``--seed``, and the script prints, per seat,
the hand after which it exploits that rival (``-`` if it never does), whether a losing run
sent it back, and its win rate. See ``agent/heuristic/deviation.py``.

    python experiments/studies/equilibrium_switch.py --hands 1000 --seed 9502 call mc raise cfr
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from matchups import HEADS_UP_LIMIT

from agent.heuristic.bot import HeuristicAgent
from simulator.core.game import GameConfig
from simulator.play.match import play_match
from simulator.play.registry import build, resolve

RIVALS = ("call", "raise", "random", "rock", "maniac", "mc", "loki", "exploiter", "cfr")


def seat(job: tuple[str, int, int, int]) -> str:
    """One seating: the hand of the switch, the final mode and the agent's SB/hand."""
    rival, hands, seed, perm = job
    hero = HeuristicAgent(seed=seed * 7 + perm)
    other = build(resolve(rival), {}, seed * 11 + perm)
    bots, names = ([hero, other], ["hero", "rival"]) if perm == 0 else (
        [other, hero], ["rival", "hero"])
    me = names.index("hero")
    net, switched = 0, None
    for i, result in enumerate(play_match(GameConfig(**HEADS_UP_LIMIT), bots, hands,
                                          seed=seed, names=names)):
        net += result.net[me]
        mode = hero.equilibrium
        if switched is None and mode is not None and mode.portfolio.mode("rival") == "exploit":
            switched = i + 1
    known = (hero.equilibrium.portfolio.opponents.get("rival")
             if hero.equilibrium is not None else None)
    back = "back to the equilibrium" if known is not None and known.settled else ""
    return (f"{rival:<10} seat {perm}: switched after hand {switched or '-':>4}  "
            f"{net / hands / HEADS_UP_LIMIT['small_bet']:+.3f} SB/h  {back}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rivals", nargs="*", help=f"of {', '.join(RIVALS)} (default: all)")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=9502, help="a tuning seed (9000 and up)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    unknown = [r for r in args.rivals if r not in RIVALS]
    if unknown:
        parser.error(f"unknown rival {unknown[0]!r}: choose from {', '.join(RIVALS)}")
    rivals = args.rivals or list(RIVALS)
    jobs = [(r, args.hands, args.seed, perm) for r in rivals for perm in (0, 1)]
    with ProcessPoolExecutor(args.workers) as pool:
        for line in pool.map(seat, jobs):
            print(line, flush=True)


if __name__ == "__main__":
    main()
