"""The output dir of a run: checked before anything is written, locked while a run uses it,
and written only through files that are not symlinks.

Every problem a user can cause here is a :class:`OutputDirError` with one line naming the
path, found before a run deletes or writes anything: a dir under a file, a dangling
symlink, a dir that cannot be created or written, a dir another run holds, a symlink
planted where the run writes a file of its own.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp()) / "run"
>>> with DirLock.acquire(prepare_dir(d)) as lock:
...     write_new(d / "a.txt", "x")
...     append(d / "a.txt", "y")
2
>>> (d / "a.txt").read_text()
'xy'
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from simulator.core.errors import HoldemError
from simulator.core.files import NOFOLLOW as _NOFOLLOW

LOCK_FILE = "holdem.lock"
PID_WAIT = 1.0  # seconds a refused run waits for the holder, who has just locked, to say its pid


class OutputDirError(HoldemError, RuntimeError):
    """An output dir that cannot be used: one line naming the path and the problem."""


def first_difference(old: Any, new: Any, path: str = "") -> str | None:
    """Where the config of the run in a directory and the config asked for first differ, as
    ``key: was X, now Y`` (keys dotted, a list's items by index), for the one line that
    refuses ``--resume``; None when they are the same.

    >>> first_difference({"seed": 1, "x": {"y": [1, 2]}}, {"seed": 1, "x": {"y": [1, 3]}})
    'x.y.1: was 2, now 3'
    >>> first_difference({"seed": 9}, {"seed": 10}), first_difference([1], [1])
    ('seed: was 9, now 10', None)
    """
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new), key=str):
            if old.get(key) != new.get(key):
                return first_difference(old.get(key), new.get(key), f"{path}.{key}".strip("."))
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return first_difference(a, b, f"{path}.{i}".strip("."))
    return f"{path or 'config'}: was {old!r}, now {new!r}"


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def prepare_dir(out_dir: Path) -> Path:
    """Create ``out_dir`` (and its parents) or check the one there; never follows a dangling
    symlink and never writes under a file."""
    out_dir = Path(out_dir)
    if out_dir.is_symlink() and not out_dir.exists():
        raise OutputDirError(f"output dir {str(out_dir)!r} is a dangling symlink (to "
                             f"{os.readlink(out_dir)!r})")
    for parent in [out_dir, *out_dir.parents]:
        if os.path.lexists(parent):
            if not parent.is_dir():
                where = "is" if parent == out_dir else f"is under {str(parent)!r}, which is"
                raise OutputDirError(f"output dir {str(out_dir)!r} {where} not a directory")
            break
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputDirError(f"output dir {str(out_dir)!r}: cannot create it: {_why(exc)}"
                             ) from None
    return out_dir


def refuse_symlinks(out_dir: Path, names: Iterable[str]) -> None:
    """Refuse a run whose own file names in ``out_dir`` are symlinks: it would write through
    them into whatever they point at."""
    for name in names:
        path = out_dir / name
        if path.is_symlink():
            raise OutputDirError(f"{str(path)!r} is a symlink (to {os.readlink(path)!r}); a run "
                                 f"writes its own files only: remove it")


class DirLock:
    """An exclusive ``flock`` on ``<dir>/holdem.lock`` for the life of a run.

    The kernel drops the lock when its holder exits, however it exits, so a killed run
    leaves no stale lock; the file keeps the holder's pid to name it in the refusal (emptied
    on release; a run that finds the lock taken before its holder wrote the pid waits for it).
    """

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, out_dir: Path) -> DirLock:
        path = Path(out_dir) / LOCK_FILE
        refuse_symlinks(Path(out_dir), [LOCK_FILE])
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise OutputDirError(f"output dir {str(out_dir)!r}: cannot write in it: "
                                 f"{_why(exc)}") from None
        try:
            _lock_or_refuse(fd, out_dir)
        except BaseException:
            os.close(fd)
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            os.close(fd)
            raise OutputDirError(f"output dir {str(out_dir)!r}: cannot write in it: "
                                 f"{_why(exc)}") from None
        return cls(fd, path)

    def release(self) -> None:
        if self._fd is not None:
            # the pid goes first, still locked: a run that finds the lock taken must never
            # read a former holder's pid as its holder's
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the last descriptor drops the flock
            self._fd = None

    def __enter__(self) -> DirLock:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _lock_or_refuse(fd: int, out_dir: Path) -> None:
    """Take the lock, or refuse naming its holder's pid.

    A holder writes its pid just after it locks, so a run that finds the lock taken at the
    same instant may read the file before the pid is there: it waits for it (or for the lock,
    should the holder end first) up to ``PID_WAIT`` seconds before calling the pid unknown.
    """
    deadline = time.monotonic() + PID_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputDirError(f"output dir {str(out_dir)!r}: cannot lock it: "
                                     f"{_why(exc)}") from None
        written = os.pread(fd, 32, 0).decode("ascii", "replace")
        if written.endswith("\n") or time.monotonic() > deadline:
            holder = written.strip() or "unknown"
            raise OutputDirError(f"output dir {str(out_dir)!r} is in use by another run "
                                 f"(pid {holder}); wait for it to end or choose another dir")
        time.sleep(0.005)


def _open(path: Path, flags: int) -> int:
    # O_NOFOLLOW: a symlink planted here after the start-up checks fails instead of being
    # written through
    return os.open(path, flags | _NOFOLLOW | os.O_CLOEXEC, 0o644)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_new(path: Path, text: str) -> None:
    """Start ``path`` anew with ``text`` (never through a symlink)."""
    fd = _open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        _write_all(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def append(path: Path, text: str, *, durable: bool = False) -> int:
    """Append ``text`` (creating the file); with ``durable`` fsync it. Returns the new size."""
    fd = _open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        _write_all(fd, text.encode("utf-8"))
        if durable:
            os.fsync(fd)
        return os.fstat(fd).st_size
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".tmp")
    write_new(tmp, text)
    os.replace(tmp, path)


def open_text(path: Path) -> TextIO:
    """A fresh text file at ``path``, never through a symlink planted there."""
    return os.fdopen(_open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "w",
                     encoding="utf-8")


def open_log(path: Path) -> int:
    """A descriptor appending to ``path`` (a bot's prints go there)."""
    return _open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
