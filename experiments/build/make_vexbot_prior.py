"""Build ``agent/rivals/vexbot/data/prior.npz``: Vexbot's prior from ``cfr``'s self-play.

``cfr`` plays itself for ``--hands`` hands (heads-up limit, blinds 1/2); at every decision
node of the context tree its action counts are kept, and at every showdown both shown
hands' strengths by level-1 showdown context (the pair of bet counts). Each pre-flop class's
final-strength distribution comes from ``--boards`` random five-card boards (every live
holding of each board counted). See :mod:`agent.rivals.vexbot.prior` for the fallbacks.

    nice python experiments/build/make_vexbot_prior.py --hands 20000 --boards 3000
    python experiments/build/make_vexbot_prior.py --smoke --out /tmp/prior.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from agent.equilibrium.tree import CALL, CHANCE, DECISION, SHOWDOWN
from agent.rivals.cfr import CfrBot
from agent.rivals.vexbot.contexts import COLUMN, context_tree
from agent.rivals.vexbot.prior import CLASSES, DATA, FORMAT, VERSION
from agent.rivals.vexbot.strength import river_strengths
from agent.strength.ranges import HOLDING_CLASS
from simulator import ActionTaken, BoardDealt, Event, GameConfig, HandStarted, Showdown
from simulator.core.archive import write_archive
from simulator.core.cards import HOLDING_INDEX
from simulator.play.match import play_match

FINE = 48  # showdown prior bins: rebinned to the bot's
CLASS_FINE = 100
GAME = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)


class Recorder(CfrBot):
    """``cfr`` that keeps every hand's events for the tally."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.hands: list[tuple[int, list[Event]]] = []

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.hands.append((event.button, []))
        elif self.hands:
            self.hands[-1][1].append(event)


def tally(hands: list[tuple[int, list[Event]]]) -> tuple[np.ndarray, np.ndarray]:
    ct = context_tree()
    t = ct.tree
    actions = np.zeros((t.nodes, 3))
    showdowns = np.zeros((ct.showdown_contexts[1], FINE))
    for button, events in hands:
        node, shown = 0, {}
        board: tuple[int, ...] = ()
        for e in events:
            if isinstance(e, ActionTaken):
                while t.kind[node] == CHANCE:
                    node = int(t.child[node, CALL])
                column = COLUMN[e.record.kind]
                actions[node, column] += 1
                node = int(t.child[node, column])
            elif isinstance(e, BoardDealt):
                board = e.board
            elif isinstance(e, Showdown):
                shown = dict(e.shown.items())
        if t.kind[node] != SHOWDOWN or len(board) != 5:
            continue
        x = river_strengths(board)
        for seat, cards in shown.items():
            role = 0 if seat == button else 1
            s = float(x[HOLDING_INDEX[cards[0], cards[1]]])
            showdowns[ct.showdown_context[1, role, node], min(int(s * FINE), FINE - 1)] += 1
    return actions, showdowns


def resolve_actions(counts: np.ndarray) -> np.ndarray:
    """Frequencies per node: counts plus one observation of the level-1 pool, itself plus
    one of the level-2 pool, itself plus one of uniform over the legal actions."""
    ct = context_tree()
    t = ct.tree
    legal = (t.child >= 0).astype(np.float64)
    decisions = t.kind == DECISION
    out = np.zeros_like(counts)
    uniform = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    fallback = uniform
    for level in (2, 1, 0):
        ids = ct.action_context[level]
        pooled = np.zeros((ct.action_contexts[level], 3))
        np.add.at(pooled, ids[decisions], counts[decisions])
        per_node = np.zeros_like(counts)
        per_node[decisions] = pooled[ids[decisions]]
        mixed = (per_node * legal + fallback)
        fallback = mixed / np.maximum(mixed.sum(axis=1, keepdims=True), 1e-300)
    out[decisions] = fallback[decisions]
    return out


def resolve_showdowns(counts: np.ndarray) -> np.ndarray:
    """Each level-1 showdown context's histogram plus one observation of the pool of all."""
    pool = counts.sum(axis=0) + 1.0
    pool /= pool.sum()
    return counts + pool


def class_distributions(boards: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros((CLASSES, CLASS_FINE))
    for _ in range(boards):
        board = tuple(int(c) for c in rng.choice(52, 5, replace=False))
        x = river_strengths(board)
        live = ~np.isnan(x)
        bins = np.minimum((x[live] * CLASS_FINE).astype(np.int64), CLASS_FINE - 1)
        np.add.at(out, (HOLDING_CLASS[live], bins), 1.0)
    out += 1e-3  # no class is left without mass
    return out / out.sum(axis=1, keepdims=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Build Vexbot's prior from cfr self-play.")
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--boards", type=int, default=3_000)
    p.add_argument("--seed", type=int, default=56)
    p.add_argument("--out", type=Path, default=DATA)
    p.add_argument("--smoke", action="store_true", help="a tiny run (200 hands, 50 boards)")
    args = p.parse_args(argv)
    if args.smoke:
        args.hands, args.boards = 200, 50
        if args.out == DATA:
            print("--smoke needs --out (the shipped prior is not rewritten)", file=sys.stderr)
            return 2
    a, b = Recorder(args.seed), CfrBot(seed=args.seed + 1)
    for _ in play_match(GAME, [a, b], args.hands, seed=args.seed):
        pass
    actions, showdowns = tally(a.hands)
    write_archive(args.out, FORMAT, VERSION, {"hands": args.hands},
                  {"actions": resolve_actions(actions),
                   "showdowns": resolve_showdowns(showdowns),
                   "classes": class_distributions(args.boards, args.seed)}, compress=True)
    print(f"vexbot prior: {args.hands} self-play hands, {int(actions.sum())} actions, "
          f"{int(showdowns.sum())} shown hands, {args.boards} boards -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
