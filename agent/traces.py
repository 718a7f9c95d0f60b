"""Decision traces: one JSON line per decision, so that a hand can be explained afterwards.

With tracing on, the agent writes ``trace-b{block}-p{perm}.jsonl`` into its directory of the
output dir (``<output>/bots/<seat name>/``): per decision the hand and street, its strength
(EHS, HS, PPOT, NPOT), where each E parameter came from (chains at which relax level, or the
heuristics), the E of every candidate and the chosen action. Off by default, and then it
costs nothing: the agent never builds a record it will not write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from simulator import HoldemError


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


def read_traces(path: Path, hand: int | None = None) -> list[dict[str, Any]]:
    """The records of a trace file (of one hand when ``hand`` is given), in decision order."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceError(f"{path}: cannot read the trace: {exc}") from None
    out = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError:
            raise TraceError(f"{path}:{number}: not a JSON trace record") from None
        if not isinstance(record, dict) or "hand" not in record:
            raise TraceError(f"{path}:{number}: a trace record needs a 'hand'")
        if hand is None or record["hand"] == hand:
            out.append(record)
    return out
