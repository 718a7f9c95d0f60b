"""The figures of a run's, a league's, an exploit run's and a sit-and-go's page, read from
their files.

Each page's data is one JSON-ready dict, the same for the server (``/api/report``) and for
``holdem report`` (embedded in one offline HTML file). The cumulative chart is thinned to at
most :data:`CHART_POINTS` points a player, so a 10,000-hand run's page stays small; its band
is the cumulative winnings' 95% band, ``±1.96 sd sqrt(k)`` at hand k with the per-hand sd of
the whole run.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

from simulator.core.errors import HoldemError
from simulator.core.files import FileRefused, read_regular

CHART_POINTS = 400
MAX_JSON_BYTES = 16 << 20
MAX_CSV_BYTES = 256 << 20


class ReportError(HoldemError, ValueError):
    """A results directory whose files cannot be read."""


def _read(path: Path, limit: int) -> str:
    try:
        return read_regular(path, limit).decode("utf-8")
    except FileNotFoundError:
        raise ReportError(f"{path.name}: missing") from None
    except FileRefused as exc:
        raise ReportError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path.name}: cannot read: {exc}") from None


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(_read(path, MAX_JSON_BYTES))
    except ValueError as exc:
        raise ReportError(f"{path.name}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ReportError(f"{path.name}: expected an object")
    return data


def _interval(stat: Any) -> list[float] | None:
    """``[mean, low, high]`` of a summary's statistic, whichever spelling it uses."""
    if not isinstance(stat, dict) or "mean" not in stat:
        return None
    if "ci95" in stat:
        low, high = stat["ci95"]
    else:
        low, high = stat.get("ci_low"), stat.get("ci_high")
    return [float(stat["mean"]), float(low), float(high)]


def run_report(path: Path) -> dict[str, Any]:
    """A run's win-rate table (raw, luck-adjusted, AIVAT where present), cumulative chart with
    bands, faults and notes."""
    summary = _json(path / "summary.json")
    rows = []
    for name, p in summary.get("players", {}).items():
        rows.append({"name": name, "hands": p.get("hands"), "raw": _interval(p),
                     "luck": _interval(p.get("luck_adjusted")),
                     "aivat": _interval(p.get("aivat")), "faults": p.get("faults", 0)})
    notes = [str(n) for n in summary.get("notes", [])]
    has_hands = (path / "hands.phhs").is_file()
    if not has_hands:
        notes.append("no hand histories: run again with output.hand_histories: true to "
                     "replay its hands")
    return {"kind": "run", "unit": summary.get("unit", "chips"), "deals": summary.get("deals"),
            "blocks": summary.get("blocks"), "rows": rows, "faults": summary.get("faults", 0),
            "notes": notes, "chart": cumulative(path / "hands.csv",
                                                float(summary.get("bb_scale", 1.0)),
                                                _big_blind(summary)),
            "has_hands": has_hands}


def _big_blind(summary: dict[str, Any]) -> float:
    try:
        blinds = summary["config"]["game"]["blinds"]
        return float(max(blinds)) * float(summary.get("big_blinds_per_unit", 1.0))
    except (KeyError, TypeError, ValueError):
        return 1.0


def cumulative(path: Path, _scale: float, unit_chips: float) -> dict[str, Any]:
    """Each player's cumulative winnings in the summary's unit over the hands, thinned, with
    the 95% band."""
    if not path.is_file():
        return {"hands": [], "series": []}
    reader = csv.reader(io.StringIO(_read(path, MAX_CSV_BYTES)))
    header = next(reader, [])
    columns = [(i, h[4:]) for i, h in enumerate(header) if h.startswith("net:")]
    nets: list[list[float]] = [[] for _ in columns]
    for row in reader:
        for k, (i, _) in enumerate(columns):
            try:
                nets[k].append(float(row[i]) / unit_chips)
            except (IndexError, ValueError):
                raise ReportError(f"hands.csv: bad row {row[:4]}") from None
    total = len(nets[0]) if nets else 0
    marks = chart_marks(total)
    series = []
    for (_, name), values in zip(columns, nets, strict=True):
        mean = sum(values) / total if total else 0.0
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, total - 1))
        running, ys, k = 0.0, [], 0
        for j, v in enumerate(values, 1):
            running += v
            if k < len(marks) and marks[k] == j:
                ys.append(round(running, 3))
                k += 1
        bands = [round(1.96 * sd * math.sqrt(m), 3) for m in marks]
        series.append({"name": name, "y": ys, "band": bands})
    return {"hands": marks, "series": series}


def league_report(path: Path, ref: str) -> dict[str, Any]:
    """The crosstable with intervals, each cell linking to its pair's run."""
    reader = csv.DictReader(io.StringIO(_read(path / "crosstable.csv", MAX_JSON_BYTES)))
    bots: list[str] = []
    cells = []
    for row in reader:
        try:
            a, b = row["row"], row["column"]
            cell = {"row": a, "column": b, "mean": float(row["mean"]),
                    "low": float(row["ci_low"]), "high": float(row["ci_high"]),
                    "hands": row.get("hands"), "estimator": row.get("estimator", "")}
        except (KeyError, ValueError, TypeError):
            raise ReportError("crosstable.csv: a row without mean, ci_low, ci_high") from None
        if a not in bots:
            bots.append(a)
        for side in ((a, b), (b, a)):
            if (path / "pairs" / side[0] / f"vs-{side[1]}").is_dir():
                cell["pair"] = f"{ref}/pairs/{side[0]}/vs-{side[1]}"
                break
        cells.append(cell)
    unit = next((c.get("unit") for c in csv.DictReader(
        io.StringIO(_read(path / "crosstable.csv", MAX_JSON_BYTES)))), "")
    return {"kind": "league", "bots": [b for b in bots], "cells": cells, "unit": unit}


