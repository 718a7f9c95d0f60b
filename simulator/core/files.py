"""Files opened with care: writes never follow a symlink, reads take regular files only, and
within a size bound.

A symlink planted where we write would carry our bytes wherever it points, so every file we
write is opened with ``O_NOFOLLOW`` (a planted link fails instead of being written through).
A FIFO or a device where we read would block or never end (``/dev/zero``), so reads open
regular files only and stop at a bound.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> with open_nofollow(d / "a.txt", "w") as f:
...     _ = f.write("hi")
>>> read_regular(d / "a.txt", limit=10)
b'hi'
>>> (d / "link").symlink_to(d / "a.txt")
>>> open_nofollow(d / "link", "w")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
simulator.core.files.FileRefused: ...link: a symlink; we do not follow it
>>> read_regular(Path("/dev/zero"), limit=10)
Traceback (most recent call last):
...
simulator.core.files.FileRefused: /dev/zero: not a regular file
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO, Any

from simulator.core.errors import HoldemError

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_MODES = {
    "r": os.O_RDONLY, "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND, "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL,
}


class FileRefused(HoldemError, OSError):
    """A file we will not open as asked: a symlink, not a regular file, or too big."""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def open_flags(mode: str) -> int:
    """The ``os.open`` flags of a mode among r, w, a, x (with ``b`` for bytes), no-follow."""
    base = mode.replace("b", "")
    if base not in _MODES or mode.count("b") > 1:
        raise ValueError(f"mode: expected one of r, w, a, x (with b for bytes), got {mode!r}")
    return _MODES[base] | NOFOLLOW | os.O_CLOEXEC


def open_nofollow(path: Path, mode: str, encoding: str = "utf-8") -> IO[Any]:
    """``open(path, mode)``, except that a symlink at ``path`` is refused (never followed)
    and only a regular file is opened."""
    try:
        fd = os.open(path, open_flags(mode) | NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileRefused(f"{path}: a symlink; we do not follow it") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused(f"{path}: not a regular file")
        os.set_blocking(fd, True)
        if "b" in mode:
            return os.fdopen(fd, mode.replace("x", "w"))
        return os.fdopen(fd, mode.replace("x", "w"), encoding=encoding)
    except BaseException:
        os.close(fd)
        raise


def check_file_name(name: str) -> str:
    """``name`` if it is a plain file name (no directory part, not ``.`` or ``..``), else
    :class:`FileRefused`.

    >>> check_file_name("trace-b0-p0.jsonl")
    'trace-b0-p0.jsonl'
    >>> check_file_name("../x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    simulator.core.files.FileRefused: file name '../x': expected a plain file name ...
    """
    if (not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\\" in name
            or "\0" in name):
        raise FileRefused(f"file name {name!r}: expected a plain file name (no '/', not '.' "
                          f"or '..')")
    return name


def _read_upto(f: IO[bytes], most: int) -> bytes:
    """Up to ``most`` bytes, read a megabyte at a time: ``read(most)`` would reserve all of
    ``most`` at once, however small the file (a generous limit then fails under a memory
    cap)."""
    chunks, total = [], 0
    while total < most:
        chunk = f.read(min(1 << 20, most - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is
    :class:`FileRefused` naming the file (a missing file stays ``FileNotFoundError``)."""
    try:
        fd = os.open(path, os.O_RDONLY | NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileRefused(f"{path}: cannot open: {_why(exc)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{path}: not a regular file")
        if info.st_size > limit:
            raise FileRefused(f"{path}: {info.st_size} bytes, more than the {limit} it may have")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = _read_upto(f, limit + 1)
    except OSError as exc:
        if isinstance(exc, FileRefused):
            raise
        raise FileRefused(f"{path}: cannot read: {_why(exc)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while we read
        raise FileRefused(f"{path}: more than the {limit} bytes it may have")
    return data
