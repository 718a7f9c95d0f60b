"""One versioned file for a whole opponent model: chain stores and action frequencies.

Format, version 2: a NumPy ``.npz`` archive (a zip of ``.npy`` arrays, ``numpy.lib.format``)
read with ``allow_pickle=False``, holding

* ``header``: a uint8 array of UTF-8 JSON, ``{"format": "holdem-opponent-model",
  "version": 2, "size_edges": [...], "stores": [name, ...], "frequencies": [name, ...],
  "checksum": ...}``, where ``checksum`` is the CRC-32 of every other array's name, dtype,
  shape and bytes in name order;
* ``generic.<field>`` and ``store<i>.<field>`` (``i`` indexes ``stores``) for each chain
  store, the nodes in use only (:meth:`agent.modeller.chains.ChainStore.arrays`): ``ints``,
  int32 (nodes, 8), columns token, first child, next sibling (both -1: loading relinks the
  tree from the parents), parent, the counts of the endings showdown, they fold, we fold,
  and the number of shown hands; ``floats``, float64 (nodes, 7), columns the summed final
  pots of the three endings, our summed bets of the three endings, the summed shown
  strength; ``hands``, int64 (1,), the hands stored. Nodes 0, 1 and 2 are the roots of
  levels 0, 1 and 2 (token and parent -1); every other node's parent comes before it;
* ``frequencies``: int64 counts, shape (len(frequencies), 4 streets, 4 contexts, 3 actions).

Version 1 files, from before the raised-back context, are read too: their counts have 3
contexts (a player raised back was counted by its bets to call) and load with no raised-back
counts.

Any file that is missing, truncated, corrupt (a zip, CRC, checksum or tree check fails), of
another format or version, or saved with other size edges is refused with a
:class:`ModelFileError` that names the file and the problem, never read as an empty model.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from agent.modeller.chains import ChainStore
from agent.modeller.errors import ModelFileError
from agent.modeller.frequencies import CONTEXTS, KINDS, STREETS
from simulator.core.files import open_nofollow

FORMAT = "holdem-opponent-model"
VERSION = 2
READABLE = (1, 2)


@dataclass
class ModelData:
    """What one file holds."""

    size_edges: tuple[float, ...]
    generic: ChainStore
    stores: dict[str, ChainStore]
    frequencies: dict[str, np.ndarray]  # name -> (4, 4, 3) counts


def _checksum(arrays: dict[str, np.ndarray]) -> int:
    crc = 0
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        crc = zlib.crc32(f"{name}|{a.dtype.str}|{a.shape}".encode(), crc)
        crc = zlib.crc32(a.tobytes(), crc)
    return crc


def save(target: str | Path | BinaryIO, data: ModelData) -> None:
    """Write ``data`` to a path (atomically: a temporary file, then a rename; neither is
    followed if it is a symlink) or into an open binary file."""
    names = sorted(data.stores)
    freq_names = sorted(data.frequencies)
    arrays: dict[str, np.ndarray] = {}
    for prefix, store in [("generic", data.generic)] + [
            (f"store{i}", data.stores[name]) for i, name in enumerate(names)]:
        for field, array in store.arrays().items():
            arrays[f"{prefix}.{field}"] = array
    arrays["frequencies"] = (np.stack([data.frequencies[n] for n in freq_names]) if freq_names
                             else np.zeros((0, STREETS, CONTEXTS, KINDS), dtype=np.int64))
    header = {"format": FORMAT, "version": VERSION, "size_edges": list(data.size_edges),
              "stores": names, "frequencies": freq_names, "checksum": _checksum(arrays)}
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    if not isinstance(target, (str, Path)):
        np.savez(target, **arrays)
        return
    path = Path(target)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)  # a stale or planted file: gone, never written through
    with open_nofollow(tmp, "xb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def _read(path: Path) -> dict[str, np.ndarray]:
    try:
        archive = np.load(path, allow_pickle=False)
        if not isinstance(archive, np.lib.npyio.NpzFile):
            raise ModelFileError(f"{path}: not an opponent model (a bare array)")
        with archive:
            return {name: archive[name] for name in archive.files}
    except FileNotFoundError:
        raise ModelFileError(f"{path}: no such model file") from None
    except ModelFileError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as exc:
        raise ModelFileError(f"{path}: not a readable opponent model (corrupt or truncated: "
                             f"{exc})") from None


def _header(path: Path, arrays: dict[str, np.ndarray]) -> dict:
    if "header" not in arrays:
        raise ModelFileError(f"{path}: not an opponent model (no header)")
    try:
        header = json.loads(arrays.pop("header").tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFileError(f"{path}: corrupt opponent model header ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ModelFileError(f"{path}: not an opponent model (format "
                             f"{header.get('format') if isinstance(header, dict) else None!r})")
    if header.get("version") not in READABLE:
        raise ModelFileError(f"{path}: opponent model version {header.get('version')!r}; this "
                             f"reader reads versions {', '.join(map(str, READABLE))}")
    if header.get("checksum") != _checksum(arrays):
        raise ModelFileError(f"{path}: corrupt opponent model (checksum mismatch)")
    return header


def load(path: str | Path, size_edges: tuple[float, ...], max_nodes: int,
         prune_to: float) -> ModelData:
    """Read a model written by :func:`save`; refuse anything else with a clear error."""
    path = Path(path)
    arrays = _read(path)
    header = _header(path, arrays)
    saved_edges = tuple(float(e) for e in header.get("size_edges", ()))
    if saved_edges != tuple(size_edges):
        raise ModelFileError(f"{path}: saved with size edges {list(saved_edges)}, but the "
                             f"parameters use {list(size_edges)}: the chains do not compare")

    def store(prefix: str) -> ChainStore:
        fields = {k.split(".", 1)[1]: v for k, v in arrays.items()
                  if k.startswith(prefix + ".")}
        return ChainStore.from_arrays(fields, max_nodes, prune_to, f"{path} [{prefix}]")

    names = header.get("stores", [])
    freq_names = header.get("frequencies", [])
    freqs = arrays.get("frequencies")
    contexts = CONTEXTS - 1 if header["version"] == 1 else CONTEXTS  # v1: no raised back
    if freqs is None or freqs.dtype != np.int64 \
            or freqs.shape != (len(freq_names), STREETS, contexts, KINDS) or (freqs < 0).any():
        raise ModelFileError(f"{path}: corrupt opponent model (frequency counts)")
    if contexts < CONTEXTS:
        freqs = np.concatenate([freqs, np.zeros_like(freqs[:, :, :1])], axis=2)
    return ModelData(saved_edges, store("generic"),
                     {name: store(f"store{i}") for i, name in enumerate(names)},
                     {name: freqs[i].copy() for i, name in enumerate(freq_names)})
