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
    return _encode(chain.kind, chain.size, chain.position, chain.seat, chain.street, chain.us,
                   chain.players, np.asarray(perspectives, dtype=np.int64))


@numba.njit(cache=True, nogil=True)
def _encode(kind: np.ndarray, size: np.ndarray, position: np.ndarray, seat: np.ndarray,
            street: np.ndarray, us: int, players: int, perspectives: np.ndarray) -> np.ndarray:
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


@dataclass(frozen=True)
class EndingStats:
    """Stored hands with one ending: how many, their mean final pot (all players' chips,
    blinds and antes included) and our mean total bets (blinds included); means are 0.0
    when ``count`` is 0."""

    count: int
    mean_pot: float
    mean_our_bets: float


@dataclass(frozen=True)
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


@numba.njit(cache=True, nogil=True)
def _child(token: np.ndarray, child: np.ndarray, sibling: np.ndarray, node: int, t: int) -> int:
    c = child[node]
    while c != -1 and token[c] != t:
        c = sibling[c]
    return c


@numba.njit(cache=True, nogil=True)
def _insert(token: np.ndarray, child: np.ndarray, sibling: np.ndarray, parent: np.ndarray,
            counts: np.ndarray, pots: np.ndarray, bets: np.ndarray, shown: np.ndarray,
            shown_n: np.ndarray, n_nodes: int, seqs: np.ndarray, ending: int, pot: float,
            our_bets: float, shown_sum: float, shown_count: int) -> int:
    """Add one hand along its three level paths, creating nodes; returns the node count."""
    for level in range(seqs.shape[0]):
        node = level
        for i in range(seqs.shape[1] + 1):
            if i > 0:
                t = seqs[level, i - 1]
                c = _child(token, child, sibling, node, t)
                if c == -1:
                    c = n_nodes
                    n_nodes += 1
                    token[c] = t
                    child[c] = -1
                    sibling[c] = child[node]
                    child[node] = c
                    parent[c] = node
                    for e in range(3):
                        counts[c, e] = 0
                        pots[c, e] = 0.0
                        bets[c, e] = 0.0
                    shown[c] = 0.0
                    shown_n[c] = 0
                node = c
            counts[node, ending] += 1
            pots[node, ending] += pot
            bets[node, ending] += our_bets
            shown[node] += shown_sum
            shown_n[node] += shown_count
    return n_nodes


@numba.njit(cache=True, nogil=True)
def _find(token: np.ndarray, child: np.ndarray, sibling: np.ndarray, seqs: np.ndarray,
          out: np.ndarray) -> None:
    """``out[level]``: the node of each level's path, -1 where the path leaves the tree."""
    for level in range(seqs.shape[0]):
        node = level
        for i in range(seqs.shape[1]):
            node = _child(token, child, sibling, node, seqs[level, i])
            if node == -1:
                break
        out[level] = node


@numba.njit(cache=True, nogil=True)
def _relink(parent: np.ndarray, child: np.ndarray, sibling: np.ndarray, n: int) -> None:
    """Rebuild the child and sibling links of the first ``n`` nodes from their parents."""
    for i in range(n):
        child[i] = -1
        sibling[i] = -1
    for i in range(n - 1, ROOTS - 1, -1):
        p = parent[i]
        sibling[i] = child[p]
        child[p] = i


# --- the store ------------------------------------------------------------------------------

_FIELDS: dict[str, tuple[type, tuple[int, ...]]] = {
    "token": (np.int16, ()), "parent": (np.int32, ()), "counts": (np.int32, (3,)),
    "pots": (np.float64, (3,)), "bets": (np.float64, (3,)), "shown": (np.float64, ()),
    "shown_n": (np.int32, ()),
}


