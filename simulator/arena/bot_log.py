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
    """A text stream that starts every line it writes to ``stream`` with the current tag.

    A worker's stdout and stderr share one file, each through its own buffer, so only whole
    lines are passed on (and flushed at once): a line that ``print`` writes in two calls
    (its text, then its newline) can then not be split by the other stream's line.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._pending = ""  # the start of a line not yet ended, tag included

    def write(self, text: str) -> int:
        whole = []
        for line in text.splitlines(keepends=True):
            if not self._pending:
                self._pending = _tag
            self._pending += line
            if line.endswith(("\n", "\r")):
                whole.append(self._pending)
                self._pending = ""
        if whole:
            self._stream.write("".join(whole))
            self._stream.flush()
        return len(text)

    def flush(self) -> None:
        if self._pending:  # asked for: a line cut short is written as it stands
            self._stream.write(self._pending)
            self._pending = ""
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
