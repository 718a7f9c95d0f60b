"""``holdem plot RESULTS_DIR``: PNG plots of a run, drawn from its per-hand results on disk.

* ``cumulative.png``: each player's cumulative winnings (in the run's unit: small bets in
  limit, big blinds in no-limit) against the hands that player played, with a shaded band of
  +-1.96 standard deviations of a cumulative sum of that many hands (the per-hand deviation
  comes from the block statistics, so it is honest about dependence within a block); a curve
  of one hand is drawn as a point with its band as an error bar;
* ``winrates.png``: each player's mean per hand with its 95% interval, raw and luck-adjusted.

Both come from ``hands.csv``/``blocks.jsonl``, the same data ``summary.json`` summarises.
``hands.csv`` is streamed, one row at a time, keeping only the points a curve draws (at most
``MAX_POINTS`` per player), so memory does not grow with the number of hands; its rows of
finished blocks must agree with ``blocks.jsonl``. A run dir that cannot be read (a file
missing, not UTF-8, not JSON, a key missing or of the wrong type, a field of ``hands.csv``
not an integer or, in a ``luck:`` column, not a finite number, the two files disagreeing)
is a :class:`PlotError`: one line (a bad field named by line and column), exit 2, and no
plot is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simulator.arena.results import (
    BLOCKS_FILE,
    HANDS_FILE,
    PLOT_FILES,
    RUN_FILE,
    RowError,
    _header,
    parse_row,
)
from simulator.arena.stats import Stat
from simulator.arena.summary import (
    BlockTotals,
    RunSummary,
    SummaryError,
    parse_blocks,
    summarise_blocks,
)
from simulator.core.errors import HoldemError

MAX_POINTS = 4000  # per curve: enough for the eye, small files for long runs
BAND_Z = 1.959964  # the normal 97.5% point: the band is that of a sum of many hands
UNIT_LABEL = {"small_bets": "small bets (SB)", "big_blinds": "big blinds (bb)"}


class PlotError(HoldemError, ValueError):
    """A results dir that cannot be plotted."""


@dataclass(frozen=True)
class Curve:
    name: str
    hands: np.ndarray  # hand counts 1..n at the drawn points (thinned to MAX_POINTS)
    cumulative: np.ndarray  # winnings in units after each of those hands
    band: np.ndarray  # half-width of the 95% band at each point


@dataclass(frozen=True)
class RunMeta:
    """What ``run.json`` says about the unit of the results."""

    unit: str
    unit_chips: int
    big_blind: int


# --- reading the run dir, checked ---------------------------------------------------------------


def read_meta(out_dir: Path) -> RunMeta:
    path = out_dir / RUN_FILE
    if not path.is_file() or not (out_dir / HANDS_FILE).is_file():
        raise PlotError(f"{str(out_dir)!r} holds no run results ({RUN_FILE} and {HANDS_FILE})")
    data = _json(path)
    if not isinstance(data, dict):
        raise PlotError(f"{path}: expected a JSON object, got {type(data).__name__}")
    unit = data.get("unit")
    if not isinstance(unit, str):
        raise PlotError(f"{path}: unit: expected a string, got {unit!r}")
    return RunMeta(unit, _positive_int(data, "unit_chips", path),
                   _positive_int(data, "big_blind", path))


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError included
        raise PlotError(f"{path}: unreadable: {exc}") from None


def _positive_int(data: dict[str, Any], key: str, path: Path) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise PlotError(f"{path}: {key}: expected a positive integer, got {value!r}")
    return value


def read_names(out_dir: Path) -> tuple[str, ...]:
    """The players, from ``hands.csv``'s header (checked to be the store's header)."""
    path = out_dir / HANDS_FILE
    try:
        with open(path, encoding="utf-8", newline="") as f:
            header = f.readline().rstrip("\n").split(",")
    except (OSError, ValueError) as exc:
        raise PlotError(f"{path}: unreadable: {exc}") from None
    names = tuple(c.split(":", 1)[1] for c in header if c.startswith("net:"))
    if not names or header != _header(names):
        raise PlotError(f"{path}: not a results file: its header is {','.join(header)[:120]!r}")
    return names


def read_blocks(out_dir: Path, names: Sequence[str]) -> list[BlockTotals]:
    """The finished blocks, checked; a run without any cannot be plotted.

    Every complete line must be a block's; only a last line without its newline (a run killed
    while writing it, whose block is then unfinished) is passed over.
    """
    path = out_dir / BLOCKS_FILE
    if not path.is_file():
        raise PlotError(f"{path}: missing, so no block of the run is known to be finished")
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, ValueError) as exc:
        raise PlotError(f"{path}: unreadable: {exc}") from None
    lines = []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if not line.endswith("\n"):
            break
        try:
            lines.append(json.loads(line))
        except ValueError as exc:
            raise PlotError(f"{path}: line {number}: not JSON: {exc}") from None
    try:
        blocks = parse_blocks(lines, names)
    except SummaryError as exc:
        raise PlotError(f"{path}: {exc}") from None
    if not blocks:
        raise PlotError(f"{path}: no finished block to plot")
    return blocks


# --- streaming hands.csv ------------------------------------------------------------------------


def thin_indices(n: int) -> np.ndarray:
    """The 0-based hand indices a curve of ``n`` hands draws: all, or MAX_POINTS and the last.

    >>> thin_indices(3).tolist(), len(thin_indices(10**6)), int(thin_indices(10**6)[-1])
    ([0, 1, 2], 4000, 999999)
    """
    if n <= MAX_POINTS:
        return np.arange(n)
    return np.unique(np.r_[np.linspace(0, n - 1, MAX_POINTS).astype(np.int64), n - 1])


class _Stream:
    """Running sums of the rows of finished blocks, and the curves' points as they pass.

    Blocks may come in any order in the file (completion order); a block's rows come
    together, in (permutation, hand) order. So a point's place on its curve is the hands of
    earlier blocks (from ``blocks.jsonl``) plus those seen so far in its block, and its value
    is its block's running sum, to which the earlier blocks' totals are added at the end.
    """

    def __init__(self, names: Sequence[str], blocks: Sequence[BlockTotals]) -> None:
        self.names = tuple(names)
        self.index = {b.block: i for i, b in enumerate(blocks)}
        self.hands = np.array([[b.players[n].hands for n in names] for b in blocks],
                              dtype=np.int64).reshape(len(blocks), len(names))
        self.first = np.cumsum(self.hands, axis=0) - self.hands
        self.wanted = [set(thin_indices(int(n)).tolist()) for n in self.hands.sum(axis=0)]
        self.seen = np.zeros_like(self.hands)
        self.sums = np.zeros(self.hands.shape, dtype=np.float64)
        self.squares = np.zeros(len(names), dtype=np.float64)
        self.last: dict[int, tuple[int, int]] = {}
        self.points: list[list[tuple[int, int, float]]] = [[] for _ in names]

    def add(self, fields: list[str], where: str) -> None:
        block = _int(fields[0])
        i = self.index.get(block) if block is not None else None
        if i is None:
            return  # rows of a block without its line: an interrupted block, not a result
        try:
            row = parse_row(fields, self.names)
        except RowError as exc:
            raise PlotError(f"{where}: {exc}") from None
        if (row.perm, row.hand) <= self.last.get(i, (-1, -1)):
            raise PlotError(f"{where}: block {fields[0]}'s rows are not in (permutation, hand) "
                            f"order after row {self.last[i]}")
        self.last[i] = (row.perm, row.hand)
        for j, (seat, net) in enumerate(zip(row.seats, row.nets, strict=True)):
            if seat < 0:
                continue
            self.sums[i, j] += net
            self.squares[j] += net * net
            at = int(self.first[i, j] + self.seen[i, j])
            self.seen[i, j] += 1
            if at in self.wanted[j]:
                self.points[j].append((at, i, float(self.sums[i, j])))

    def check(self, blocks: Sequence[BlockTotals], path: Path) -> None:
        """The rows must add up to ``blocks.jsonl``'s totals, block by block."""
        nets = np.array([[b.players[n].net for n in self.names] for b in blocks],
                        dtype=np.float64).reshape(self.sums.shape)
        wrong = np.argwhere((self.seen != self.hands) | (self.sums != nets))
        if len(wrong):
            i, j = wrong[0]
            raise PlotError(f"{path}: block {blocks[i].block}, player {self.names[j]!r}: "
                            f"{self.seen[i, j]} hands netting {self.sums[i, j]:g} chips, but "
                            f"{BLOCKS_FILE} says {self.hands[i, j]} netting {nets[i, j]:g}")

    def curve(self, j: int, unit_chips: int, per_hand_sd: float | None) -> Curve:
        """Player ``j``'s points in units, with the 95% band of a sum of that many hands."""
        offsets = np.cumsum(self.sums[:, j]) - self.sums[:, j]
        points = sorted(self.points[j])
        at = np.array([a for a, _, _ in points], dtype=np.int64)
        value = np.array([offsets[i] + s for _, i, s in points], dtype=np.float64)
        n = at + 1
        if per_hand_sd is None:  # no interval (one block): the hands' own deviation
            total, count = self.sums[:, j].sum(), int(self.seen[:, j].sum())
            var = (self.squares[j] - total * total / count) / (count - 1) if count > 1 else 0.0
            per_hand_sd = float(np.sqrt(max(var, 0.0))) / unit_chips
        return Curve(self.names[j], n, value / unit_chips, BAND_Z * per_hand_sd * np.sqrt(n))


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def stream_hands(out_dir: Path, names: Sequence[str],
                 blocks: Sequence[BlockTotals]) -> _Stream:
    """One pass over ``hands.csv``, checked against ``blocks``."""
    path = out_dir / HANDS_FILE
    stream = _Stream(names, blocks)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            f.readline()
            for number, line in enumerate(f, start=2):
                if line.endswith("\n"):  # a last line without it was cut off while written
                    stream.add(line[:-1].split(","), f"{path}: line {number}")
    except (OSError, UnicodeDecodeError) as exc:
        raise PlotError(f"{path}: unreadable: {exc}") from None
    stream.check(blocks, path)
    return stream


