"""Propose the pre-flop expert's threshold lines from one anchor: Papp's worked example.

    python experiments/build/calibrate_preflop_thresholds.py [--tight 0.75] [--loose 1.33]

Papp's thesis gives one set of thresholds in its text: moderate, 3-4 expected players (IR4),
the button (position 0): Make4 580, Make2 200, Make1 50. Its table of every [base, increment]
(appendix B) is not reproduced here, so every other line in ``agent/preflop/data/preflop.yaml``
is *proposed here*, derived from the anchor by shares of hands (combinations out of 1326):

* **bases**: on IR2 and IR7 a strategy's base admits the same share of hands as the anchor's
  base admits on IR4; tight and loose scale the moderate shares by ``--tight`` and
  ``--loose`` (Papp: all three settings are tight styles, so loose stays conservative);
* **increments**: each position away from the button raises the threshold so that under the
  gun of a full table (position 7) the strategy admits half the button's share;
* **the small blind**: Call1 (completing the blind) admits ``--call1`` times Make1's share;
  Call2 (calling a raise) sits midway between Make1 and Make2; neither uses increments (the
  blinds are position 0).

It prints the ``thresholds:`` block of the YAML file, rounded to 5 IR units.
"""

from __future__ import annotations

import argparse

import numpy as np

from agent.preflop.income_rates import ir_vector

ANCHOR = {"make1": 50, "make2": 200, "make4": 580}  # Papp: moderate, IR4, position 0
FULL_TABLE_UTG = 7


def share(table: int, threshold: float) -> float:
    """The share of the 1326 holdings whose income rate reaches the threshold."""
    return float((ir_vector(table) >= threshold).mean())


def threshold_for(table: int, fraction: float) -> float:
    """The income rate that the best ``fraction`` of the holdings reach."""
    ranked = np.sort(ir_vector(table))[::-1]
    k = min(len(ranked), max(1, round(fraction * len(ranked))))
    return float(ranked[k - 1])


def five(x: float) -> int:
    return int(5 * round(x / 5))


def lines(table: int, scale: float, call1: float) -> dict[str, tuple[int, int]]:
    out = {}
    for name, anchor in ANCHOR.items():
        s = min(1.0, share(4, anchor) * scale)
        base = anchor if (table, scale) == (4, 1.0) else threshold_for(table, s)
        top = threshold_for(table, s / 2)
        out[name] = (five(base), five((top - base) / FULL_TABLE_UTG))
    out["call1"] = (five(threshold_for(table, min(1.0, call1 * share(4, ANCHOR["make1"])
                                                  * scale))), 0)
    out["call2"] = (five((out["make1"][0] + out["make2"][0]) / 2), 0)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tight", type=float, default=0.75, help="tight's share of moderate's")
    p.add_argument("--loose", type=float, default=1.33, help="loose's share of moderate's")
    p.add_argument("--call1", type=float, default=1.5, help="Call1's share of Make1's")
    args = p.parse_args()
    print("thresholds:")
    for tightness, scale in (("tight", args.tight), ("moderate", 1.0), ("loose", args.loose)):
        print(f"  {tightness}:")
        for table in (2, 4, 7):
            print(f"    ir{table}:")
            got = lines(table, scale, args.call1)
            for name in ("call1", "make1", "call2", "make2", "make4"):
                base, inc = got[name]
                played = share(table, base)
                print(f"      {name}: {{base: {base}, increment: {inc}}}"
                      f"  # {100 * played:.1f}% of hands at position 0")


if __name__ == "__main__":
    main()
