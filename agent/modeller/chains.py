"""The betting-chain store: finished hands in a prefix tree whose nodes hold aggregates.

A hand is stored as its **chain**: a header token (the players dealt in), then every action
in order, a separator token before the first action of each new street. An action token
says what was done (fold, call, raise), in no-limit the size code of a bet or raise
(``agent.modeller.tracker``), and who acted: the actor's position in table order (0 is the
first seat left of the button) and its role, seen from one opponent X:

* role 0 is us (the bot that owns the modeller), 1 is X, 2 is any other player.

Opponent X's store holds every hand X was dealt into, seen from X. The generic store holds
every hand once, every opponent in role 1 ("this opponent" is any opponent).

Each store keeps three trees, one per abstraction level: 0 exact, 1 sizes ignored, 2 who
acted ignored too (position and role). A node aggregates every stored hand whose chain
starts with the node's path: the count, summed final pot and summed own bets of each
**ending** seen from us (0 showdown, 1 everyone else folded, 2 we folded), and the summed
river HS of the opponents' hands shown at showdown endings with how many there were. So
"chains like this one" is one walk down a tree, in time proportional to the chain's length,
never to the number of hands; a query relaxes from level 0 to 1 to 2 while fewer than
``min_matches`` chains match and says which level it used.

Memory is bounded: past ``max_nodes`` nodes (the three trees together) a store prunes its
rarest nodes, keeping at most ``prune_to * max_nodes``. A node never holds more hands than
its parent, so cutting by a count threshold removes whole branches, the rarest first.

>>> store = ChainStore(max_nodes=1000)
>>> rows = [(1, 0, 1, 0, 0), (2, 3, 0, 1, 0), (1, 0, 1, 0, 0)]  # kind, size, position, seat, street
>>> hand = encode(Chain.of(rows, us=0, players=2), [1])[0]
>>> hand.tolist()  # header; our call (position 1), X's raise (code 3, position 0), our call
[[2, 287, 656, 287], [2, 287, 566, 287], [2, 286, 556, 286]]
>>> store.add(hand, ending=SHOWDOWN, pot=4.0, our_bets=2.0, shown_sum=0.7, shown_count=1)
>>> store.add(hand, ending=WE_FOLD, pot=6.0, our_bets=2.0)
>>> a = store.answer(hand[:, :2], min_matches=1)
>>> a.matched, a.level, a.showdown, a.mean_shown_strength
(2, 0, EndingStats(count=1, mean_pot=4.0, mean_our_bets=2.0), 0.7)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from agent.modeller.errors import ModelFileError
from simulator.core.frozen import quick_init

SHOWDOWN, THEY_FOLD, WE_FOLD = 0, 1, 2
ENDINGS = ("showdown", "they_fold", "we_fold")
LEVELS = 3
SEPARATOR = 1  # a new street
# Header tokens are the players dealt in (2..10); action tokens start above them.
ACTION_BASE = 16
KINDS, SIZES, ROLES, POSITIONS = 3, 9, 3, 10
MAX_TOKEN = ACTION_BASE + KINDS * SIZES * ROLES * POSITIONS - 1
ROOTS = LEVELS  # nodes 0, 1, 2 are the roots of levels 0, 1, 2


# --- chains and tokens ----------------------------------------------------------------------


@dataclass(frozen=True)
class Chain:
    """The actions of a hand as parallel arrays (kind 0 fold / 1 call / 2 raise, size code,
    position, seat, street), with our seat and the players dealt in."""

    kind: np.ndarray
    size: np.ndarray
    position: np.ndarray
    seat: np.ndarray
    street: np.ndarray
    us: int
    players: int

    @staticmethod
    def of(actions: Sequence[tuple[int, int, int, int, int]], us: int, players: int) -> Chain:
        """From ``(kind, size, position, seat, street)`` rows."""
        a = np.array(actions, dtype=np.int64).reshape(-1, 5)
        return Chain(a[:, 0], a[:, 1], a[:, 2], a[:, 3], a[:, 4], us, players)


def encode(chain: Chain, perspectives: Sequence[int]) -> np.ndarray:
    """Token sequences of a chain: shape (len(perspectives), 3 levels, length), int16.

    A perspective is the seat of the opponent in role 1, or -1 for the generic store (every
    opponent in role 1).
    """
    rows = np.stack([chain.kind, chain.size, chain.position, chain.seat, chain.street]
                    ).astype(np.int64).reshape(5, -1)
    return encode_rows(rows, chain.us, chain.players, perspectives)


def encode_rows(rows: np.ndarray, us: int, players: int,
                perspectives: Sequence[int] | np.ndarray) -> np.ndarray:
    """``encode`` of a chain given as a (5, k) int64 array of its kind, size, position, seat
    and street rows (the modeller keeps its hand that way: no Chain to build per query)."""
    return _encode(rows, us, players, np.asarray(perspectives, dtype=np.int64))


@numba.njit(cache=True, nogil=True)
def _encode(rows: np.ndarray, us: int, players: int, perspectives: np.ndarray) -> np.ndarray:
    kind, size, position, seat, street = rows[0], rows[1], rows[2], rows[3], rows[4]
    k = kind.shape[0]
    length = 1 + k + (street[k - 1] if k else 0)  # streets never go back, so seps add up
    out = np.full((perspectives.shape[0], LEVELS, length), SEPARATOR, dtype=np.int16)
    for p in range(perspectives.shape[0]):
        this = perspectives[p]
        at = 0
        for level in range(LEVELS):
            out[p, level, 0] = players
        previous = 0
        for i in range(k):
            at += 1 + street[i] - previous  # separators before a new street's first action
            previous = street[i]
            role = 0 if seat[i] == us else (1 if this < 0 or seat[i] == this else 2)
            out[p, 0, at] = (ACTION_BASE + ((kind[i] * SIZES + size[i]) * ROLES + role)
                             * POSITIONS + position[i])
            out[p, 1, at] = ACTION_BASE + (kind[i] * SIZES * ROLES + role) * POSITIONS + position[i]
            out[p, 2, at] = ACTION_BASE + kind[i] * SIZES * ROLES * POSITIONS
    return out


# --- answers --------------------------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class EndingStats:
    """Stored hands with one ending: how many, their mean final pot (all players' chips,
    blinds and antes included) and our mean total bets (blinds included); means are 0.0
    when ``count`` is 0."""

    count: int
    mean_pot: float
    mean_our_bets: float


@quick_init
@dataclass(frozen=True, slots=True)
class ChainAnswer:
    """What the stored chains like a given one say (``matched`` chains at ``level``)."""

    matched: int
    level: int
    showdown: EndingStats
    they_fold: EndingStats
    we_fold: EndingStats
    mean_shown_strength: float | None
    shown: int

    @staticmethod
    def empty(level: int = LEVELS - 1) -> ChainAnswer:
        """Nothing matched (by default even at the most relaxed level)."""
        none = EndingStats(0, 0.0, 0.0)
        return ChainAnswer(0, level, none, none, none, None, 0)


# --- kernels --------------------------------------------------------------------------------

# Each node is one row of an int32 array and one row of a float64 array (few arrays, so that
# a call into the kernels costs little).
TOKEN, CHILD, SIBLING, PARENT, COUNT, SHOWN_N = 0, 1, 2, 3, 4, 7  # COUNT..COUNT+2: endings
INT_COLUMNS = 8
POT, BETS, SHOWN = 0, 3, 6  # POT..POT+2 and BETS..BETS+2: per ending
FLOAT_COLUMNS = 7


@numba.njit(cache=True, nogil=True)
def _child(ints: np.ndarray, node: int, t: int) -> int:
    c = ints[node, CHILD]
    while c != -1 and ints[c, TOKEN] != t:
        c = ints[c, SIBLING]
    return c


@numba.njit(cache=True, nogil=True)
def _insert(ints: np.ndarray, floats: np.ndarray, n_nodes: int, seqs: np.ndarray,
            ending: int, pot: float, our_bets: float, shown_sum: float,
            shown_count: int) -> int:
    """Add one hand along its three level paths, creating nodes; returns the node count."""
    for level in range(seqs.shape[0]):
        node = level
        for i in range(seqs.shape[1] + 1):
            if i > 0:
                t = seqs[level, i - 1]
                c = _child(ints, node, t)
                if c == -1:
                    c = n_nodes
                    n_nodes += 1
                    ints[c, :] = 0
                    floats[c, :] = 0.0
                    ints[c, TOKEN] = t
                    ints[c, CHILD] = -1
                    ints[c, SIBLING] = ints[node, CHILD]
                    ints[node, CHILD] = c
                    ints[c, PARENT] = node
                node = c
            ints[node, COUNT + ending] += 1
            ints[node, SHOWN_N] += shown_count
            floats[node, POT + ending] += pot
            floats[node, BETS + ending] += our_bets
            floats[node, SHOWN] += shown_sum
    return n_nodes


@numba.njit(cache=True, nogil=True)
def _walk(ints: np.ndarray, seqs: np.ndarray, level: int) -> int:
    """The node of one level's path, -1 where the path leaves the tree."""
    node = level
    for i in range(seqs.shape[1]):
        node = _child(ints, node, seqs[level, i])
        if node == -1:
            break
    return node


