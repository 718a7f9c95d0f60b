"""The typed summary of a run: what ``summary.json`` holds, and the table ``holdem run`` prints.

:func:`summarise` reads finished blocks' lines (``blocks.jsonl``, checked here: a corrupt line
is a :class:`SummaryError` naming the block and the key, never a ``KeyError``) and computes
every player's raw and luck-adjusted statistics (:mod:`simulator.arena.stats`), overall and per
position. The records are frozen; :meth:`RunSummary.to_dict` gives the ``summary.json`` form
with the keys in the order they have always had:

``unit, deals, blocks, players, big_blinds_per_unit[, duplicate, permutations, luck_method,
faults, seed, version, config]`` (the bracketed ones with the run's :class:`RunInfo`), and per
player ``hands, mean, stderr, ci95, luck_adjusted, bb_per_100, mbb_per_hand, positions,
faults`` and, when the run measured it, ``aivat``. ``luck_adjusted`` holds ``mean, stderr,
ci95, coefficient, variance_reduction``, and every position has ``hands, mean, stderr, ci95,
luck_adjusted``.

``aivat`` (:mod:`simulator.arena.aivat`) holds ``mean, ci_low, ci_high, stderr,
variance_reduction, policy``: the ratio estimator over blocks of ``net - luck - action
corrections``, with Student's t at ``blocks - 1`` (nothing is fitted: the corrections have
expectation zero as they stand); ``variance_reduction`` is the raw variance over the AIVAT
variance (both over blocks: a factor, 4 meaning a quarter of the hands for the same
interval); ``policy`` says whether the player's own decisions were corrected (its bot states
a policy) or it got chance correction only. In runs that keep the honesty test's sums
(:mod:`simulator.arena.honesty`), ``aivat`` also holds ``chance`` (the chance-corrected
figure) and, for a player whose bot states a policy, ``honesty`` (``log_evidence, threshold,
flagged, false_alarm, decisions``) and ``estimator``: ``chance`` when a player failed the
test, the figures then the chance-corrected ones and ``corrected`` AIVAT's own.

Faults are counted per player: a block's ``faults`` list holds records (dicts with a ``name``
key) or, in runs written before they were records, text starting with the player's name.

>>> line = {"block": 0, "deals": 2, "faults": [{"name": "a", "message": "boom"}],
...         "players": {"a": {"hands": 2, "net": 6, "luck": 1.0, "positions": {}},
...                     "b": {"hands": 2, "net": -6, "luck": -1.0, "positions": {}}}}
>>> s = summarise([line], ["a", "b"], unit="big_blinds", unit_chips=2, big_blind=2)
>>> a = s.player("a")
>>> a.raw.mean, a.bb_per_100, a.mbb_per_hand, a.faults, s.faults
(1.5, 150.0, 1500.0, 1, 1)
>>> list(s.to_dict())
['unit', 'deals', 'blocks', 'players', 'big_blinds_per_unit']
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from simulator.arena.config import MAX_SEATS
from simulator.arena.honesty import FALSE_ALARM, TESTS, log_evidence, threshold
from simulator.arena.stats import MIN_FIT_BLOCKS, Adjusted, Stat, luck_adjusted, ratio_stats
from simulator.core.errors import HoldemError
from simulator.core.frozen import FrozenMap
from simulator.core.positions import position_labels


class SummaryError(HoldemError, ValueError):
    """Block results that cannot be summarised (a corrupt or foreign ``blocks.jsonl``)."""


# --- the records --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Honesty:
    """The honesty test of a player's play against its stated policy
    (:mod:`simulator.arena.honesty`): its log evidence, the threshold for the players tested
    together, and whether it was reached."""

    evidence: float
    threshold: float
    decisions: int | None = None  # the decisions tested (None in runs that did not count)

    @property
    def flagged(self) -> bool:
        return self.evidence >= self.threshold

    def as_dict(self) -> dict[str, Any]:
        return {"log_evidence": self.evidence, "threshold": self.threshold,
                "flagged": self.flagged, "false_alarm": FALSE_ALARM,
                "decisions": self.decisions}


@dataclass(frozen=True)
class Aivat:
    """A player's AIVAT estimate: its statistics, the variance factor it gained over the raw
    estimate (None without both errors) and whether the player's own decisions were
    corrected. ``estimator`` is ``aivat``, or ``chance`` when a player of the run failed the
    honesty test: then ``stat`` is the chance-corrected figure (``net - luck``, no action
    corrections), and so for every player, since a seat's corrections enter every seat's.
    ``chance`` is that figure in any case, and ``corrected`` AIVAT's own when it was set aside
    (a league reads both, and tests for a lie at its own threshold)."""

    stat: Stat
    variance_reduction: float | None
    policy: bool
    honesty: Honesty | None = None
    estimator: str = "aivat"
    chance: Stat | None = None
    corrected: Stat | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {**_interval(self.stat), "variance_reduction": self.variance_reduction,
               "policy": self.policy}
        if self.honesty is not None:
            out.update(estimator=self.estimator, honesty=self.honesty.as_dict())
        if self.chance is not None:
            out["chance"] = _interval(self.chance)
        if self.corrected is not None:
            out["corrected"] = _interval(self.corrected)
        return out


def _interval(stat: Stat) -> dict[str, Any]:
    low, high = stat.ci95 if stat.ci95 is not None else (None, None)
    return {"mean": stat.mean, "ci_low": low, "ci_high": high, "stderr": stat.stderr}


def aivat_figures(raw: Stat, totals: np.ndarray, luck: np.ndarray, corrections: np.ndarray,
                  hands: np.ndarray, policy: bool) -> Aivat:
    """AIVAT over blocks: ``totals - luck - corrections`` per block, nothing fitted.

    >>> raw = ratio_stats(np.array([10.0, -2.0, 4.0]), np.array([10, 10, 10]))
    >>> a = aivat_figures(raw, np.array([10.0, -2.0, 4.0]), np.array([5.0, -4.0, 1.0]),
    ...                   np.array([1.0, 0.0, -1.0]), np.array([10, 10, 10]), True)
    >>> round(a.stat.mean, 3), round(a.variance_reduction, 2)
    (0.333, 27.0)
    """
    stat = ratio_stats(totals - luck - corrections, hands)
    factor = None
    if raw.stderr is not None and stat.stderr is not None and stat.stderr > 0:
        factor = (raw.stderr / stat.stderr) ** 2
    return Aivat(stat, factor, policy)


@dataclass(frozen=True)
class Figures:
    """Raw, luck-adjusted and (when measured) AIVAT statistics of one player, overall or in
    one position (positions have no AIVAT figures)."""

    raw: Stat
    luck_adjusted: Adjusted
    aivat: Aivat | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {**self.raw.as_dict(), "luck_adjusted": self.luck_adjusted.as_dict()}
        if self.aivat is not None:
            out["aivat"] = self.aivat.as_dict()
        return out


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures in the run's unit per hand, and their big-blind forms."""

    name: str
    figures: Figures
    big_blinds_per_unit: float
    positions: FrozenMap[str, Figures]
    faults: int

    @property
    def raw(self) -> Stat:
        return self.figures.raw

    @property
    def luck_adjusted(self) -> Adjusted:
        return self.figures.luck_adjusted

    @property
    def aivat(self) -> Aivat | None:
        return self.figures.aivat

    @property
    def bb_per_100(self) -> float | None:
        """Big blinds per 100 hands (the one place that converts from the run's unit)."""
        mean = self.raw.mean
        return None if mean is None else mean * self.big_blinds_per_unit * 100

    @property
    def mbb_per_hand(self) -> float | None:
        """Milli-big-blinds per hand: ``bb_per_100 * 10``."""
        bb100 = self.bb_per_100
        return None if bb100 is None else bb100 * 10

    def as_dict(self) -> dict[str, Any]:
        out = self.figures.as_dict()
        out.update(bb_per_100=self.bb_per_100, mbb_per_hand=self.mbb_per_hand,
                   positions={label: f.as_dict() for label, f in self.positions.items()},
                   faults=self.faults)
        return out


