"""The exact best response to a card-blind opponent in heads-up limit hold'em.

A *card-blind* opponent picks its action from which actions are legal alone (always call,
always raise...), never from its cards. Its range is then uniform at every node, over the
holdings that share no card with ours and the board, so the value of a line to us depends
on our cards only through our river *HS code*: 2 x wins + ties against the 990 opponent
holdings of the river board (a showdown for ``s`` chips each is worth ``s * (code - 990) /
990``). A best response takes the best action at each of our information sets (our holding,
the board, the betting), the expectation over the cards still to come: walking back from
the river, one canonical flop at a time, every turn and river card and every holding.

Written apart from :mod:`agent.equilibrium.best_response` (its own HS codes, its own tree
walk) to check it: the values at a flop root are compared holding by holding, and the exact
figures of Johanson et al. (2011), always-call 1,163.48 and always-raise 3,697.69 mbb/g,
test the whole enumeration (``python experiments/studies/blind_exact.py``).

Because the opponent's action depends on the legal actions alone, the subtree from a
round's start depends only on the round and the chips in, and is valued once for each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numba
import numpy as np

from agent.equilibrium import features
from agent.equilibrium.tree import ACTIONS, CHANCE, DECISION, FOLD, SHOWDOWN, Tree
from simulator.core.board_ranks import HOLD_A, HOLD_B, rank_rows
from simulator.core.cards import NUM_HOLDINGS
from simulator.core.suits import HOLDING_PERMS

CODES = 1981
"""HS codes run 0..1980 (990 opponents, a win counting 2 and a tie 1)."""
OPPONENTS = 990
FLOPS_PER_HOLDING = 19600  # C(50, 3): the flops a holding leaves

Policy = Callable[[np.ndarray], np.ndarray]
"""The opponent: the legal action columns (bool, (3,)) to the action probabilities (3,)."""


def preferring(order: str) -> Policy:
    """The card-blind bot taking the first legal action of ``order`` (``"rc"``: always
    raise, calling when capped; ``"c"``: always call; ``"fc"``: fold to any bet, check
    otherwise)."""
    columns = [ACTIONS.index(a) for a in order]

    def policy(legal: np.ndarray) -> np.ndarray:
        out = np.zeros(3)
        out[next(a for a in columns if legal[a])] = 1.0
        return out

    return policy


# --- HS codes of every (turn, river) --------------------------------------------------------


def runout_codes(flop: np.ndarray) -> np.ndarray:
    """(52, 52, 1326) int16: the HS code of each holding on the flop with turn t and river r
    (symmetric in t and r), -1 where a card repeats or the holding is dead."""
    rest = np.array([c for c in range(52) if c not in set(flop.tolist())], dtype=np.int64)
    pairs = np.array([(a, b) for i, a in enumerate(rest) for b in rest[i + 1:]], dtype=np.int64)
    ranks = np.empty((pairs.shape[0], NUM_HOLDINGS), dtype=np.int16)
    rank_rows(np.ascontiguousarray(flop, dtype=np.int64), pairs, HOLD_A, HOLD_B, ranks)
    out = np.full((52, 52, NUM_HOLDINGS), -1, dtype=np.int16)
    for (a, b), r in zip(pairs, ranks, strict=True):
        out[a, b] = out[b, a] = features.codes_of_ranks(r)  # the abstraction's own HS codes
    return out


@numba.njit(cache=True, nogil=True)
def _river_means(tables: np.ndarray, codes: np.ndarray, out: np.ndarray) -> None:
    """``out[k, t, h]``: the mean over the live river cards of ``tables[k, code]`` (NaN where
    no river is live: a dead turn)."""
    kinds = tables.shape[0]
    n = codes.shape[2]
    by_code = np.ascontiguousarray(tables.T)  # (codes, kinds): one row read per holding
    acc = np.zeros((n, kinds))
    count = np.zeros(n, dtype=np.int64)
    for t in range(codes.shape[0]):
        acc[:] = 0.0
        count[:] = 0
        for r in range(codes.shape[1]):
            row = codes[t, r]
            for h in range(n):
                c = row[h]
                if c >= 0:
                    count[h] += 1
                    for k in range(kinds):
                        acc[h, k] += by_code[c, k]
        for h in range(n):
            for k in range(kinds):
                out[k, t, h] = acc[h, k] / count[h] if count[h] else np.nan


# --- the walk -----------------------------------------------------------------------------------


class _Walk:
    """The responder ``me``'s values against ``policy`` on one flop, round by round: the
    value of a round's start for every chips-in, as a table over HS codes on the river, over
    (turn, holding) on the turn and over holdings on the flop."""

    def __init__(self, tree: Tree, policy: Policy, me: int, codes: np.ndarray,
                 turns: np.ndarray | None = None) -> None:
        self.tree, self.policy, self.me, self.codes = tree, policy, me, codes
        self.river: dict[int, np.ndarray] = {}
        self.turn: dict[int, np.ndarray] = {}
        self.flop: dict[int, np.ndarray] = {}
        self.turn_live = (codes >= 0).any(axis=1)  # (52, 1326): turn t leaves holding h
        if turns is not None:
            self.turn_live &= np.isin(np.arange(52), turns)[:, None]
        self.dead = ~(codes >= 0).any(axis=(0, 1)) if codes.size else np.zeros(0, dtype=bool)

    def value(self, node: int, showdown: np.ndarray, next_round: Callable[[int], np.ndarray]
              ) -> np.ndarray:
        """The value of ``node`` below a round's start: ``showdown`` the value of 1 chip
        each at the showdown, ``next_round(node)`` that of the next round's start."""
        t = self.tree
        kind = t.kind[node]
        if kind == FOLD:
            folder = int(t.player[node])
            stake = float(t.spent[node, folder])
            return np.full_like(showdown, -stake if folder == self.me else stake)
        if kind == SHOWDOWN:
            return float(t.spent[node, 0]) * showdown
        if kind == CHANCE:
            return next_round(int(t.child[node, 1]))
        assert kind == DECISION
        kids = [(a, int(t.child[node, a])) for a in range(3) if t.child[node, a] >= 0]
        if t.player[node] == self.me:
            return np.max([self.value(c, showdown, next_round) for _, c in kids], axis=0)
        probs = self.policy(t.child[node] >= 0)
        return sum((probs[a] * self.value(c, showdown, next_round)
                    for a, c in kids if probs[a] > 0), np.zeros_like(showdown))

    def river_start(self, node: int) -> np.ndarray:
        """(1981,): the river round's value from ``node`` per HS code."""
        chips = int(self.tree.spent[node, 0])
        if chips not in self.river:
            codes = (np.arange(CODES) - OPPONENTS) / OPPONENTS
            self.river[chips] = self.value(node, codes, _no_round)
        return self.river[chips]

    def turn_start(self, node: int) -> np.ndarray:
        """(52, 1326): the turn round's value from ``node`` per turn card and holding, the
        rivers averaged (NaN where the turn card is dead)."""
        chips = int(self.tree.spent[node, 0])
        if chips not in self.turn:
            starts: list[int] = []
            self._river_starts(node, starts)
            pots = sorted({int(self.tree.spent[s, 0]) for s in starts})
            tables = np.zeros((len(pots), CODES))
            for s in starts:
                tables[pots.index(int(self.tree.spent[s, 0]))] = self.river_start(s)
            means = np.empty((len(pots), 52, NUM_HOLDINGS))
            if pots:  # (none when every line below ends before the river)
                _river_means(tables, self.codes, means)
            by_pot = dict(zip(pots, means, strict=True))
            self.turn[chips] = self.value(node, np.zeros((52, NUM_HOLDINGS)),
                                          lambda s: by_pot[int(self.tree.spent[s, 0])])
        return self.turn[chips]

    def flop_start(self, node: int) -> np.ndarray:
        """(1326,): the flop round's value from ``node`` per holding, the turns averaged
        (NaN where the holding is dead on the flop)."""
        chips = int(self.tree.spent[node, 0])
        if chips not in self.flop:
            v = self.value(node, np.zeros(NUM_HOLDINGS), self._turn_mean)
            self.flop[chips] = np.where(self.dead, np.nan, v)
        return self.flop[chips]

    def _turn_mean(self, node: int) -> np.ndarray:
        v = self.turn_start(node)
        live = self.turn_live
        count = live.sum(axis=0)
        total = np.where(live, v, 0.0).sum(axis=0)
        return np.divide(total, count, out=np.full(NUM_HOLDINGS, np.nan), where=count > 0)

    def _river_starts(self, node: int, out: list[int]) -> None:
        """The river-round starts below a turn ``node`` that the opponent may reach."""
        t = self.tree
        if t.kind[node] == CHANCE:
            out.append(int(t.child[node, 1]))
            return
        if t.kind[node] != DECISION:
            return
        probs = self.policy(t.child[node] >= 0)
        for a in range(3):
            c = int(t.child[node, a])
            if c >= 0 and (t.player[node] == self.me or probs[a] > 0):
                self._river_starts(c, out)


