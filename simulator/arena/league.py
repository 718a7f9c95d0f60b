"""``holdem league CONFIG.yaml``: every bot of a panel against every other, and the crosstable.

A league config is a run config whose ``seats`` are replaced by ``bots``, the panel (two or
more, each ``{name, bot, params}``). Every pair plays its own match, heads-up, with the game,
hands, blocks, seed, duplicate and workers of the config, into
``OUTPUT/pairs/<a>/vs-<b>/`` (a normal run dir: ``holdem plot`` and ``--resume`` work on it;
the names are path components of their own, so no two pairs share a dir whatever the names).
When all pairs are done the league writes ``crosstable.csv`` (one row per ordered pair: the
row bot's win rate against the column bot with its 95% interval, and per bot its mean over
its opponents) and ``crosstable.png`` (a heat map with the intervals written in). ``--resume``
continues every pair where it stopped; ``--force`` starts over. Every bot of the panel is
checked once, before any pair plays, and the league holds a lock on ``OUTPUT`` while it runs,
as a run does on its dir.

Pairs are independent matches, so the standard error of a bot's mean over its k opponents is
``sqrt(sum of squared standard errors) / k``, and its interval takes Student's t at the
Welch-Satterthwaite degrees of freedom of that sum.

**Estimators.** A cell is AIVAT's estimate (:mod:`simulator.arena.aivat`) when the pair's run
measured it (``aivat: auto`` and ``luck: true``, the defaults): the chance correction plus the
action corrections of every bot that states its policy; ``estimator`` in the CSV says
``aivat`` when both bots do, ``aivat-chance`` when one or neither does (its decisions
uncorrected). Otherwise the cell is the raw mean. Either is unbiased and nothing in it is
fitted, so its interval takes t at ``blocks - 1``.

**Precision** (``target_half_width``, with ``max_hands``, optional). A pair whose cell's 95%
interval is wider than the target on a side plays a second stage: more blocks, as many as
Stein's two-stage procedure says the target needs (:mod:`simulator.arena.two_stage`), in all
at most ``max_hands`` deals (default four times ``hands``). They are a run of their own, under
``OUTPUT/second-stage/<a>/vs-<b>/`` and a seed derived from the league's (the first stage's
blocks keep their seeds), and the cell is the mean of both stages with Stein's interval: the
first stage's spread and degrees of freedom, so that choosing the second stage's length from
the first stage's spread leaves its coverage exact. The CSV's ``blocks`` counts both stages,
``df`` the degrees of freedom of the interval.

**Blocks.** A block is what an adaptive bot learns in, so a pair with a bot that learns plays
blocks of ``block_size`` deals. A bot entry may say ``learns: false`` (default: whether its
class implements ``freeze()``, :class:`~simulator.play.protocol.LearningBot`); a pair of bots
that both do not learn has no memory to keep, so with ``short_block_size`` set it plays the
same deals in blocks of that size: more blocks, so more degrees of freedom for its interval
(the standard error itself does not shrink).
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from simulator.arena.config import MAX_DEALS, ConfigError, TournamentConfig, parse_config
from simulator.arena.honesty import threshold
from simulator.arena.outdir import DirLock, prepare_dir, refuse_symlinks, write_atomic
from simulator.arena.overrides import add_options, apply_sets, described, options_sets
from simulator.arena.stats import Stat, t975
from simulator.arena.two_stage import blocks_needed, staged
from simulator.core.errors import HoldemError
from simulator.core.files import open_nofollow
from simulator.core.helptext import TRUST_NOTE, summary
from simulator.core.seeds import Domain, derive_seed
from simulator.core.validation import ValidationInputError, read_yaml

PAIRS_DIR = "pairs"
SECOND_DIR = "second-stage"
LEAGUE_KEYS = ("bots", "short_block_size", "target_half_width", "max_hands")
"""Keys of a league config that are not a pair's run config."""
MIN_TARGET = 1e-6
"""The smallest ``target_half_width``: a hand's result spreads over a unit or more, so a
half-width of 1e-6 units would take some 1e12 deals, a thousand times ``MAX_DEALS``; a
smaller one is a typo."""
CSV_FILE = "crosstable.csv"
PLOT_FILE = "crosstable.png"


