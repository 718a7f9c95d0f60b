"""The strength floor: the heuristic agent against the baseline bots.

1. Heads-up fixed-limit, duplicate, 20,000 deals in blocks of 2,000: the agent against
   `call`, `raise` and `random` (SB/hand, 95% interval over blocks). These are the runs of
   experiments/studies/paper_table.py with the same config, so whichever script runs first plays
   them and the other resumes them (a finished run resumes at once).
2. Six-max no-limit, 100 big blinds reset each hand, the agent in place of the `mixed` seat of
   configs/sixmax_nolimit.yaml against its five other baseline seats, duplicate over the six
   rotations, 6,000 deals in blocks of 1,000 (bb/hand and bb/100).

    python experiments/studies/agent_floor.py [--deals N] [--workers 2] [--resume]

Writes experiments/results/agent_floor.md (and .json); run dirs under results/experiments/.
"""

from __future__ import annotations

from matchups import (
    HEADS_UP_LIMIT,
    ROOT,
    Seat,
    arguments,
    fmt,
    parse,
    run_dir,
    timed_play,
    write_table,
)

from simulator.core.validation import read_yaml

HERO = Seat("heuristic", "heuristic")
BASELINES = {"call": Seat("call", "call"), "raise": Seat("raise", "raise"),
             "random": Seat("random", "random")}


def sixmax_seats() -> tuple[list[Seat], dict]:
    data = read_yaml(ROOT / "configs" / "sixmax_nolimit.yaml")
    seats = [Seat(s["name"], s["bot"], s.get("params")) for s in data["seats"]
             if s["name"] != "mixed"]
    return [HERO, *seats], data["game"]


def main() -> None:
    parser = arguments(__doc__.split("\n\n")[0], deals=20000)
    parser.add_argument("--sixmax-deals", type=int, default=6000)
    parser.add_argument("--sixmax-block-size", type=int, default=1000)
    args = parse(parser)
    rows = []
    for name, rival in BASELINES.items():
        r = timed_play("paper_table", f"vs_{name}", [HERO, rival], HEADS_UP_LIMIT,
                       HERO.name, deals=args.deals, block_size=args.block_size,
                       seed=args.seed, workers=args.workers,
                       resume=(run_dir("paper_table", f"vs_{name}") / "run.json").exists())
        rows.append([f"heads-up limit vs {name}", "SB/h", fmt(r.mean, r.ci95), r.hands,
                     f"{r.seconds:.0f}", "yes" if r.ci95[0] > 0 else "NO"])
    seats, game = sixmax_seats()
    r = timed_play("agent_floor", "sixmax_nolimit_baselines", seats, game, HERO.name,
                   deals=args.sixmax_deals, block_size=args.sixmax_block_size, seed=args.seed,
                   workers=args.workers, resume=args.resume)
    rows.append(["6-max no-limit vs 5 baseline seats", "bb/h", fmt(r.mean, r.ci95),
                 r.hands, f"{r.seconds:.0f}", "yes" if r.ci95[0] > 0 else "NO"])
    write_table("agent_floor", ["match", "unit", "agent per hand [95% CI]", "hands",
                                "wall s", "interval above 0"], rows,
                [f"Command: python experiments/studies/agent_floor.py --deals {args.deals} "
                 f"--sixmax-deals {args.sixmax_deals} --seed {args.seed} --workers "
                 f"{args.workers}", f"Duplicate everywhere; blocks of {args.block_size:,} "
                 f"deals heads-up, {args.sixmax_block_size:,} at six-max; intervals over blocks "
                 "(Student's t). The heads-up rows are "
                 "paper_table.py's runs: a wall time of a second or two is a resume of a "
                 "finished run (its time is in paper_table.md)."])


if __name__ == "__main__":
    main()
