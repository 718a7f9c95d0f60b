"""Hand evaluator speed against eval7's exact flop equity, measured in the same run, one core.

    python experiments/bench/bench_hand_evaluator.py [--repeats 7]

Spot: Ad Qc on 3h 4c Jh. Every timed call of ours is a cold spot: the kept board tables are
cleared first, so the time includes building the board table from scratch (current ranks,
next-card ranks and, for two cards, the 1176 turn-and-river boards) as well as parsing the
cards and weights. The numba kernels are compiled (or loaded from cache) before timing.

The anchor is eval7's exact equity against one random hand from the flop: every turn and
river runout enumerated, each scored with ``eval7.py_hand_vs_range_exact`` against all
holdings (faster than calling ``eval7.evaluate`` per holding and runout in Python).

Goals (ratios to the anchor, printed): two-card PPOT/NPOT <= 1.0; one-card potential plus HS
<= 0.05 (1/20); a weighted range <= 1.5x the uniform one.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable

import numpy as np
from benchlib import best_time, pin_to_one_core

HOLE, BOARD = "AdQc", "3h4cJh"
RANGE = "QQ+, AKs, AQo-ATo, 76s, JTs, 99-66, KQo"


def eval7_flop_equity() -> Callable[[], float]:
    import eval7

    hero = [eval7.Card(s) for s in ("Ad", "Qc")]
    board = [eval7.Card(s) for s in ("3h", "4c", "Jh")]
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    villain = [(pair, 1.0) for pair in itertools.combinations(deck, 2)]
    dead = {str(c) for c in hero + board}
    live = [c for c in deck if str(c) not in dead]

    def run() -> float:
        # Every runout has the same number of live opponent holdings, so the mean is exact.
        eqs = [eval7.py_hand_vs_range_exact(hero, villain, board + [t, r])
               for t, r in itertools.combinations(live, 2)]
        return sum(eqs) / len(eqs)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="runs per timing; best kept")
    args = parser.parse_args(argv)
    pin_to_one_core()

    from agent.strength.board_table import board_table, clear_board_tables
    from agent.strength.ehs import effective_hand_strength, hand_potential
    from agent.strength.ranges import parse_range
    from simulator.core.cards import parse_cards

    rng = np.random.default_rng(1)
    dense = rng.random(1326)  # every holding weighted, all different: the costliest range
    narrow = parse_range(RANGE)
    effective_hand_strength("KsKd", "2c7d9h", lookahead=2)  # compile/load the kernels

    def two_card(weights: object) -> Callable[[], object]:
        def run() -> object:
            clear_board_tables()
            return hand_potential(HOLE, BOARD, weights, lookahead=2)
        return run

    def one_card(weights: object) -> Callable[[], object]:
        def run() -> object:
            clear_board_tables()
            return effective_hand_strength(HOLE, BOARD, weights, lookahead=1)
        return run

    equity = eval7_flop_equity()
    print(f"eval7 exact flop equity {equity():.6f} (EHS two-card "
          f"{effective_hand_strength(HOLE, BOARD, lookahead=2).ehs:.6f})")
    anchor = best_time(equity, max(2, args.repeats // 2))
    times = {name: best_time(fn, args.repeats) for name, fn in [
        ("two-card uniform", two_card(None)), ("two-card dense weights", two_card(dense)),
        ("two-card range", two_card(RANGE)),
        ("one-card+HS uniform", one_card(None)), ("one-card+HS dense weights", one_card(dense)),
        ("one-card+HS range", one_card(RANGE)),
    ]}
    table = board_table(parse_cards(BOARD))
    table.future(2)
    warm = {
        "warm two-card uniform": best_time(lambda: hand_potential(HOLE, BOARD, None, 2), 7),
        "warm one-card+HS dense": best_time(
            lambda: effective_hand_strength(HOLE, BOARD, dense), 7),
        "hs_all (1326 holdings) vs range": best_time(lambda: table.hs_all(narrow), 7),
    }

    print(f"\n{'eval7 exact flop equity (anchor)':<36} {anchor * 1e3:9.2f} ms")
    for name, t in {**times, **warm}.items():
        print(f"{name:<36} {t * 1e3:9.2f} ms")
    print("\nratios (cold spots: board table built from scratch in every timed call)")
    goals = [
        ("two-card PPOT/NPOT / eval7", times["two-card uniform"] / anchor, 1.0),
        ("one-card potential+HS / eval7", times["one-card+HS uniform"] / anchor, 1 / 20),
        ("two-card: dense weights / uniform", times["two-card dense weights"]
         / times["two-card uniform"], 1.5),
        ("two-card: range / uniform", times["two-card range"] / times["two-card uniform"], 1.5),
        ("one-card+HS: dense weights / uniform", times["one-card+HS dense weights"]
         / times["one-card+HS uniform"], 1.5),
        ("one-card+HS: range / uniform", times["one-card+HS range"]
         / times["one-card+HS uniform"], 1.5),
    ]
    for name, ratio, goal in goals:
        verdict = "ok" if ratio <= goal else "MISSED"
        print(f"{name:<38} {ratio:7.3f}   goal <= {goal:.3f}  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