@numba.njit(cache=True, nogil=True)
def _find(ints: np.ndarray, seqs: np.ndarray, out: np.ndarray) -> None:
    """``out[level]``: the node of each level's path, -1 where the path leaves the tree."""
    for level in range(seqs.shape[0]):
        out[level] = _walk(ints, seqs, level)


@numba.njit(cache=True, nogil=True)
def _relaxed(ints: np.ndarray, seqs: np.ndarray, min_matches: int) -> tuple[int, int]:
    """The node and level of ``answer``: the first level whose node has ``min_matches``
    hands, else the last level's node (-1 where the path leaves the tree)."""
    last = seqs.shape[0] - 1
    for level in range(last):
        node = _walk(ints, seqs, level)
        if node >= 0 and (ints[node, COUNT] + ints[node, COUNT + 1] + ints[node, COUNT + 2]
                          >= min_matches):
            return node, level
    return _walk(ints, seqs, last), last


@numba.njit(cache=True, nogil=True)
def _relink(ints: np.ndarray, n: int) -> None:
    """Rebuild the child and sibling links of the first ``n`` nodes from their parents."""
    for i in range(n):
        ints[i, CHILD] = -1
        ints[i, SIBLING] = -1
    for i in range(n - 1, ROOTS - 1, -1):
        p = ints[i, PARENT]
        ints[i, SIBLING] = ints[p, CHILD]
        ints[p, CHILD] = i


