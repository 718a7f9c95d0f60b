"""Peak memory of ``holdem plot`` against the number of hands in the run (goal: flat).

Writes synthetic run dirs of three players (random nets and luck, 600-row blocks) through the
store, as a run would, then runs ``holdem plot`` on each in a fresh process and prints its
peak resident memory, beside the anchor: a process that only imports matplotlib's pyplot and
numpy (the cost of plotting whatever the data).

    python experiments/bench/plot_memory.py [--hands 20000 200000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from simulator.arena.results import BlockRecord, RunStore

NAMES = ("a", "b", "c")
BLOCK_ROWS = 600


def write_run(out: Path, hands: int, seed: int = 0) -> None:
    """A run dir with ``hands`` rows in blocks of BLOCK_ROWS, written by the store."""
    meta = {"result_config": {"synthetic": hands}, "names": list(NAMES), "unit": "small_bets",
            "unit_chips": 2, "big_blind": 2}
    store = RunStore.create(out, meta, NAMES, resume=False, force=True)
    rng = np.random.default_rng(seed)
    for block, start in enumerate(range(0, hands, BLOCK_ROWS)):
        rows = min(BLOCK_ROWS, hands - start)
        net = rng.integers(-40, 41, size=(rows, 3))
        net[:, 2] = -net[:, 0] - net[:, 1]
        luck = rng.normal(0, 10, size=(rows, 3))
        store.append(BlockRecord(block=block, deals=rows, perm=np.zeros(rows, np.int64),
                                 hand=np.arange(rows), button=np.arange(rows) % 3,
                                 seat=np.tile([0, 1, 2], (rows, 1)), net=net, luck=luck),
                     num_seats=3)


def peak_mb(code: str, *args: str) -> float:
    """Peak RSS in MB of a fresh Python running ``code`` (Linux reports ru_maxrss in KB)."""
    probe = (f"import resource, sys\n{code}\n"
             "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe, *args], check=True,
                          capture_output=True, text=True)
    return int(done.stdout.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[20_000, 200_000])
    args = parser.parse_args()
    anchor = peak_mb("import matplotlib\nmatplotlib.use('Agg')\n"
                     "import matplotlib.pyplot, numpy")
    print(f"anchor (import pyplot and numpy): {anchor:.0f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        for hands in args.hands:
            out = Path(tmp) / str(hands)
            write_run(out, hands)
            mb = peak_mb("from simulator.arena.plots import main\n"
                         "assert main(sys.argv[1:]) == 0", str(out))
            size = (out / "hands.csv").stat().st_size / 2**20
            print(json.dumps({"hands": hands, "hands_csv_mb": round(size, 1),
                              "plot_peak_mb": round(mb), "over_anchor_mb": round(mb - anchor)}))


if __name__ == "__main__":
    main()
