"""The six-max tables: the agent with five different rivals, fixed-limit and no-limit
(100 big blinds reset every hand), duplicate over the six rotations (``--no-duplicate``: one
seating, 6x cheaper).

    python experiments/studies/sixmax_tables.py [--deals N] [--block-size 2000] [--seed 101]
        [--resume]

Writes experiments/results/sixmax_tables.md (and .json, and the plot .png): every seat's win
rate (SB/hand in limit, bb/hand in no-limit) with its 95% interval over blocks.
"""

from __future__ import annotations

from matchups import (
    SIXMAX_LIMIT,
    SIXMAX_NOLIMIT,
    Seat,
    arguments,
    fmt,
    parse,
    plot_intervals,
    timed_play,
    write_table,
)

SEATS = [Seat("heuristic", "heuristic"), Seat("loki", "loki"), Seat("exploiter", "exploiter"),
         Seat("mc", "mc"), Seat("rock", "rock"), Seat("maniac", "maniac")]
GAMES = {"limit": (SIXMAX_LIMIT, "SB/h"), "nolimit": (SIXMAX_NOLIMIT, "bb/h")}


def main() -> None:
    parser = arguments(__doc__.split("\n\n")[0], deals=6000)
    parser.add_argument("--no-duplicate", dest="duplicate", action="store_false",
                        help="one seating per deal instead of the six rotations (6x cheaper)")
    args = parse(parser)
    rows, points = [], []
    for variant, (game, unit) in GAMES.items():
        r = timed_play("sixmax_tables", variant, SEATS, game, SEATS[0].name, deals=args.deals,
                       block_size=args.block_size, seed=args.seed, workers=args.workers,
                       resume=args.resume, duplicate=args.duplicate)
        for seat in SEATS:
            p = r.summary["players"][seat.name]
            rows.append([f"6-max {variant}", seat.name, unit, fmt(p["mean"], tuple(p["ci95"])),
                         p["hands"]])
            points.append((f"{variant}: {seat.name}", p["mean"], tuple(p["ci95"])))
        rows.append([f"6-max {variant}", "(wall s)", "", f"{r.seconds:.0f}", ""])
    plot_intervals("sixmax_tables", points, "per hand (SB limit, bb no-limit; 95% CI)",
                   "Six-max: the agent and five rivals")
    write_table("sixmax_tables", ["table", "seat", "unit", "per hand [95% CI]", "hands"], rows,
                [f"Command: python experiments/studies/sixmax_tables.py --deals {args.deals} "
                 f"--block-size {args.block_size} --seed {args.seed} --workers {args.workers}"
                 + ("" if args.duplicate else " --no-duplicate"),
                 ("Duplicate over the six seat rotations" if args.duplicate else
                  "Not duplicate: one seating, the button moving every hand")
                 + "; intervals over blocks (Student's t)."])


if __name__ == "__main__":
    main()