@dataclass(frozen=True)
class Cell:
    """The row bot's result against the column bot, in the run's unit per hand, by
    ``estimator`` (``raw``, ``aivat`` or ``aivat-chance``; a bot's mean: ``mean``)."""

    row: str
    column: str
    mean: float
    stderr: float | None
    ci95: tuple[float, float] | None
    hands: int
    df: float | None = None  # degrees of freedom of stderr (blocks - 1 for a pair's cell)
    estimator: str = "raw"
    blocks: int | None = None  # a pair's blocks, both stages
    note: str = ""  # why the cell is not what was asked: max_hands reached, a policy lie

    @property
    def half_width(self) -> float | None:
        return None if self.ci95 is None else (self.ci95[1] - self.ci95[0]) / 2

    @property
    def stat(self) -> Stat:
        return Stat(self.hands, self.mean, self.stderr, self.ci95)


@dataclass(frozen=True)
class Precision:
    """The interval a league asks of every cell (``target_half_width``, in the run's unit per
    hand) and the most deals a pair may play to reach it (``max_hands``)."""

    target: float
    max_hands: int


def precision_of(data: dict[str, Any], source: str) -> Precision | None:
    """A league config's precision, checked; None without ``target_half_width``."""
    target, most = data.get("target_half_width"), data.get("max_hands")
    if target is None:
        if most is not None:
            raise ConfigError(f"{source}: max_hands: only with target_half_width")
        return None
    if type(target) not in (int, float) or not MIN_TARGET <= target < math.inf:
        raise ConfigError(f"{source}: target_half_width: expected a positive number, at least "
                          f"{MIN_TARGET:g} (smaller needs more deals than a league can play), "
                          f"got {target!r}")
    hands = data.get("hands")
    if most is None:
        most = 4 * hands if type(hands) is int else None
    if (type(most) is not int or type(hands) is not int or not hands <= most <= MAX_DEALS):
        raise ConfigError(f"{source}: max_hands: expected a whole number of deals, at least "
                          f"hands ({hands!r}) and at most {MAX_DEALS}, got {most!r}")
    return Precision(float(target), most)


def learns(entry: dict[str, Any]) -> bool:
    """Whether a panel entry's bot learns across hands: its ``learns`` key, else whether its
    class implements ``freeze()``."""
    if "learns" in entry:
        return bool(entry["learns"])
    from simulator.play.registry import resolve

    try:
        factory = resolve(str(entry.get("bot")))
    except HoldemError:
        return True  # refused later, naming the bot
    return callable(getattr(factory.factory, "freeze", None))


def pair_dir(out_dir: Path, a: str, b: str) -> Path:
    """A pair's run dir: each name a path component of its own (seat names hold no
    separator), so distinct pairs never share one.

    >>> str(pair_dir(Path("out"), "a", "b-vs-c")), str(pair_dir(Path("out"), "a-vs-b", "c"))
    ('out/pairs/a/vs-b-vs-c', 'out/pairs/a-vs-b/vs-c')
    """
    return out_dir / PAIRS_DIR / a / f"vs-{b}"


def second_stage(first: TournamentConfig, blocks: int, out_dir: Path) -> TournamentConfig:
    """The run of a pair's second stage: ``blocks`` more of the first stage's blocks, under a
    seed of their own, in ``OUTPUT/second-stage/<a>/vs-<b>/``."""
    a, b = first.names
    data = first.model_dump()
    data.update(hands=blocks * first.block_size,
                seed=derive_seed(first.seed, Domain.SECOND_STAGE))
    data["output"]["dir"] = str(out_dir / SECOND_DIR / a / f"vs-{b}")
    return type(first).model_validate(data)


