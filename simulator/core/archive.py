"""Array archives: one versioned, checksummed file of named arrays, read within bounds.

The project's binary data files (opponent models, solved strategies, bucket tables) share one
format, so one reader guards them all. An archive is a zip of ``.npy`` arrays, as
``numpy.savez`` writes it, plus a member ``header``: UTF-8 JSON holding ``format``,
``version``, the format's own fields, and ``checksum``, the CRC-32 of the header without its
checksum (keys sorted) and of every array's name, dtype, shape and bytes in name order. A
flipped bit anywhere, the header's fields included, fails the checksum.

Reading never trusts the file before checking it:

* only a regular file is opened (a FIFO or a device would block or never end), and its size
  must be within ``Limits.file_bytes``;
* every member's declared size, and every array's declared dtype and shape, are checked
  against the limits and against the caller's ``expect`` hook *before* any array is read, so
  a small file that claims a huge array costs nothing;
* pickled objects are refused (``allow_pickle`` is never set).

Every problem is an :class:`ArchiveError` naming the file; a format wraps it in its own error.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "x.npz"
>>> write_archive(path, "demo", 1, {"note": "hi"}, {"a": np.arange(3)})
>>> got = read_archive(path, "demo", (1,))
>>> got.header["note"], got.arrays["a"].tolist()
('hi', [0, 1, 2])
>>> read_archive(path, "other", (1,))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
simulator.core.archive.ArchiveError: ...x.npz: not a other file (format 'demo')
"""

from __future__ import annotations

import io
import json
import os
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from simulator.core.errors import HoldemError
from simulator.core.files import NOFOLLOW as _NOFOLLOW
from simulator.core.files import FileRefused, read_regular

HEADER = "header"
_HEADER_BYTES = 1 << 20  # a header is a few kilobytes of JSON


class ArchiveError(HoldemError, ValueError):
    """An archive that is missing, unreadable, corrupt, too big or of another format."""


@dataclass(frozen=True)
class Limits:
    """Bounds a reader sets before trusting a file: whole-file bytes, bytes of any one array,
    bytes of all arrays together (compressed members may hold far more than the file), and
    the number of members."""

    file_bytes: int = 1 << 30
    array_bytes: int = 1 << 30
    members: int = 10_000
    total_bytes: int = 4 << 30


@dataclass(frozen=True)
class Declared:
    """An array as its ``.npy`` header declares it, before its data is read."""

    dtype: np.dtype
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        count = 1
        for n in self.shape:
            count *= n
        return count * self.dtype.itemsize


@dataclass(frozen=True)
class Archive:
    header: dict[str, Any]
    arrays: dict[str, np.ndarray] = field(default_factory=dict)


Expect = Callable[[dict[str, Any], Mapping[str, Declared]], None]
"""A format's check of the header and the declared arrays, before any array is read; it
raises :class:`ArchiveError` (or the format's subclass of HoldemError) naming the problem."""


def checksum(header: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> int:
    """CRC-32 of the header (without ``checksum``, keys sorted) and of every array."""
    fields = {k: v for k, v in header.items() if k != "checksum"}
    crc = zlib.crc32(json.dumps(fields, sort_keys=True).encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        crc = zlib.crc32(f"{name}|{a.dtype.str}|{a.shape}".encode(), crc)
        crc = zlib.crc32(a.tobytes(), crc)
    return crc


def dump_archive(file: IO[bytes], fmt: str, version: int, fields: Mapping[str, Any],
                 arrays: Mapping[str, np.ndarray], *, compress: bool = False) -> None:
    """Write an archive into an open binary file (which the caller opened safely)."""
    if HEADER in arrays:
        raise ArchiveError(f"an array may not be named {HEADER!r}")
    header = {"format": fmt, "version": version, **fields}
    header["checksum"] = checksum(header, arrays)
    members = {**arrays, HEADER: np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)}
    (np.savez_compressed if compress else np.savez)(file, **members)  # type: ignore[arg-type]


def write_archive(path: str | Path, fmt: str, version: int, fields: Mapping[str, Any],
                  arrays: Mapping[str, np.ndarray], *, compress: bool = False) -> None:
    """Write an archive atomically (a temporary file beside it, then a rename). Neither the
    temporary file nor ``path`` is followed if it is a symlink: the link is replaced."""
    path = Path(path)
    if HEADER in arrays:
        raise ArchiveError(f"{path}: an array may not be named {HEADER!r}")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)  # a stale or planted file: gone, never written through
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            dump_archive(f, fmt, version, fields, arrays, compress=compress)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _open_regular(path: Path, limits: Limits) -> bytes:
    try:
        return read_regular(path, limits.file_bytes)
    except FileNotFoundError:
        raise ArchiveError(f"{path}: no such file") from None
    except FileRefused as exc:
        raise ArchiveError(str(exc)) from None


