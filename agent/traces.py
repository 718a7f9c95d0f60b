"""Decision traces: one JSON line per decision, so that a hand can be explained afterwards.

With tracing on, the agent writes ``trace-b{block}-p{perm}.jsonl`` into its directory of the
output dir (``<output>/bots/<seat name>/``): per decision the hand and street, its strength
(EHS, HS, PPOT, NPOT), where each E parameter came from (chains at which relax level, or the
heuristics), the E of every candidate and the chosen action. Off by default, and then it
costs nothing: the agent never builds a record it will not write.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from simulator import HoldemError
from simulator.core.files import NONBLOCK


class TraceError(HoldemError, ValueError):
    """A trace file that cannot be read."""


def trace_name(block: int, permutation: int) -> str:
    return f"trace-b{block}-p{permutation}.jsonl"


def trace_path(directory: Path, block: int, permutation: int) -> Path:
    return Path(directory) / trace_name(block, permutation)


class TraceWriter:
    """Appends decision records to one block-and-permutation file, opened by the caller
    (through ``BotContext.open_file``, which never follows a symlink)."""

    def __init__(self, file: IO[str]) -> None:
        self._file: IO[str] | None = file

    def write(self, record: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


@dataclass
class TraceLines:
    """The records of a trace file by line number, and the lines skipped, with why."""

    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)


def read_trace_lines(path: Path, hand: int | None = None) -> TraceLines:
    """The records of a trace file (of one hand when ``hand`` is given), in decision order.

    A line that is not a JSON object with an integer ``hand`` (a torn last line, garbage,
    nesting too deep to read) is skipped and reported, never the end of the file: the other
    hands stay explainable. A file that cannot be opened at all is a :class:`TraceError`.
    """
    out = TraceLines()
    try:
        with open_text(Path(path)) as f:
            for number, line in enumerate(f, 1):
                record, why = _record(line)
                if why is not None:
                    out.skipped.append((number, why))
                elif hand is None or record["hand"] == hand:
                    out.records.append((number, record))
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceError(f"{path}: cannot read the trace: {exc}") from None
    return out


def read_traces(path: Path, hand: int | None = None) -> list[dict[str, Any]]:
    """The well-formed records of a trace file (of one hand when ``hand`` is given)."""
    return [record for _, record in read_trace_lines(path, hand).records]


def _record(line: str) -> tuple[dict[str, Any], str | None]:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return {}, "not a JSON record (torn or garbled)"
    if not isinstance(record, dict):
        return {}, "not a JSON object"
    if type(record.get("hand")) is not int:
        return {}, "no hand number"
    return record, None


def open_text(path: Path) -> IO[str]:
    """A regular file for reading text, line by line (a trace may be long)."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise TraceError(f"{path}: not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, encoding="utf-8", errors="strict")
    except BaseException:
        os.close(fd)
        raise