class ChainStore:
    """One store: three prefix trees (levels 0, 1, 2) in one pool of nodes, capped.

    Nodes live in parallel arrays that grow by doubling (never past the cap and one hand's
    worth of slack); ``child``/``sibling`` link each node's children.
    """

    def __init__(self, max_nodes: int = 1_000_000, prune_to: float = 0.8,
                 capacity: int = 1024) -> None:
        self.max_nodes = max_nodes
        self.prune_to = prune_to
        self.hands = 0
        self._allocate(max(capacity, ROOTS))
        self.n_nodes = ROOTS
        self.token[:ROOTS] = -1
        self.parent[:ROOTS] = -1
        self.child[:ROOTS] = -1
        self.sibling[:ROOTS] = -1

    def _allocate(self, capacity: int) -> None:
        self.capacity = capacity
        for name, (dtype, shape) in _FIELDS.items():
            setattr(self, name, np.zeros((capacity, *shape), dtype=dtype))
        self.child = np.full(capacity, -1, dtype=np.int32)
        self.sibling = np.full(capacity, -1, dtype=np.int32)

    def _grow(self, needed: int) -> None:
        capacity = max(needed, min(2 * self.capacity, self.max_nodes + 4096))
        old = {name: getattr(self, name) for name in (*_FIELDS, "child", "sibling")}
        self._allocate(capacity)
        n = self.n_nodes
        for name, array in old.items():
            getattr(self, name)[:n] = array[:n]

    @property
    def nbytes(self) -> int:
        """Bytes held by the node arrays (capacity, not just the nodes in use)."""
        return sum(getattr(self, name).nbytes for name in (*_FIELDS, "child", "sibling"))

    def add(self, seqs: np.ndarray, ending: int, pot: float, our_bets: float,
            shown_sum: float = 0.0, shown_count: int = 0) -> None:
        """Store one finished hand given its (3, length) token sequences."""
        needed = self.n_nodes + seqs.size
        if needed > self.capacity:
            self._grow(needed)
        self.n_nodes = _insert(self.token, self.child, self.sibling, self.parent, self.counts,
                               self.pots, self.bets, self.shown, self.shown_n, self.n_nodes,
                               seqs, ending, float(pot), float(our_bets), float(shown_sum),
                               int(shown_count))
        self.hands += 1
        if self.n_nodes > self.max_nodes:
            self.prune()

    def find(self, seqs: np.ndarray) -> np.ndarray:
        """The node of each level's path (-1 where no stored chain has that prefix)."""
        out = np.empty(LEVELS, dtype=np.int64)
        _find(self.token, self.child, self.sibling, seqs, out)
        return out

    def matches(self, node: int) -> int:
        return 0 if node < 0 else int(self.counts[node].sum())

    def answer(self, seqs: np.ndarray, min_matches: int) -> ChainAnswer:
        """The aggregates of the chains starting with ``seqs``, relaxing while too few match."""
        nodes = self.find(seqs)
        level = LEVELS - 1
        for candidate in range(LEVELS - 1):
            if self.matches(int(nodes[candidate])) >= min_matches:
                level = candidate
                break
        return self.stats(int(nodes[level]), level)

    def stats(self, node: int, level: int) -> ChainAnswer:
        """A node's aggregates as an answer (an empty one for -1)."""
        if node < 0:
            return ChainAnswer.empty(level)
        counts = self.counts[node].tolist()
        pots = self.pots[node].tolist()
        bets = self.bets[node].tolist()
        endings = [EndingStats(c, p / c if c else 0.0, b / c if c else 0.0)
                   for c, p, b in zip(counts, pots, bets, strict=True)]
        n_shown = int(self.shown_n[node])
        mean_shown = float(self.shown[node]) / n_shown if n_shown else None
        return ChainAnswer(sum(counts), level, *endings, mean_shown, n_shown)

    def prune(self) -> None:
        """Keep at most ``prune_to * max_nodes`` nodes: the most frequent, whole branches."""
        n = self.n_nodes
        target = max(int(self.prune_to * self.max_nodes) - ROOTS, 0)
        totals = self.counts[:n].sum(axis=1)
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
        for name in _FIELDS:
            array = getattr(self, name)
            array[:m] = array[idx]
        p = self.parent[:m].astype(np.int64)
        self.parent[:m] = np.where(p >= 0, new_of[np.maximum(p, 0)], -1)
        self.n_nodes = m
        _relink(self.parent, self.child, self.sibling, m)

    # --- persistence ----------------------------------------------------------------------

    def arrays(self) -> dict[str, np.ndarray]:
        """The nodes in use, by field (what ``agent.modeller.storage`` writes)."""
        n = self.n_nodes
        return {name: getattr(self, name)[:n] for name in _FIELDS} | {
            "hands": np.array([self.hands], dtype=np.int64)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], max_nodes: int, prune_to: float,
                    where: str) -> ChainStore:
        """A store from saved fields, checked so that a damaged file is refused, not used."""
        _check_fields(arrays, where)
        n = len(arrays["token"])
        store = cls(max_nodes, prune_to, capacity=max(n, 1024))
        for name in _FIELDS:
            getattr(store, name)[:n] = arrays[name]
        store.n_nodes = n
        store.hands = int(arrays["hands"][0])
        _relink(store.parent, store.child, store.sibling, n)
        if n > max_nodes:
            store.prune()
        return store


def _check_fields(arrays: dict[str, np.ndarray], where: str) -> None:
    def bad(why: str) -> ModelFileError:
        return ModelFileError(f"{where}: corrupt chain store: {why}")

    missing = [name for name in (*_FIELDS, "hands") if name not in arrays]
    if missing:
        raise bad(f"missing {', '.join(missing)}")
    n = len(arrays["token"])
    if n < ROOTS:
        raise bad(f"{n} nodes, fewer than the {ROOTS} roots")
    for name, (dtype, shape) in _FIELDS.items():
        a = arrays[name]
        if a.dtype != dtype or a.shape != (n, *shape):
            raise bad(f"field {name} is {a.dtype}{list(a.shape)}, expected "
                      f"{np.dtype(dtype)}{[n, *shape]}")
    if arrays["hands"].shape != (1,) or arrays["hands"][0] < 0:
        raise bad("bad hand count")
    parent, token, counts = arrays["parent"], arrays["token"], arrays["counts"]
    if (parent[:ROOTS] != -1).any() or (token[:ROOTS] != -1).any():
        raise bad("the roots are damaged")
    index = np.arange(ROOTS, n)
    if ((parent[ROOTS:] < 0) | (parent[ROOTS:] >= index)).any():
        raise bad("a node's parent is not an earlier node")
    if ((token[ROOTS:] < SEPARATOR) | (token[ROOTS:] > MAX_TOKEN)).any():
        raise bad("a token out of range")
    if (counts < 0).any() or (arrays["shown_n"] < 0).any():
        raise bad("a negative count")
    totals = counts.sum(axis=1)
    if (totals[ROOTS:] > totals[parent[ROOTS:]]).any():
        raise bad("a node holds more hands than its parent")
