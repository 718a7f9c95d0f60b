"""Results of a run on disk: the output dir's files, appending blocks, resume, reading back.

An output dir holds:

* ``run.json``: the config that decides the results (checked again on ``--resume``), the seed
  and the package version;
* ``hands.csv``: one row per played hand, appended and flushed block by block: block,
  permutation, deal, button, then per player its table seat (-1 when not dealt in), its net
  chips and its luck correction in chips;
* ``blocks.jsonl``: one line per finished block, written after its hands, with per-player
  totals (hands, net, luck, and the same per position). A block is finished when its line is
  there: rows of a block without a line are an interrupted block, dropped on resume;
* ``summary.json``: the statistics (:func:`simulator.arena.summary.summarise`, over blocks as
  :mod:`simulator.arena.stats` describes), written at the end of a run.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.core.errors import HoldemError
from simulator.core.positions import positions_of

RUN_FILE = "run.json"
HANDS_FILE = "hands.csv"
BLOCKS_FILE = "blocks.jsonl"
SUMMARY_FILE = "summary.json"
HISTORY_FILE = "hands.phhs"
PLOT_FILES = ("cumulative.png", "winrates.png")
# Everything a run writes; --force removes exactly these, never anything else in the dir.
RUN_FILES = (RUN_FILE, HANDS_FILE, BLOCKS_FILE, SUMMARY_FILE, HISTORY_FILE, *PLOT_FILES)


class ResultsError(HoldemError, RuntimeError):
    """An output dir that cannot be used as asked (holds results, or another run's)."""


# --- one block's results ------------------------------------------------------------------------


@dataclass
class BlockRecord:
    """The hands of one block (all permutations) as arrays, players in config order."""

    block: int
    deals: int
    perm: np.ndarray  # (H,) permutation index
    hand: np.ndarray  # (H,) hand number within the permutation's match
    button: np.ndarray  # (H,) button seat
    seat: np.ndarray  # (H, P) table seat per player, -1 when not dealt in
    net: np.ndarray  # (H, P) chips
    luck: np.ndarray  # (H, P) chips of luck (the luck-adjusted result is net - luck)
    faults: list[str] = field(default_factory=list)
    # filled by prepare() where the block is played, so the writing process only writes
    text: str | None = None
    summary_line: dict[str, Any] | None = None

    @property
    def rows(self) -> int:
        return len(self.hand)

    def prepare(self, names: Sequence[str], num_seats: int) -> BlockRecord:
        """Format the CSV rows and the totals now (in a worker, off the writer's core)."""
        self.text = _rows_text(self)
        self.summary_line = self.totals(names, num_seats)
        return self

    def totals(self, names: Sequence[str], num_seats: int) -> dict[str, Any]:
        """The block's line in ``blocks.jsonl``: per-player and per-position sums."""
        played = self.seat >= 0
        players: dict[str, Any] = {}
        positions: list[dict[str, list[float]]] = [{} for _ in names]
        for h in range(self.rows):
            labels = positions_of(self.seat[h].tolist(), int(self.button[h]), num_seats)
            for p, label in enumerate(labels):
                if label is not None:
                    cell = positions[p].setdefault(label, [0, 0, 0.0])
                    cell[0] += 1
                    cell[1] += int(self.net[h, p])
                    cell[2] += float(self.luck[h, p])
        for p, name in enumerate(names):
            players[name] = {"hands": int(played[:, p].sum()), "net": int(self.net[:, p].sum()),
                             "luck": float(self.luck[:, p].sum()), "positions": positions[p]}
        return {"block": self.block, "deals": self.deals, "rows": self.rows,
                "players": players, "faults": self.faults}


def _header(names: Sequence[str]) -> list[str]:
    cols = ["block", "perm", "hand", "button"]
    for kind in ("seat", "net", "luck"):
        cols += [f"{kind}:{n}" for n in names]
    return cols


def _rows_text(record: BlockRecord) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for h in range(record.rows):
        writer.writerow([record.block, int(record.perm[h]), int(record.hand[h]),
                         int(record.button[h]), *record.seat[h].tolist(),
                         *record.net[h].tolist(), *(repr(float(x)) for x in record.luck[h])])
    return buf.getvalue()


# --- the output dir -----------------------------------------------------------------------------


def holds_results(out_dir: Path) -> bool:
    return any((out_dir / name).exists() for name in (RUN_FILE, HANDS_FILE, BLOCKS_FILE,
                                                       SUMMARY_FILE))


class RunStore:
    """Appends finished blocks to an output dir and reads them back.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> store = RunStore.create(d, {"seed": 1}, names=("a", "b"), resume=False, force=False)
    >>> store.done_blocks()
    set()
    """

    def __init__(self, out_dir: Path, names: Sequence[str]) -> None:
        self.dir = Path(out_dir)
        self.names = tuple(names)
        self._phh_hands = 0  # hands in hands.phhs; tables of the next block are numbered on

    @classmethod
    def create(cls, out_dir: Path, meta: dict[str, Any], names: Sequence[str], *,
               resume: bool, force: bool) -> RunStore:
        """Start (or, with ``resume``, continue) a run in ``out_dir``.

        Refuses a dir that holds results unless ``resume`` (the same config) or ``force``
        (remove this tool's files, and only those).
        """
        out_dir = Path(out_dir)
        if out_dir.exists() and not out_dir.is_dir():
            raise ResultsError(f"output.dir {str(out_dir)!r} exists and is not a directory")
        store = cls(out_dir, names)
        existing = holds_results(out_dir)
        if resume and existing:
            store._check_same_run(meta)
            store._drop_unfinished_rows()
            blocks = store.read_blocks()
            store._phh_hands = blocks[-1].get("phh_hands", 0) if blocks else 0
            return store
        if existing and not force:
            raise ResultsError(f"output dir {str(out_dir)!r} already holds results: pass "
                               f"--resume to continue that run or --force to start over")
        if force:
            for name in RUN_FILES:
                (out_dir / name).unlink(missing_ok=True)
        out_dir.mkdir(parents=True, exist_ok=True)
        _write_atomic(out_dir / RUN_FILE, json.dumps(meta, indent=2) + "\n")
        with open(out_dir / HANDS_FILE, "w", encoding="utf-8", newline="") as f:
            f.write(",".join(_header(names)) + "\n")
        (out_dir / BLOCKS_FILE).write_text("", encoding="utf-8")
        return store

    def _check_same_run(self, meta: dict[str, Any]) -> None:
        try:
            old = json.loads((self.dir / RUN_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ResultsError(f"cannot resume {str(self.dir)!r}: {RUN_FILE} unreadable "
                               f"({exc}); use --force to start over") from None
        if old.get("result_config") != meta.get("result_config"):
            diff = _first_difference(old.get("result_config"), meta.get("result_config"))
            raise ResultsError(f"cannot resume {str(self.dir)!r}: the config differs from the "
                               f"run there ({diff}); use --force to start over")

    def read_blocks(self) -> list[dict[str, Any]]:
        """Finished blocks' lines; a torn last line (killed mid-write) is ignored."""
        path = self.dir / BLOCKS_FILE
        if not path.exists():
            return []
        out = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def done_blocks(self) -> set[int]:
        return {b["block"] for b in self.read_blocks()}

    def _drop_unfinished_rows(self) -> None:
        """Remove rows of blocks that have no line in blocks.jsonl (an interrupted block)."""
        done = self.done_blocks()
        path = self.dir / HANDS_FILE
        if not path.exists():
            raise ResultsError(f"cannot resume {str(self.dir)!r}: {HANDS_FILE} is missing")
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        header = ",".join(_header(self.names)) + "\n"
        if not lines or lines[0] != header:
            raise ResultsError(f"cannot resume {str(self.dir)!r}: {HANDS_FILE} has another "
                               f"header than this config's players")
        kept = [header]
        for line in lines[1:]:
            if line.endswith("\n") and line.split(",", 1)[0].isdigit() and \
                    int(line.split(",", 1)[0]) in done:
                kept.append(line)
        if len(kept) != len(lines):
            _write_atomic(path, "".join(kept))
        self._truncate_histories()
        # a torn last line in blocks.jsonl would glue onto the next line appended: drop it
        blocks_path = self.dir / BLOCKS_FILE
        text = blocks_path.read_text(encoding="utf-8")
        if text and not text.endswith("\n"):
            _write_atomic(blocks_path, text[: text.rfind("\n") + 1])

    def _truncate_histories(self) -> None:
        """Cut ``hands.phhs`` back to the end of the last finished block's hands."""
        path = self.dir / HISTORY_FILE
        blocks = self.read_blocks()
        end = blocks[-1].get("phh_bytes", 0) if blocks else 0
        if path.exists() and path.stat().st_size > end:
            with open(path, "r+b") as f:
                f.truncate(end)

    def append(self, record: BlockRecord, num_seats: int,
               histories: Callable[[int], str] | None = None) -> None:
        """Write a finished block: its hands first, then the line that marks it finished.

        ``histories(start)`` gives the block's PHHS text with tables numbered from ``start``.
        """
        totals = dict(record.summary_line or record.totals(self.names, num_seats))
        _append_durably(self.dir / HANDS_FILE,
                        record.text if record.text is not None else _rows_text(record))
        if histories is not None:
            start = self._phh_hands
            totals["phh_bytes"] = _append_durably(
                self.dir / HISTORY_FILE, ("\n" if start else "") + histories(start + 1))
            self._phh_hands = totals["phh_hands"] = start + record.rows
        _append_durably(self.dir / BLOCKS_FILE, json.dumps(totals, separators=(",", ":")) + "\n")

    def write_summary(self, summary: dict[str, Any]) -> Path:
        path = self.dir / SUMMARY_FILE
        _write_atomic(path, json.dumps(summary, indent=2) + "\n")
        return path


def _append_durably(path: Path, text: str) -> int:
    """Append and fsync, so a finished block survives a crash; returns the file's new size."""
    with open(path, "a", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
        return f.tell()


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _first_difference(old: Any, new: Any, path: str = "") -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                return _first_difference(old.get(key), new.get(key), f"{path}.{key}".strip("."))
    return f"{path or 'config'}: was {old!r}, now {new!r}"


# --- reading hands back -------------------------------------------------------------------------


@dataclass(frozen=True)
class HandTable:
    """Every finished hand, sorted by (block, permutation, hand): the order plots use."""

    names: tuple[str, ...]
    block: np.ndarray
    perm: np.ndarray
    hand: np.ndarray
    button: np.ndarray
    seat: np.ndarray
    net: np.ndarray
    luck: np.ndarray


def load_hands(out_dir: Path) -> HandTable:
    """Read ``hands.csv``, keeping only finished blocks' rows."""
    out_dir = Path(out_dir)
    path = out_dir / HANDS_FILE
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split(",")
        names = tuple(c.split(":", 1)[1] for c in header if c.startswith("net:"))
        text = f.read()
    p = len(names)
    done = RunStore(out_dir, names).done_blocks()
    rows = [line.split(",") for line in text.splitlines() if line.count(",") == 3 + 3 * p]
    data = np.array(rows, dtype=np.float64).reshape(-1, 4 + 3 * p)
    data = data[np.isin(data[:, 0].astype(np.int64), sorted(done))]
    data = data[np.lexsort((data[:, 2], data[:, 1], data[:, 0]))]
    ints = data[:, : 4 + 2 * p].astype(np.int64)
    return HandTable(names, ints[:, 0], ints[:, 1], ints[:, 2], ints[:, 3],
                     ints[:, 4: 4 + p], ints[:, 4 + p: 4 + 2 * p], data[:, 4 + 2 * p:])