# --- the store ------------------------------------------------------------------------------


class ChainStore:
    """One store: three prefix trees (levels 0, 1, 2) in one pool of nodes, capped.

    Node i is row i of ``ints`` (token, first child, next sibling, parent, the three ending
    counts, the shown count) and of ``floats`` (summed pots and our bets per ending, summed
    shown strength). The rows grow by doubling (never much past the cap).
    """

    def __init__(self, max_nodes: int = 1_000_000, prune_to: float = 0.8,
                 capacity: int = 1024) -> None:
        self.max_nodes = max_nodes
        self.prune_to = prune_to
        self.hands = 0
        capacity = max(capacity, ROOTS)
        self.ints = np.zeros((capacity, INT_COLUMNS), dtype=np.int32)
        self.floats = np.zeros((capacity, FLOAT_COLUMNS), dtype=np.float64)
        self.ints[:ROOTS, [TOKEN, CHILD, SIBLING, PARENT]] = -1
        self.n_nodes = ROOTS

    @property
    def capacity(self) -> int:
        return len(self.ints)

    @property
    def counts(self) -> np.ndarray:
        """(nodes, 3) hands per ending of every node in use (a view)."""
        return self.ints[:self.n_nodes, COUNT:COUNT + 3]

    def _grow(self, needed: int) -> None:
        capacity = max(needed, min(2 * self.capacity, self.max_nodes + 4096))
        n = self.n_nodes
        ints = np.zeros((capacity, INT_COLUMNS), dtype=np.int32)
        floats = np.zeros((capacity, FLOAT_COLUMNS), dtype=np.float64)
        ints[:n] = self.ints[:n]
        floats[:n] = self.floats[:n]
        self.ints, self.floats = ints, floats

    @property
    def nbytes(self) -> int:
        """Bytes held by the node arrays (capacity, not just the nodes in use)."""
        return self.ints.nbytes + self.floats.nbytes

    def add(self, seqs: np.ndarray, ending: int, pot: float, our_bets: float,
            shown_sum: float = 0.0, shown_count: int = 0) -> None:
        """Store one finished hand given its (3, length) token sequences."""
        if self.n_nodes + seqs.size > len(self.ints):
            self._grow(self.n_nodes + seqs.size)
        self.n_nodes = _insert(self.ints, self.floats, self.n_nodes, seqs, ending, pot,
                               our_bets, shown_sum, shown_count)
        self.hands += 1
        if self.n_nodes > self.max_nodes:
            self.prune()

    def find(self, seqs: np.ndarray) -> np.ndarray:
        """The node of each level's path (-1 where no stored chain has that prefix)."""
        out = np.empty(LEVELS, dtype=np.int64)
        _find(self.ints, seqs, out)
        return out

    def matches(self, node: int) -> int:
        if node < 0:
            return 0
        row = self.ints[node]
        return int(row[COUNT]) + int(row[COUNT + 1]) + int(row[COUNT + 2])

    def answer(self, seqs: np.ndarray, min_matches: int) -> ChainAnswer:
        """The aggregates of the chains starting with ``seqs``, relaxing while too few match."""
        node, level = _relaxed(self.ints, seqs, min_matches)
        return self.stats(node, level)

    def stats(self, node: int, level: int) -> ChainAnswer:
        """A node's aggregates as an answer (an empty one for -1)."""
        if node < 0:
            return ChainAnswer.empty(level)
        ints = self.ints[node].tolist()
        floats = self.floats[node].tolist()
        endings = []
        for e in range(3):
            c = ints[COUNT + e]
            endings.append(EndingStats(c, floats[POT + e] / c if c else 0.0,
                                       floats[BETS + e] / c if c else 0.0))
        showdown, they_fold, we_fold = endings
        n_shown = ints[SHOWN_N]
        mean_shown = floats[SHOWN] / n_shown if n_shown else None
        return ChainAnswer(sum(ints[COUNT:COUNT + 3]), level, showdown, they_fold, we_fold,
                           mean_shown, n_shown)

    def prune(self) -> None:
        """Keep at most ``prune_to * max_nodes`` nodes: the most frequent, whole branches."""
        n = self.n_nodes
        target = max(int(self.prune_to * self.max_nodes) - ROOTS, 0)
        totals = self.counts.sum(axis=1)
        rest = totals[ROOTS:]
        if len(rest) <= target:
            return
        cut = np.partition(rest, len(rest) - target - 1)[len(rest) - target - 1]
        keep = totals > cut
        keep[:ROOTS] = True
        idx = np.flatnonzero(keep)
        new_of = np.full(n, -1, dtype=np.int64)
        new_of[idx] = np.arange(len(idx))
        m = len(idx)
        self.ints[:m] = self.ints[idx]
        self.floats[:m] = self.floats[idx]
        p = self.ints[:m, PARENT].astype(np.int64)
        self.ints[:m, PARENT] = np.where(p >= 0, new_of[np.maximum(p, 0)], -1)
        self.n_nodes = m
        _relink(self.ints, m)

    # --- persistence ----------------------------------------------------------------------

    def arrays(self) -> dict[str, np.ndarray]:
        """The nodes in use (what ``agent.modeller.storage`` writes): ``ints`` (with the child
        and sibling links left at -1: the parents say it all, and loading relinks), ``floats``
        and ``hands`` (the number of hands stored)."""
        n = self.n_nodes
        ints = self.ints[:n].copy()
        ints[:, [CHILD, SIBLING]] = -1
        return {"ints": ints, "floats": self.floats[:n],
                "hands": np.array([self.hands], dtype=np.int64)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], max_nodes: int, prune_to: float,
                    where: str, shown_per_hand: int = 9, max_count: int = 2**53) -> ChainStore:
        """A store from saved fields, checked so that a damaged file is refused, not used:
        at most ``shown_per_hand`` hands are shown at a showdown (the other seats), and no
        count exceeds ``max_count``."""
        _check_fields(arrays, where)
        _check_counts(arrays, where, shown_per_hand, max_count)
        n = len(arrays["ints"])
        store = cls(max_nodes, prune_to, capacity=max(n, 1024))
        store.ints[:n] = arrays["ints"]
        store.floats[:n] = arrays["floats"]
        store.n_nodes = n
        store.hands = int(arrays["hands"][0])
        _relink(store.ints, n)
        if n > max_nodes:
            store.prune()
        return store


