"""What the exploiter learns about one opponent: how often it folds, calls and raises, and
with which hands, from the hands it has finished and the cards it showed.

Each action is counted in its context: the phase (pre-flop, or after the flop) and the bets
the player faced on the street (none, one, two or more; pre-flop the big blind is the first
bet), with a context of its own for a player raised back after it bet or raised on the
street, who folds far less than one facing two bets cold. A player facing a bet folds, calls
(passive) or raises (aggressive); a player facing none checks (passive) or bets
(aggressive). The rates are posterior means over a prior of ``prior_weight`` pseudo-actions
at Papp's defaults (Table B.2: facing no bet 0/.5/.5, one .5/.3/.2, two or more .7/.2/.1)
and, raised back, .1/.6/.3 (proposed here).

Which hands take which action: a threshold model (Papp's Loki-1) puts the
folds below one hand value ``v`` (``agent.rivals.hand_values``) and the raises above another,
with a linear ramp of half-width ``sigma`` around each. The thresholds are set so that the
ranges the player held when it chose (as the exploiter modelled them) reproduce its rates:
a player that bets a third of the time from weak ranges has a lower bar than one betting as
often from strong ones. Every hand the player shows corrects the model: per fifth of the
``v`` scale, the share of raises among the shown non-folding actions moves the model's share
of raises there toward what was seen, by a beta-binomial update with ``bin_prior``
pseudo-observations at the model's value. So a player who bets weak hands and is seen doing
so keeps weak hands in its betting range, and a player who raises only the nuts narrows its
range when it raises.

>>> t = Tendencies()
>>> t.rates(POSTFLOP, ONE_BET).round(2).tolist()
[0.5, 0.3, 0.2]
>>> for _ in range(30):
...     t.count(POSTFLOP, ONE_BET, FOLD)
>>> round(t.fold_to_bet(POSTFLOP), 2)
0.88
>>> v = np.array([0.05, 0.5, 0.95])
>>> t.likelihood(POSTFLOP, ONE_BET, FOLD, v).round(2).tolist()
[1.0, 1.0, 0.33]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from agent.modeller.params import RAISED_BACK_FREQUENCIES, TABLE_B2
from agent.modeller.tracker import RAISED_BACK
from simulator import ActionKind, Street
from simulator.core.betting import Betting, BettingRound

PREFLOP, POSTFLOP = 0, 1
FREE, ONE_BET, TWO_BETS = 0, 1, 2  # bets faced; RAISED_BACK is the modeller's fourth context
FOLD, PASSIVE, AGGRESSIVE = 0, 1, 2
MOVE_NAMES = ("fold", "passive", "aggressive")

BINS = 5  # the v scale in fifths: enough resolution, and data for each within a block
HIST_BINS = 50  # the resolution of the ranges' value histograms that place the thresholds
_CENTERS = (np.arange(HIST_BINS) + 0.5) / HIST_BINS
_FLOOR = 0.01  # no hand is ever ruled out (Papp's floor on re-weighted weights)
_GOES_ON = -1  # the likelihood of not folding, whatever the move


def phase_of(street: Street | int) -> int:
    return PREFLOP if street == Street.PREFLOP else POSTFLOP


@dataclass(frozen=True)
class Step:
    """One action read as a move in its context."""

    seat: int
    street: Street
    facing: int  # FREE, ONE_BET, TWO_BETS or RAISED_BACK
    move: int
    capped: bool = False  # facing a capped round: raising was not an option


def context_after_raise(rnd: BettingRound, seat: int) -> int:
    """The context ``seat`` will be in when we bet or raise now in the round ``rnd``."""
    if rnd.raised(seat):
        return RAISED_BACK
    return min(len(rnd.levels) + 1, TWO_BETS)


def read_moves(betting: Betting, cap: int | None = None) -> list[Step]:
    """Each action's context and move.

    The bets faced are those made on the street before the action (capped at two; pre-flop
    the big blind is the first); a call that puts no chips in is a check and faces none, and
    a fold or a call of chips faces at least one. A player facing a raise after its own bet
    or raise on the street is ``RAISED_BACK``. With a limit ``cap`` (bets a round, the big
    blind counted pre-flop), a call or fold facing a capped round is marked ``capped``: it
    chose only whether to go on.

    >>> from simulator import ActionRecord, GameConfig
    >>> b = Betting.start(GameConfig(variant="limit", blinds=(1, 2)), 1, (100, 100))
    >>> b = b.deal(Street.FLOP)
    >>> for r in [ActionRecord(0, Street.FLOP, ActionKind.CALL, None, 0),
    ...           ActionRecord(1, Street.FLOP, ActionKind.RAISE, 4, 4),
    ...           ActionRecord(0, Street.FLOP, ActionKind.RAISE, 8, 8),
    ...           ActionRecord(1, Street.FLOP, ActionKind.FOLD, None, 0)]:
    ...     b = b.apply(r)
    >>> [(s.facing, MOVE_NAMES[s.move]) for s in read_moves(b)]
    [(0, 'passive'), (0, 'aggressive'), (1, 'aggressive'), (3, 'fold')]
    """
    steps: list[Step] = []
    for m in betting.moves:
        r = m.record
        faced = RAISED_BACK if m.raised else min(m.bets, TWO_BETS)
        capped = cap is not None and m.bets >= cap
        if r.kind is ActionKind.FOLD:
            facing, move = max(faced, ONE_BET), FOLD
        elif r.kind is ActionKind.CALL:
            facing, move = (max(faced, ONE_BET) if r.added > 0 else FREE), PASSIVE
        else:
            facing, move = faced, AGGRESSIVE
        steps.append(Step(r.seat, r.street, facing, move, capped and move != AGGRESSIVE))
    return steps


def ramp(v: np.ndarray, mu: float | np.ndarray, sigma: float) -> np.ndarray:
    """Papp's threshold factor: 0 below ``mu - sigma``, 1 above ``mu + sigma``, linear
    between (the worked test vector: mu .6, sigma .2).

    >>> ramp(np.array([0.35, 0.45, 0.6, 0.75, 0.85]), 0.6, 0.2).round(6).tolist()
    [0.0, 0.125, 0.5, 0.875, 1.0]
    """
    # minimum of maximum: np.clip's dispatch costs more than the work on 50 bins
    return np.minimum(np.maximum((v - mu + sigma) / (2 * sigma), 0.0), 1.0)


def value_histogram(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The share of a range's weight in each of ``HIST_BINS`` equal bins of hand value.

    >>> value_histogram(np.array([0.01, 0.5, 0.99]), np.array([1.0, 2.0, 1.0]))[[0, 25, 49]]
    array([0.25, 0.5 , 0.25])
    """
    bins = np.minimum((v * HIST_BINS).astype(int), HIST_BINS - 1)
    total = w.sum()
    return np.bincount(bins, w / total if total > 0 else w, HIST_BINS)