def _no_round(node: int) -> np.ndarray:
    raise AssertionError(f"node {node}: no round after the river")


def flop_roots(tree: Tree) -> list[int]:
    """The first flop decision after each pre-flop history that sees a flop."""
    return [int(tree.child[c, 1]) for c in np.flatnonzero((tree.kind == CHANCE)
                                                          & (tree.round == 0))]


def flop_values(tree: Tree, policy: Policy, me: int, flop: np.ndarray,
                codes: np.ndarray | None = None, turns: np.ndarray | None = None
                ) -> dict[int, np.ndarray]:
    """Per flop root (node id), the responder's exact expected chips per holding from there
    on this flop (NaN for holdings dead on it), every turn and river enumerated; or, given
    ``turns``, with the turn card uniform over those of them a holding leaves (the game
    ``best_response.py`` solves on a sample of turns)."""
    walk = _Walk(tree, policy, me, runout_codes(flop) if codes is None else codes, turns)
    return {root: walk.flop_start(root) for root in flop_roots(tree)}


# --- over every flop ----------------------------------------------------------------------------


@dataclass
class Enumeration:
    """The flops summed so far: per seat and flop root, each holding's summed values over
    the flops of the classes done, and per holding how many of those flops it meets
    (``FLOPS_PER_HOLDING`` once every class is in)."""

    tree: Tree
    policy: Policy
    sums: dict[tuple[int, int], np.ndarray]
    counts: np.ndarray
    classes: int = 0

    @classmethod
    def start(cls, tree: Tree, policy: Policy) -> Enumeration:
        return cls(tree, policy, {(me, r): np.zeros(NUM_HOLDINGS)
                                  for me in (0, 1) for r in flop_roots(tree)},
                   np.zeros(NUM_HOLDINGS))

    def add(self, flop: np.ndarray, members: int, codes: np.ndarray | None = None) -> None:
        """One canonical flop standing for ``members`` flops (its suit class); ``codes`` its
        :func:`runout_codes`, if already at hand."""
        codes = runout_codes(flop) if codes is None else codes
        for me in (0, 1):
            for root, v in flop_values(self.tree, self.policy, me, flop, codes).items():
                self.sums[me, root] += class_sum(v, members)
        dead = np.isin(HOLD_A, flop) | np.isin(HOLD_B, flop)
        self.counts += class_sum(np.where(dead, np.nan, 1.0), members)
        self.classes += 1

    def seat_values(self) -> tuple[float, float]:
        """Each seat's best-response value, chips a game, with the flops summed standing
        for all (their mean for each holding): exact once every class is in."""
        return (float(self.preflop(0).mean()), float(self.preflop(1).mean()))

    def preflop(self, me: int) -> np.ndarray:
        """Per holding, the best response's pre-flop value, the flops averaged."""
        at_flop = {r: self.sums[me, r] / self.counts for r in flop_roots(self.tree)}
        walk = _Walk(self.tree, self.policy, me, np.zeros((0, 0, 0), dtype=np.int16))
        return walk.value(0, np.zeros(NUM_HOLDINGS), at_flop.__getitem__)


def class_sum(values: np.ndarray, members: int) -> np.ndarray:
    """Per holding h, the sum of h's values over the flops of a canonical flop's class,
    ``values`` those on the canonical flop (NaN where dead). Relabelling suits by each of
    the 24 permutations p, h on p(flop) is worth what p⁻¹(h) is on the flop; each class
    member is reached by 24 / ``members`` permutations."""
    moved = values[HOLDING_PERMS]  # (24, 1326): the value of p(h) on the canonical flop
    return np.nansum(moved, axis=0) * (members / 24)


def exploitability(seats: Iterable[float]) -> float:
    """mbb/g (thousandths of a 2-chip big blind a game) of the seats' mean value in chips."""
    values = list(seats)
    return float(np.mean(values)) / 2 * 1000


def canonical_flops() -> list[tuple[np.ndarray, int]]:
    """The 1,755 canonical flops, each with the number of flops of its suit class."""
    codes, sizes = features.canonical_boards(3)
    return [(features.decode(int(c), 3), int(s)) for c, s in zip(codes, sizes, strict=True)]