@dataclass(frozen=True)
class RunInfo:
    """What the run was: the keys of ``summary.json`` beside the statistics."""

    duplicate: bool
    permutations: int
    luck_method: str | None
    seed: int
    version: str
    config: Mapping[str, Any]  # the settings that decide the results (``result_key``)
    early_end_blocks: tuple[int, ...] = ()  # carry-over blocks that ended with one player


@dataclass(frozen=True)
class RunSummary:
    """The statistics of a run's finished blocks, and (from a run) what the run was."""

    unit: str
    deals: int
    blocks: int
    players: FrozenMap[str, PlayerSummary]
    big_blinds_per_unit: float
    run: RunInfo | None = None

    @property
    def faults(self) -> int:
        return sum(p.faults for p in self.players.values())

    def player(self, name: str) -> PlayerSummary:
        return self.players[name]

    def to_dict(self) -> dict[str, Any]:
        """The ``summary.json`` form (plain JSON types, no NaN or infinity)."""
        out: dict[str, Any] = {
            "unit": self.unit, "deals": self.deals, "blocks": self.blocks,
            "players": {name: p.as_dict() for name, p in self.players.items()},
            "big_blinds_per_unit": self.big_blinds_per_unit}
        if self.run is not None:
            out.update(duplicate=self.run.duplicate, permutations=self.run.permutations,
                       luck_method=self.run.luck_method, faults=self.faults,
                       seed=self.run.seed, version=self.run.version,
                       config=_plain(self.run.config),
                       early_end_blocks=list(self.run.early_end_blocks))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# --- block lines, checked -----------------------------------------------------------------------


