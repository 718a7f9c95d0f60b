"""Issue 12's six-max tables: the agent with five different rivals, fixed-limit and no-limit
(100 big blinds reset every hand), duplicate over the six rotations.

    python experiments/sixmax_tables.py [--deals N] [--block-size 2000] [--seed 101] [--resume]

Writes experiments/results/sixmax_tables.md (and .json): every seat's win rate (SB/hand in
limit, bb/hand in no-limit) with its 95% interval over blocks.
"""

from __future__ import annotations

from matchups import (
    SIXMAX_LIMIT,
    SIXMAX_NOLIMIT,
    Seat,
    arguments,
    fmt,
    timed_play,
    write_table,
)

SEATS = [Seat("heuristic", "heuristic"), Seat("loki", "loki"), Seat("exploiter", "exploiter"),
         Seat("mc", "mc"), Seat("rock", "rock"), Seat("maniac", "maniac")]
GAMES = {"limit": (SIXMAX_LIMIT, "SB/h"), "nolimit": (SIXMAX_NOLIMIT, "bb/h")}


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0], deals=4000).parse_args()
    rows = []
    for variant, (game, unit) in GAMES.items():
        r = timed_play("sixmax_tables", variant, SEATS, game, SEATS[0].name, deals=args.deals,
                       block_size=args.block_size, seed=args.seed, workers=args.workers,
                       resume=args.resume)
        for seat in SEATS:
            p = r.summary["players"][seat.name]
            rows.append([f"6-max {variant}", seat.name, unit, fmt(p["mean"], tuple(p["ci95"])),
                         p["hands"]])
        rows.append([f"6-max {variant}", "(wall s)", "", f"{r.seconds:.0f}", ""])
    write_table("sixmax_tables", ["table", "seat", "unit", "per hand [95% CI]", "hands"], rows,
                [f"Command: python experiments/sixmax_tables.py --deals {args.deals} "
                 f"--block-size {args.block_size} --seed {args.seed} --workers {args.workers}",
                 "Duplicate over the six seat rotations; intervals over blocks (Student's t)."])


if __name__ == "__main__":
    main()
