"""Where a bot's decision trace is, and how a hand's lines are told from the others: the
convention the browser reads (a live table after each hand, a replayed hand at each step).

A bot that explains its decisions writes into its directory of the output dir one file a
block and permutation, named ``trace-b{B}-p{P}.jsonl`` or ``NAME-trace-b{B}-p{P}.jsonl``
(``NAME`` of letters, digits, ``_`` and ``.``), one JSON object a line. A decision's line
opens with its block, permutation and hand, ``{"block":B,"perm":P,"hand":H,``, and has
``"kind": "decision"``; its other fields are the bot's own (the page draws the heuristic
agent's and ``vexbot``'s).

>>> line_prefix(1, 0, 7)
b'{"block":1,"perm":0,"hand":7,'
>>> is_decision({"block": 1, "kind": "decision"}), is_decision({"kind": "end"}), is_decision([])
(True, False, False)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


def trace_file(directory: Path, block: int, perm: int) -> Path | None:
    """The bot's trace file of ``block`` and ``perm`` in ``directory`` (the first by name if
    there are several), or None; a symlink is never taken for one.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "vexbot-trace-b0-p1.jsonl").write_text("")
    >>> trace_file(d, 0, 1).name, trace_file(d, 0, 0), trace_file(d / "absent", 0, 1)
    ('vexbot-trace-b0-p1.jsonl', None, None)
    """
    name = re.compile(rf"(?:[A-Za-z0-9_.]+-)?trace-b{block}-p{perm}\.jsonl")
    try:
        entries = sorted(directory.iterdir())
    except OSError:
        return None
    for entry in entries:
        if name.fullmatch(entry.name) and not entry.is_symlink() and entry.is_file():
            return entry
    return None


def line_prefix(block: int, perm: int, hand: int) -> bytes:
    """How a decision line of this hand opens."""
    return f'{{"block":{block},"perm":{perm},"hand":{hand},'.encode()


def is_decision(record: Any) -> bool:
    """Whether a parsed line is a decision's record."""
    return isinstance(record, dict) and record.get("kind") == "decision"
