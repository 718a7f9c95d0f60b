"""One versioned file for a whole opponent model: chain stores and action frequencies.

Format, version 3: an array archive (:mod:`simulator.core.archive`: a zip of ``.npy`` arrays,
compressed, whose header and arrays a CRC-32 covers), of format ``holdem-opponent-model``,
whose header holds

* ``size_edges``: the no-limit size buckets the chains were encoded with;
* ``stores``: the opponents' names, in store order; ``frequencies``: the names of the
  frequency counts, in row order;
* ``game``: the game the model was learned in (every ``GameConfig`` field and ``seats``), so
  that a model is never read into another game (limit into no-limit, 6-max into heads-up);

and whose arrays are

* ``generic.<field>`` and ``store<i>.<field>`` (``i`` indexes ``stores``) for each chain
  store, the nodes in use only (:meth:`agent.modeller.chains.ChainStore.arrays`): ``ints``,
  int32 (nodes, 8), columns token, first child, next sibling (both -1: loading relinks the
  tree from the parents), parent, the counts of the endings showdown, they fold, we fold,
  and the number of shown hands; ``floats``, float64 (nodes, 7), columns the summed final
  pots of the three endings, our summed bets of the three endings, the summed shown
  strength; ``hands``, int64 (1,), the hands stored. Nodes 0, 1 and 2 are the roots of
  levels 0, 1 and 2 (token and parent -1); every other node's parent comes before it;
* ``frequencies``: int64 counts, shape (len(frequencies), 4 streets, 4 contexts, 3 actions).

Reading is bounded and checked before it is trusted: a regular file of at most
:data:`MAX_FILE_BYTES`; the whole header and every array's declared dtype and shape checked
(:func:`_expect`) before any array is read, so a small file claiming huge arrays costs
nothing; then the checksum, and the counts for consistency (a store's roots hold every hand
it stored, a node no more of an ending than its parent, shown hands only at showdowns and no
more than the other seats could show). Versions 1 and 2, written before the header was
checksummed and the game recorded, are refused: nothing in them says which game they were
learned in, and a model is only worth loading into that game; they name their version, so
the message says why.

Any file that is missing, not a regular file, too big, truncated, corrupt, of another format,
version or game, or saved with other size edges is refused with a :class:`ModelFileError`
that names the file and the problem, never read as an empty model.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from agent.modeller.chains import FLOAT_COLUMNS, INT_COLUMNS, ROOTS, ChainStore
from agent.modeller.errors import ModelFileError
from agent.modeller.frequencies import CONTEXTS, KINDS, STREETS
from agent.modeller.params import MAX_NODES, MAX_SIZE_EDGES
from simulator.core.archive import (
    Archive,
    ArchiveError,
    Declared,
    Limits,
    dump_archive,
    read_archive,
    write_archive,
)
from simulator.core.errors import GameError
from simulator.core.game import GameConfig

FORMAT = "holdem-opponent-model"
VERSION = 3
MAX_STORES = 1000  # opponents one model may know
MAX_COUNT = 2**53  # hands or actions counted: far beyond any match, exact as a float
MAX_NAME = 200
MAX_FILE_BYTES = 2 << 30
LIMITS = Limits(file_bytes=MAX_FILE_BYTES, array_bytes=MAX_NODES * FLOAT_COLUMNS * 8,
                members=3 * (MAX_STORES + 1) + 2, total_bytes=8 << 30)
_HEADER_KEYS = {"format", "version", "checksum", "size_edges", "stores", "frequencies", "game"}


@dataclass
class ModelData:
    """What one file holds."""

    size_edges: tuple[float, ...]
    generic: ChainStore
    stores: dict[str, ChainStore]
    frequencies: dict[str, np.ndarray]  # name -> (4, 4, 3) counts
    game: GameConfig
    seats: int


def model_name(block: int, permutation: int) -> str:
    """The file a bot saves the model it learned in one block and seat permutation to.

    >>> model_name(3, 1)
    'model-b3-p1.model'
    """
    return f"model-b{block}-p{permutation}.model"


def game_record(game: GameConfig, seats: int) -> dict[str, Any]:
    """The game as a model file records it."""
    return {**dataclasses.asdict(game), "blinds": list(game.blinds), "seats": seats}


def save(target: str | Path | IO[bytes], data: ModelData) -> None:
    """Write ``data``, compressed, into an open binary file (opened by the caller: never
    through a symlink) or to a path (atomically, never through a symlink)."""
    names = sorted(data.stores)
    freq_names = sorted(data.frequencies)
    arrays: dict[str, np.ndarray] = {}
    for prefix, store in [("generic", data.generic)] + [
            (f"store{i}", data.stores[name]) for i, name in enumerate(names)]:
        for field, array in store.arrays().items():
            arrays[f"{prefix}.{field}"] = array
    arrays["frequencies"] = (np.stack([data.frequencies[n] for n in freq_names]) if freq_names
                             else np.zeros((0, STREETS, CONTEXTS, KINDS), dtype=np.int64))
    fields = {"size_edges": list(data.size_edges), "stores": names, "frequencies": freq_names,
              "game": game_record(data.game, data.seats)}
    if isinstance(target, (str, Path)):
        write_archive(target, FORMAT, VERSION, fields, arrays, compress=True)
    else:
        dump_archive(target, FORMAT, VERSION, fields, arrays, compress=True)


def load(path: str | Path, size_edges: tuple[float, ...], max_nodes: int, prune_to: float,
         game: GameConfig | None = None, seats: int | None = None) -> ModelData:
    """Read a model written by :func:`save`; refuse anything else with a clear error, and a
    model of another game than ``game`` with ``seats`` (when given)."""
    path = Path(path)
    archive = _read(path)
    header = archive.header
    saved_edges = tuple(float(e) for e in header["size_edges"])
    if saved_edges != tuple(size_edges):
        raise ModelFileError(f"{path}: saved with size edges {list(saved_edges)}, but the "
                             f"parameters use {list(size_edges)}: the chains do not compare")
    saved_game, saved_seats = _game_of(path, header["game"])
    if game is not None and seats is not None and (saved_game, saved_seats) != (game, seats):
        raise ModelFileError(f"{path}: a model of another game "
                             f"({_describe(saved_game, saved_seats)}), not of this one "
                             f"({_describe(game, seats)})")
    arrays = archive.arrays

    def store(prefix: str) -> ChainStore:
        fields = {k.split(".", 1)[1]: v for k, v in arrays.items()
                  if k.startswith(prefix + ".")}
        return ChainStore.from_arrays(fields, max_nodes, prune_to, f"{path} [{prefix}]",
                                      shown_per_hand=saved_seats - 1, max_count=MAX_COUNT)

    freqs = arrays["frequencies"]
    if (freqs < 0).any() or (freqs > MAX_COUNT).any():
        raise ModelFileError(f"{path}: corrupt opponent model (frequency counts out of range)")
    return ModelData(saved_edges, store("generic"),
                     {name: store(f"store{i}") for i, name in enumerate(header["stores"])},
                     {name: freqs[i].copy() for i, name in enumerate(header["frequencies"])},
                     saved_game, saved_seats)


def _describe(game: GameConfig, seats: int) -> str:
    return (f"{game.variant}, {seats} seats, blinds {list(game.blinds)}, stack {game.stack}")


def _read(path: Path) -> Archive:
    try:
        return read_archive(path, FORMAT, (VERSION,), expect=lambda h, d: _expect(path, h, d),
                            limits=LIMITS)
    except ArchiveError as exc:
        text = str(exc)
        if "version" in text and "this reader reads" in text:
            text += " (versions 1 and 2 recorded no game: play a new model)"
        raise ModelFileError(text.replace(f"not a {FORMAT} file", "not an opponent model")
                             ) from None


# --- the header and the declared arrays, before any array is read ------------------------------


def _expect(path: Path, header: dict[str, Any], declared: Mapping[str, Declared]) -> None:
    def bad(why: str) -> ModelFileError:
        return ModelFileError(f"{path}: corrupt opponent model header: {why}")

    unknown = sorted(set(header) - _HEADER_KEYS)
    missing = sorted(_HEADER_KEYS - set(header))
    if unknown or missing:
        raise bad(f"keys {unknown or missing} {'unknown' if unknown else 'missing'}")
    _check_edges(header["size_edges"], bad)
    stores = _check_names(header["stores"], "stores", bad)
    freq_names = _check_names(header["frequencies"], "frequencies", bad)
    _game_of(path, header["game"])
    wanted: dict[str, tuple[tuple[int, ...], type[np.generic]]] = {
        "frequencies": ((len(freq_names), STREETS, CONTEXTS, KINDS), np.int64)}
    for prefix in ["generic", *(f"store{i}" for i in range(len(stores)))]:
        ints = declared.get(f"{prefix}.ints")
        nodes = ints.shape[0] if ints is not None and len(ints.shape) == 2 else -1
        if not ROOTS <= nodes <= MAX_NODES:
            raise bad(f"{prefix}.ints: expected ({ROOTS} to {MAX_NODES}, {INT_COLUMNS}) "
                      f"int32 nodes, got {_shown(ints)}")
        wanted[f"{prefix}.ints"] = ((nodes, INT_COLUMNS), np.int32)
        wanted[f"{prefix}.floats"] = ((nodes, FLOAT_COLUMNS), np.float64)
        wanted[f"{prefix}.hands"] = ((1,), np.int64)
    extra = sorted(set(declared) - set(wanted))
    if extra:
        raise bad(f"arrays {extra} are not of a model with these stores")
    for name, (shape, dtype) in wanted.items():
        got = declared.get(name)
        if got is None or got.shape != shape or got.dtype != np.dtype(dtype):
            raise bad(f"{name}: expected {np.dtype(dtype)}{list(shape)}, got {_shown(got)}")


def _shown(declared: Declared | None) -> str:
    return "nothing" if declared is None else f"{declared.dtype}{list(declared.shape)}"


def _check_edges(edges: Any, bad: Any) -> None:
    if (not isinstance(edges, list) or not 1 <= len(edges) <= MAX_SIZE_EDGES
            or not all(isinstance(e, (int, float)) and not isinstance(e, bool)
                       and math.isfinite(e) and e > 0 for e in edges)
            or any(b <= a for a, b in zip(edges, edges[1:], strict=False))):
        raise bad(f"size_edges: expected 1 to {MAX_SIZE_EDGES} increasing positive pot "
                  f"fractions, got {edges!r}"[:200])


def _check_names(names: Any, key: str, bad: Any) -> list[str]:
    if (not isinstance(names, list) or len(names) > MAX_STORES
            or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names)
            or len(set(names)) != len(names)):
        raise bad(f"{key}: expected at most {MAX_STORES} distinct player names, got "
                  f"{names!r}"[:200])
    return names


def _game_of(path: Path, record: Any) -> tuple[GameConfig, int]:
    """The game a header records, or ModelFileError."""
    fields = {f.name for f in dataclasses.fields(GameConfig)}
    if not isinstance(record, dict) or set(record) != fields | {"seats"}:
        raise ModelFileError(f"{path}: corrupt opponent model header: game: expected the keys "
                             f"{sorted(fields | {'seats'})}")
    seats = record["seats"]
    try:
        if type(seats) is not int or not 2 <= seats <= 10:
            raise GameError(f"seats: expected 2 to 10, got {seats!r}")
        values = {k: v for k, v in record.items() if k != "seats"}
        if not isinstance(values["blinds"], list) or not all(
                type(v) is int for v in (*values["blinds"], values["ante"], values["stack"])):
            raise GameError("blinds, ante and stack: expected whole chips")
        values["blinds"] = tuple(values["blinds"])
        return GameConfig(**values), seats
    except (GameError, TypeError, ValueError, OverflowError) as exc:
        raise ModelFileError(f"{path}: corrupt opponent model header: game: {exc}") from None
