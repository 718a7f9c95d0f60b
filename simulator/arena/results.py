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
* ``summary.json``: the statistics (:func:`simulator.arena.summary.summarise`, over blocks
  as :mod:`simulator.arena.stats` describes), written at the end of a run;
* ``hands.phhs``: with ``output.hand_histories``, every hand as PHH, in block order;
* ``failures.jsonl``: blocks that failed (a worker ended or dead), one line each;
* ``bots.log``: what bots printed in worker processes;
* ``bots/<player>/``: each bot's own files (its ``BotContext.directory``);
* ``holdem.lock``: locked while a run uses the dir, with the holder's pid.

Rows and lines are written in block order, so every file is the same for any number of
workers (a failed block leaves a gap, filled at the end by ``--resume``).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.arena.outdir import (
    DirLock,
    append,
    first_difference,
    prepare_dir,
    refuse_symlinks,
    write_atomic,
    write_new,
)
from simulator.core.errors import HoldemError
from simulator.core.positions import positions_of

RUN_FILE = "run.json"
HANDS_FILE = "hands.csv"
BLOCKS_FILE = "blocks.jsonl"
SUMMARY_FILE = "summary.json"
HISTORY_FILE = "hands.phhs"
FAILURES_FILE = "failures.jsonl"
LOG_FILE = "bots.log"
BOTS_DIR = "bots"
PLOT_FILES = ("cumulative.png", "winrates.png")
# Everything a run writes; --force removes exactly these and the bots' dir, never anything else
# in the dir (nor the lock).
RUN_FILES = (RUN_FILE, HANDS_FILE, BLOCKS_FILE, SUMMARY_FILE, HISTORY_FILE, FAILURES_FILE,
             LOG_FILE, *PLOT_FILES)
# Names a run writes to or through: none may be a symlink.
OWN_NAMES = (*RUN_FILES, BOTS_DIR, *(f"{name}.tmp" for name in (RUN_FILE, SUMMARY_FILE)))


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
    # BotFault records with their block and permutation: hand, seat, name, message, block, perm
    faults: list[dict[str, Any]] = field(default_factory=list)
    # (H, P) chips of AIVAT's action corrections (the AIVAT result is net - luck - aivat);
    # None when the run does not measure AIVAT
    aivat: np.ndarray | None = None
    # per player: whether its bot stated a policy (its own decisions corrected) in every
    # permutation of the block
    policies: tuple[bool, ...] = ()
    # (P, TESTS) per player the honesty test's sums (simulator.arena.honesty); None when the
    # run does not measure AIVAT
    honesty: np.ndarray | None = None
    tested: np.ndarray | None = None  # (P,) the decisions those sums are over
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
            if self.aivat is not None:
                players[name]["aivat"] = float(self.aivat[:, p].sum())
                players[name]["policy"] = bool(self.policies[p]) if self.policies else False
            if self.honesty is not None:
                players[name]["honesty"] = [float(x) for x in self.honesty[p]]
            if self.tested is not None:
                players[name]["tested"] = int(self.tested[p])
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
    return any(os.path.lexists(out_dir / name) for name in (RUN_FILE, HANDS_FILE, BLOCKS_FILE,
                                                            SUMMARY_FILE))


@dataclass(frozen=True)
class _ResumePlan:
    """What a resume keeps, found by reading alone: byte lengths to cut each file back to."""

    blocks: list[dict[str, Any]]
    blocks_bytes: int
    hands_bytes: int
    phh_bytes: int | None  # None: the run writes no hand histories
    phh_hands: int