def _check_fields(arrays: dict[str, np.ndarray], where: str) -> None:
    def bad(why: str) -> ModelFileError:
        return ModelFileError(f"{where}: corrupt chain store: {why}")

    missing = [name for name in ("ints", "floats", "hands") if name not in arrays]
    if missing:
        raise bad(f"missing {', '.join(missing)}")
    ints, floats, hands = arrays["ints"], arrays["floats"], arrays["hands"]
    n = len(ints)
    for name, a, dtype, columns in (("ints", ints, np.int32, INT_COLUMNS),
                                    ("floats", floats, np.float64, FLOAT_COLUMNS)):
        if a.dtype != dtype or a.shape != (n, columns):
            raise bad(f"field {name} is {a.dtype}{list(a.shape)}, expected "
                      f"{np.dtype(dtype)}{[n, columns]}")
    if n < ROOTS:
        raise bad(f"{n} nodes, fewer than the {ROOTS} roots")
    if hands.shape != (1,) or hands[0] < 0:
        raise bad("bad hand count")
    parent, token = ints[:, PARENT], ints[:, TOKEN]
    counts = ints[:, COUNT:COUNT + 3]
    if (parent[:ROOTS] != -1).any() or (token[:ROOTS] != -1).any():
        raise bad("the roots are damaged")
    index = np.arange(ROOTS, n)
    if ((parent[ROOTS:] < 0) | (parent[ROOTS:] >= index)).any():
        raise bad("a node's parent is not an earlier node")
    if ((token[ROOTS:] < SEPARATOR) | (token[ROOTS:] > MAX_TOKEN)).any():
        raise bad("a token out of range")
    if (counts < 0).any() or (ints[:, SHOWN_N] < 0).any() or not np.isfinite(floats).all():
        raise bad("a negative count or a non-finite sum")
    if (counts[ROOTS:] > counts[parent[ROOTS:]]).any():
        raise bad("a node holds more hands of an ending than its parent")