@dataclass(frozen=True)
class Totals:
    """Sums over some hands of one player: hands, net chips, luck chips and (when measured)
    AIVAT's action corrections in chips, with whether its own decisions were corrected."""

    hands: int
    net: float
    luck: float
    aivat: float | None = None
    policy: bool = False
    honesty: tuple[float, ...] | None = None  # the honesty test's sums (TESTS of them)
    tested: int | None = None  # the decisions they are over


@dataclass(frozen=True)
class BlockTotals:
    """One finished block's line, checked: per player its totals, overall and per position."""

    block: int
    deals: int
    players: FrozenMap[str, Totals]
    positions: FrozenMap[str, FrozenMap[str, Totals]]
    faults: FrozenMap[str, int]


def parse_block(line: Any, names: Sequence[str]) -> BlockTotals:
    """Check one ``blocks.jsonl`` line against the run's players; :class:`SummaryError` if bad.

    >>> parse_block({"block": 0, "deals": 1, "players": {}}, ["a"])
    Traceback (most recent call last):
    ...
    simulator.arena.summary.SummaryError: block 0: players.a: missing
    """
    where = f"block {line.get('block')!r}" if isinstance(line, dict) else "a block line"
    block = _field(line, "block", int, where)
    where = f"block {block}"
    players = _field(line, "players", dict, where)
    totals: dict[str, Totals] = {}
    positions: dict[str, FrozenMap[str, Totals]] = {}
    for name in names:
        entry = _field(players, name, dict, where, "players.")
        key = f"players.{name}."
        aivat = _field(entry, "aivat", float, where, key) if "aivat" in entry else None
        policy = entry.get("policy", False)
        if not isinstance(policy, bool):
            raise SummaryError(f"{where}: {key}policy: expected true or false, got {policy!r}")
        totals[name] = Totals(_field(entry, "hands", int, where, key),
                              _field(entry, "net", float, where, key),
                              _field(entry, "luck", float, where, key), aivat, policy,
                              _honesty_sums(entry, f"{where}: {key}honesty"),
                              _field(entry, "tested", int, where, key)
                              if "tested" in entry else None)
        cells = _field(entry, "positions", dict, where, key)
        positions[name] = FrozenMap({label: _cell(cell, f"{where}: {key}positions.{label}")
                                     for label, cell in cells.items()})
    faults = line.get("faults", [])
    if not isinstance(faults, list):
        raise SummaryError(f"{where}: faults: expected a list, got {type(faults).__name__}")
    return BlockTotals(block, _field(line, "deals", int, where), FrozenMap(totals),
                       FrozenMap(positions),
                       FrozenMap({n: sum(_fault_of(f, n) for f in faults) for n in names}))


