"""The tag of every line a worker's bots print into ``bots.log``: the block and the seating.

A duplicate block plays its seatings deal by deal, each with its own bots, so without a tag
their prints interleave with nothing to tell them apart. A worker wraps its Python streams in
:class:`TaggedStream`, and its block monitor names the block and seating about to play
(:func:`set_tag`) before each of its bot calls, so that each line a bot prints starts with
``[block B, seating P]``. What C code writes straight to file descriptors 1 and 2 is not
tagged: the tag lives in Python.

>>> import io
>>> out = io.StringIO()
>>> stream = TaggedStream(out)
>>> set_tag(3, 1); print("hello", file=stream); print("a", "b", sep="\\n", file=stream)
>>> out.getvalue()
'[block 3, seating 1] hello\\n[block 3, seating 1] a\\n[block 3, seating 1] b\\n'
"""

from __future__ import annotations

import io
from typing import TextIO

_tag = ""


def set_tag(block: int, seating: int) -> None:
    """Tag what the bots print from now on with ``block`` and ``seating``."""
    global _tag
    _tag = f"[block {block}, seating {seating}] "


class TaggedStream(io.TextIOBase):
    """A text stream that starts every line it writes to ``stream`` with the current tag."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._at_start = True

    def write(self, text: str) -> int:
        pieces = []
        for line in text.splitlines(keepends=True):
            if self._at_start:
                pieces.append(_tag)
            pieces.append(line)
            self._at_start = line.endswith(("\n", "\r"))
        self._stream.write("".join(pieces))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._stream.encoding