def ramp_threshold(hist: np.ndarray, share: float, sigma: float) -> float:
    """The ``mu`` at which ``ramp(v, mu, sigma)`` averages ``share`` over a histogram of
    hand values: the lowest such ``mu`` in ``[-sigma, 1 + sigma]``. With a share near 1 the
    threshold goes below 0, so that even the weakest hands take the action, as they do.

    The average is piecewise linear in ``mu`` and falls as ``mu`` rises, with its kinks
    where a bin's ramp starts or ends (``center -+ sigma``); the root is read off the one
    segment that crosses ``share``, exactly.

    >>> round(ramp_threshold(np.ones(HIST_BINS), 0.3, 0.1), 3)
    0.7
    >>> ramp_threshold(np.ones(HIST_BINS), 1.0, 0.1) < 0
    True
    """
    weights = hist / hist.sum()
    kinks, ramps = _kinks(sigma)
    mean = weights @ ramps
    # a plateau's 0 or 1 exactly, as rounding at the kinks may leave 1e-17 off it
    mean[mean < 1e-12], mean[mean > 1.0 - 1e-12] = 0.0, 1.0
    k = int(np.argmax(mean <= share)) if mean[-1] <= share else len(kinks) - 1
    if k == 0:
        return float(kinks[0])
    above, below = float(mean[k - 1]), float(mean[k])
    if above == below:
        return float(kinks[k])
    return float(kinks[k - 1] + (above - share) / (above - below) * (kinks[k] - kinks[k - 1]))


