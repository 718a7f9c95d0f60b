"""Build the ``cfr`` bot's strategy: public-chance-sampling CFR in the shipped abstraction.

    python experiments/build/make_cfr_strategy.py --seed 21 --iterations 20000 --workers 2

The file (``agent/equilibrium/data/strategy.npz`` by default) is a function of the seed,
the iterations, the boards per iteration, the schedule and the worker count: run it twice
and the bytes are the same. ``--checkpoints 1000 4000`` also writes the average strategy at
those iteration counts into ``--checkpoint-dir`` (for the exploitability curve, which
``experiments/studies/cfr_exploitability.py`` measures separately). ``--record FILE`` writes the
run's timing (JSON) there, outside the strategy file so the file stays byte-identical.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from agent.equilibrium import abstraction, strategy
from agent.equilibrium.training import Trainer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=2, help="boards per iteration")
    parser.add_argument("--schedule", default="dcfr", choices=("cfr", "cfr+", "dcfr", "linear"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--buckets", type=Path, default=None,
                        help="bucket file (default: the shipped one)")
    parser.add_argument("--out", type=Path, default=strategy.DEFAULT_PATH)
    parser.add_argument("--checkpoints", type=int, nargs="*", default=())
    parser.add_argument("--checkpoint-dir", type=Path, default=None)
    parser.add_argument("--record", type=Path, default=None, help="timing record (JSON)")
    args = parser.parse_args()
    if args.checkpoints and args.checkpoint_dir is None:
        parser.error("--checkpoints needs --checkpoint-dir")
    buckets = abstraction.read(args.buckets) if args.buckets else abstraction.load()
    trainer = Trainer(buckets, seed=args.seed, boards=args.boards, schedule=args.schedule,
                      workers=args.workers)
    build = {"seed": args.seed, "iterations": args.iterations, "boards": args.boards,
             "schedule": args.schedule, "workers": args.workers}
    start = time.perf_counter()
    cpu = time.process_time()
    marks: list[dict[str, float]] = []
    wanted = set(args.checkpoints)
    step = max(1, args.iterations // 20)

    def every(t: int) -> None:
        if t in wanted:
            args.checkpoint_dir.mkdir(parents=True, exist_ok=True)
            strategy.save(args.checkpoint_dir / f"strategy-{t}.npz", trainer.tree, buckets,
                          trainer.solver.average_strategy(), {**build, "iterations": t})
        if t % step == 0 or t in wanted:
            elapsed = time.perf_counter() - start
            marks.append({"iterations": t, "seconds": round(elapsed, 1),
                          "load": round(os.getloadavg()[0], 2)})
            print(f"{t}/{args.iterations} iterations, {elapsed:.0f} s, "
                  f"{t * args.boards / elapsed:.1f} boards/s, load {os.getloadavg()[0]:.2f}",
                  flush=True)

    print(f"abstraction {buckets.counts}, {trainer.tree.rows} information sets, "
          f"{trainer.tree.nodes} nodes; {build}", flush=True)
    trainer.run(args.iterations, every)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    strategy.save(args.out, trainer.tree, buckets, trainer.solver.average_strategy(), build)
    trainer.close()
    seconds = time.perf_counter() - start
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.2f} MB, {seconds:.0f} s", flush=True)
    if args.record is not None:
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(json.dumps({
            "build": build, "abstraction": list(buckets.counts), "seconds": round(seconds, 1),
            "cpu_seconds": round(time.process_time() - cpu, 1), "cores": os.cpu_count(),
            "file_bytes": args.out.stat().st_size, "progress": marks}, indent=2) + "\n")


if __name__ == "__main__":
    main()
