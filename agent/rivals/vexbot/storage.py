"""Vexbot's opponent model on disk: one checksummed array archive
(:mod:`simulator.core.archive`), read within bounds, the game recorded.

Format ``vexbot-opponent-model``, version 2 (version 1 had three levels and no expected
counts; it is refused, naming the version). The header holds ``game`` (as the agent's
model records it, :func:`agent.modeller.storage.game_record`), ``bins``, ``hands`` (the
model's clock) and ``decay``; the arrays are ``actions<l>`` (contexts, 3) and
``showdowns<l>`` (contexts, bins) float64 counts with their ``...stamp`` int64 arrays, one
pair per back-off level, and at the pooled levels (1 and up) ``...expected`` float64
arrays of the counts the prior expected. Every shape is checked against the context tree
before any array is read; counts must be finite, non-negative and at most 2**53, stamps
within 0..hands.

The agent's own model file (:mod:`agent.modeller.storage`) is a chain store with size
buckets and street-by-context frequencies: a different model, so this is its own format
sharing the same reader. A model that is missing, truncated, corrupt, of another game or
over its bounds is a :class:`~agent.modeller.errors.ModelFileError` naming the file (exit 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from agent.modeller.errors import ModelFileError
from agent.modeller.storage import game_record
from agent.rivals.vexbot.contexts import ACTION_LEVELS, SHOWDOWN_LEVELS
from agent.rivals.vexbot.model import Counts, OpponentModel
from simulator.core.archive import (
    ArchiveError,
    Declared,
    Limits,
    dump_archive,
    read_archive,
    write_archive,
)
from simulator.core.game import GameConfig

FORMAT = "vexbot-opponent-model"
VERSION = 2
MAX_COUNT = float(2**53)
LIMITS = Limits(file_bytes=64 << 20, array_bytes=16 << 20,
                members=3 * (ACTION_LEVELS + SHOWDOWN_LEVELS) + 2, total_bytes=128 << 20)


def _members(model: OpponentModel) -> list[tuple[str, Counts]]:
    """Each level's counts, named as in the file."""
    return ([(f"actions{lv}", c) for lv, c in enumerate(model.actions)]
            + [(f"showdowns{lv}", c) for lv, c in enumerate(model.showdowns)])


def model_name(block: int, permutation: int) -> str:
    """The file a block's learned model is saved to.

    >>> model_name(2, 1)
    'vexbot-b2-p1.model'
    """
    return f"vexbot-b{block}-p{permutation}.model"


def save(target: str | Path | IO[bytes], model: OpponentModel, game: GameConfig) -> None:
    """Write the model (to a path atomically, or into a binary file the caller opened)."""
    arrays: dict[str, np.ndarray] = {}
    for name, counts in _members(model):
        arrays[name] = counts.counts
        arrays[f"{name}stamp"] = counts.stamp
        if counts.expected is not None:
            arrays[f"{name}expected"] = counts.expected
    fields = {"game": game_record(game, 2), "bins": model.bins, "hands": model.hands,
              "decay": model.decay}
    if isinstance(target, (str, Path)):
        write_archive(target, FORMAT, VERSION, fields, arrays, compress=True)
    else:
        dump_archive(target, FORMAT, VERSION, fields, arrays, compress=True)


def load(path: str | Path, model: OpponentModel, game: GameConfig) -> None:
    """Read the file at ``path`` into ``model`` (fresh, of the same bins), or refuse it."""
    path = Path(path)

    def expect(header: dict[str, Any], declared: Mapping[str, Declared]) -> None:
        _expect(path, header, declared, model, game)

    try:
        archive = read_archive(path, FORMAT, (VERSION,), expect=expect, limits=LIMITS)
    except ArchiveError as exc:
        raise ModelFileError(str(exc).replace(f"not a {FORMAT} file",
                                              "not a vexbot model")) from None
    hands = int(archive.header["hands"])
    arrays = archive.arrays
    for name, counts in _members(model):
        c, s = arrays[name], arrays[f"{name}stamp"]
        e = arrays.get(f"{name}expected")
        for what, a in (("counts", c), ("expected counts", e)):
            if a is not None and (not np.isfinite(a).all() or (a < 0).any()
                                  or (a > MAX_COUNT).any()):
                raise ModelFileError(f"{path}: vexbot model over its bounds ({name} {what} "
                                     f"outside 0..2**53)")
        if (s < 0).any() or (s > hands).any():
            raise ModelFileError(f"{path}: vexbot model over its bounds ({name} "
                                 f"stamps outside 0..{hands})")
        counts.counts, counts.stamp = c.copy(), s.copy()
        if e is not None:
            counts.expected = e.copy()
    model.hands = hands


def _expect(path: Path, header: dict[str, Any], declared: Mapping[str, Declared],
            model: OpponentModel, game: GameConfig) -> None:
    if header.get("game") != game_record(game, 2):
        raise ModelFileError(f"{path}: a vexbot model of another game, not of this one "
                             f"({game.variant}, 2 seats, blinds {list(game.blinds)})")
    if header.get("bins") != model.bins:
        raise ModelFileError(f"{path}: a vexbot model of {header.get('bins')!r} showdown bins, "
                             f"but the parameters use {model.bins}")
    hands = header.get("hands")
    if type(hands) is not int or not 0 <= hands <= 2**53:
        raise ModelFileError(f"{path}: vexbot model over its bounds (hands {hands!r})")
    wanted: dict[str, tuple[tuple[int, ...], type[np.generic]]] = {}
    for name, counts in _members(model):
        wanted[name] = (counts.counts.shape, np.float64)
        wanted[f"{name}stamp"] = (counts.stamp.shape, np.int64)
        if counts.expected is not None:
            wanted[f"{name}expected"] = (counts.expected.shape, np.float64)
    if set(declared) != set(wanted):
        raise ModelFileError(f"{path}: corrupt vexbot model (arrays {sorted(declared)[:8]})")
    for name, (shape, dtype) in wanted.items():
        got = declared[name]
        if got.shape != shape or got.dtype != np.dtype(dtype):
            raise ModelFileError(f"{path}: corrupt vexbot model ({name}: expected "
                                 f"{np.dtype(dtype)}{list(shape)}, got "
                                 f"{got.dtype}{list(got.shape)})")