class RunStore:
    """Appends finished blocks to an output dir and reads them back.

    A store made by :meth:`create` holds the dir's lock until :meth:`close`.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> with RunStore.create(d, {"seed": 1}, names=("a", "b"), resume=False,
    ...                      force=False) as store:
    ...     store.done_blocks()
    set()
    """

    def __init__(self, out_dir: Path, names: Sequence[str]) -> None:
        self.dir = Path(out_dir)
        self.names = tuple(names)
        self._phh_hands = 0  # hands in hands.phhs; tables of the next block are numbered on
        self._lock: DirLock | None = None

    @classmethod
    def create(cls, out_dir: Path, meta: dict[str, Any], names: Sequence[str], *,
               resume: bool, force: bool, num_blocks: int | None = None,
               histories: bool = False, resumable: bool = True) -> RunStore:
        """Start (or, with ``resume``, continue) a run in ``out_dir``, holding its lock.

        Refuses a dir that holds results unless ``resume`` (the same config) or ``force``
        (remove this tool's files, and only those). Every check comes before any change: a
        resume reads the whole store first and refuses what does not add up (exit 2).
        ``resumable=False`` (the ACPC dealer) leaves ``resume`` out of the refusal's advice.
        """
        out_dir = prepare_dir(Path(out_dir))
        lock = DirLock.acquire(out_dir)
        try:
            refuse_symlinks(out_dir, [*OWN_NAMES, *(f"{BOTS_DIR}/{n}" for n in names)])
            store = cls(out_dir, names)
            store._lock = lock
            existing = holds_results(out_dir)
            if resume and existing:
                store._repair(store._check_resume(meta, num_blocks, histories))
            elif existing and not force:
                advice = ("resume=True to continue that run or force=True to start over"
                          if resumable else "force=True to replace them")
                raise ResultsError(f"output dir {str(out_dir)!r} already holds results: pass "
                                   f"{advice}")
            else:
                store._start_fresh(meta)
        except BaseException:
            lock.release()
            raise
        return store

    def close(self) -> None:
        """Release the dir's lock."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start_fresh(self, meta: dict[str, Any]) -> None:
        """Every file of the run starts anew: nothing a former run left is appended to, and
        the bots' dir goes (a file a former run's bot left, or a link planted there, is
        never written through)."""
        try:
            for name in RUN_FILES:
                if os.path.lexists(self.dir / name):
                    os.unlink(self.dir / name)
            if os.path.lexists(self.dir / BOTS_DIR):
                shutil.rmtree(self.dir / BOTS_DIR)  # not a symlink: refused before this
            write_atomic(self.dir / RUN_FILE, json.dumps(meta, indent=2) + "\n")
            write_new(self.dir / HANDS_FILE, ",".join(_header(self.names)) + "\n")
            write_new(self.dir / BLOCKS_FILE, "")
        except OSError as exc:
            raise ResultsError(f"output dir {str(self.dir)!r}: cannot write in it: "
                               f"{exc.strerror or exc}") from None

    # --- resume: read and check everything, then cut back ------------------------------------

    def _refuse(self, problem: str) -> ResultsError:
        return ResultsError(f"cannot resume {str(self.dir)!r}: {problem}; force=True starts "
                            f"over")

    def _read(self, name: str) -> bytes:
        try:
            with open(self.dir / name, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise self._refuse(f"{name} is missing") from None
        except OSError as exc:
            raise self._refuse(f"{name} unreadable ({exc.strerror or exc})") from None

    def _check_resume(self, meta: dict[str, Any], num_blocks: int | None,
                      histories: bool) -> _ResumePlan:
        try:
            old = json.loads(self._read(RUN_FILE).decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise self._refuse(f"{RUN_FILE} unreadable ({exc})") from None
        if not isinstance(old, dict) or old.get("result_config") != meta.get("result_config"):
            other = old.get("result_config") if isinstance(old, dict) else old
            diff = first_difference(other, meta.get("result_config"))
            raise ResultsError(f"cannot resume {str(self.dir)!r}: the config differs from the "
                               f"run there ({diff}); force=True starts over")
        blocks, blocks_bytes = self._check_blocks(num_blocks)
        hands_bytes = self._check_hands({b["block"]: b["rows"] for b in blocks})
        phh_bytes, phh_hands = None, 0
        if histories:
            phh_bytes = blocks[-1].get("phh_bytes", 0) if blocks else 0
            phh_hands = blocks[-1].get("phh_hands", 0) if blocks else 0
            size = (self.dir / HISTORY_FILE).stat().st_size if os.path.lexists(
                self.dir / HISTORY_FILE) else 0
            if size < phh_bytes:
                raise self._refuse(f"{HISTORY_FILE} holds {size} bytes, fewer than the "
                                   f"{phh_bytes} of the finished blocks' hands")
        return _ResumePlan(blocks, blocks_bytes, hands_bytes, phh_bytes, phh_hands)

    def _check_blocks(self, num_blocks: int | None) -> tuple[list[dict[str, Any]], int]:
        """The finished blocks' lines, checked; a torn last line (a kill mid-write) is left
        out, any other bad line is refused."""
        data = self._read(BLOCKS_FILE)
        blocks: list[dict[str, Any]] = []
        seen: set[int] = set()
        end = 0
        for number, line in enumerate(data.splitlines(keepends=True), 1):
            if not line.endswith(b"\n"):
                break  # torn: the block it belongs to is played again
            try:
                block = json.loads(line)
            except (ValueError, RecursionError):
                block = None
            problem = _line_problem(block, self.names, num_blocks)
            if problem is None and block["block"] in seen:
                problem = f"block {block['block']} is listed twice"
            if problem is not None:
                raise self._refuse(f"{BLOCKS_FILE} line {number}: {problem}")
            seen.add(block["block"])
            blocks.append(block)
            end += len(line)
        return blocks, end

    def _check_hands(self, rows: dict[int, int]) -> int:
        """The bytes of ``hands.csv`` to keep: the rows of finished blocks, which come before
        those of an interrupted block; their counts must be the ones in blocks.jsonl."""
        path = self.dir / HANDS_FILE
        header = (",".join(_header(self.names)) + "\n").encode()
        columns = 4 + 3 * len(self.names)
        counts = dict.fromkeys(rows, 0)
        keep = None
        try:
            f = open(path, "rb")
        except FileNotFoundError:
            raise self._refuse(f"{HANDS_FILE} is missing") from None
        with f:
            if f.readline() != header:
                raise self._refuse(f"{HANDS_FILE} has another header than this config's "
                                   f"players")
            offset = len(header)
            for number, line in enumerate(f, 2):
                fields = line.split(b",")
                block = int(fields[0]) if fields[0].isdigit() else None
                complete = line.endswith(b"\n") and len(fields) == columns
                if complete and block in counts:
                    if keep is not None:
                        raise self._refuse(f"{HANDS_FILE} line {number}: a finished block's "
                                           f"row after an unfinished block's rows")
                    counts[block] += 1
                elif complete or not line.endswith(b"\n"):
                    keep = offset if keep is None else keep  # an interrupted block's rows
                else:
                    raise self._refuse(f"{HANDS_FILE} line {number}: expected {columns} "
                                       f"fields, got {len(fields)}")
                offset += len(line)
        for block, count in counts.items():
            if count != rows[block]:
                raise self._refuse(f"{HANDS_FILE} holds {count} rows of block {block}, "
                                   f"{BLOCKS_FILE} says {rows[block]}")
        return offset if keep is None else keep

    def _repair(self, plan: _ResumePlan) -> None:
        """Cut every file back to its finished blocks (the checks have all passed)."""
        try:
            _truncate(self.dir / BLOCKS_FILE, plan.blocks_bytes)
            _truncate(self.dir / HANDS_FILE, plan.hands_bytes)
            if plan.phh_bytes is not None and os.path.lexists(self.dir / HISTORY_FILE):
                _truncate(self.dir / HISTORY_FILE, plan.phh_bytes)
            if os.path.lexists(self.dir / FAILURES_FILE):
                os.unlink(self.dir / FAILURES_FILE)  # failed blocks are played again
        except OSError as exc:
            raise ResultsError(f"cannot resume {str(self.dir)!r}: {exc.strerror or exc}"
                               ) from None
        self._phh_hands = plan.phh_hands

    # --- reading and writing -----------------------------------------------------------------

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

    def append(self, record: BlockRecord, num_seats: int,
               histories: Callable[[int], str] | None = None) -> None:
        """Write a finished block: its hands first, then the line that marks it finished.

        ``histories(start)`` gives the block's PHHS text with tables numbered from ``start``.
        """
        totals = dict(record.summary_line or record.totals(self.names, num_seats))
        append(self.dir / HANDS_FILE,
               record.text if record.text is not None else _rows_text(record), durable=True)
        if histories is not None:
            start = self._phh_hands
            totals["phh_bytes"] = append(self.dir / HISTORY_FILE,
                                         ("\n" if start else "") + histories(start + 1),
                                         durable=True)
            self._phh_hands = totals["phh_hands"] = start + record.rows
        append(self.dir / BLOCKS_FILE, json.dumps(totals, separators=(",", ":")) + "\n",
               durable=True)

    def record_failure(self, failure: dict[str, Any]) -> None:
        """A block that failed (its worker ended or died): one line in ``failures.jsonl``."""
        append(self.dir / FAILURES_FILE, json.dumps(failure) + "\n", durable=True)

    def write_summary(self, summary: dict[str, Any]) -> Path:
        path = self.dir / SUMMARY_FILE
        write_atomic(path, json.dumps(summary, indent=2) + "\n")
        return path


FAULT_KEYS = {"hand": int, "seat": int, "name": str, "message": str, "block": int, "perm": int}


def _line_problem(data: Any, names: Sequence[str], num_blocks: int | None) -> str | None:
    """Why a parsed blocks.jsonl line is not one this store wrote, or None."""
    if not isinstance(data, dict):
        return "not a JSON object"

    def whole(value: Any) -> bool:
        return type(value) is int and value >= 0

    if not whole(data.get("block")) or (num_blocks is not None and data["block"] >= num_blocks):
        return f"block: expected a block number of this run, got {data.get('block')!r}"
    for key in ("deals", "rows"):
        if not whole(data.get(key)):
            return f"{key}: expected a count, got {data.get(key)!r}"
    players = data.get("players")
    if not isinstance(players, dict) or sorted(players) != sorted(names):
        return f"players: expected the players {list(names)}"
    for name, totals in players.items():
        if (not isinstance(totals, dict) or not whole(totals.get("hands")) or
                type(totals.get("net")) is not int or
                type(totals.get("luck")) not in (int, float) or
                not isinstance(totals.get("positions"), dict)):
            return f"players.{name}: expected hands, net, luck and positions"
    faults = data.get("faults")
    if not isinstance(faults, list) or not all(
            isinstance(f, dict) and all(type(f.get(k)) is t for k, t in FAULT_KEYS.items())
            for f in faults):
        return f"faults: expected a list of records with {', '.join(FAULT_KEYS)}"
    for key in ("phh_bytes", "phh_hands"):
        if key in data and not whole(data[key]):
            return f"{key}: expected a count, got {data[key]!r}"
    return None


def _truncate(path: Path, size: int) -> None:
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        if os.fstat(fd).st_size > size:
            os.ftruncate(fd, size)
    finally:
        os.close(fd)


# --- reading hands back -------------------------------------------------------------------------

_INTEGER = re.compile(r"-?[0-9]+")
# What repr(float) writes for a finite float: no nan, inf, underscores, spaces or hex.
_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


class RowError(HoldemError, ValueError):
    """A ``hands.csv`` row that is not what a run writes; the message names the column."""


@dataclass(frozen=True)
class HandRow:
    """One row of ``hands.csv``, every field checked: integers, and finite luck."""

    block: int
    perm: int
    hand: int
    button: int
    seats: tuple[int, ...]
    nets: tuple[int, ...]
    lucks: tuple[float, ...]


def parse_row(fields: Sequence[str], names: Sequence[str]) -> HandRow:
    """The row's fields as numbers, or a :class:`RowError` naming the first bad column.

    >>> parse_row("0,1,2,0,0,1,5,-5,0.25,-0.25".split(","), ("a", "b")).lucks
    (0.25, -0.25)
    >>> parse_row("0,1,2,0,0,1,5,-5,nan,0.0".split(","), ("a", "b"))
    Traceback (most recent call last):
    ...
    simulator.arena.results.RowError: column luck:a: expected a finite number, got 'nan'
    """
    columns = _header(names)
    if len(fields) != len(columns):
        raise RowError(f"expected {len(columns)} fields, got {len(fields)}")
    p = len(names)
    pairs = list(zip(fields, columns, strict=True))
    ints = [_row_int(text, column) for text, column in pairs[: 4 + 2 * p]]
    lucks = tuple(_row_float(text, column) for text, column in pairs[4 + 2 * p:])
    return HandRow(ints[0], ints[1], ints[2], ints[3], tuple(ints[4: 4 + p]),
                   tuple(ints[4 + p:]), lucks)


def _row_int(text: str, column: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise RowError(f"column {column}: expected an integer, got {text!r}")
    return int(text)


def _row_float(text: str, column: str) -> float:
    value = float(text) if _DECIMAL.fullmatch(text) else math.nan
    if not math.isfinite(value):  # also a decimal too large for a float (1e999)
        raise RowError(f"column {column}: expected a finite number, got {text!r}")
    return value


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
    """Read ``hands.csv``, keeping only finished blocks' rows (each checked by
    :func:`parse_row`; a bad one is a :class:`RowError` with its line number)."""
    out_dir = Path(out_dir)
    path = out_dir / HANDS_FILE
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split(",")
        names = tuple(c.split(":", 1)[1] for c in header if c.startswith("net:"))
        lines = f.read().split("\n")[:-1]  # a last line without its newline: cut off
    done = RunStore(out_dir, names).done_blocks()
    rows = []
    for number, line in enumerate(lines, start=2):
        fields = line.split(",")
        if not fields[0].isdigit() or int(fields[0]) not in done:
            continue  # an interrupted block's rows, not a result
        try:
            rows.append(parse_row(fields, names))
        except RowError as exc:
            raise RowError(f"{path}: line {number}: {exc}") from None
    rows.sort(key=lambda r: (r.block, r.perm, r.hand))
    ints = np.array([[r.block, r.perm, r.hand, r.button, *r.seats, *r.nets] for r in rows],
                    dtype=np.int64).reshape(len(rows), 4 + 2 * len(names))
    lucks = np.array([r.lucks for r in rows], dtype=np.float64).reshape(len(rows), len(names))
    p = len(names)
    return HandTable(names, ints[:, 0], ints[:, 1], ints[:, 2], ints[:, 3],
                     ints[:, 4: 4 + p], ints[:, 4 + p:], lucks)
