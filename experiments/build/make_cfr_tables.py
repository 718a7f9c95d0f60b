"""Write the card abstraction of the ``cfr`` bot: ``agent/equilibrium/data/buckets.npz``.

Computes the E[HS²] feature of every holding on each of the 1,755 canonical flops and the
distribution of the turn and river features over all deals (suit isomorphism throughout:
16,432 canonical turn boards and 134,459 river boards stand for all of them), then cuts each
street into percentile buckets (``agent/equilibrium/abstraction.py`` explains the choice).
About a minute and a half on two cores; deterministic (integers throughout).

    python experiments/build/make_cfr_tables.py --buckets 1000 1000 1000

``--features FILE`` keeps the computed features in a file (outside the repository is fine)
so that other bucket counts can be cut from them without computing them again. ``--boards N``
takes only the first N canonical boards of each street: a tiny abstraction for a smoke run (give
it an ``--out`` outside the package), never one to ship.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

import numpy as np

from agent.equilibrium import abstraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--buckets", type=int, nargs=3, default=(1000, 1000, 1000),
                        metavar=("FLOP", "TURN", "RIVER"))
    parser.add_argument("--out", type=Path, default=abstraction.DEFAULT_PATH)
    parser.add_argument("--features", type=Path, default=None,
                        help="cache of the computed features (read if present, else written)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--boards", type=int, help="only the first N boards a street (a smoke run)")
    args = parser.parse_args()
    if args.boards is not None and args.out.resolve() == abstraction.DEFAULT_PATH.resolve():
        parser.error("--boards builds a tiny abstraction: give it an --out outside the package")
    start = time.perf_counter()
    if args.features is not None and args.features.exists():
        with np.load(args.features) as f:
            found = abstraction.Features(**{k: f[k] for k in f.files})
    else:
        found = abstraction.compute_features(args.workers, progress=print, boards=args.boards)
        if args.features is not None:
            np.savez(args.features, **dataclasses.asdict(found))
    built = abstraction.build(found, tuple(args.buckets))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    abstraction.save(built, args.out)
    print(f"{args.out}: buckets {built.counts}, {args.out.stat().st_size / 1e6:.2f} MB, "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