def plot_data(out_dir: Path) -> tuple[list[Curve], RunSummary]:
    """The curves and the summary the plots draw (the summary as ``summary.json`` has it)."""
    out_dir = Path(out_dir)
    meta = read_meta(out_dir)
    names = read_names(out_dir)
    blocks = read_blocks(out_dir, names)
    summary = summarise_blocks(blocks, names, unit=meta.unit, unit_chips=meta.unit_chips,
                               big_blind=meta.big_blind)
    stream = stream_hands(out_dir, names, blocks)
    curves = []
    for j, name in enumerate(names):
        raw = summary.player(name).raw
        sd = None if raw.stderr is None else raw.stderr * np.sqrt(raw.hands)
        curves.append(stream.curve(j, meta.unit_chips, sd))
    return curves, summary


# --- drawing ------------------------------------------------------------------------------------


def agg_figure(width: float, height: float) -> tuple[Figure, Axes]:
    """A figure on Agg's canvas and its one axes, as ``pyplot.subplots`` would make them
    (the same pixels), without pyplot: files only, no display, nothing global to close, and
    a third of a second less to import at the end of every run."""
    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def cumulative_figure(curves: Sequence[Curve], summary: RunSummary) -> Figure:
    label = UNIT_LABEL.get(summary.unit, summary.unit)
    fig, ax = agg_figure(10, 6)
    for curve in curves:
        single = len(curve.hands) == 1  # a line of one point is invisible: draw the point
        (line,) = ax.plot(curve.hands, curve.cumulative, lw=1.4, label=curve.name,
                          marker="o" if single else None)
        if single:
            ax.errorbar(curve.hands, curve.cumulative, yerr=curve.band, fmt="none",
                        ecolor=line.get_color(), alpha=0.4, capsize=6)
        else:
            ax.fill_between(curve.hands, curve.cumulative - curve.band,
                            curve.cumulative + curve.band, color=line.get_color(), alpha=0.15,
                            lw=0)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("hands played")
    ax.set_ylabel(f"cumulative winnings, {label}")
    ax.set_title(f"Cumulative winnings ({summary.deals} deals, {summary.blocks} blocks);"
                 f" shaded: 95% band")
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def winrate_figure(summary: RunSummary) -> Figure:
    names = list(summary.players)
    fig, ax = agg_figure(max(6, 1.3 * len(names) + 3), 5)
    x = np.arange(len(names))
    kinds: list[tuple[str, list[Stat]]] = [
        ("raw", [summary.player(n).raw for n in names]),
        ("luck-adjusted", [summary.player(n).luck_adjusted.stat for n in names])]
    aivat = [summary.player(n).aivat for n in names]
    if all(a is not None for a in aivat):
        lied = any(a is not None and a.estimator == "chance" for a in aivat)  # honesty test
        kinds.append(("AIVAT* (chance-corrected: a policy test failed)" if lied else "AIVAT",
                      [a.stat for a in aivat if a is not None]))
    width = 0.8 / len(kinds)
    for k, (text, stats) in enumerate(kinds):
        means = np.array([np.nan if s.mean is None else s.mean for s in stats])
        err = np.array([[s.mean - s.ci95[0], s.ci95[1] - s.mean] if s.ci95 and s.mean is not None
                        else [0.0, 0.0] for s in stats]).reshape(-1, 2).T
        ax.bar(x + (k - (len(kinds) - 1) / 2) * width, means, width=width, yerr=err, capsize=4,
               label=text, alpha=0.85 - 0.2 * k)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x, names)
    short = "SB" if summary.unit == "small_bets" else "bb"
    ax.set_ylabel(f"win rate, {short} per hand (95% CI)")
    ax.set_title("Win rates with 95% confidence intervals over blocks")
    ax.legend(loc="best")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def draw(out_dir: Path) -> list[Path]:
    """Write the PNG plots into ``out_dir`` and return their paths (all read, then drawn)."""
    out_dir = Path(out_dir)
    curves, summary = plot_data(out_dir)
    paths = [out_dir / name for name in PLOT_FILES]
    figures = (lambda: cumulative_figure(curves, summary), lambda: winrate_figure(summary))
    for path, figure in zip(paths, figures, strict=True):
        figure().savefig(path)
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
    except (HoldemError, OSError) as exc:
        print(f"holdem plot: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0
