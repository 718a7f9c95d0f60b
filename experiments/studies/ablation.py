"""The modelling ablation: the agent with ``model: off``, ``frequencies`` and ``full``,
each heads-up limit against `call`, `maniac`, `rock` and `exploiter`. Every variant plays the
same seeds, so the same cards: variants are compared by the paired difference of their block
win rates, with its 95% interval over blocks.

    python experiments/studies/ablation.py [--deals N] [--block-size 2000] [--seed 101] [--resume]

Writes experiments/results/ablation.md (and .json, and the plot .png); run dirs under
results/experiments/ablation/.
"""

from __future__ import annotations

from matchups import (
    HEADS_UP_LIMIT,
    Seat,
    arguments,
    block_rates,
    fmt,
    parse,
    plot_intervals,
    t_interval,
    timed_play,
    write_table,
)

MODELS = ("off", "frequencies", "full")
RIVALS = ("call", "maniac", "rock", "exploiter")
SMALL_BET = HEADS_UP_LIMIT["small_bet"]


def main() -> None:
    args = parse(arguments(__doc__.split("\n\n")[0], deals=6000))
    rows, points = [], []
    for rival in RIVALS:
        rates: dict[str, list[float]] = {}
        cells = []
        for model in MODELS:
            run = f"{model}_vs_{rival}"
            hero = Seat("heuristic", "heuristic", {"model": model})
            r = timed_play("ablation", run, [hero, Seat(rival, rival)], HEADS_UP_LIMIT,
                           hero.name, deals=args.deals, block_size=args.block_size,
                           seed=args.seed, workers=args.workers, resume=args.resume)
            rates[model] = block_rates("ablation", run, hero.name, SMALL_BET)
            cells.append(fmt(r.mean, r.ci95))
        diffs = []
        for a, b in (("full", "off"), ("frequencies", "off"), ("full", "frequencies")):
            mean, ci = t_interval([x - y for x, y in zip(rates[a], rates[b], strict=True)])
            diffs.append(fmt(mean, ci))
            if b == "off":
                points.append((f"{rival}: {a[:4]} - off", mean, ci))
        rows.append([rival, *cells, *diffs])
    plot_intervals("ablation", points, "paired difference, SB/hand (95% CI)",
                   "What the model earns: paired differences by block")
    write_table("ablation", ["rival", *(f"model: {m}" for m in MODELS), "full - off",
                             "frequencies - off", "full - frequencies"], rows,
                [f"Command: python experiments/studies/ablation.py --deals {args.deals} "
                 f"--block-size {args.block_size} --seed {args.seed} --workers {args.workers}",
                 "SB/hand, heads-up fixed-limit, duplicate; differences are paired by block "
                 "(same seeds, same cards) with Student's t intervals over blocks. Goal: "
                 "full - off above zero against at least two of call, maniac and rock."])


if __name__ == "__main__":
    main()
