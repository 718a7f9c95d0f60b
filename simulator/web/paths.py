"""The directories a server was given, and the only files it will read under them.

A request names a file as ``ROOT/REL``: the root's number among the directories given and a
path relative to it. A path with ``..``, an absolute path, a NUL, or one that resolves (through
a symlink) outside its root is refused as not found, the same answer as a missing file, so
that a probe learns nothing of what lies outside.

>>> import tempfile
>>> base = Path(tempfile.mkdtemp())
>>> (base / "run").mkdir(); _ = (base / "run" / "summary.json").write_text("{}")
>>> roots = Roots([base])
>>> roots.resolve("0/run/summary.json") == (base / "run" / "summary.json").resolve()
True
>>> for bad in ("0/../etc/passwd", "/etc/passwd", "0//etc/passwd", "1/run", "0/run/x\\x00"):
...     try:
...         roots.resolve(bad)
...     except NotFound:
...         pass
...     else:
...         print("served", bad)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from simulator.core.errors import HoldemError

MAX_WALK = 20_000  # entries looked at when listing what the roots hold
MAX_DEPTH = 5  # a league's pair run lies at ROOT/league/pairs/a/vs-b


class NotFound(HoldemError, LookupError):
    """A path the server will not serve (missing, outside its root, or malformed)."""

    exit_code = 2


@dataclass(frozen=True)
class Found:
    """A results directory under a root: its reference ``ROOT/REL`` and what it is."""

    ref: str
    kind: str  # "run", "league", "exploit", "sng" or "session"


class Roots:
    """The directories given to the server, resolved once."""

    def __init__(self, dirs: Sequence[Path]) -> None:
        self.dirs = tuple(Path(d).resolve() for d in dirs)

    def resolve(self, ref: str) -> Path:
        """The real path of ``ROOT/REL``; :class:`NotFound` if it is not one we serve."""
        root_text, _, rel = ref.partition("/")
        if not root_text.isdigit() or int(root_text) >= len(self.dirs) or "\x00" in ref:
            raise NotFound(f"no such file: {ref!r}")
        root = self.dirs[int(root_text)]
        parts = PurePosixPath(rel).parts if rel else ()
        if rel.startswith("/") or "\\" in rel or any(p in ("..", "") for p in parts):
            raise NotFound(f"no such file: {ref!r}")
        try:
            real = (root / PurePosixPath(*parts)).resolve(strict=True) if parts else root
        except (OSError, RuntimeError):
            raise NotFound(f"no such file: {ref!r}") from None
        if not real.is_relative_to(root):
            raise NotFound(f"no such file: {ref!r}")
        return real

    def ref(self, index: int, path: Path) -> str:
        rel = path.relative_to(self.dirs[index]).as_posix()
        return f"{index}/{rel}" if rel != "." else str(index)

    def found(self) -> list[Found]:
        """Every results directory under the roots, bounded, symlinks not followed."""
        out: list[Found] = []
        for index, root in enumerate(self.dirs):
            inside: list[Path] = []  # a league's pairs and an exploit's runs are its own
            for path in _walk(root):
                if any(path.is_relative_to(p) for p in inside):
                    continue
                kind = kind_of(path)
                if kind is not None:
                    out.append(Found(self.ref(index, path), kind))
                    inside.append(path)
        return out


def kind_of(path: Path) -> str | None:
    """What a directory holds: a league, a sit-and-go field (``holdem sng``: its played
    config ``sng.json`` beside the summary), an exploit run, a run, a play session, or None."""
    if (path / "crosstable.csv").is_file():
        return "league"
    if (path / "summary.json").is_file() and (path / "sng.json").is_file():
        return "sng"
    if (path / "summary.json").is_file():
        return "exploit" if (path / "exploit.png").exists() or _is_exploit(path) else "run"
    if (path / "session.json").is_file():
        return "session"
    return None


def _is_exploit(path: Path) -> bool:
    return (path / "adaptive").is_dir() or (path / "frozen").is_dir()


def _walk(root: Path) -> Iterator[Path]:
    seen = 0
    for top, dirs, _files in os.walk(root, followlinks=False):
        depth = len(Path(top).relative_to(root).parts)
        dirs.sort()
        if depth >= MAX_DEPTH:
            dirs.clear()
        seen += len(dirs) + len(_files)
        if seen > MAX_WALK:
            return
        yield Path(top)
