"""Vexbot's decision trace: one JSON line per decision, in the bot's directory as
``vexbot-trace-b{B}-p{P}.jsonl``, read back by ``holdem explain`` and shown by the browser
(the simulator's trace-line convention: ``simulator/play/trace_files.py``).

A line holds the hand, the seat, the street, the cards, the pot and the price, the hands
learned so far, the chosen action and per candidate action its value (chips, for the hand),
its chance, and which context level the model's estimate right after it came from
(``sequence``, ``bet counts``, ``round``, ``street``, ``any round`` or ``prior``) with the
decayed observations behind it.

>>> r = DecisionTrace(hand=3, seat=0, street="flop", hole="AsKd", board="2c7d9h", pot=8,
...                   to_call=0, chosen="call", hands_learned=10, actions=[ActionTrace(
...                   action="call", value=1.5, probability=1.0, level="prior",
...                   observations=5.0)])
>>> parse_line(r.line()) == r
True
>>> print("\\n".join(describe(r)))
  flop     AsKd  board 2c7d9h  pot 8, to call 0  (10 hands learned)
    call         value   +1.50  chance 1.00  model: prior (5.0 obs.)
    chose call
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator.core.errors import HoldemError
from simulator.core.files import read_regular

MAX_TRACE_BYTES = 1 << 30


class VexbotTraceError(HoldemError, ValueError):
    """A trace file that cannot be read."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ActionTrace(_Record):
    action: str = Field(max_length=100)
    value: float
    probability: float
    level: str | None = Field(default=None, max_length=20)
    observations: float | None = None


class DecisionTrace(_Record):
    # The first fields are the simulator's trace-line convention (simulator/play/
    # trace_files.py): a reader finds a hand's lines by their opening characters.
    block: int = 0  # absent in traces written before the convention
    perm: int = 0
    hand: int
    seat: int
    street: str = Field(max_length=10)
    hole: str = Field(max_length=10)
    board: str = Field(max_length=20)
    pot: int
    to_call: int
    chosen: str = Field(max_length=100)
    hands_learned: int
    actions: list[ActionTrace] = Field(max_length=3)
    kind: Literal["decision"] = "decision"

    def line(self) -> str:
        return self.model_dump_json()


def trace_name(block: int, permutation: int) -> str:
    """The trace file of a block and permutation.

    >>> trace_name(1, 0)
    'vexbot-trace-b1-p0.jsonl'
    """
    return f"vexbot-trace-b{block}-p{permutation}.jsonl"


def parse_line(line: str) -> DecisionTrace:
    try:
        return DecisionTrace.model_validate_json(line)
    except ValidationError as exc:
        raise VexbotTraceError(f"not a vexbot trace line ({exc.error_count()} errors)") from None


def read_hand(path: Path, hand: int) -> tuple[list[DecisionTrace], int]:
    """The records of ``hand`` in a trace file and the count of malformed lines skipped."""
    try:
        text = read_regular(path, MAX_TRACE_BYTES).decode("utf-8", errors="replace")
    except (OSError, HoldemError) as exc:
        raise VexbotTraceError(f"{path}: {exc}") from None
    out, skipped = [], 0
    for line in text.splitlines():
        try:
            record = parse_line(line)
        except VexbotTraceError:
            skipped += 1
            continue
        if record.hand == hand:
            out.append(record)
    return out, skipped


def describe(record: DecisionTrace) -> list[str]:
    """The record as ``holdem explain`` prints it."""
    lines = [f"  {record.street:<8} {record.hole}  board {record.board or '-'}  pot "
             f"{record.pot}, to call {record.to_call}  ({record.hands_learned} hands learned)"]
    for a in record.actions:
        model = ("" if a.level is None else
                 f"  model: {a.level} ({a.observations:.1f} obs.)")
        lines.append(f"    {a.action:<12} value {a.value:+7.2f}  chance {a.probability:.2f}"
                     f"{model}")
    lines.append(f"    chose {record.chosen}")
    return lines