def _field(data: Any, key: str, kind: type, where: str, prefix: str = "") -> Any:
    if not isinstance(data, dict):
        raise SummaryError(f"{where}: {prefix.rstrip('.') or 'line'}: expected an object, "
                           f"got {data!r}"[:200])
    if key not in data:
        raise SummaryError(f"{where}: {prefix}{key}: missing")
    value = data[key]
    ok = isinstance(value, kind) if kind is not float else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok or (kind is float and not math.isfinite(value)):
        expected = {int: "an integer", float: "a finite number", dict: "an object"}[kind]
        raise SummaryError(f"{where}: {prefix}{key}: expected {expected}, got {value!r}"[:200])
    if kind is int and value < 0:
        raise SummaryError(f"{where}: {prefix}{key}: expected >= 0, got {value}")
    return float(value) if kind is float else value


def _honesty_sums(entry: dict[str, Any], where: str) -> tuple[float, ...] | None:
    """A block's honesty sums of a player (None in a run written before they were kept)."""
    sums = entry.get("honesty")
    if sums is None:
        return None
    if not (isinstance(sums, list) and len(sums) == TESTS and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in sums)):
        raise SummaryError(f"{where}: expected a list of {TESTS} finite numbers, "
                           f"got {sums!r}"[:200])
    return tuple(float(x) for x in sums)


def _cell(cell: Any, where: str) -> Totals:
    if not isinstance(cell, list) or len(cell) != 3:
        raise SummaryError(f"{where}: expected [hands, net, luck], got {cell!r}"[:200])
    data = dict(zip(("hands", "net", "luck"), cell, strict=True))
    return Totals(_field(data, "hands", int, where), _field(data, "net", float, where),
                  _field(data, "luck", float, where))


def _fault_of(fault: Any, name: str) -> int:
    """1 if ``fault`` is ``name``'s: a record's ``name`` key, or old text "name (seat ...".

    >>> _fault_of({"name": "a", "seat": 0}, "a"), _fault_of("a (seat 0): boom", "a")
    (1, 1)
    >>> _fault_of("ab (seat 0): boom", "a"), _fault_of({"name": "ab"}, "a")
    (0, 0)
    """
    if isinstance(fault, dict):
        return int(fault.get("name") == name)
    return int(isinstance(fault, str) and fault.startswith(f"{name} "))


# --- the summary --------------------------------------------------------------------------------


def parse_blocks(lines: Iterable[Any], names: Sequence[str]) -> list[BlockTotals]:
    """Checked block lines, sorted by block; a block that appears twice is refused."""
    blocks = sorted((parse_block(line, names) for line in lines), key=lambda b: b.block)
    for before, after in zip(blocks, blocks[1:], strict=False):
        if before.block == after.block:
            raise SummaryError(f"block {after.block} appears more than once in the results")
    return blocks


def summarise(lines: Iterable[Any], names: Sequence[str], *, unit: str, unit_chips: int,
              big_blind: int, run: RunInfo | None = None) -> RunSummary:
    """The statistics of finished blocks' lines (any order), per player.

    Means are in ``unit`` per hand the player played (``unit_chips`` chips each).
    """
    return summarise_blocks(parse_blocks(lines, names), names, unit=unit,
                            unit_chips=unit_chips, big_blind=big_blind, run=run)


def summarise_blocks(blocks: Sequence[BlockTotals], names: Sequence[str], *, unit: str,
                     unit_chips: int, big_blind: int, run: RunInfo | None = None) -> RunSummary:
    """:func:`summarise` of blocks already checked by :func:`parse_blocks`."""
    per_bb = unit_chips / big_blind
    empty = Totals(0, 0.0, 0.0)
    honesty = honesty_of(blocks, names)
    fallback = any(h.flagged for h in honesty.values())
    players = {}
    for name in names:
        labels = sorted({lab for b in blocks for lab in b.positions[name]}, key=_position_order)
        players[name] = PlayerSummary(
            name, _figures([b.players[name] for b in blocks], unit_chips, honesty.get(name),
                           fallback), per_bb,
            FrozenMap({label: _figures([b.positions[name].get(label, empty) for b in blocks],
                                       unit_chips) for label in labels}),
            sum(b.faults[name] for b in blocks))
    return RunSummary(unit, sum(b.deals for b in blocks), len(blocks), FrozenMap(players),
                      per_bb, run)