def pair_configs(data: dict[str, Any], source: str) -> list[TournamentConfig]:
    """One heads-up config per unordered pair of the panel, validated like any run config."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of keys (game, bots, hands, ...)")
    bots = data.get("bots")
    if not isinstance(bots, list) or len(bots) < 2:
        raise ConfigError(f"{source}: bots: expected a list of at least 2 bots")
    if "seats" in data:
        raise ConfigError(f"{source}: seats: unknown key in a league (the panel is 'bots')")
    out_dir = Path(str((data.get("output") or {}).get("dir", "results/league"))).expanduser()
    short = data.get("short_block_size")
    if short is not None and (type(short) is not int or short <= 0):
        raise ConfigError(f"{source}: short_block_size: expected a positive number of deals, "
                          f"got {short!r}")
    for entry in bots:
        if isinstance(entry, dict) and "learns" in entry and type(entry["learns"]) is not bool:
            raise ConfigError(f"{source}: bots: {entry.get('name')}: learns: expected true "
                              f"or false, got {entry['learns']!r}")
    memory = [learns(e) if isinstance(e, dict) else True for e in bots]
    seats = [{k: v for k, v in e.items() if k != "learns"} if isinstance(e, dict) else e
             for e in bots]
    configs = []
    for i, a in enumerate(seats):
        for j, b in enumerate(seats[i + 1:], start=i + 1):
            pair = {k: v for k, v in data.items() if k not in LEAGUE_KEYS}
            if short is not None and not memory[i] and not memory[j]:
                pair["block_size"] = short
            pair["seats"] = [a, b]
            names = [s.get("name") if isinstance(s, dict) else None for s in (a, b)]
            pair["output"] = {**(data.get("output") or {}),
                              "dir": str(pair_dir(out_dir, str(names[0]), str(names[1])))}
            configs.append(parse_config(pair, f"{source} (pair {names[0]} vs {names[1]})"))
    return configs


@dataclass(frozen=True)
class PairFigures:
    """One stage of a pair: both ordered cells by its estimator, the chance-corrected ones
    (None without AIVAT), and per bot that states a policy the honesty test's log evidence
    (:mod:`simulator.arena.honesty`)."""

    cells: list[Cell]
    chance: list[Cell] | None
    evidence: dict[str, float]


def cells_of(summary_players: dict[str, Any], a: str, b: str, blocks: int) -> list[Cell]:
    """Both ordered cells of one pair's summary (``blocks``: the pair's block count), by
    AIVAT when the pair's run measured it, else raw."""
    return figures_of(summary_players, a, b, blocks).cells


def figures_of(summary_players: dict[str, Any], a: str, b: str, blocks: int) -> PairFigures:
    """:class:`PairFigures` of one pair's summary."""
    cells, chance = [], []
    both = all((summary_players[n].get("aivat") or {}).get("policy") for n in (a, b))
    df = blocks - 1 if blocks > 1 else None
    for row, column in ((a, b), (b, a)):
        p = summary_players[row]
        aivat = p.get("aivat")
        if aivat is not None and aivat.get("mean") is not None:
            figures = aivat.get("chance") or aivat
            aivat = aivat.get("corrected") or aivat  # the league tests for a lie itself
            cells.append(_cell(row, column, aivat, int(p["hands"]), df,
                               "aivat" if both else "aivat-chance", blocks))
            chance.append(_cell(row, column, figures, int(p["hands"]), df, "chance", blocks))
            continue
        ci = tuple(p["ci95"]) if p.get("ci95") else None
        cells.append(Cell(row, column, float(p["mean"]), p.get("stderr"), ci, int(p["hands"]),
                          df, blocks=blocks))
    evidence = {n: float(h["log_evidence"]) for n in (a, b)
                if (h := (summary_players[n].get("aivat") or {}).get("honesty"))}
    return PairFigures(cells, chance if len(chance) == 2 else None, evidence)


def _cell(row: str, column: str, figures: dict[str, Any], hands: int, df: float | None,
          estimator: str, blocks: int) -> Cell:
    ci = (figures["ci_low"], figures["ci_high"]) if figures.get("ci_low") is not None else None
    return Cell(row, column, float(figures["mean"]), figures.get("stderr"), ci, hands, df,
                estimator, blocks)


def both_stages(first: Cell, second: Cell, first_blocks: int, blocks: int) -> Cell:
    """A cell over both stages of a pair: the mean of every hand, with Stein's interval."""
    hands = first.hands + second.hands
    mean = (first.mean * first.hands + second.mean * second.hands) / hands
    s = staged(first.stat, first_blocks, mean, hands, blocks)
    return Cell(first.row, first.column, mean, s.stat.stderr, s.stat.ci95, hands, s.df,
                first.estimator, blocks, first.note)


def overall(cells: list[Cell], bot: str) -> Cell:
    """A bot's mean over its opponents, with the interval of a mean of independent results:
    Student's t at the Welch-Satterthwaite degrees of freedom of the summed variances (few
    blocks per pair give few degrees of freedom, and the normal quantile would be too
    narrow)."""
    mine = [c for c in cells if c.row == bot]
    mean = sum(c.mean for c in mine) / len(mine)
    marked = [c.column for c in mine if c.note]
    note = f"the mean of marked cells: vs {', '.join(marked)}" if marked else ""
    known = [(c.stderr, c.df) for c in mine if c.stderr is not None and c.df is not None]
    if len(known) < len(mine):
        return Cell(bot, "(mean)", mean, None, None, sum(c.hands for c in mine),
                    estimator="mean", note=note)
    variances = [se ** 2 for se, _ in known]
    stderr = math.sqrt(sum(variances)) / len(mine)
    spread = sum(v * v / d for v, (_, d) in zip(variances, known, strict=True))
    df = sum(variances) ** 2 / spread if spread > 0 else float(sum(d for _, d in known))
    half = t975(df) * stderr
    return Cell(bot, "(mean)", mean, stderr, (mean - half, mean + half),
                sum(c.hands for c in mine), df, "mean", note=note)