@lru_cache(maxsize=8)
def _kinks(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The kinks of :func:`ramp_threshold`'s average, and each bin's ramp at each kink:
    they depend on ``sigma`` alone, and building them cost more than the rest of a call
    (read-only, as they are shared)."""
    kinks = np.unique(np.clip(np.concatenate(
        [[-sigma, 1.0 + sigma], _CENTERS - sigma, _CENTERS + sigma]), -sigma, 1.0 + sigma))
    ramps = ramp(_CENTERS[:, None], kinks[None, :], sigma)
    kinks.setflags(write=False)
    ramps.setflags(write=False)
    return kinks, ramps


class Tendencies:
    """One opponent's counts (see the module doc). ``sigma`` is the ramp's half-width per
    phase (pre-flop, after the flop); every default is proposed here except the prior rates."""

    PRIOR_RATES = np.array([*TABLE_B2, RAISED_BACK_FREQUENCIES])  # [facing] -> fold, passive,
    # aggressive: the modeller's defaults, Papp's Table B.2 and the raised-back row

    def __init__(self, prior_weight: float = 10.0, bin_prior: float = 4.0,
                 sigma: tuple[float, float] = (0.1, 0.2)) -> None:
        self.prior_weight = float(prior_weight)
        self.bin_prior = float(bin_prior)
        self.sigma = tuple(float(s) for s in sigma)
        self.moves = np.zeros((2, 4, 3))  # [phase, facing, move]
        self.held = np.zeros((2, 4, HIST_BINS))  # [phase, facing] -> summed range histograms
        self.shown = np.zeros((2, 4, BINS, 2))  # [phase, facing, bin, passive/aggressive]
        self.bluffs = np.zeros(2)  # shown aggressive moves after the flop: [v < .5, all]
        self._thresholds: dict[tuple[int, int], tuple[float, float]] = {}
        # bumped by every change of what it knows, so that a caller may keep what it
        # derived from it (the exploiter's ranges within a street) while it stays the same
        self.version = 0

    # --- learning ---------------------------------------------------------------------------

    def count(self, phase: int, facing: int, move: int,
              held: np.ndarray | None = None) -> None:
        """One move; ``held`` is the value histogram of the range it was made from, as we
        modelled it then (``value_histogram``)."""
        self.moves[phase, facing, move] += 1
        self.version += 1
        if held is not None:
            self.held[phase, facing] += held
        self._thresholds.pop((phase, facing), None)

    def reveal(self, phase: int, facing: int, move: int, v: float) -> None:
        """A non-folding move made with a hand of value ``v`` that was shown down."""
        if move == FOLD:
            return
        j = min(int(v * BINS), BINS - 1)
        self.shown[phase, facing, j, move - 1] += 1
        self.version += 1
        if phase == POSTFLOP and move == AGGRESSIVE:
            self.bluffs += (1.0 if v < 0.5 else 0.0, 1.0)

    # --- what it knows ----------------------------------------------------------------------

    def rates(self, phase: int, facing: int) -> np.ndarray:
        """Posterior mean (fold, passive, aggressive) in a context."""
        counts = self.moves[phase, facing] + self.prior_weight * self.PRIOR_RATES[facing]
        return counts / counts.sum()

    def fold_to_bet(self, phase: int = POSTFLOP, facing: int = ONE_BET) -> float:
        return float(self.rates(phase, facing)[FOLD])

    def aggression(self, phase: int = POSTFLOP) -> float:
        """The share of raises among the actions that do not fold, all contexts pooled."""
        prior = self.prior_weight * self.PRIOR_RATES.sum(axis=0)
        counts = self.moves[phase].sum(axis=0) + prior
        return float(counts[AGGRESSIVE] / (counts[PASSIVE] + counts[AGGRESSIVE]))

    def bluff_rate(self) -> float:
        """The share of hands below the median among the bets and raises after the flop
        that were shown down (prior: 1 in 5, with 5 pseudo-observations)."""
        return float((self.bluffs[0] + 1.0) / (self.bluffs[1] + 5.0))

    def thresholds(self, phase: int, facing: int) -> tuple[float, float]:
        """The hand values below which it folds and above which it raises, in a context.

        They are set so that the ramps around them, averaged over the ranges it held when it
        chose in that context (all hands alike before any data), give its fold and raise
        rates: a player who bets a third of the time from weak ranges has a lower bar than
        one who does so from strong ranges.
        """
        if (phase, facing) not in self._thresholds:
            fold, _, aggr = self.rates(phase, facing)
            held = self.held[phase, facing] + self.prior_weight / HIST_BINS
            sigma = self.sigma[phase]
            self._thresholds[phase, facing] = (ramp_threshold(held, 1.0 - fold, sigma),
                                               ramp_threshold(held, aggr, sigma))
        return self._thresholds[phase, facing]

    def goes_on(self, phase: int, facing: int, v: np.ndarray) -> np.ndarray:
        """P(not folding | v): all a call of a capped round tells, floored at 0.01."""
        return self.likelihood(phase, facing, _GOES_ON, v)

    def likelihood(self, phase: int, facing: int, move: int, v: np.ndarray,
                   w: np.ndarray | None = None) -> np.ndarray:
        """P(this move | hand value v) for each holding of a range with weights ``w``
        (None: all holdings alike; the weights only set how the shown hands correct the
        model), floored at 0.01.

        The threshold model: it goes on with ``ramp(v, fold_below)`` (always, facing no bet)
        and raises a share ``ramp(v, raise_above) / ramp(v, fold_below)`` (at most 1) of the
        hands that go on. The shown hands then move that share per bin of ``v``: towards
        the shown share of raises, with ``bin_prior`` pseudo-observations at the model's
        share in the bin (weighted by ``w``).
        """
        fold_below, raise_above = self.thresholds(phase, facing)
        v = np.ascontiguousarray(v, dtype=np.float64)
        w = np.ones_like(v) if w is None else np.ascontiguousarray(w, dtype=np.float64)
        out = np.empty_like(v)
        _likelihood(v, w, fold_below, raise_above, self.sigma[phase], facing == FREE,
                    self.shown[phase, facing], self.bin_prior, move, out)
        return out


@numba.njit(cache=True, nogil=True)
def _likelihood(v: np.ndarray, w: np.ndarray, fold_below: float, raise_above: float,
                sigma: float, free: bool, seen: np.ndarray, bin_prior: float, move: int,
                out: np.ndarray) -> None:
    """:meth:`Tendencies.likelihood` for every holding, in one pass (``seen``: the shown
    hands per bin, passive and aggressive; ``move`` may be ``_GOES_ON``)."""
    n = v.shape[0]
    stays = np.empty(n)
    share = np.empty(n)
    bins = np.empty(n, dtype=np.int64)
    mass = np.zeros(BINS)
    raised = np.zeros(BINS)
    for i in range(n):
        s = 1.0 if free else min(max((v[i] - fold_below + sigma) / (2 * sigma), 0.0), 1.0)
        r = min(max((v[i] - raise_above + sigma) / (2 * sigma), 0.0), 1.0)
        sh = min(r / s if s > 0 else 0.0, 1.0)
        b = min(int(v[i] * BINS), BINS - 1)
        stays[i], share[i], bins[i] = s, sh, b
        mass[b] += w[i] * s
        raised[b] += w[i] * s * sh
    shift = np.zeros(BINS)
    for b in range(BINS):
        if mass[b] > 0:
            model = raised[b] / max(mass[b], 1e-300)
            posterior = (seen[b, 1] + bin_prior * model) / (seen[b, 0] + seen[b, 1] + bin_prior)
            shift[b] = posterior - model
    for i in range(n):
        sh = min(max(share[i] + shift[bins[i]], 0.0), 1.0)
        if move == _GOES_ON:
            p = stays[i]
        elif move == FOLD:
            p = 1.0 - stays[i]
        elif move == AGGRESSIVE:
            p = stays[i] * sh
        else:
            p = stays[i] * (1.0 - sh)
        out[i] = max(p, _FLOOR)
