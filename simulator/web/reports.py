"""The figures of a run's, a league's and an exploit run's page, read from their files.

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
    stride = max(1, math.ceil(total / CHART_POINTS))
    marks = list(range(stride, total + 1, stride))
    if total and (not marks or marks[-1] != total):
        marks.append(total)
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


def report_of(path: Path, kind: str, ref: str) -> dict[str, Any]:
    if kind == "league":
        return league_report(path, ref)
    if kind == "exploit":
        return exploit_report(path, ref)
    if kind == "run":
        return run_report(path)
    raise ReportError(f"{ref}: not a run, league or exploit directory")
