"""``holdem plot RESULTS_DIR``: PNG plots of a run, drawn from its per-hand results on disk.

* ``cumulative.png``: each player's cumulative winnings (in the run's unit: small bets in
  limit, big blinds in no-limit) against the hands that player played, with a shaded band of
  +-1.96 standard deviations of a cumulative sum of that many hands (the per-hand deviation
  comes from the block statistics, so it is honest about dependence within a block);
* ``winrates.png``: each player's mean per hand with its 95% interval, raw and luck-adjusted.

Both come from ``hands.csv``/``blocks.jsonl``, the same data ``summary.json`` summarises.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display, and safe in worker processes and CI

import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first
import numpy as np  # noqa: E402

from simulator.arena.results import (  # noqa: E402
    HANDS_FILE,
    PLOT_FILES,
    RUN_FILE,
    RunStore,
    load_hands,
    summarise,
)
from simulator.core.errors import HoldemError

MAX_POINTS = 4000  # per curve: enough for the eye, small files for long runs
UNIT_LABEL = {"small_bets": "small bets (SB)", "big_blinds": "big blinds (bb)"}


class PlotError(HoldemError, ValueError):
    """A results dir that cannot be plotted."""


@dataclass(frozen=True)
class Curve:
    name: str
    hands: np.ndarray  # 1..n, the hands this player played
    cumulative: np.ndarray  # winnings in units after each of those hands
    band: np.ndarray  # half-width of the 95% band at each point


def _meta(out_dir: Path) -> dict:
    path = out_dir / RUN_FILE
    if not (out_dir / HANDS_FILE).exists() or not path.exists():
        raise PlotError(f"{str(out_dir)!r} holds no run results ({RUN_FILE} and {HANDS_FILE})")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise PlotError(f"{path}: unreadable: {exc}") from None


def plot_data(out_dir: Path) -> tuple[list[Curve], dict]:
    """The curves and the summary the plots draw (the summary as ``summary.json`` has it)."""
    out_dir = Path(out_dir)
    meta = _meta(out_dir)
    unit, unit_chips, big_blind = meta["unit"], meta["unit_chips"], meta["big_blind"]
    table = load_hands(out_dir)
    summary = summarise(RunStore(out_dir, table.names).read_blocks(), table.names, unit=unit,
                        unit_chips=unit_chips, big_blind=big_blind)
    curves = []
    for p, name in enumerate(table.names):
        played = table.seat[:, p] >= 0
        wins = table.net[played, p] / unit_chips
        n = np.arange(1, len(wins) + 1)
        stats = summary["players"][name]
        if stats["stderr"] is not None:
            sd = stats["stderr"] * np.sqrt(stats["hands"])
        else:
            sd = float(wins.std(ddof=1)) if len(wins) > 1 else 0.0
        curves.append(Curve(name, n, np.cumsum(wins), 1.959964 * sd * np.sqrt(n)))
    return curves, summary


def _thin(curve: Curve) -> Curve:
    if len(curve.hands) <= MAX_POINTS:
        return curve
    idx = np.unique(np.r_[np.linspace(0, len(curve.hands) - 1, MAX_POINTS).astype(int),
                          len(curve.hands) - 1])
    return Curve(curve.name, curve.hands[idx], curve.cumulative[idx], curve.band[idx])


def draw(out_dir: Path) -> list[Path]:
    """Write the PNG plots into ``out_dir`` and return their paths."""
    out_dir = Path(out_dir)
    curves, summary = plot_data(out_dir)
    label = UNIT_LABEL.get(summary["unit"], summary["unit"])
    paths = [out_dir / name for name in PLOT_FILES]

    fig, ax = plt.subplots(figsize=(10, 6), dpi=110)
    for curve in map(_thin, curves):
        (line,) = ax.plot(curve.hands, curve.cumulative, lw=1.4, label=curve.name)
        ax.fill_between(curve.hands, curve.cumulative - curve.band,
                        curve.cumulative + curve.band, color=line.get_color(), alpha=0.15,
                        lw=0)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("hands played")
    ax.set_ylabel(f"cumulative winnings, {label}")
    ax.set_title(f"Cumulative winnings ({summary['deals']} deals, {summary['blocks']} blocks);"
                 f" shaded: 95% band")
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(paths[0])
    plt.close(fig)

    names = list(summary["players"])
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(names) + 3), 5), dpi=110)
    x = np.arange(len(names))
    for offset, key, text in ((-0.2, None, "raw"), (0.2, "luck_adjusted", "luck-adjusted")):
        rows = [summary["players"][n] if key is None else summary["players"][n][key]
                for n in names]
        means = np.array([r["mean"] if r["mean"] is not None else np.nan for r in rows])
        err = np.array([[r["mean"] - r["ci95"][0], r["ci95"][1] - r["mean"]]
                        if r["ci95"] else [0.0, 0.0] for r in rows]).T
        ax.bar(x + offset, means, width=0.4, yerr=err, capsize=4, label=text,
               alpha=0.85 if key is None else 0.55)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x, names)
    short = "SB" if summary["unit"] == "small_bets" else "bb"
    ax.set_ylabel(f"win rate, {short} per hand (95% CI)")
    ax.set_title("Win rates with 95% confidence intervals over blocks")
    ax.legend(loc="best")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(paths[1])
    plt.close(fig)
    return paths


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="holdem plot", description=(
        "Draw cumulative winnings and win rates of a run as PNG files in its output dir."))
    parser.add_argument("results_dir", help="a run's output dir (holds run.json, hands.csv)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        paths = draw(Path(args.results_dir))
    except (PlotError, OSError) as exc:
        print(f"holdem plot: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0
