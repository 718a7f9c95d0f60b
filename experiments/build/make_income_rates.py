"""Generate the income-rate tables IR2, IR4, IR7 of the 169 pre-flop classes.

    python experiments/build/make_income_rates.py [--deals N] [--seed S] [--threads T] [--out DIR]

``IR_x = x * Eq_x - 1`` (Papp 1998 section 5.1), where ``Eq_x`` is the all-in showdown equity,
ties split, of the class against ``x - 1`` random hands. Each class is estimated on one of its
holdings (all are equivalent under suit symmetry) with ``--deals`` seeded Monte Carlo deals of
our evaluator (``agent.preflop.allin_equity``); one deal serves the three table sizes. Each
class has its own seed, spawned from ``--seed`` by numpy's SeedSequence, so the output depends
on ``--deals`` and ``--seed`` only, never on ``--threads``.

It writes ``income_rates.csv`` (``hand,ir2,ir4,ir7``, thousandths rounded to integers, the
classes in ``HAND_CLASSES`` order) and its companion note ``income_rates.md`` (how it was made,
the precision, the anchors) into ``--out`` (default: the package's data folder), and prints
the same summary. The shipped tables are ``--deals 10000000 --seed 20240610``.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from agent.preflop.allin_equity import EquityEstimate, allin_equity
from agent.strength.ranges import HAND_CLASSES, class_holdings
from simulator.core.cards import holding_cards

SIZES = (2, 4, 7)
DATA = Path(__file__).resolve().parents[2] / "agent" / "preflop" / "data"
# Papp's simulated values; IR2(32o) with split pots is about -354.
ANCHORS = {("AA", 7): 2043, ("72o", 7): -495, ("32s", 2): -279, ("32o", 2): -351}


def class_seeds(seed: int) -> list[int]:
    """One independent 64-bit seed per class, from the run's seed."""
    children = np.random.SeedSequence(seed).spawn(len(HAND_CLASSES))
    return [int(c.generate_state(1, dtype=np.uint64)[0]) for c in children]


def estimate_all(deals: int, seed: int, threads: int) -> dict[str, EquityEstimate]:
    """Every class's estimate; threads share the work (the kernel releases the GIL)."""
    holes = [holding_cards(int(class_holdings(name)[0])) for name in HAND_CLASSES]
    seeds = class_seeds(seed)
    allin_equity(holes[0], SIZES, 2, seeds[0])  # compile (or load) the kernel once
    with ThreadPoolExecutor(max_workers=threads) as pool:
        estimates = pool.map(lambda i: allin_equity(holes[i], SIZES, deals, seeds[i]),
                             range(len(HAND_CLASSES)))
        return dict(zip(HAND_CLASSES, estimates, strict=True))


def write_csv(path: Path, estimates: dict[str, EquityEstimate]) -> None:
    with path.open("w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["hand"] + [f"ir{x}" for x in SIZES])
        for name, est in estimates.items():
            out.writerow([name] + [round(est.income_rate(x)) for x in SIZES])


def summary(estimates: dict[str, EquityEstimate], deals: int, seed: int, seconds: float,
            threads: int) -> str:
    """The companion note: how the tables were made, their precision and the anchors."""
    rows = []
    for x in SIZES:
        se = [est.standard_error(x) for est in estimates.values()]
        worst = max(estimates, key=lambda n, x=x: estimates[n].standard_error(x))
        low = min(estimates, key=lambda n, x=x: estimates[n].income_rate(x))
        high = max(estimates, key=lambda n, x=x: estimates[n].income_rate(x))
        rows.append(f"| IR{x} | {np.mean(se):.2f} | {max(se):.2f} ({worst}) | "
                    f"{low} {estimates[low].income_rate(x):.0f} | "
                    f"{high} {estimates[high].income_rate(x):.0f} |")
    anchors = [f"| IR{x}({name}) | {estimates[name].income_rate(x):.1f} | "
               f"{estimates[name].standard_error(x):.2f} | {papp} |"
               for (name, x), papp in ANCHORS.items()]
    return "\n".join([
        "# Income-rate tables: how they were made",
        "",
        "`income_rates.csv` holds IR2, IR4 and IR7 of the 169 pre-flop classes, "
        "`IR_x = x * Eq_x - 1` in thousandths rounded to integers, where `Eq_x` is the all-in "
        "showdown equity (ties split) against `x - 1` random hands (Papp 1998, section 5.1).",
        "",
        f"Made by `python experiments/build/make_income_rates.py --deals {deals} --seed {seed}`: "
        f"{deals:,} Monte Carlo deals per class on our evaluator, one deal serving the three "
        f"table sizes, in {seconds:.0f} s on {threads} thread(s).",
        "",
        "Precision: the standard error of each value, in IR units (thousandths), from the "
        "sample variance of the pot share; rounding adds at most 0.5.",
        "",
        "| table | mean SE | largest SE | lowest class | highest class |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "Anchors (Papp's simulated values):",
        "",
        "| value | here | SE | Papp |",
        "|---|---|---|---|",
        *anchors,
        "",
    ])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=10_000_000, help="deals per class")
    p.add_argument("--seed", type=int, default=20240610)
    p.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--out", type=Path, default=DATA, help="folder for the CSV and the note")
    args = p.parse_args()
    start = time.perf_counter()
    estimates = estimate_all(args.deals, args.seed, args.threads)
    seconds = time.perf_counter() - start
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(args.out / "income_rates.csv", estimates)
    note = summary(estimates, args.deals, args.seed, seconds, args.threads)
    (args.out / "income_rates.md").write_text(note)
    print(note)
    print(f"wrote {args.out / 'income_rates.csv'} and income_rates.md")


if __name__ == "__main__":
    main()
