"""The exact best response to the card-blind bots, over every flop, turn and river.

Enumerates the 1,755 canonical flops with :mod:`agent.equilibrium.blind_response` and
prints each bot's exact exploitability in mbb/g, both seats' mean (Johanson et al. 2011:
always-call 1,163.48, always-raise 3,697.69, always-fold 750). Resumable: the summed values
are saved to ``--checkpoint`` every ``--every`` flops, and a run picks up where the last
stopped.

    python experiments/studies/blind_exact.py --bots c rc fc --checkpoint /tmp/blind.npz
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from agent.equilibrium import abstraction
from agent.equilibrium import blind_response as bl
from agent.equilibrium.tree import HEADS_UP_LIMIT, build_tree

NAMES = {"c": "always-call", "rc": "always-raise", "fc": "always-fold"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs="+", default=["c", "rc", "fc"], choices=sorted(NAMES))
    parser.add_argument("--checkpoint", type=Path, required=True)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--limit", type=int, default=None, help="stop after this many flops")
    args = parser.parse_args()
    tree = build_tree(HEADS_UP_LIMIT, abstraction.load().counts)
    runs = {b: bl.Enumeration.start(tree, bl.preferring(b)) for b in args.bots}
    done = _resume(args.checkpoint, runs)
    flops = bl.canonical_flops()
    start = time.perf_counter()
    for i, (flop, members) in enumerate(flops[done:args.limit], start=done):
        codes = bl.runout_codes(flop)
        for run in runs.values():
            run.add(flop, members, codes)
        if (i + 1) % args.every == 0 or i + 1 == len(flops):
            _save(args.checkpoint, runs, i + 1)
            rate = (time.perf_counter() - start) / (i + 1 - done)
            print(f"{i + 1}/{len(flops)} flops, {rate:.2f} s a flop", flush=True)
    finished = done + len(flops[done:args.limit])
    _save(args.checkpoint, runs, finished)
    print(f"{finished}/{len(flops)} flops summed in {args.checkpoint}")
    if all(run.classes == len(flops) for run in runs.values()):
        print(json.dumps({NAMES[b]: round(bl.exploitability(run.seat_values()), 4)
                          for b, run in runs.items()}))


def _resume(path: Path, runs: dict[str, bl.Enumeration]) -> int:
    if not path.exists():
        return 0
    saved = np.load(path)
    done = int(saved["flops"])
    for b, run in runs.items():
        for me, root in run.sums:
            run.sums[me, root] = saved[f"{b}-{me}-{root}"]
        run.counts = saved["counts"]
        run.classes = done
    return done


def _save(path: Path, runs: dict[str, bl.Enumeration], done: int) -> None:
    arrays = {f"{b}-{me}-{root}": v
              for b, run in runs.items() for (me, root), v in run.sums.items()}
    counts = next(iter(runs.values())).counts
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, flops=np.int64(done), counts=counts, **arrays)
    tmp.replace(path)


if __name__ == "__main__":
    main()
