"""Shared pieces of the strength experiments: build a run config, play it, collect the result.

Every experiment is a set of ordinary tournaments (``run_tournament``), each in its own run
dir under ``results/experiments/<experiment>/`` (big, not committed), resumable with
``--resume``; the small tables and plots it derives go to ``experiments/results/``
(committed). Blocks are at least 2,000 deals: a block is the span of a bot's memory, and the
opponent models need time to learn.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simulator.arena.config import parse_config
from simulator.arena.stats import ratio_stats
from simulator.arena.tournament import Summary, run_tournament

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Dirs:
    """Where the small tables and plots go (``results``, committed) and the run dirs
    (``runs``): these defaults, or a smoke run's temporary folders (``--results``,
    ``--runs``), so that a tiny run never overwrites a committed table; and whether the runs
    play in this process (``--inline``: a tiny run's time is the workers' start-up)."""

    results: Path = ROOT / "experiments" / "results"
    runs: Path = ROOT / "results" / "experiments"
    inline: bool = False


DIRS = Dirs()

HEADS_UP_LIMIT = {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000,
                  "reset_stacks": True}
"""Heads-up fixed-limit: blinds 1/2, bets 2/4, stacks deep enough never to bind."""
SIXMAX_NOLIMIT = {"variant": "nolimit", "blinds": [1, 2], "stack": 200, "reset_stacks": True}
"""Six-max no-limit, 100 big blinds reset every hand."""
SIXMAX_LIMIT = {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000,
                "reset_stacks": True}


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str
    params: dict[str, Any] | None = None

    def as_config(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "params": dict(self.params or {})}


@dataclass(frozen=True)
class Outcome:
    """One player's result in one run, in the run's unit per hand."""

    run: str
    player: str
    mean: float
    ci95: tuple[float, float]
    hands: int
    seconds: float
    summary: dict[str, Any]

    @property
    def half_width(self) -> float:
        return (self.ci95[1] - self.ci95[0]) / 2


def play(experiment: str, run: str, seats: Sequence[Seat], game: dict[str, Any], *,
         deals: int, block_size: int, seed: int, workers: int, resume: bool,
         duplicate: bool = True, bot_timeout: float | None = 60.0) -> Summary:
    """Play (or, with ``resume``, continue) one run and return its summary; with
    ``DIRS.inline`` its blocks play in this process."""
    out = DIRS.runs / experiment / run
    config = parse_config({
        "game": game, "seats": [s.as_config() for s in seats], "hands": deals,
        "block_size": block_size, "seed": seed, "duplicate": duplicate, "workers": workers,
        "on_bot_error": "stop", "bot_timeout": bot_timeout,
        "output": {"dir": str(out), "plots": True}}, f"{experiment}/{run}")
    return run_tournament(config, resume=resume, force=not resume, progress=False,
                          inline=DIRS.inline)


def outcome(run: str, summary: Summary, player: str, seconds: float) -> Outcome:
    p = summary.players[player]
    return Outcome(run, player, p["mean"], tuple(p["ci95"]), p["hands"], seconds,
                   summary.data)


def timed_play(experiment: str, run: str, seats: Sequence[Seat], game: dict[str, Any],
               player: str, **kwargs: Any) -> Outcome:
    start = time.perf_counter()
    summary = play(experiment, run, seats, game, **kwargs)
    result = outcome(run, summary, player, time.perf_counter() - start)
    print(f"{run:<28} {player}: {result.mean:+.4f} [{result.ci95[0]:+.4f}, "
          f"{result.ci95[1]:+.4f}] over {result.hands} hands ({result.seconds:.0f} s)",
          flush=True)
    return result


def write_table(name: str, header: Sequence[str], rows: Sequence[Sequence[Any]],
                notes: Sequence[str] = ()) -> Path:
    """A Markdown table (and its rows as JSON) in experiments/results/ (``DIRS.results``)."""
    DIRS.results.mkdir(parents=True, exist_ok=True)
    lines = [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}"]
    lines += [f"| {' | '.join(str(x) for x in row)} |" for row in rows]
    text = "\n".join([*lines, "", *notes]) + "\n"
    path = DIRS.results / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    (DIRS.results / f"{name}.json").write_text(json.dumps(
        [dict(zip(header, map(str, row), strict=True)) for row in rows], indent=2) + "\n",
        encoding="utf-8")
    print(text)
    return path


def fmt(mean: float, ci: tuple[float, float]) -> str:
    return f"{mean:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}]"


def arguments(description: str, deals: int, block_size: int = 2000,
              seed: int = 101) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--deals", type=int, default=deals, help=f"deals per run ({deals})")
    parser.add_argument("--block-size", type=int, default=block_size)
    parser.add_argument("--seed", type=int, default=seed,
                        help="report seeds; tuning used other seeds (see README)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="continue interrupted runs")
    dir_options(parser)
    return parser


def dir_options(parser: argparse.ArgumentParser) -> None:
    """``--results`` and ``--runs``: where this run's tables and run dirs go; ``--inline``."""
    parser.add_argument("--results", type=Path, default=DIRS.results,
                        help="folder for the tables and plots (default: experiments/results)")
    parser.add_argument("--runs", type=Path, default=DIRS.runs,
                        help="folder for the run dirs (default: results/experiments)")
    parser.add_argument("--inline", action="store_true",
                        help="play every block in this process, not in workers")


def parse(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The command line, with ``DIRS`` set from its ``--results``, ``--runs``, ``--inline``."""
    args = parser.parse_args()
    DIRS.results, DIRS.runs, DIRS.inline = args.results, args.runs, args.inline
    return args


def run_dir(experiment: str, run: str) -> Path:
    return DIRS.runs / experiment / run


def block_rates(experiment: str, run: str, player: str, unit_chips: int) -> list[float]:
    """The player's win rate in each block of a finished run (unit per hand), from
    ``blocks.jsonl``: paired comparisons need the blocks, not just the run's mean."""
    rates = []
    for line in (run_dir(experiment, run) / "blocks.jsonl").read_text().splitlines():
        record = json.loads(line)["players"][player]
        rates.append(record["net"] / record["hands"] / unit_chips)
    return rates


def t_interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean and 95% Student-t interval over independent values (blocks): the arena's own
    estimator with every block weighing one."""
    stat = ratio_stats(np.asarray(values, dtype=float), np.ones(len(values)))
    return stat.mean, stat.ci95 or (float("nan"), float("nan"))


Point = tuple[str, float, tuple[float, float]]
"""A plotted result: its label, mean and 95% interval."""


def plot_intervals(name: str, points: Sequence[Point], ylabel: str, title: str) -> Path:
    """A dot-and-whisker plot of means with their 95% intervals, beside the table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [p[0] for p in points]
    means = [p[1] for p in points]
    fig, ax = plt.subplots(figsize=(max(5.0, 0.8 * len(labels) + 2), 3.8))
    xs = range(len(labels))
    ax.errorbar(xs, means, yerr=[[m - p[2][0] for m, p in zip(means, points, strict=True)],
                                 [p[2][1] - m for m, p in zip(means, points, strict=True)]],
                fmt="o", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(list(xs), labels, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    DIRS.results.mkdir(parents=True, exist_ok=True)
    path = DIRS.results / f"{name}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
