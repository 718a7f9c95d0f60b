"""Vexbot's prior: ``cfr``'s self-play, shipped as ``data/prior.npz`` and written by
``experiments/build/make_vexbot_prior.py``.

The file (an array archive of format ``vexbot-prior``, :mod:`simulator.core.archive`) holds

* ``actions``: float64 (nodes, 3), ``cfr``'s action frequencies at every decision node of
  the context tree in self-play (counts at the node plus one observation of its level-1
  context's pooled frequencies, then level 2, then uniform over the legal actions, so that
  nodes self-play never reached still have a prior);
* ``showdowns``: float64 (level-1 showdown contexts, fine bins), the strengths ``cfr``
  showed after each pair of bet counts, plus one observation of its role's pooled histogram;
* ``classes``: float64 (169, fine bins), the distribution of the final strength of each
  pre-flop class over sampled five-card boards (the pre-flop search's win matrix).

It is read once per process, bounded and checksummed, and its shapes checked against the
context tree.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from agent.rivals.vexbot.contexts import context_tree
from agent.rivals.vexbot.strength import rebin
from simulator.core.archive import ArchiveError, Declared, Limits, read_archive
from simulator.core.errors import HoldemError
from simulator.core.packaged import packaged_file

FORMAT = "vexbot-prior"
VERSION = 1
CLASSES = 169
DATA = packaged_file("agent.rivals.vexbot", "data", "prior.npz")
_LIMITS = Limits(file_bytes=16 << 20, array_bytes=8 << 20, members=8, total_bytes=32 << 20)


class PriorError(HoldemError, ValueError):
    """A prior file that is missing, corrupt or not of this context tree."""


@dataclass(frozen=True)
class Prior:
    """The arrays of the prior file (module docstring); ``self_play_hands`` it came from."""

    actions: np.ndarray
    showdowns: np.ndarray
    classes: np.ndarray
    self_play_hands: int

    def showdown_histograms(self, bins: int) -> np.ndarray:
        """The showdown prior in ``bins`` bins, each row a distribution."""
        out = rebin(self.showdowns, bins)
        return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-300)


def _expect(header: dict[str, Any], declared: Mapping[str, Declared]) -> None:
    ct = context_tree()
    wanted = {"actions": (ct.tree.nodes, 3), "showdowns": (ct.showdown_contexts[1], None),
              "classes": (CLASSES, None)}
    if set(declared) != set(wanted):
        raise ArchiveError(f"arrays {sorted(declared)}, expected {sorted(wanted)}")
    for name, (rows, cols) in wanted.items():
        got = declared[name]
        if (got.dtype != np.float64 or len(got.shape) != 2 or got.shape[0] != rows
                or (cols is not None and got.shape[1] != cols) or not 2 <= got.shape[1] <= 1000):
            raise ArchiveError(f"{name}: float64 of {rows} rows expected, got "
                               f"{got.dtype}{list(got.shape)}")
    if not isinstance(header.get("hands"), int):
        raise ArchiveError("header: hands missing")


@functools.cache
def load_prior(path: str | None = None) -> Prior:
    """The prior at ``path`` (default: the shipped one), read once per process."""
    where = DATA if path is None else path
    try:
        archive = read_archive(where, FORMAT, (VERSION,), expect=_expect, limits=_LIMITS)
    except ArchiveError as exc:
        raise PriorError(f"vexbot prior: {exc}") from None
    arrays = archive.arrays
    for name in ("actions", "showdowns", "classes"):
        a = arrays[name]
        if not np.isfinite(a).all() or (a < 0).any():
            raise PriorError(f"vexbot prior {where}: {name} holds negative or non-finite values")
        a.setflags(write=False)
    return Prior(arrays["actions"], arrays["showdowns"], arrays["classes"],
                 int(archive.header["hands"]))
