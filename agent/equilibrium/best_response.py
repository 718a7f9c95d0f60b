"""How much a best responder wins against a hold'em strategy: an estimate over sampled boards.

**What is computed, and why not the exact figure.** An exact best response to a strategy over
all deals walks, for every one of the 2,554,656 suit-canonical (flop, turn, river) boards
(:func:`agent.equilibrium.features.canonical_deal_count`), the 567 river-entry betting
histories, each with its 9 showdowns over ~1,000 holdings: 10^13 to 10^14 operations
(Johanson et al. 2011's accelerated best response needed about a day on 72 cores for the
full game). A responder that sees its own bucket sequence
with perfect recall (the "within the abstraction" figure) costs as much, since nothing can
be shared across boards, and with hundreds of buckets it knows nearly as much as one that
sees its cards (:func:`board_cost` measures the cost per river board). So this module
estimates the *real-game* best response instead, exactly on a seeded sample of public cards:

* ``flops`` flops are drawn at random; on each, ``turns`` turn cards, and on each turn every
  river card, with every holding of both players enumerated. The responder sees its cards
  and the board (perfect recall): on the turn and the river its choices are exact
  best responses. Every terminal is summed over the chance outcomes below its node (a
  turn fold over the river cards both holdings leave, a flop fold over the sampled turns
  and their rivers), as the showdowns are, so one normalisation (:func:`showdowns`) makes
  them all expectations. Each flop's values are averaged over the flop's 24 suit
  permutations, so one canonical flop stands for its whole class.
* The responder's flop choices are made against the sampled turns and its pre-flop choices
  against the sampled flops: in-sample, it has seen part of the future, so this **in-sample
  value is biased upwards**.
* Against a second, independent set of turns on the same flops, the choices made in-sample
  are replayed (turn and river choices again exact): the value of a real strategy, so this
  **out-of-sample value is an unbiased estimate of a lower bound** of the best response.

The real-game best response bounds the within-abstraction one from above (a responder that
sees its cards can play any strategy one that sees only buckets can), so the bracket is an
upper bound of the within-abstraction exploitability, up to sampling error. Both figures
carry the sampling noise of the few flops; the same seeded sample at every point of a curve
(common random numbers) keeps their differences meaningful.

Exploitability is reported as the mean of the two seats' best-response values, in mbb/g
(thousandths of a big blind per game).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from agent.equilibrium import features
from agent.equilibrium.abstraction import CardAbstraction
from agent.equilibrium.kernels import CHANCE, DECISION, FOLD, TreeArrays, card_totals
from agent.equilibrium.strategy import StrategyTable
from agent.equilibrium.tree import CALL, Tree
from simulator.core.cards import HOLDINGS, NUM_HOLDINGS
from simulator.core.suits import HOLDING_PERMS

_HA = HOLDINGS[:, 0].astype(np.int64)
_HB = HOLDINGS[:, 1].astype(np.int64)
RECORD, REPLAY, FREE = 0, 1, 2
MAX_DEPTH = 40


@numba.njit(cache=True, nogil=True)
def _turn_fold(reach: np.ndarray, ha: np.ndarray, hb: np.ndarray, stake: float,
               rivers: np.ndarray, out: np.ndarray, sums: np.ndarray) -> None:
    """A fold on the turn, summed over the river cards as a showdown below it is: each
    compatible opponent o weighs ``stake`` times the river cards h and o both leave, R minus
    those h holds minus those o holds (``rivers`` the turn's river cards, -1 padded)."""
    held = sums[2]
    held[:] = 0.0
    count = 0.0
    for q in range(rivers.shape[0]):
        if rivers[q] >= 0:
            held[rivers[q]] = 1.0
            count += 1.0
    sums[0, :] = 0.0
    sums[1, :] = 0.0
    total = 0.0
    weighted = 0.0
    for h in range(reach.shape[0]):
        x = reach[h]
        if x != 0.0:
            w = x * (held[ha[h]] + held[hb[h]])
            total += x
            weighted += w
            sums[0, ha[h]] += x
            sums[0, hb[h]] += x
            sums[1, ha[h]] += w
            sums[1, hb[h]] += w
    for h in range(reach.shape[0]):
        a = ha[h]
        b = hb[h]
        mine = held[a] + held[b]
        met = total - sums[0, a] - sums[0, b] + reach[h]
        met_held = weighted - sums[1, a] - sums[1, b] + reach[h] * mine
        out[h] = stake * ((count - mine) * met - met_held)


@numba.njit(cache=True, nogil=True)
def _flop_fold(reach: np.ndarray, ha: np.ndarray, hb: np.ndarray, stake: float,
               turn_cards: np.ndarray, river_cards: np.ndarray, out: np.ndarray,
               r: np.ndarray, v: np.ndarray, sums: np.ndarray) -> None:
    """A fold on the flop, summed over the sampled turns and their rivers as a showdown
    below it is (:func:`_turn_fold` on each turn); ``r`` and ``v`` are scratch."""
    out[:] = 0.0
    for t in range(turn_cards.shape[0]):
        c = turn_cards[t]
        if c < 0:
            continue
        for h in range(reach.shape[0]):
            r[h] = 0.0 if ha[h] == c or hb[h] == c else reach[h]
        _turn_fold(r, ha, hb, stake, river_cards[t], v, sums)
        for h in range(reach.shape[0]):
            if ha[h] != c and hb[h] != c:
                out[h] += v[h]


@numba.njit(cache=True, nogil=True)
def _showdown_compact(reach: np.ndarray, ca: np.ndarray, cb: np.ndarray,
                      group_start: np.ndarray, stake: float, out: np.ndarray,
                      sums: np.ndarray) -> None:
    """``stake * (W - L)`` against ``reach``: the river board's live holdings, strongest
    first (the showdown trick of :mod:`agent.equilibrium.kernels`, for one player)."""
    n = reach.shape[0]
    sums[:] = 0.0
    total = card_totals(reach, ca, cb, sums[0])
    worse = 0.0
    pos = n - 1
    while pos >= 0:
        start = group_start[pos]
        tie = 0.0
        for h in range(start, pos + 1):
            x = reach[h]
            tie += x
            sums[2, ca[h]] += x
            sums[2, cb[h]] += x
        for h in range(start, pos + 1):
            a = ca[h]
            b = cb[h]
            won = worse - sums[1, a] - sums[1, b]
            tied = tie - sums[2, a] - sums[2, b] + reach[h]
            met = total - sums[0, a] - sums[0, b] + reach[h]
            out[h] = stake * (2.0 * won + tied - met)
        for h in range(start, pos + 1):
            sums[1, ca[h]] += reach[h]
            sums[1, cb[h]] += reach[h]
            sums[2, ca[h]] = 0.0
            sums[2, cb[h]] = 0.0
        worse += tie
        pos = start - 1


class RiverBoard(NamedTuple):
    """One river board's live holdings, strongest first: the opponent's river bucket of
    each, its cards, and the first holding tied with it at the showdown."""

    buckets: np.ndarray
    ca: np.ndarray
    cb: np.ndarray
    group_start: np.ndarray


class RiverBuffers(NamedTuple):
    """Per-depth scratch of :func:`_river`: reach (depth, n) and the children's values
    (depth, 3, n); and per-card sums (3, 52)."""

    reach: np.ndarray
    kids: np.ndarray
    sums: np.ndarray


class SampleArrays(NamedTuple):
    """A :class:`FlopSample`'s arrays, as :func:`_respond` reads them."""

    buckets: np.ndarray
    turn_cards: np.ndarray
    river_cards: np.ndarray
    river_order: np.ndarray
    river_start: np.ndarray
    river_live: np.ndarray
    river_bk: np.ndarray
    river_ca: np.ndarray
    river_cb: np.ndarray


class Play(NamedTuple):
    """Who responds to what: the responder's seat, the opponent's full strategy (a row per
    (node, bucket)), each flop decision node's row in ``decisions`` (-1 elsewhere), the
    flop choices recorded or replayed there, and the ``mode`` (RECORD, REPLAY or FREE)."""

    me: int
    strat: np.ndarray
    flop_row: np.ndarray
    decisions: np.ndarray
    mode: int


class RespondBuffers(NamedTuple):
    """Per-depth scratch of :func:`_respond` over all 1326 holdings (reach (depth, 1326),
    children's values (depth, 3, 1326)), the river walks' (:class:`RiverBuffers` less its
    first reach row, which holds the river board's reach), and one river board's values."""

    reach: np.ndarray
    kids: np.ndarray
    river: RiverBuffers
    river_out: np.ndarray


# Not cached, as kernels.walk: numba's cache mishandles self-recursive functions.
@numba.njit(nogil=True)
def _river(node: int, depth: int, me: int, tree: TreeArrays, strat: np.ndarray,
           board: RiverBoard, reach: np.ndarray, out: np.ndarray, buf: RiverBuffers) -> None:
    """The responder's values below a river node, on one river board's live holdings
    (:class:`RiverBoard`). A subtree the opponent never reaches is worth 0 and is not
    walked."""
    k = tree.kind[node]
    n = reach.shape[0]
    ca, cb = board.ca, board.cb
    sums = buf.sums
    if k == FOLD:
        folder = tree.player[node]
        stake = float(tree.spent[node, folder])
        if folder == me:
            stake = -stake
        total = card_totals(reach, ca, cb, sums[0])
        for h in range(n):
            out[h] = stake * (total - sums[0, ca[h]] - sums[0, cb[h]] + reach[h])
        return
    if k != DECISION:
        _showdown_compact(reach, ca, cb, board.group_start, float(tree.spent[node, 0]), out,
                          sums)
        return
    if tree.player[node] == me:
        first = True
        for a in range(3):
            c = tree.child[node, a]
            if c < 0:
                continue
            v = buf.kids[depth, a]
            _river(c, depth + 1, me, tree, strat, board, reach, v, buf)
            for h in range(n):
                if first or v[h] > out[h]:
                    out[h] = v[h]
            first = False
        return
    base = tree.row_base[node]
    bk = board.buckets
    out[:] = 0.0
    r = buf.reach[depth]
    for a in range(3):
        c = tree.child[node, a]
        if c < 0:
            continue
        live = False
        for h in range(n):
            x = reach[h] * strat[base + bk[h], a]
            r[h] = x
            if x != 0.0:
                live = True
        if not live:
            continue
        v = buf.kids[depth, a]
        _river(c, depth + 1, me, tree, strat, board, r, v, buf)
        for h in range(n):
            out[h] += v[h]


# Not cached, as kernels.walk: numba's cache mishandles self-recursive functions.
@numba.njit(nogil=True)
def _respond(node: int, depth: int, tree: TreeArrays, play: Play, sample: SampleArrays,
             ti: int, reach: np.ndarray, out: np.ndarray, ha: np.ndarray, hb: np.ndarray,
             buf: RespondBuffers) -> None:
    """The responder ``play.me``'s values below a flop or turn ``node`` against the
    opponent's ``reach`` (over all 1326 holdings; :class:`FlopSample` describes the board
    arrays, ``ti`` is the current turn's index). Each river round is walked on its board's
    live holdings (:func:`_river`). At the responder's flop decisions ``play.mode`` RECORD
    takes the best action and writes it to ``play.decisions[play.flop_row[node], h]``,
    REPLAY plays the recorded one, FREE takes the best. Values are sums over the sampled
    cards, not yet divided by their number.
    """
    me = play.me
    k = tree.kind[node]
    n = reach.shape[0]
    turn_cards, river_cards = sample.turn_cards, sample.river_cards
    if k == FOLD:
        folder = tree.player[node]
        stake = float(tree.spent[node, folder])
        if folder == me:
            stake = -stake
        # weighted by the chance outcomes below, as the showdowns are (values are sums)
        if tree.round[node] == 2:
            _turn_fold(reach, ha, hb, stake, river_cards[ti], out, buf.river.sums)
        else:
            _flop_fold(reach, ha, hb, stake, turn_cards, river_cards, out,
                       buf.reach[depth], buf.kids[depth, 0], buf.river.sums)
        return
    if k == CHANCE:
        nxt = tree.child[node, 1]
        out[:] = 0.0
        r = buf.reach[depth]
        v = buf.kids[depth, 0]
        if tree.round[node] == 1:  # the flop round is over: the turn card comes
            for t in range(turn_cards.shape[0]):
                c = turn_cards[t]
                if c < 0:
                    continue
                for h in range(n):
                    r[h] = 0.0 if ha[h] == c or hb[h] == c else reach[h]
                _respond(nxt, depth + 1, tree, play, sample, t, r, v, ha, hb, buf)
                for h in range(n):
                    if ha[h] != c and hb[h] != c:
                        out[h] += v[h]
        else:  # the turn round is over: every river card, on its live holdings
            rr = buf.river.reach[0]
            rv = buf.river_out
            deeper = RiverBuffers(buf.river.reach[1:], buf.river.kids, buf.river.sums)
            for q in range(river_cards.shape[1]):
                if river_cards[ti, q] < 0:
                    continue
                m = sample.river_live[ti, q]
                order = sample.river_order[ti, q, :m]
                live = False
                for i in range(m):
                    x = reach[order[i]]
                    rr[i] = x
                    if x != 0.0:
                        live = True
                if not live:
                    continue
                board = RiverBoard(sample.river_bk[ti, q, :m], sample.river_ca[ti, q, :m],
                                   sample.river_cb[ti, q, :m], sample.river_start[ti, q, :m])
                _river(nxt, 0, me, tree, play.strat, board, rr[:m], rv[:m], deeper)
                for i in range(m):
                    out[order[i]] += rv[i]
        return
    street = tree.round[node]
    p = tree.player[node]
    if p == me:
        best = out
        first = True
        row = play.flop_row[node]
        for a in range(3):
            if tree.child[node, a] < 0:
                continue
            v = buf.kids[depth, a]
            _respond(tree.child[node, a], depth + 1, tree, play, sample, ti, reach, v, ha, hb,
                     buf)
        if street == 1 and play.mode == REPLAY:
            for h in range(n):
                best[h] = buf.kids[depth, play.decisions[row, h], h]
            return
        for a in range(3):
            if tree.child[node, a] < 0:
                continue
            v = buf.kids[depth, a]
            for h in range(n):
                if first or v[h] > best[h]:
                    best[h] = v[h]
                    if street == 1 and play.mode == RECORD:
                        play.decisions[row, h] = a
            first = False
        return
    bk = sample.buckets[street, ti if street >= 2 else 0]
    base = tree.row_base[node]
    strat = play.strat
    out[:] = 0.0
    r = buf.reach[depth]
    for a in range(3):
        if tree.child[node, a] < 0:
            continue
        live = False
        for h in range(n):
            b = bk[h]
            r[h] = reach[h] * strat[base + b, a] if b >= 0 else 0.0
            if r[h] != 0.0:
                live = True
        if not live:  # the opponent never plays this: nothing to win or lose below
            continue
        v = buf.kids[depth, a]
        _respond(tree.child[node, a], depth + 1, tree, play, sample, ti, r, v, ha, hb, buf)
        for h in range(n):
            out[h] += v[h]


# --- one flop ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlopSample:
    """A canonical flop with its sampled turn cards and every river card: the opponent's
    flop and turn buckets (``buckets[1, 0]``, ``buckets[2, t]``; (4, turns, 1326)), and per
    river board its live holdings strongest first (``river_order``, ``river_live`` of them),
    their tie groups, cards and river buckets (``river_start``, ``river_ca``/``river_cb``,
    ``river_bk``; (turns, 48, 1081))."""

    flop: np.ndarray
    turn_cards: np.ndarray
    river_cards: np.ndarray
    buckets: np.ndarray
    river_order: np.ndarray
    river_start: np.ndarray
    river_live: np.ndarray
    river_bk: np.ndarray
    river_ca: np.ndarray
    river_cb: np.ndarray


def flop_sample(abstraction: CardAbstraction, flop: np.ndarray, turns: np.ndarray,
                rivers: int | None = None) -> FlopSample:
    """Everything a walk of this flop needs (every river board ranked and bucketed);
    ``rivers`` keeps only the first few river cards (quick checks)."""
    t = turns.size
    river_cards = np.full((t, 48), -1, dtype=np.int64)
    buckets = np.full((4, t, NUM_HOLDINGS), -1, dtype=np.int32)
    shape = (t, 48, 1081)
    order, start = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    bk, ca, cb = (np.zeros(shape, dtype=np.int64) for _ in range(3))
    live = np.zeros((t, 48), dtype=np.int64)
    buckets[1, :] = abstraction.street_buckets(flop)
    for i, turn in enumerate(turns.tolist()):
        board4 = np.append(flop, turn)
        buckets[2, i] = abstraction.street_buckets(board4)
        cards = [c for c in range(52) if c not in board4.tolist()][:rivers]
        river_cards[i, :len(cards)] = cards
        for q, river in enumerate(cards):
            ranks = features.river_ranks(np.append(board4, river))
            codes = features.codes_of_ranks(ranks)
            alive = np.flatnonzero(ranks > 0)
            o = alive[np.argsort(ranks[alive], kind="stable")]
            marks = np.zeros(o.size, dtype=np.int64)
            new = np.flatnonzero(np.diff(ranks[o]) != 0) + 1
            marks[new] = new
            m = o.size
            order[i, q, :m], start[i, q, :m], live[i, q] = o, np.maximum.accumulate(marks), m
            bk[i, q, :m] = np.searchsorted(abstraction.thresholds[2], codes[o], side="right")
            ca[i, q, :m], cb[i, q, :m] = _HA[o], _HB[o]
    return FlopSample(flop, turns.astype(np.int64), river_cards, buckets, order, start, live,
                      bk, ca, cb)


class Responder:
    """The best-response walks of one strategy (see the module docstring)."""

    def __init__(self, table: StrategyTable) -> None:
        self.table = table
        tree: Tree = table.tree
        self.tree = tree
        self.strat = np.ascontiguousarray(table.full())
        flops = np.flatnonzero((tree.kind == DECISION) & (tree.round == 1))
        self.flop_row = np.full(tree.nodes, -1, dtype=np.int64)
        self.flop_row[flops] = np.arange(flops.size)
        self.flop_roots = [int(tree.child[c, CALL]) for c in np.flatnonzero(
            (tree.kind == CHANCE) & (tree.round == 0))]
        self.reach_buf = np.zeros((MAX_DEPTH, NUM_HOLDINGS))
        self.kid_buf = np.zeros((MAX_DEPTH, 3, NUM_HOLDINGS))
        self.river_reach = np.zeros((MAX_DEPTH, 1081))
        self.river_out = np.zeros((1, 1081))
        self.river_kids = np.zeros((MAX_DEPTH, 3, 1081))
        self.scratch = np.zeros((3, 52))
        self.tree_arrays = TreeArrays(tree.kind, tree.player, tree.round, tree.child,
                                      tree.spent, tree.row_base)
        self.buffers = RespondBuffers(
            self.reach_buf, self.kid_buf,
            RiverBuffers(self.river_reach, self.river_kids, self.scratch), self.river_out[0])

    def flop_values(self, me: int, sample: FlopSample, reach: np.ndarray, root: int,
                    mode: int, decisions: np.ndarray) -> np.ndarray:
        """The responder's summed values at one flop root against the opponent's ``reach``."""
        out = np.zeros(NUM_HOLDINGS)
        r = reach.copy()
        on_flop = np.isin(_HA, sample.flop) | np.isin(_HB, sample.flop)
        r[on_flop] = 0.0
        _respond(root, 0, self.tree_arrays, Play(me, self.strat, self.flop_row, decisions, mode),
                 SampleArrays(sample.buckets, sample.turn_cards, sample.river_cards,
                              sample.river_order, sample.river_start, sample.river_live,
                              sample.river_bk, sample.river_ca, sample.river_cb),
                 0, r, out, _HA, _HB, self.buffers)
        out[on_flop] = 0.0
        return out


def showdowns(sample: FlopSample) -> np.ndarray:
    """Per holding, the (turn, river, opponent) triples its summed values range over: the
    sampled turns and river cards it leaves, times the 990 opponent holdings each river
    board leaves; a summed value over it is an expectation."""
    out = np.zeros(NUM_HOLDINGS)
    for t, turn in enumerate(sample.turn_cards.tolist()):
        cards = sample.river_cards[t][sample.river_cards[t] >= 0]
        held = np.isin(_HA, cards).astype(float) + np.isin(_HB, cards)
        out += np.where((_HA == turn) | (_HB == turn), 0.0, cards.size - held)
    return out * 990


def board_cost(table: StrategyTable, seed: int = 0, rivers: int = 8) -> float:
    """CPU seconds of one responder's walk per river board (one flop, one turn, ``rivers``
    river cards), the unit of the cost of an exact best response over all boards."""
    rng = np.random.default_rng(seed)
    cards = rng.choice(52, 4, replace=False).astype(np.int64)
    sample = flop_sample(table.abstraction, cards[:3], cards[3:], rivers)
    resp = Responder(table)
    decisions = np.ones((70, NUM_HOLDINGS), dtype=np.int8)
    reach = np.ones(NUM_HOLDINGS)
    resp.flop_values(0, sample, reach, resp.flop_roots[0], FREE, decisions)  # compile
    start = time.process_time()
    for root in resp.flop_roots:
        resp.flop_values(0, sample, reach, root, FREE, decisions)
    return (time.process_time() - start) / rivers


# --- the estimate -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A best-response estimate of one strategy: the exploitability in mbb/g in-sample
    (biased up) and out-of-sample (a lower bound, unbiased) with its standard error over
    the flops, each seat's best-response value (mbb/g), the sample and the seconds."""

    in_sample: float
    out_of_sample: float
    out_of_sample_se: float
    seats_in: tuple[float, float]
    seats_out: tuple[float, float]
    flops: int
    turns: int
    seconds: float


def _preflop_reach(tree: Tree, strat: np.ndarray, me: int) -> dict[int, np.ndarray]:
    """The opponent's pre-flop reach (1326,) at every pre-flop node and flop root."""
    classes = features_class()
    out: dict[int, np.ndarray] = {0: np.ones(NUM_HOLDINGS)}
    stack = [0]
    while stack:
        node = stack.pop()
        r = out[node]
        if tree.kind[node] == CHANCE:
            out[int(tree.child[node, CALL])] = r
            continue
        if tree.kind[node] != DECISION:
            continue
        for a in range(3):
            c = int(tree.child[node, a])
            if c < 0:
                continue
            if tree.player[node] == me:
                out[c] = r
            else:
                out[c] = r * strat[tree.row_base[node] + classes, a]
            stack.append(c)
    return out


def features_class() -> np.ndarray:
    """Every holding's pre-flop class (its pre-flop bucket)."""
    from agent.strength.ranges import HOLDING_CLASS
    return HOLDING_CLASS.astype(np.int64)


def _compatible(reach: np.ndarray) -> np.ndarray:
    """Per holding, the opponent reach of the holdings it shares no card with."""
    per_card = np.bincount(_HA, weights=reach, minlength=52) + np.bincount(
        _HB, weights=reach, minlength=52)
    return reach.sum() - per_card[_HA] - per_card[_HB] + reach


def _preflop_values(tree: Tree, me: int, reach: dict[int, np.ndarray],
                    entries: dict[int, np.ndarray], choose: dict[int, np.ndarray] | None
                    ) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The responder's pre-flop values (expected chips per holding) given the expected values
    at each flop root; its choices are the best (recorded) or ``choose``'s (replayed)."""
    chosen: dict[int, np.ndarray] = {}

    def value(node: int) -> np.ndarray:
        k = tree.kind[node]
        if k == CHANCE:
            return entries[int(tree.child[node, CALL])]
        if k == FOLD:
            folder = int(tree.player[node])
            stake = float(tree.spent[node, folder])
            return (-stake if folder == me else stake) * _compatible(reach[node]) / 1225.0
        kids = {a: value(int(tree.child[node, a])) for a in range(3) if tree.child[node, a] >= 0}
        if tree.player[node] != me:
            return sum(kids.values(), np.zeros(NUM_HOLDINGS))
        actions = np.array(sorted(kids))
        stacked = np.stack([kids[a] for a in actions])
        pick = choose[node] if choose is not None else actions[np.argmax(stacked, axis=0)]
        chosen[node] = pick
        return np.choose(np.searchsorted(actions, pick), stacked)

    return value(0), chosen


def estimate(table: StrategyTable, flops: int, turns: int, seed: int,
             rivers: int | None = None, workers: int = 1) -> Estimate:
    """The bracket of the module docstring: ``flops`` random flops, on each ``turns`` turns
    in-sample and ``turns`` others out-of-sample, every river card (or the first ``rivers``,
    for quick checks) and every holding. The two seats run in ``workers`` threads (the
    result does not depend on it)."""
    if turns < 3:
        raise ValueError("turns: expected >= 3, so that every holding meets a sampled turn")
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    responders = {me: Responder(table) for me in (0, 1)}
    strat = responders[0].strat
    tree = table.tree
    roots = responders[0].flop_roots
    sums = {(w, me): {r: np.zeros(NUM_HOLDINGS) for r in roots}
            for w in ("in", "out") for me in (0, 1)}
    counts = np.zeros(NUM_HOLDINGS)
    reach = {me: _preflop_reach(tree, strat, me) for me in (0, 1)}
    per_flop: list[tuple[dict[tuple[str, int], dict[int, np.ndarray]], np.ndarray]] = []

    def seat(me: int, flop: np.ndarray, samples: dict[str, FlopSample]
             ) -> dict[tuple[str, int], dict[int, np.ndarray]]:
        decisions = np.ones((70, NUM_HOLDINGS), dtype=np.int8)  # call: always legal
        got: dict[tuple[str, int], dict[int, np.ndarray]] = {}
        for which, mode in (("in", RECORD), ("out", REPLAY)):
            sample = samples[which]
            norm = showdowns(sample)
            got[which, me] = {}
            for root in roots:
                v = responders[me].flop_values(me, sample, reach[me][root], root, mode,
                                               decisions)
                expected = np.divide(v, norm, out=np.zeros_like(v), where=norm > 0)
                got[which, me][root] = _orbit_sum(expected, flop)
        return got

    with ThreadPoolExecutor(max(1, min(workers, 2))) as pool:
        for _ in range(flops):
            drawn = rng.choice(52, 3, replace=False).astype(np.int64)
            code, _ = features.canonical(drawn)
            flop = features.decode(code, 3)
            rest = np.array([c for c in range(52) if c not in flop.tolist()])
            picked = rng.choice(rest, 2 * turns, replace=False).astype(np.int64)
            samples = {"in": flop_sample(table.abstraction, flop, picked[:turns], rivers),
                       "out": flop_sample(table.abstraction, flop, picked[turns:], rivers)}
            found: dict[tuple[str, int], dict[int, np.ndarray]] = {}
            for part in pool.map(seat, (0, 1), (flop, flop), (samples, samples)):
                found.update(part)
            for key, by_root in found.items():
                for root, v in by_root.items():
                    sums[key][root] += v
            flop_count = _orbit_sum(np.ones(NUM_HOLDINGS), flop)
            counts += flop_count
            per_flop.append((found, flop_count))
    values: dict[tuple[str, int], np.ndarray] = {}
    spread: list[float] = []
    chosen_by_seat = {}
    for me in (0, 1):
        entries = {w: {r: sums[w, me][r] / counts for r in roots} for w in ("in", "out")}
        values["in", me], chosen = _preflop_values(tree, me, reach[me], entries["in"], None)
        values["out", me], _ = _preflop_values(tree, me, reach[me], entries["out"], chosen)
        chosen_by_seat[me] = chosen
    # the out-of-sample figure of each flop alone (the replayed choices make it linear in
    # the flops), for its standard error
    for found, flop_count in per_flop:
        one = []
        for me in (0, 1):
            alone = {r: np.divide(found["out", me][r], flop_count, out=np.zeros(NUM_HOLDINGS),
                                  where=flop_count > 0) for r in roots}
            v, _ = _preflop_values(tree, me, reach[me], alone, chosen_by_seat[me])
            one.append(float(v.mean()))
        spread.append(float(np.mean(one)) / 2 * 1000)

    def mbb(w: str) -> float:
        return float(np.mean([values[w, me].mean() for me in (0, 1)])) / 2 * 1000

    se = float(np.std(spread, ddof=1) / np.sqrt(len(spread))) if len(spread) > 1 else float("nan")
    return Estimate(mbb("in"), mbb("out"), se,
                    (float(values["in", 0].mean() * 500), float(values["in", 1].mean() * 500)),
                    (float(values["out", 0].mean() * 500), float(values["out", 1].mean() * 500)),
                    flops, turns, time.perf_counter() - start)


def _orbit_sum(values: np.ndarray, flop: np.ndarray) -> np.ndarray:
    """Per holding h, the sum over the 24 suit permutations j of ``values[perm_j(h)]`` where
    perm_j(h) shares no card with the canonical ``flop``: the flop's whole suit class, each
    member counted as often as the permutations that reach it (the same for every member)."""
    clash = np.isin(_HA, flop) | np.isin(_HB, flop)
    moved = HOLDING_PERMS  # (24, 1326): holding h under permutation j
    ok = ~clash[moved]
    return np.where(ok, values[moved], 0.0).sum(axis=0)