def crosstable_csv(cells: list[Cell], bots: list[str], unit: str) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["row", "column", "mean", "ci_low", "ci_high", "stderr", "hands", "unit",
                     "blocks", "estimator", "df", "note"])
    for cell in [*cells, *(overall(cells, b) for b in bots)]:
        low, high = cell.ci95 if cell.ci95 else ("", "")
        writer.writerow([cell.row, cell.column, f"{cell.mean:.6f}",
                         low if low == "" else f"{low:.6f}",
                         high if high == "" else f"{high:.6f}",
                         "" if cell.stderr is None else f"{cell.stderr:.6f}", cell.hands, unit,
                         "" if cell.blocks is None else cell.blocks, cell.estimator,
                         "" if cell.df is None else f"{cell.df:.6g}", cell.note])
    return buf.getvalue()


def draw_crosstable(cells: list[Cell], bots: list[str], unit: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    k = len(bots)
    grid = np.full((k, k + 1), np.nan)
    for cell in [*cells, *(overall(cells, b) for b in bots)]:
        grid[bots.index(cell.row), _column_of(cell, bots)] = cell.mean
    text = plot_texts(cells, bots)
    bound = float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0
    fig, ax = plt.subplots(figsize=(1.4 * (k + 1) + 2, 1.0 * k + 2), dpi=110)
    ax.imshow(grid, cmap="RdYlGn", vmin=-bound, vmax=bound)
    for i in range(k):
        for j in range(k + 1):
            if text[i][j]:
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k + 1), [*bots, "mean"], rotation=30, ha="right")
    ax.set_yticks(range(k), bots)
    short = "SB" if unit == "small_bets" else "bb"
    ax.set_title(f"Row bot's win rate against the column bot, {short}/hand (95% CI)")
    notes = cell_notes(cells)
    if notes:
        fig.text(0.01, 0.01, "\n".join(notes), fontsize=7, va="bottom", wrap=True)
    fig.tight_layout(rect=(0, 0.04 * len(notes), 1, 1))
    with open_nofollow(path, "wb") as f:
        fig.savefig(f, format="png")
    plt.close(fig)


def _column_of(cell: Cell, bots: list[str]) -> int:
    return len(bots) if cell.column == "(mean)" else bots.index(cell.column)


def plot_texts(cells: list[Cell], bots: list[str]) -> list[list[str]]:
    """What the heat map writes in each square: the mean, its half-width, and ``*`` for a
    cell with a note, and for a bot's mean over such cells (the notes are written below the
    map).

    >>> plot_texts([Cell("a", "b", 0.5, 0.3, (-0.1, 1.1), 100, 9, note="max_hands reached"),
    ...             Cell("b", "a", -0.5, 0.3, (-1.1, 0.1), 100, 9)], ["a", "b"])[0]
    ['', '+0.500\\n±0.600 *', '+0.500\\n±0.679 *']
    """
    text = [["" for _ in range(len(bots) + 1)] for _ in bots]
    for cell in [*cells, *(overall(cells, b) for b in bots)]:
        half = "" if cell.half_width is None else f"\n±{cell.half_width:.3f}"
        text[bots.index(cell.row)][_column_of(cell, bots)] = (
            f"{cell.mean:+.3f}{half}{' *' if cell.note else ''}")
    return text


def league_data(config_path: str | Path, sets: Mapping[str, Any] | None = None) -> Any:
    """A league config's data, with ``sets`` (``--set``) written over it."""
    try:
        return apply_sets(read_yaml(config_path), sets)
    except ValidationInputError as exc:
        raise ConfigError(str(exc)) from None


