"""Decision traces: one typed JSON line per decision, so that a hand can be explained afterwards.

With tracing on, the agent writes ``trace-b{block}-p{perm}.jsonl`` into its directory of the
output dir (``<output>/bots/<seat name>/``). Each line is a :class:`DecisionRecord` (the
hand and street, its strength, the pre-flop rules' view or every candidate's E with where
its parameters came from, or, while it plays the equilibrium, that strategy's chances; each
live opponent's weights as the 169 classes' means; the chosen action) or, last for a hand, an
:class:`EndRecord` (its public course and our result). Records are validated both ways: the
agent writes only what the schema allows, and a reader refuses a malformed line with a
:class:`TraceError` naming it. Off by default, and then it costs nothing: the agent never
builds a record it will not write.

>>> r = EndRecord(block=0, perm=0, hand=3, seat=1, actions=["a:c"], board="", shown={},
...               net=-2)
>>> parse_record(r.model_dump_json()) == r
True
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from simulator import HoldemError
from simulator.core.files import NONBLOCK
from simulator.core.validation import describe_error


class TraceError(HoldemError, ValueError):
    """A trace file or line that cannot be read."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    block: int
    perm: int
    hand: int
    seat: int = Field(ge=0)


class StrengthRecord(BaseModel):
    """Our strength against the live opponents (``hs`` one per opponent)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    hs: list[float]
    hs_n: float
    ppot: float
    npot: float
    ehs: float
    ehs_optimistic: float


class CandidateRecord(BaseModel):
    """One candidate: its action, E, E's eight parameters, their source and its chance."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    action: str
    E: float
    Pw: float
    ESw: float
    EBw: float
    Pvf: float
    ESvf: float
    EBvf: float
    Phf: float
    EBhf: float
    source: str
    chance: float = Field(ge=0, le=1)


class PreflopRecord(BaseModel):
    """The pre-flop rules at this decision: the strategies' chances given our earlier
    actions, our income rate on the table of the first decision and its thresholds, and the
    defence's equity where it was asked."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    strategies: dict[str, float]
    ir: float
    table: int
    thresholds: dict[str, float]
    expected_players: float
    position: int
    defense_equity: float | None = None
    defense_pays: bool | None = None  # whether that equity pays for a call at its price
    # the equity a call needs: its pot odds, to_call / (pot + to_call), over the share of its
    # equity a hand is taken to realize (absent from traces written before it was recorded)
    defense_price: float | None = None
    chances: dict[str, float]


class RangeRecord(BaseModel):
    """What we believe one live opponent holds: the mean weight of each of the 169 classes'
    possible holdings, in ``agent.strength.ranges.HAND_CLASSES`` order (AA..22, AKs..32s,
    AKo..32o), rounded to 5 decimals."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    opponent: str = Field(max_length=200)
    weights: list[float] = Field(min_length=169, max_length=169)


class DecisionRecord(_Record):
    """One decision (see the module docstring)."""

    kind: Literal["decision"] = "decision"
    street: str
    hole: str
    board: str
    pot: int
    to_call: int
    preflop: PreflopRecord | None = None
    strength: StrengthRecord | None = None
    continued_aggression: bool = False
    candidates: list[CandidateRecord] = []
    equilibrium: dict[str, float] | None = None  # the strategy's chances, in that mode
    ranges: list[RangeRecord] = Field(default=[], max_length=9)  # absent in older traces
    chosen: str

    @model_serializer(mode="wrap")
    def _written(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Without ``equilibrium`` unless it was played: a pipeline decision's line stays as
        it was before the mode existed."""
        data: dict[str, Any] = handler(self)
        if self.equilibrium is None:
            data.pop("equilibrium", None)
        return data


class EndRecord(_Record):
    """How a hand went: every action (``name:f``, ``name:c``, ``name:r<amount>``, board cards
    in brackets), the board, the cards shown and our result in chips."""

    kind: Literal["end"] = "end"
    actions: list[str]
    board: str
    shown: dict[str, str]
    net: int


TraceRecord = DecisionRecord | EndRecord


def parse_record(line: str) -> TraceRecord:
    """One trace line as its record; a line of neither schema is a :class:`TraceError`."""
    last: ValidationError | None = None
    for schema in (DecisionRecord, EndRecord):
        try:
            return schema.model_validate_json(line)
        except ValidationError as exc:
            last = exc
        except RecursionError:
            raise TraceError("nested too deeply to be a trace record") from None
    assert last is not None
    raise TraceError(f"not a trace record ({describe_error(last.errors()[0])})")


def trace_name(block: int, permutation: int) -> str:
    return f"trace-b{block}-p{permutation}.jsonl"


def trace_path(directory: Path, block: int, permutation: int) -> Path:
    return Path(directory) / trace_name(block, permutation)


class TraceWriter:
    """Appends decision records to one block-and-permutation file, opened by the caller
    (through ``BotContext.open_file``, which never follows a symlink)."""

    def __init__(self, file: IO[str]) -> None:
        self._file: IO[str] | None = file

    def write(self, record: TraceRecord) -> None:
        if self._file is not None:
            self._file.write(record.model_dump_json() + "\n")
            if record.kind == "end":  # a reader between hands (the browser's) sees them whole
                self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


@dataclass
class TraceLines:
    """The records of a trace file by line number, and the lines skipped, with why."""

    records: list[tuple[int, TraceRecord]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)


def read_trace_lines(path: Path, hand: int | None = None) -> TraceLines:
    """The records of a trace file (of one hand when ``hand`` is given), in decision order.

    A line that is not a record of the schema (a torn last line, garbage, nesting too deep,
    a field missing or of the wrong type) is skipped and reported, never the end of the
    file: the other hands stay explainable. A file that cannot be opened at all is a
    :class:`TraceError`.
    """
    out = TraceLines()
    try:
        with open_text(Path(path)) as f:
            for number, line in enumerate(f, 1):
                try:
                    record = parse_record(line)
                except TraceError as exc:
                    out.skipped.append((number, str(exc)))
                    continue
                if hand is None or record.hand == hand:
                    out.records.append((number, record))
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceError(f"{path}: cannot read the trace: {exc}") from None
    return out


def read_traces(path: Path, hand: int | None = None) -> list[TraceRecord]:
    """The well-formed records of a trace file (of one hand when ``hand`` is given)."""
    return [record for _, record in read_trace_lines(path, hand).records]


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
