"""The strategy file: a solved average strategy in 8 bits a probability, validated on load.

One row per information set (``tree.row_base[node] + bucket``, :mod:`agent.equilibrium.tree`)
holds the fold and call probabilities in 255ths; the raise takes the rest. Rows are rounded
by largest remainders so that they sum to exactly 255 and an illegal action gets 0. The file
is an array archive (:mod:`simulator.core.archive`, compressed), whose header names:

* ``game``: the betting rules it was solved for (:class:`LimitRules` fields);
* ``abstraction``: the bucket counts and the checksum of the bucket file it was solved with;
* ``build``: seed, iterations, schedule, boards per iteration and workers (the file is a
  function of them), never a time or a path, so a rebuild is byte-identical.

Reading checks all of them, the declared shape and the size before any array is read
(:func:`read`); every problem is one :class:`StrategyFileError` line naming the file.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from agent.equilibrium.abstraction import CardAbstraction
from agent.equilibrium.abstraction import load as load_abstraction
from agent.equilibrium.errors import StrategyFileError
from agent.equilibrium.solver import legal_rows
from agent.equilibrium.tree import HEADS_UP_LIMIT, LimitRules, Tree, build_tree
from simulator.core.archive import ArchiveError, Declared, Limits, read_archive, write_archive
from simulator.core.packaged import packaged_file

FORMAT = "holdem-cfr-strategy"
VERSION = 1
DEFAULT_PATH = packaged_file("agent.equilibrium", "data", "strategy.npz")
SCALE = 255
LIMITS = Limits(file_bytes=20 << 20, array_bytes=24 << 20, members=8)


def game_fields(rules: LimitRules) -> dict[str, Any]:
    """The rules as the header records them (JSON-ready)."""
    return {k: list(v) if isinstance(v, tuple) else v
            for k, v in dataclasses.asdict(rules).items()}


def quantize(strategy: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """(rows, 2) uint8: each row's fold and call in 255ths, rounded by largest remainders so
    the row's three entries sum to 255 (the raise is the rest); illegal actions get 0, and a
    row without weight is uniform over its legal actions.

    >>> quantize(np.array([[0.0, 0.5, 0.5], [1/3, 1/3, 1/3]]), np.ones((2, 3), bool)).tolist()
    [[0, 128], [85, 85]]
    """
    p = np.where(legal, np.clip(strategy, 0.0, 1.0), 0.0)
    total = p.sum(axis=1, keepdims=True)
    # a row with no weight (never reached) is uniform over its legal actions
    uniform = legal / legal.sum(axis=1, keepdims=True)
    p = np.where(total > 0, p / np.where(total > 0, total, 1.0), uniform)
    scaled = p * SCALE
    q = np.floor(scaled).astype(np.int64)
    deficit = SCALE - q.sum(axis=1)
    remainder = np.where(legal, scaled - q, -1.0)
    rank = np.argsort(np.argsort(-remainder, axis=1, kind="stable"), axis=1, kind="stable")
    q += rank < deficit[:, None]
    return q[:, :2].astype(np.uint8)


def expand(q: np.ndarray) -> np.ndarray:
    """(n, 3) float probabilities of quantized rows (:func:`quantize`)."""
    f = q.astype(np.int64)
    out = np.empty((q.shape[0], 3))
    out[:, 0] = f[:, 0]
    out[:, 1] = f[:, 1]
    out[:, 2] = SCALE - f[:, 0] - f[:, 1]
    return out / SCALE


@dataclasses.dataclass(frozen=True)
class StrategyTable:
    """A solved strategy with the tree and abstraction it indexes."""

    tree: Tree
    abstraction: CardAbstraction
    table: np.ndarray  # (rows, 2) uint8
    header: dict[str, Any]
    path: Path | None = None

    def rows(self, node: int, buckets: np.ndarray) -> np.ndarray:
        """(n, 3) probabilities at a decision node for holdings in ``buckets``."""
        return expand(self.table[self.tree.row_base[node] + buckets])

    def full(self) -> np.ndarray:
        """(rows, 3) probabilities of every information set."""
        return expand(self.table)


def save(path: str | Path, tree: Tree, abstraction: CardAbstraction, average: np.ndarray,
         build: Mapping[str, Any]) -> None:
    """Write a strategy file from the average strategy (rows, 3)."""
    q = quantize(average, legal_rows(tree))
    write_archive(path, FORMAT, VERSION, {
        "game": game_fields(tree.rules),
        "abstraction": {"counts": list(abstraction.counts), "checksum": abstraction.checksum},
        "build": dict(build)}, {"probabilities": q}, compress=True)


def read(path: str | Path, abstraction: CardAbstraction | None = None) -> StrategyTable:
    """Read and validate a strategy file for heads-up limit hold'em in ``abstraction`` (the
    shipped one by default)."""
    path = Path(path)
    try:
        bucket_file = abstraction if abstraction is not None else load_abstraction()
    except StrategyFileError as exc:
        raise StrategyFileError(f"{path}: its bucket file cannot be read: {exc}") from None
    tree = build_tree(HEADS_UP_LIMIT, bucket_file.counts)

    def expect(header: dict[str, Any], declared: Mapping[str, Declared]) -> None:
        if header.get("game") != game_fields(HEADS_UP_LIMIT):
            game = header.get("game")
            name = game.get("name") if isinstance(game, dict) else game
            raise ArchiveError(f"solved for another game ({name!r}, not heads-up limit "
                               f"hold'em with blinds 1/2, bets 2/4, cap 4)")
        made = header.get("abstraction")
        want = {"counts": list(bucket_file.counts), "checksum": bucket_file.checksum}
        if made != want:
            raise ArchiveError(f"solved in another card abstraction ({made!r}; the bucket "
                               f"file has {want})")
        d = declared.get("probabilities")
        if set(declared) != {"probabilities"} or d is None:
            raise ArchiveError(f"arrays {sorted(declared)}, expected ['probabilities']")
        if d.shape != (tree.rows, 2) or d.dtype != np.uint8:
            raise ArchiveError(f"probabilities are {d.dtype} {d.shape}, expected uint8 "
                               f"{(tree.rows, 2)}")

    try:
        got = read_archive(path, FORMAT, (VERSION,), expect=expect, limits=LIMITS)
    except ArchiveError as exc:
        text = str(exc)
        raise StrategyFileError(text if text.startswith(f"{path}: ") else f"{path}: {text}"
                                ) from None
    q = got.arrays["probabilities"]
    if (q.astype(np.int64).sum(axis=1) > SCALE).any():
        raise StrategyFileError(f"{path}: a row's probabilities sum to more than 1")
    return StrategyTable(tree, bucket_file, q, got.header, path)


@functools.lru_cache(maxsize=2)
def load(path: str | None = None) -> StrategyTable:
    """The shipped strategy (or the file at ``path``), read and validated once per process."""
    return read(DEFAULT_PATH if path is None else Path(path))