def honesty_of(blocks: Sequence[BlockTotals], names: Sequence[str]) -> dict[str, Honesty]:
    """The honesty test of every player whose bot states a policy and whose blocks all kept
    the test's sums, at the threshold for that many players tested together."""
    sums, tested = {}, {}
    for name in names:
        kept = [b.players[name].honesty for b in blocks if b.players[name].policy]
        if blocks and len(kept) == len(blocks) and all(h is not None for h in kept):
            sums[name] = np.sum(np.array(kept, dtype=np.float64), axis=0)
            counts = [b.players[name].tested for b in blocks]
            tested[name] = sum(c for c in counts if c is not None) \
                if all(c is not None for c in counts) else None
    bar = threshold(len(sums))
    return {name: Honesty(log_evidence(s), bar, tested[name]) for name, s in sums.items()}


def _figures(totals: Sequence[Totals], unit_chips: int, honesty: Honesty | None = None,
             fallback: bool = False) -> Figures:
    """The figures of a player's blocks; AIVAT's only when every block measured it (the
    chance-corrected figure in its place under ``fallback``: a player failed the honesty
    test)."""
    hands = np.array([t.hands for t in totals], dtype=np.float64)
    net = np.array([t.net for t in totals], dtype=np.float64) / unit_chips
    luck = np.array([t.luck for t in totals], dtype=np.float64) / unit_chips
    raw = ratio_stats(net, hands)
    aivat = None
    if totals and all(t.aivat is not None for t in totals):
        corrections = np.array([t.aivat for t in totals], dtype=np.float64) / unit_chips
        policy = all(t.policy for t in totals)
        chance = aivat_figures(raw, net, luck, np.zeros_like(net), hands, policy)
        aivat = replace(aivat_figures(raw, net, luck, corrections, hands, policy),
                        honesty=honesty, chance=chance.stat)
        if fallback:
            aivat = replace(chance, honesty=honesty, estimator="chance", chance=chance.stat,
                            corrected=aivat.stat)
    return Figures(raw, luck_adjusted(net, luck, hands), aivat)


# every label of every table size, in the order round the table from the small blind
_POSITIONS = position_labels(MAX_SEATS)


def _position_order(label: str) -> tuple[int, str]:
    return (_POSITIONS.index(label) if label in _POSITIONS else len(_POSITIONS), label)


# --- the printed table --------------------------------------------------------------------------


WIDTH = 80  # a terminal's columns: the table and its notes fit


def format_table(summary: RunSummary) -> str:
    """A table of 80 columns: unit per hand with its 95% interval, luck-adjusted beside it,
    and bb/100 (``summary.json`` also has mbb/hand).

    Below it, a note for every player whose luck adjustment did not narrow the interval.
    """
    short = "SB/h" if summary.unit == "small_bets" else "bb/h"
    w = _column(summary)
    head = (f"{'player':<12}{'hands':>7}  {short + ' [95% CI]':<{w}}"
            f"{'luck-adjusted [95% CI]':<{w}}{'bb/100':>8}")
    lines = [f"{summary.deals} deals in {summary.blocks} blocks; unit: {summary.unit} per hand",
             head, "-" * len(head)]
    for name, p in summary.players.items():
        bb100 = "-" if p.bb_per_100 is None else f"{p.bb_per_100:+.1f}"
        if len(name) > 11:  # a long name gets a line of its own, the figures the next
            lines.append(name)
            name = ""
        lines.append(f"{name:<12}{p.raw.hands:>7}  {_cell_text(p.raw):<{w}}"
                     f"{_cell_text(p.luck_adjusted.stat):<{w}}{bb100:>8}")
    notes = _adjustment_notes(summary) + _fault_notes(summary)
    if any(p.raw.mean is not None and p.raw.ci95 is None for p in summary.players.values()):
        notes.append("note: no CI: an interval needs 2 blocks or more")
    lines += [textwrap.fill(note, WIDTH, subsequent_indent="  ") for note in notes]
    lines += _aivat_lines(summary, short, w)
    return "\n".join(lines)


