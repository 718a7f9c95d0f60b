"""The bounded array-archive reader: every malformed file is an ArchiveError naming it."""

from __future__ import annotations

import io
import os
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from simulator.core.archive import (
    ArchiveError,
    Declared,
    Limits,
    read_archive,
    write_archive,
)


def _write(tmp_path: Path, **arrays: np.ndarray) -> Path:
    path = tmp_path / "a.npz"
    write_archive(path, "fmt", 2, {"k": [1, 2]}, arrays or {"x": np.arange(10)})
    return path


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _rewrite(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def test_round_trip_and_header_fields(tmp_path: Path) -> None:
    path = _write(tmp_path, x=np.arange(6).reshape(2, 3), y=np.ones(2, np.float32))
    got = read_archive(path, "fmt", (1, 2))
    assert got.header["k"] == [1, 2] and got.header["version"] == 2
    assert got.arrays["x"].shape == (2, 3) and got.arrays["y"].dtype == np.float32


def test_wrong_format_and_version(tmp_path: Path) -> None:
    path = _write(tmp_path)
    with pytest.raises(ArchiveError, match="not a other file"):
        read_archive(path, "other", (2,))
    with pytest.raises(ArchiveError, match="version 2; this reader reads version 1"):
        read_archive(path, "fmt", (1,))


def test_header_is_covered_by_the_checksum(tmp_path: Path) -> None:
    path = _write(tmp_path)
    members = _members(path)
    raw = members["header.npy"]
    members["header.npy"] = raw.replace(b'"k": [1, 2]', b'"k": [1, 3]')
    assert members["header.npy"] != raw
    _rewrite(path, members)
    with pytest.raises(ArchiveError, match="checksum"):
        read_archive(path, "fmt", (2,))


def test_a_flipped_data_byte_fails(tmp_path: Path) -> None:
    path = _write(tmp_path)
    members = _members(path)
    data = bytearray(members["x.npy"])
    data[-1] ^= 1
    members["x.npy"] = bytes(data)
    _rewrite(path, members)
    with pytest.raises(ArchiveError, match="checksum"):
        read_archive(path, "fmt", (2,))


def test_a_huge_declared_array_is_refused_before_reading(tmp_path: Path) -> None:
    path = _write(tmp_path)
    members = _members(path)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (10**11,)})
    members["x.npy"] = header.getvalue() + b"\0" * 64
    _rewrite(path, members)
    with pytest.raises(ArchiveError, match="declares 800000000000 bytes"):
        read_archive(path, "fmt", (2,))


def test_a_compressed_bomb_costs_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bomb.npz"
    write_archive(path, "fmt", 2, {}, {"x": np.zeros(50_000_000)}, compress=True)
    assert path.stat().st_size < 1_000_000
    with pytest.raises(ArchiveError, match="declares 400000000 bytes"):
        read_archive(path, "fmt", (2,), limits=Limits(array_bytes=10**8))


def test_expect_sees_declared_shapes_first(tmp_path: Path) -> None:
    path = _write(tmp_path, x=np.arange(4))
    seen: dict[str, Declared] = {}

    def expect(header: dict, declared: dict) -> None:
        seen.update(declared)
        raise ArchiveError("refused by the format")

    with pytest.raises(ArchiveError, match="refused by the format"):
        read_archive(path, "fmt", (2,), expect)
    assert seen["x"].shape == (4,) and seen["x"].dtype == np.int64


def test_objects_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    np.savez(path, header=np.frombuffer(b'{"format": "fmt", "version": 2}', np.uint8),
             x=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ArchiveError, match="objects"):
        read_archive(path, "fmt", (2,))


@pytest.mark.parametrize("data", [b"", b"PK\x03\x04junk", b"not a zip at all" * 10])
def test_garbage_and_truncation(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "g.npz"
    path.write_bytes(data)
    with pytest.raises(ArchiveError, match=str(path)):
        read_archive(path, "fmt", (2,))


def test_truncated_archive(tmp_path: Path) -> None:
    path = _write(tmp_path, x=np.arange(10_000))
    path.write_bytes(path.read_bytes()[:-200])
    with pytest.raises(ArchiveError):
        read_archive(path, "fmt", (2,))


def test_missing_dir_fifo_and_size_limit(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="no such file"):
        read_archive(tmp_path / "none.npz", "fmt", (2,))
    with pytest.raises(ArchiveError, match="not a regular file"):
        read_archive(tmp_path, "fmt", (2,))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = threading.Event()

    def read() -> None:
        with pytest.raises(ArchiveError, match="not a regular file"):
            read_archive(fifo, "fmt", (2,))
        done.set()

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(5)
    assert done.is_set(), "reading a FIFO blocked"
    path = _write(tmp_path)
    with pytest.raises(ArchiveError, match="more than the 100"):
        read_archive(path, "fmt", (2,), limits=Limits(file_bytes=100))


def test_writing_replaces_a_planted_symlink(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    link = tmp_path / "a.npz"
    link.symlink_to(victim)
    write_archive(link, "fmt", 2, {}, {"x": np.arange(2)})
    assert victim.read_text() == "keep" and not link.is_symlink()


def test_arrays_that_declare_too_many_bytes_together_are_refused_before_reading(
        tmp_path: Path) -> None:
    path = _write(tmp_path, a=np.zeros(600), b=np.zeros(600))  # 4,800 bytes each
    with pytest.raises(ArchiveError, match="declare 9600 bytes together, more than the 8000"):
        read_archive(path, "fmt", (2,), limits=Limits(total_bytes=8000))
    assert read_archive(path, "fmt", (2,), limits=Limits(total_bytes=9600)).arrays["a"].size
