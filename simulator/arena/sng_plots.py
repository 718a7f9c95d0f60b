"""The two plots of ``holdem sng``: each bot's finishing places, and one tournament's stacks.

* ``places.png``: per bot, the share of tournaments it finished in each place (stacked, 1st
  at the bottom), its in-the-money share written above;
* ``stacks.png``: every entrant's chips after each hand of the first tournament played
  (its first rotation), the level changes marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display, safe in worker processes and CI

import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first
import numpy as np  # noqa: E402

PLACES_FILE = "places.png"
STACKS_FILE = "stacks.png"


def draw_places(summary: dict[str, Any], path: Path) -> None:
    bots = list(summary["bots"])
    n = len(summary["bots"][bots[0]]["places"])
    shares = np.array([[summary["bots"][b]["places"][k]["mean"] for k in range(n)]
                       for b in bots])
    fig, ax = plt.subplots(figsize=(1.2 * len(bots) + 3, 4.5))
    bottom = np.zeros(len(bots))
    colours = plt.get_cmap("viridis")(np.linspace(0, 1, n))
    for k in range(n):
        ax.bar(bots, shares[:, k], bottom=bottom, color=colours[k], label=f"place {k + 1}")
        bottom += shares[:, k]
    for i, b in enumerate(bots):
        itm = summary["bots"][b]["in_the_money"]["mean"]
        ax.text(i, 1.01, f"ITM {itm:.0%}", ha="center", fontsize=8)
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("share of tournaments")
    ax.set_title(f"finishing places over {summary['tournaments']} sit-and-gos")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def draw_stacks(trace: Sequence[Sequence[int]], names: Sequence[str],
                level_starts: Sequence[int], path: Path) -> None:
    data = np.array(trace, dtype=float)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    hands = np.arange(1, len(data) + 1)
    for e, name in enumerate(names):
        ax.plot(hands, data[:, e], label=name, drawstyle="steps-post")
    for start in level_starts:
        if 0 < start < len(data):
            ax.axvline(start + 0.5, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("hand (dotted: a new level)")
    ax.set_ylabel("chips")
    ax.set_title("chip stacks over one tournament")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
