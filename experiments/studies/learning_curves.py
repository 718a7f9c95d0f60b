"""The learning curves: the agent's win rate against `exploiter` and `maniac` in bins of
500 deals within a block, averaged over blocks with a 95% interval over blocks. A rising curve
is the agent adapting; a falling one against `exploiter` is the exploiter finding its leaks.

    python experiments/studies/learning_curves.py [--bin 500]

Reads the per-hand results of experiments/studies/paper_table.py's runs (play those first); writes
experiments/results/learning_curves.md (and .json) and learning_curves.png.
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matchups import (  # noqa: E402
    DIRS,
    dir_options,
    fmt,
    parse,
    run_dir,
    t_interval,
    write_table,
)

HERO = "heuristic"
RIVALS = ("exploiter", "maniac")
SMALL_BET = 2


def curve(rival: str, width: int) -> list[tuple[float, tuple[float, float], int]]:
    """Per bin: the mean over blocks of the block's SB/hand in that bin, and its interval."""
    sums: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    with open(run_dir("paper_table", f"vs_{rival}") / "hands.csv", newline="") as f:
        for row in csv.DictReader(f):
            cell = sums[int(row["block"]), int(row["hand"]) // width]
            cell[0] += float(row[f"net:{HERO}"])
            cell[1] += 1
    blocks = sorted({b for b, _ in sums})
    bins = sorted({k for _, k in sums})
    out = []
    for k in bins:
        rates = [sums[b, k][0] / sums[b, k][1] / SMALL_BET for b in blocks if (b, k) in sums]
        mean, ci = t_interval(rates)
        out.append((mean, ci, len(rates)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=int, default=500, help="deals per bin (500)")
    dir_options(parser)
    args = parse(parser)
    fig, ax = plt.subplots(figsize=(7, 4))
    rows = []
    for rival in RIVALS:
        points = curve(rival, args.bin)
        xs = [(k + 0.5) * args.bin for k in range(len(points))]
        ax.errorbar(xs, [p[0] for p in points],
                    yerr=[[p[0] - p[1][0] for p in points], [p[1][1] - p[0] for p in points]],
                    marker="o", capsize=3, label=f"vs {rival}")
        rows += [[rival, f"{k * args.bin}-{(k + 1) * args.bin - 1}", fmt(m, ci), n]
                 for k, (m, ci, n) in enumerate(points)]
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("deal within the block")
    ax.set_ylabel("agent SB/hand (95% CI over blocks)")
    ax.set_title("Heads-up limit: the agent's win rate through a block")
    ax.legend()
    fig.tight_layout()
    DIRS.results.mkdir(parents=True, exist_ok=True)
    fig.savefig(DIRS.results / "learning_curves.png", dpi=110)
    write_table("learning_curves", ["rival", "deals in block", "agent SB/h [95% CI]", "blocks"],
                rows, [f"Command: python experiments/studies/learning_curves.py --bin {args.bin} "
                       "(after experiments/studies/paper_table.py)",
                       "Each block's bin is the mean of both duplicate seatings; intervals "
                       "over blocks (Student's t)."])


if __name__ == "__main__":
    main()