def _declared(path: Path, zf: zipfile.ZipFile, info: zipfile.ZipInfo, limits: Limits
              ) -> tuple[Declared, int]:
    """The dtype and shape a member declares, and the offset of its data."""
    name = info.filename.removesuffix(".npy")
    with zf.open(info) as f:
        try:
            major, _ = np.lib.format.read_magic(f)
            if major == 1:
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
            elif major in (2, 3):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"npy version {major}")
        except (ValueError, OSError, EOFError, SyntaxError) as exc:
            raise ArchiveError(f"{path}: array {name!r}: not a readable array ({exc})") from None
        offset = f.tell()
    if dtype.hasobject or fortran:
        raise ArchiveError(f"{path}: array {name!r}: objects and Fortran order are not read")
    if not all(isinstance(n, int) and n >= 0 for n in shape):
        raise ArchiveError(f"{path}: array {name!r}: bad shape {shape}")
    declared = Declared(dtype, tuple(shape))
    if declared.nbytes > limits.array_bytes:
        raise ArchiveError(f"{path}: array {name!r} declares {declared.nbytes} bytes, more "
                           f"than the {limits.array_bytes} allowed")
    if info.file_size != offset + declared.nbytes:
        raise ArchiveError(f"{path}: array {name!r}: its size does not match its shape "
                           f"(corrupt or truncated)")
    return declared, offset


def _header(path: Path, fmt: str, versions: tuple[int, ...], raw: np.ndarray
            ) -> dict[str, Any]:
    try:
        header = json.loads(raw.tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ArchiveError(f"{path}: corrupt header ({type(exc).__name__})") from None
    if not isinstance(header, dict):
        raise ArchiveError(f"{path}: corrupt header (not a mapping)")
    if header.get("format") != fmt:
        raise ArchiveError(f"{path}: not a {fmt} file (format {header.get('format')!r})")
    if header.get("version") not in versions:
        raise ArchiveError(f"{path}: {fmt} version {header.get('version')!r}; this reader "
                           f"reads version {', '.join(map(str, versions))}")
    return header


def read_archive(path: str | Path, fmt: str, versions: tuple[int, ...],
                 expect: Expect | None = None, limits: Limits = Limits()) -> Archive:
    """Read and verify an archive written by :func:`write_archive`.

    The header's format and version are checked first, then ``expect`` sees the header and
    every array's declared dtype and shape; only then are the arrays read, and the checksum
    compared last.
    """
    path = Path(path)
    data = _open_regular(path, limits)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise ArchiveError(f"{path}: not a readable archive (corrupt or truncated: {exc})"
                           ) from None
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.members:
            raise ArchiveError(f"{path}: {len(infos)} members, more than {limits.members}")
        try:
            return _read_members(path, zf, infos, fmt, versions, expect, limits)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, zlib.error) as exc:
            if isinstance(exc, HoldemError):
                raise
            raise ArchiveError(f"{path}: corrupt or truncated ({exc})") from None


def _read_members(path: Path, zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], fmt: str,
                  versions: tuple[int, ...], expect: Expect | None, limits: Limits
                  ) -> Archive:
    by_name: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if not info.filename.endswith(".npy") or info.filename.count("/"):
            raise ArchiveError(f"{path}: unexpected member {info.filename!r}")
        by_name[info.filename.removesuffix(".npy")] = info
    if HEADER not in by_name:
        raise ArchiveError(f"{path}: not a {fmt} file (no header)")
    declared = {name: _declared(path, zf, info, limits) for name, info in by_name.items()}
    total = sum(d.nbytes for name, (d, _) in declared.items() if name != HEADER)
    if total > limits.total_bytes:
        raise ArchiveError(f"{path}: its arrays declare {total} bytes together, more than the "
                           f"{limits.total_bytes} allowed")
    head, offset = declared[HEADER]
    if head.dtype != np.uint8 or len(head.shape) != 1 or head.nbytes > _HEADER_BYTES:
        raise ArchiveError(f"{path}: corrupt header (shape {head.shape}, dtype {head.dtype})")
    header = _header(path, fmt, versions, _array(path, zf, by_name[HEADER], head, offset))
    if expect is not None:
        expect(header, {n: d for n, (d, _) in declared.items() if n != HEADER})
    arrays = {name: _array(path, zf, by_name[name], d, off)
              for name, (d, off) in declared.items() if name != HEADER}
    if header.get("checksum") != checksum(header, arrays):
        raise ArchiveError(f"{path}: corrupt (checksum mismatch)")
    return Archive(header, arrays)


def _array(path: Path, zf: zipfile.ZipFile, info: zipfile.ZipInfo, declared: Declared,
           offset: int) -> np.ndarray:
    with zf.open(info) as f:
        f.seek(offset)
        raw = f.read(declared.nbytes + 1)
    if len(raw) != declared.nbytes:
        raise ArchiveError(f"{path}: array {info.filename!r} is truncated")
    return np.frombuffer(raw, dtype=declared.dtype).reshape(declared.shape).copy()