def run_league(config_path: str | Path, *, resume: bool = False, force: bool = False,
               workers: int | None = None, quiet: bool = False,
               sets: Mapping[str, Any] | None = None) -> list[Cell]:
    """Play every pair (or continue them) and write the crosstable; returns its cells.
    ``sets`` (dotted key -> value, :mod:`simulator.arena.overrides`) is written over the
    file's data before it is checked."""
    data = league_data(config_path, sets)
    source = described(str(config_path), sets)
    configs = pair_configs(data, source)
    precision = precision_of(data, source)
    if workers is not None:
        if workers < 1:
            raise ConfigError(f"--workers: expected >= 1, got {workers}")
        configs = [c.model_copy(update={"workers": workers}) for c in configs]
    out_dir = Path(configs[0].output.dir).parents[2]
    _check_panel(configs, quiet)
    with DirLock.acquire(prepare_dir(out_dir)):
        refuse_symlinks(out_dir, [PAIRS_DIR, SECOND_DIR, CSV_FILE, PLOT_FILE])
        return _play_pairs(configs, [s["name"] for s in data["bots"]], out_dir, precision,
                           resume=resume, force=force, quiet=quiet)


def _check_panel(configs: list[TournamentConfig], quiet: bool) -> None:
    """Every bot of the panel checked once (not once per pair and seat), before any pair
    plays, with a line per bot: a big panel takes a while."""
    from simulator.arena.tournament import check_seat

    first = configs[0]
    panel = {config.seats[0].name: config.seats[0] for config in configs}
    panel.update({config.seats[1].name: config.seats[1] for config in configs})
    problems = []
    for k, (name, seat) in enumerate(panel.items(), 1):
        if not quiet:
            print(f"league: checking bot {k}/{len(panel)}: {name}", flush=True)
        try:
            check_seat(seat, first.game_config(), 2, first.bot_timeout, f"bots: {name}")
        except ConfigError as exc:  # every bot's problem at once, a line each
            problems.append(str(exc))
    if problems:
        raise ConfigError("\n".join(problems))


def _play_pairs(configs: list[TournamentConfig], bots: list[str], out_dir: Path,
                precision: Precision | None, *, resume: bool, force: bool, quiet: bool
                ) -> list[Cell]:
    from simulator.arena.tournament import run_tournament
    from simulator.arena.workers import KeptPool

    cells: list[Cell] = []
    clock = _Clock(sum(c.num_blocks * c.block_size for c in configs))
    bar = threshold(2 * len(configs))  # every bot of every pair, tested together
    with KeptPool() as kept:  # the workers start once, not once a pair
        def play(config: TournamentConfig, k: int, what: str = "") -> PairFigures:
            a, b = config.names
            if not quiet:
                print(f"league: pair {k} of {len(configs)}: {a} vs {b}{what} -> "
                      f"{config.output.dir}{clock.left()}", flush=True)
            summary = run_tournament(config, resume=resume, force=force, progress=None
                                     if not quiet else False, checked=True, kept=kept)
            clock.played(summary.deals)
            return figures_of(summary.players, a, b, summary.blocks)

        for k, config in enumerate(configs, 1):
            first = play(config, k)
            clock.planned(-config.num_blocks * config.block_size)
            first_cells = _honest_cells(first, None, bar)
            n0 = config.num_blocks
            needed = n0 if precision is None else _second_stage_end(first_cells, config,
                                                                    precision)
            if needed == n0:
                pair = first_cells
            else:
                more = needed - n0
                second = play(second_stage(config, more, out_dir), k,
                              f", second stage of {more} block{'s' * (more > 1)}")
                pair = [both_stages(f, s, n0, needed) for f, s in
                        zip(_honest_cells(first, second, bar),
                            _honest_cells(second, first, bar), strict=True)]
            cells += [_precision_note(c, precision) for c in pair]
    unit = configs[0].unit
    write_atomic(out_dir / CSV_FILE, crosstable_csv(cells, bots, unit))
    draw_crosstable(cells, bots, unit, out_dir / PLOT_FILE)
    return cells


class _Clock:
    """The league's overall time left: the seconds per deal so far times the first stages'
    deals still to play (second stages are not known before their first stage ends)."""

    def __init__(self, deals: int) -> None:
        self._start = time.monotonic()
        self._left, self._played = deals, 0

    def planned(self, deals: int) -> None:
        self._left += deals

    def played(self, deals: int) -> None:
        self._played += deals

    def left(self) -> str:
        if self._played == 0 or self._left <= 0:
            return ""
        seconds = (time.monotonic() - self._start) / self._played * self._left
        return f" (about {_duration(seconds)} left)"


def _duration(seconds: float) -> str:
    """A rough duration: ``45s``, ``12m``, ``3h05m``.

    >>> _duration(44.6), _duration(725), _duration(11100)
    ('45s', '12m', '3h05m')
    """
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        return f"{seconds / 60:.0f}m"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours}h{minutes:02d}m"