def _check_counts(arrays: dict[str, np.ndarray], where: str, shown_per_hand: int,
                  max_count: int) -> None:
    """What the counts and sums of a store that was built by ``add`` always satisfy."""
    def bad(why: str) -> ModelFileError:
        return ModelFileError(f"{where}: corrupt chain store: {why}")

    ints, floats = arrays["ints"], arrays["floats"]
    hands = int(arrays["hands"][0])
    counts = ints[:, COUNT:COUNT + 3].astype(np.int64)
    shown = ints[:, SHOWN_N].astype(np.int64)
    if hands > max_count:
        raise bad(f"{hands} hands, more than {max_count}")
    if (counts[:ROOTS].sum(axis=1) != hands).any():
        raise bad(f"its roots do not hold the {hands} hands it stored")
    if (shown > shown_per_hand * counts[:, SHOWDOWN]).any():
        raise bad(f"more shown hands than {shown_per_hand} a showdown")
    parent = ints[ROOTS:, PARENT]
    if (shown[ROOTS:] > shown[parent]).any():
        raise bad("a node holds more shown hands than its parent")
    pots, bets = floats[:, POT:POT + 3], floats[:, BETS:BETS + 3]
    if (floats < 0).any() or ((counts == 0) & ((pots > 0) | (bets > 0))).any():
        raise bad("a negative sum, or chips of an ending never seen")
    if (floats[:, SHOWN] > shown * (1 + 1e-9) + 1e-9).any():  # a sum's rounding aside
        raise bad("a shown strength above 1")
