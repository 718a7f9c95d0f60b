"""Build the hand evaluator's look-up tables from the hand-ranking rules and write them where
the package reads them (``simulator/core/data/hand_ranks.npz``).

    python experiments/build/make_hand_ranks.py [--out PATH]

Half a second on one core; the tables depend on nothing but the rules (a test holds the
shipped file to a fresh build).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from simulator.core.hand_ranks import build_tables, data_path, write_tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=data_path(), help="where to write it")
    args = parser.parse_args()
    start = time.perf_counter()
    write_tables(args.out, build_tables())
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e3:.0f} kB) in "
          f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
