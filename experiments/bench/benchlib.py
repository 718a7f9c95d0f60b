"""What the benchmark scripts share: one core, and the fastest of a few timed runs.

The scripts run as ``python experiments/NAME.py``, which puts this folder on ``sys.path``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def pin_to_one_core() -> None:
    """Run on one core, so that speeds compare with single-threaded anchors."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def best_time(run: Callable[[], object], repeats: int) -> float:
    """Seconds of the fastest of ``repeats`` runs (the least disturbed by neighbours)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best
