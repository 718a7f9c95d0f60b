"""The size of the no-limit betting tree of ``cfr-nl`` under an action abstraction.

Builds the tree of heads-up no-limit hold'em (blinds 1/2, stacks reset every hand) at 100
and 200 big blinds and prints its decision nodes per street, its terminals and its
information sets for the stated bucket counts (one a street), with the build's time.

    python experiments/studies/cfr_nl_tree.py --fractions 0.5 1 2 --caps 4 4 4 4 \\
        --buckets 169 200 200 200 --buckets 169 50 50 50

``--smoke`` builds a 20-big-blind tree with one size, for the tests.
"""

from __future__ import annotations

import argparse
import time

from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.nolimit_tree import (
    CHANCE,
    FOLD,
    SHOWDOWN,
    ActionAbstraction,
    NoLimitGame,
    build_tree,
)

STREETS = ("pre-flop", "flop", "turn", "river")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fractions", type=float, nargs="+", default=[0.5, 1.0, 2.0],
                        help="bet and raise sizes, fractions of the pot after the call")
    parser.add_argument("--caps", type=int, nargs=4, default=[4, 4, 4, 4],
                        help="bets and raises a street (all-in is offered past the cap)")
    parser.add_argument("--buckets", type=int, nargs=4, action="append",
                        help="card buckets a street, for the information-set count "
                             "(repeatable; default 169 200 200 200 and 169 50 50 50)")
    parser.add_argument("--big-blinds", type=int, nargs="+", default=[100, 200])
    parser.add_argument("--smoke", action="store_true", help="a tiny tree, for the tests")
    args = parser.parse_args()
    counts = args.buckets or [[169, 200, 200, 200], [169, 50, 50, 50]]
    if args.smoke:
        args.fractions, args.caps, args.big_blinds, counts = [1.0], [2, 2, 1, 1], [20], [
            [169, 10, 10, 10]]
    if any(b < 1 for row in counts for b in row) or any(bb < 2 for bb in args.big_blinds):
        parser.error("--buckets must be >= 1 and --big-blinds >= 2")
    try:
        abstraction = ActionAbstraction(tuple(sorted(set(args.fractions))), tuple(args.caps))
    except EquilibriumError as exc:
        parser.error(str(exc))
    print(f"sizes {', '.join(f'{f:g}' for f in abstraction.fractions)} pot and all-in; "
          f"caps {' '.join(map(str, abstraction.caps))} (all-in past the cap)")
    for bb in args.big_blinds:
        game = NoLimitGame(f"heads-up no-limit hold'em, {bb} bb", stack=2 * bb, full_bet=2,
                           first=(0, 1, 1, 1), blinds=(1, 2))
        start = time.perf_counter()
        tree = build_tree(game, abstraction)
        seconds = time.perf_counter() - start
        decisions = tree.decisions_by_round()
        print(f"{bb} bb: {tree.nodes:,} nodes, built in {seconds:.1f} s")
        print("  decision nodes: " + ", ".join(
            f"{s} {n:,}" for s, n in zip(STREETS, decisions, strict=True))
              + f"; {sum(decisions):,} in all")
        print(f"  terminals: {int((tree.kind == FOLD).sum()):,} folds, "
              f"{int((tree.kind == SHOWDOWN).sum()):,} showdowns; "
              f"{int((tree.kind == CHANCE).sum()):,} chance nodes")
        for row in counts:
            sets = sum(n * b for n, b in zip(decisions, row, strict=True))
            print(f"  information sets with buckets {' '.join(map(str, row))}: {sets:,}")


if __name__ == "__main__":
    main()