def exploit_report(path: Path, ref: str) -> dict[str, Any]:
    """LBR's figures: each learning mode's win rate, raw and AIVAT, in its unit and mbb/g."""
    summary = _json(path / "summary.json")
    runs = []
    for mode, r in (summary.get("runs") or {}).items():
        if not isinstance(r, dict):
            continue
        aivat = r.get("aivat") or {}
        runs.append({"mode": mode, "hands": r.get("hands"), "per_hand": _interval(
            r.get("per_hand")), "mbb": _interval(r.get("mbb_per_game")),
            "aivat_mbb": _interval(aivat.get("mbb_per_game")),
            "faults": r.get("faults", 0), "run": f"{ref}/{r.get('dir', mode)}"})
    return {"kind": "exploit", "bot": summary.get("bot"), "unit": summary.get("unit"),
            "headline": summary.get("headline"), "sign": summary.get("sign", ""),
            "runs": runs, "notes": [str(n) for n in summary.get("notes", [])]}


def chart_marks(total: int) -> list[int]:
    """The points (1-based counts of hands or rounds) a chart of ``total`` keeps: every
    ``stride``-th, at most :data:`CHART_POINTS` of them, and always the last.

    >>> chart_marks(5), chart_marks(0), len(chart_marks(10_000)), chart_marks(10_001)[-2:]
    ([1, 2, 3, 4, 5], [], 400, [9984, 10001])
    """
    stride = max(1, math.ceil(total / CHART_POINTS))
    marks = list(range(stride, total + 1, stride))
    if total and marks[-1:] != [total]:
        marks.append(total)
    return marks


def _stat(stat: Any) -> list[float | None] | None:
    """``[mean, low, high]`` of a sit-and-go figure; ``low`` and ``high`` are None where it
    has no interval (fewer than two units)."""
    if not isinstance(stat, dict) or not isinstance(stat.get("mean"), int | float):
        return None
    ci = stat.get("ci95")
    if isinstance(ci, list) and len(ci) == 2:
        return [float(stat["mean"]), float(ci[0]), float(ci[1])]
    return [float(stat["mean"]), None, None]


SNG_FIGURES = ("roi", "average_place", "in_the_money", "prize", "chips")


def sng_report(path: Path) -> dict[str, Any]:
    """A field of sit-and-gos: per bot ROI, average place, in-the-money share, prize and
    chips with their intervals, the place distribution, duplicate's variance factor; the
    chip stacks over the first tournament (``stacks.json``, thinned), faults and notes."""
    summary = _json(path / "summary.json")
    reduction = summary.get("duplicate_variance_reduction") or {}
    rows = []
    for name, b in (summary.get("bots") or {}).items():
        if not isinstance(b, dict):
            continue
        row: dict[str, Any] = {"name": name, **{k: _stat(b.get(k)) for k in SNG_FIGURES}}
        row["places"] = [_stat(p) for p in b.get("places", [])]
        factor = reduction.get(name) if isinstance(reduction, dict) else None
        row["variance_factor"] = float(factor) if isinstance(factor, int | float) else None
        rows.append(row)
    notes = [str(summary.get("method", ""))] if summary.get("method") else []
    if summary.get("unfinished"):
        notes.append(f"{summary['unfinished']} tournaments reached max_hands and were placed "
                     f"by their chips")
    has_hands = (path / "hands.phhs").is_file()
    if not has_hands:
        notes.append("no hand histories: run again with output.hand_histories: true to "
                     "replay its hands")
    best = summary.get("best_vs_second")
    return {"kind": "sng", "tournaments": summary.get("tournaments"),
            "units": summary.get("units"), "hands": summary.get("hands"),
            "duplicate": bool(summary.get("duplicate")), "buy_in": summary.get("buy_in"),
            "payouts": summary.get("payouts", []), "rows": rows,
            "faults": summary.get("bot_faults", 0),
            "best_vs_second": None if not isinstance(best, dict) else {
                "best": best.get("best"), "second": best.get("second"),
                "roi_difference": _stat(best.get("roi_difference"))},
            "has_variance_factor": bool(reduction), "notes": notes,
            "chart": _stacks(path / "stacks.json", summary.get("entrants") or []),
            "has_hands": has_hands}


def _stacks(path: Path, names: list[Any]) -> dict[str, Any]:
    """Each entrant's chips (``names``: the entrants in config order, as the trace has them)
    after each round of the traced tournament, thinned to :data:`CHART_POINTS` rounds (the
    last always kept)."""
    if not path.is_file():
        return {"hands": [], "series": [], "tournament": None}
    data = _json(path)
    chips = data.get("chips")
    if not isinstance(chips, list) or not all(isinstance(c, list) for c in chips):
        raise ReportError("stacks.json: expected chips per round")
    total = len(chips)
    marks = chart_marks(total)
    width = len(chips[0]) if chips else 0
    series = []
    for e in range(width):
        name = str(names[e]) if e < len(names) else f"entrant {e}"
        try:
            series.append({"name": name, "y": [float(chips[m - 1][e]) for m in marks]})
        except (IndexError, TypeError, ValueError):
            raise ReportError(f"stacks.json: bad chips at round {total}") from None
    return {"hands": marks, "series": series, "tournament": data.get("tournament")}


def report_of(path: Path, kind: str, ref: str) -> dict[str, Any]:
    if kind == "sng":
        return sng_report(path)
    if kind == "league":
        return league_report(path, ref)
    if kind == "exploit":
        return exploit_report(path, ref)
    if kind == "run":
        return run_report(path)
    raise ReportError(f"{ref}: not a run, league, exploit or sit-and-go directory")