def _fault_notes(summary: RunSummary) -> list[str]:
    """A line for every player with faults: a failed call into it (its constructor,
    ``start()``, ``act()``...), under ``on_bot_error: fold``, where its seat checked or
    folded instead; the records are in ``blocks.jsonl``."""
    return [f"note: {name} had {p.faults} bot fault{'s' if p.faults > 1 else ''} (its seat "
            f"checked or folded instead; see blocks.jsonl)"
            for name, p in summary.players.items() if p.faults]


def _column(summary: RunSummary) -> int:
    """The width of an interval column: 25, or one more than its widest cell (wide intervals
    of large figures), so that two cells never run together."""
    cells = [_cell_text(s) for p in summary.players.values()
             for s in (p.raw, p.luck_adjusted.stat, *((p.aivat.stat,) if p.aivat else ()))]
    return max(25, 1 + max(map(len, cells), default=0))


def _aivat_lines(summary: RunSummary, short: str, w: int) -> list[str]:
    """AIVAT's figures beside the others, with its variance factor, and a note for each
    player whose own decisions were not corrected."""
    players = [(name, p.aivat) for name, p in summary.players.items() if p.aivat is not None]
    if not players:
        return []
    fallback = any(a.estimator == "chance" for _, a in players)
    title = "AIVAT*" if fallback else "AIVAT"
    lines = [f"{title:<12}{'':>7}  {short + ' [95% CI]':<{w}}{'variance / raw':<25}"]
    for name, aivat in players:
        factor = ("-" if aivat.variance_reduction is None else
            f"1/{aivat.variance_reduction:.1f}")
        if len(name) > 11:
            lines.append(name)
            name = ""
        lines.append(f"{name:<12}{'':>7}  {_cell_text(aivat.stat):<{w}}{factor:<25}")
    lines += [textwrap.fill(note, WIDTH, subsequent_indent="  ")
              for note in honesty_notes(summary)]
    for name, aivat in players:
        if not aivat.policy:
            lines.append(textwrap.fill(
                f"note: {name} states no policy: its own decisions get no AIVAT correction "
                f"(chance only; the other seats' decisions are corrected)", WIDTH,
                subsequent_indent="  "))
    return lines


def honesty_notes(summary: RunSummary) -> list[str]:
    """A note for every player whose play failed the honesty test, and what the AIVAT
    figures are then."""
    notes = []
    for name, p in summary.players.items():
        honesty = p.aivat.honesty if p.aivat is not None else None
        if honesty is not None and honesty.flagged:
            notes.append(f"note: {name}'s actions disagree with its stated policy (honesty "
                         f"test: log evidence {honesty.evidence:.1f} >= {honesty.threshold:.1f};"
                         f" an honest bot reaches it in under 1 run in "
                         f"{round(1 / FALSE_ALARM):,}): its AIVAT corrections are biased")
    if notes:
        notes.append("note: AIVAT* is the chance-corrected figure (net - luck, no action "
                     "corrections) for every player, in place of AIVAT")
    return notes


def _cell_text(stat: Stat) -> str:
    if stat.mean is None:
        return "-"
    if stat.ci95 is None:
        return f"{stat.mean:+.3f} (no CI)"
    return f"{stat.mean:+.3f} [{stat.ci95[0]:+.3f}, {stat.ci95[1]:+.3f}]"


def _adjustment_notes(summary: RunSummary) -> list[str]:
    if summary.run is not None and summary.run.luck_method is None:
        return []  # luck was not measured: the adjusted column repeats the raw one
    if 0 < summary.blocks < MIN_FIT_BLOCKS:
        return [f"note: the luck adjustment needs {MIN_FIT_BLOCKS} blocks to fit its "
                f"coefficient; with {summary.blocks} it repeats the raw figures"]
    notes = []
    for name, p in summary.players.items():
        adjusted = p.luck_adjusted
        if adjusted.narrowed is False:
            assert adjusted.variance_reduction is not None
            notes.append(f"note: the luck adjustment did not narrow {name}'s interval "
                         f"(variance {-adjusted.variance_reduction:+.0%}); read the raw one")
    return notes