def _honest_cells(stage: PairFigures, other: PairFigures | None, bar: float) -> list[Cell]:
    """A stage's cells, or its chance-corrected cells with a note when a bot's actions
    disagree with its stated policy over the pair's stages (``other``: the pair's other
    stage, whose evidence multiplies this one's) at the league's threshold ``bar``."""
    evidence = dict(stage.evidence)
    for name, more in (other.evidence if other is not None else {}).items():
        evidence[name] = evidence.get(name, 0.0) + more
    liars = sorted(name for name, e in evidence.items() if e >= bar)
    if not liars or stage.chance is None:
        return stage.cells
    note = (f"policy test failed: {', '.join(liars)} (log evidence "
            f"{max(evidence[n] for n in liars):.1f} >= {bar:.1f}; chance-corrected figure)")
    return [replace(c, note=note) for c in stage.chance]


def _precision_note(cell: Cell, precision: Precision | None) -> Cell:
    """The cell, with a note when its interval is still wider than the league's target:
    the pair played ``max_hands`` and stopped there."""
    half = cell.half_width
    if precision is None or half is None or half <= precision.target:
        return cell
    note = (f"max_hands reached: +-{half:.3g} wider than the target +-{precision.target:.3g}")
    return replace(cell, note=f"{cell.note}; {note}" if cell.note else note)


def _second_stage_end(first: list[Cell], config: TournamentConfig, precision: Precision
                      ) -> int:
    """The blocks a pair plays in both stages: Stein's count for the wider of its cells, at
    most ``max_hands``. (Not rounded up to whole rounds of the workers: the workers change
    how fast a league plays, never what.)"""
    n0 = config.num_blocks
    most = max(n0, precision.max_hands // config.block_size)
    return max(blocks_needed(c.stat, n0, precision.target, most) for c in first)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="holdem league", description=summary(__doc__),
                                     epilog=TRUST_NOTE)
    parser.add_argument("config", help="a league config: a run config with 'bots' for 'seats'")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true", help="continue every pair's run")
    mode.add_argument("--force", action="store_true", help="start every pair over")
    parser.add_argument("--workers", type=int, metavar="N", help="override workers")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no table")
    add_options(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    sets = options_sets(args)
    cells = run_league(args.config, resume=args.resume, force=args.force,
                       workers=args.workers, quiet=args.quiet, sets=sets)
    if not args.quiet:
        unit = pair_configs(league_data(args.config, sets), str(args.config))[0].unit
        print(crosstable_text(cells, unit))
    return 0


def crosstable_text(cells: list[Cell], unit: str) -> str:
    """Every cell, then each bot's mean over its opponents, in ``unit`` per hand.

    >>> cells = [Cell("a", "b", 0.5, 0.1, (0.3, 0.7), 100, 9),
    ...          Cell("b", "a", -0.5, 0.1, (-0.7, -0.3), 100, 9)]
    >>> print(crosstable_text(cells, "small_bets"))
    small_bets per hand, the row bot against the column bot [95% CI]:
    a vs b      +0.5000 [+0.3000, +0.7000]
    b vs a      -0.5000 [-0.7000, -0.3000]
    a vs (mean) +0.5000 [+0.2738, +0.7262]
    b vs (mean) -0.5000 [-0.7262, -0.2738]
    """
    bots = list(dict.fromkeys(c.row for c in cells))
    rows = [*cells, *(overall(cells, bot) for bot in bots)]
    width = max(len(c.row) for c in cells)
    lines = [f"{unit} per hand, the row bot against the column bot [95% CI]:"]
    for cell in rows:
        ci = "" if cell.ci95 is None else f" [{cell.ci95[0]:+.4f}, {cell.ci95[1]:+.4f}]"
        lines.append(f"{cell.row:<{width}} vs {cell.column:<{max(width, 6)}} "
                     f"{cell.mean:+.4f}{ci}{' *' if cell.note else ''}")
    return "\n".join(lines + cell_notes(cells))


def cell_notes(cells: list[Cell]) -> list[str]:
    """A line for every cell marked ``*``: why it is not what the league asked.

    >>> cell_notes([Cell("a", "b", 0.5, 0.3, (-0.1, 1.1), 100, note="max_hands reached")])
    ['* a vs b: max_hands reached']
    """
    return [f"* {c.row} vs {c.column}: {c.note}" for c in cells if c.note]
