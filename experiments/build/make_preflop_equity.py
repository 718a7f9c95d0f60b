"""Build the exact pre-flop equity table of every holding against every other, and write it
where the package reads it (``simulator/core/data/preflop_equity.npz``).

    python experiments/build/make_preflop_equity.py [--out PATH] [--boards N]

It ranks every suit class of five-card boards once (134,459 boards) and takes a few minutes on
one core; the result depends on nothing but the rules, so a rebuild gives the same bytes.
``--boards N`` counts only the first N board classes: a tiny table for a smoke run (give it an
``--out`` outside the package), never one to ship.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from simulator.core.preflop_equity import build_counts, data_path, write_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=data_path(), help="where to write it")
    parser.add_argument("--boards", type=int, help="only the first N board classes (a smoke run)")
    args = parser.parse_args()
    if args.boards is not None and args.out.resolve() == data_path().resolve():
        parser.error("--boards builds a tiny table: give it an --out outside the package")
    start = time.perf_counter()
    upper = build_counts(progress=True, boards=args.boards)
    write_table(args.out, upper)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB) in "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
