"""Push or fold when short: the pre-flop decision of a short stack in a tournament.

**When.** Pre-flop, in a tournament hand, with the effective stack at or below
``push_fold_bb`` big blinds (our stack against the largest stack still in the hand, or
against the raiser's), in one of two spots: the pot is unopened (nobody has called or raised
yet: we **push** all-in or fold) or one player has raised and nobody has called it (we
**call** it, all-in, or fold; over a raise that is not all-in, we push). Elsewhere the
agent's own pipeline decides.

**The ranges.** The players' ranges are those of the heads-up push-or-fold game at the
effective stack (:mod:`agent.heuristic.tournament.push_fold_nash`): a pusher is credited with the
equilibrium's pushing range. Facing our push, each opponent behind calls with the holdings
whose all-in equity against that range pays for the call, in chips, or in prize equity
when ``equity`` is on (its ICM on the stacks the call's win and loss leave, against its fold's);
the first opponent who calls is the one we play (a second caller is not modelled).

**The value.** Our push is worth, per holding, the chance that everyone folds times the
worth of taking the pot, plus for each opponent the chance it is the first to call times
our all-in equity against its calling range (card removal exact, from the pre-flop table)
between the worths of winning and losing; a call likewise against the pusher's range. The
worth of a stack is its chips, or its ICM equity with ``equity`` on
(:mod:`agent.heuristic.tournament.prize_equity`). We push or call where that beats folding.
Heads-up this is the best response to the equilibrium's caller, which is the equilibrium's
pusher again: the agent's heads-up ranges are those of the push-or-fold equilibrium (a test
checks them against an exact linear programme).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from agent.heuristic.tournament.params import TournamentParams
from agent.heuristic.tournament.prize_equity import TableChips
from agent.heuristic.tournament.push_fold_nash import push_fold_equilibrium
from agent.heuristic.traces import CandidateRecord
from simulator import Action, ActionKind, Observation, Policy, Street
from simulator.core.preflop_equity import clashes, preflop_table

DEPTH_STEP = 0.25  # big blinds: the equilibrium's ranges are read at depths this far apart
ANTE_STEP = 0.025  # big blinds


@dataclass(frozen=True)
class ShortSpot:
    """A push-or-fold decision: ``kind`` ``push`` (unopened) or ``call`` (facing one raise
    by ``raiser``); ``commit`` is the all-in action; ``opponents`` those it is played
    against (every live opponent behind us for a push, the raiser for a call)."""

    kind: Literal["push", "call"]
    commit: Action
    opponents: tuple[int, ...]
    big_blind: int
    ante: int


def short_spot(obs: Observation, params: TournamentParams) -> ShortSpot | None:
    """The push-or-fold spot at ``obs``, or None where the pipeline decides."""
    if (obs.tournament is None or params.push_fold_bb <= 0 or obs.street is not Street.PREFLOP
            or not obs.legal.can_fold):
        return None
    bb = max(obs.game.blinds)
    start = obs.starting_stacks
    ours = start[obs.seat]
    kinds = [r.kind for r in obs.history if r.kind is not ActionKind.FOLD]
    if not kinds:
        behind = tuple(s for s in _after(obs) if obs.stacks[s] > 0)
        deepest = max((start[s] for s in behind), default=0)
        if not behind or min(ours, deepest) > params.push_fold_bb * bb:
            return None
        return ShortSpot("push", _all_in(obs), behind, bb, obs.game.ante)
    if kinds != [ActionKind.RAISE]:
        return None
    raiser = next(r.seat for r in obs.history if r.kind is ActionKind.RAISE)
    if min(ours, start[raiser]) > params.push_fold_bb * bb:
        return None
    commit = (Action.call() if obs.stacks[raiser] == 0 or not obs.legal.can_raise
              else _all_in(obs))
    return ShortSpot("call", commit, (raiser,), bb, obs.game.ante)


def _after(obs: Observation) -> list[int]:
    """The live opponents still to act after us pre-flop, in order (unopened: everyone
    live who has not acted yet, the blinds last)."""
    n = obs.num_seats
    acted = {r.seat for r in obs.history}
    return [s for s in ((obs.seat + k) % n for k in range(1, n))
            if obs.active[s] and s not in acted]


def _all_in(obs: Observation) -> Action:
    legal = obs.legal
    if legal.can_raise and legal.max_raise_to is not None:
        return Action.raise_to(legal.max_raise_to)
    return Action.call()


def _pusher_range(effective: int, spot: ShortSpot) -> np.ndarray:
    """The range a pusher at this effective stack is credited with (1,326 weights)."""
    depth = max(round(effective / spot.big_blind / DEPTH_STEP) * DEPTH_STEP, 1.0)
    ante = round(spot.ante / spot.big_blind / ANTE_STEP) * ANTE_STEP
    return push_fold_equilibrium(max(depth, 0.5 + ante + DEPTH_STEP), ante).push_range()


@cache
def _live() -> np.ndarray:
    """``_live()[h, o]``: 1.0 where holdings h and o share no card."""
    live = (~clashes()).astype(np.float64)
    live.setflags(write=False)
    return live


def _against(holdings: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per holding: the chance an opponent holds a hand of ``weights`` (card removal
    exact), and our all-in equity against those hands (0 where there are none)."""
    live = _live()[holdings]
    mass = live @ weights
    held = mass / live.sum(axis=1)
    wins = preflop_table()[holdings] @ weights
    return held, np.divide(wins, mass, out=np.zeros_like(wins), where=mass > 0)


@dataclass(frozen=True)
class _Worth:
    """The worth of a stack vector to a seat: its chips, or its ICM equity."""

    chips: TableChips
    icm: bool

    def of(self, stacks: Sequence[float]) -> np.ndarray:
        if self.icm:
            return self.chips.equities(stacks)
        return np.asarray(stacks, dtype=np.float64)

    def in_chips(self, change: np.ndarray) -> np.ndarray:
        return np.asarray(self.chips.chip_equivalent(change)) if self.icm else change


def _stacks(chips: TableChips, winner: int | None, loser: int | None, effective: int,
            taker: int | None = None) -> list[float]:
    """The table's stacks when ``winner`` beats ``loser`` all-in for ``effective`` (the
    others' chips in the pot go to the winner), or, with no showdown, when ``taker`` takes
    the pot."""
    out = [float(chips.behind(s)) for s in range(len(chips.start))]
    pot = float(sum(chips.put_in))
    if winner is None or loser is None:
        assert taker is not None
        out[taker] += pot
        return out
    dead = pot - chips.put_in[winner] - chips.put_in[loser]
    out[winner] = chips.start[winner] + effective + dead
    out[loser] = chips.start[loser] - effective
    return out


def _calls(chips: TableChips, worth: _Worth, ours: np.ndarray, j: int, us: int) -> np.ndarray:
    """Opponent ``j``'s calling range (1,326 weights 0 or 1) against our push credited with
    range ``ours``: the holdings whose call beats its fold for it."""
    effective = min(chips.start[us], chips.start[j])
    _, equity = _against(np.arange(len(ours)), ours)
    win = worth.of(_stacks(chips, j, us, effective))[j]
    lose = worth.of(_stacks(chips, us, j, effective))[j]
    fold = worth.of(_stacks(chips, None, None, effective, taker=us))[j]
    return (equity * win + (1.0 - equity) * lose > fold).astype(np.float64)


def _push_value(obs: Observation, spot: ShortSpot, chips: TableChips, worth: _Worth,
                holdings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per holding, the worth of pushing and its chance of a showdown won."""
    us = obs.seat
    value = np.zeros(len(holdings))
    p_w = np.zeros(len(holdings))
    nobody = np.ones(len(holdings))
    for j in spot.opponents:
        effective = min(chips.start[us], chips.start[j])
        calls = _calls(chips, worth, _pusher_range(effective, spot), j, us)
        held, equity = _against(holdings, calls)
        first = nobody * held
        win = worth.of(_stacks(chips, us, j, effective))[us]
        lose = worth.of(_stacks(chips, j, us, effective))[us]
        value += first * (equity * win + (1.0 - equity) * lose)
        p_w += first * equity
        nobody = nobody * (1.0 - held)
    steal = worth.of(_stacks(chips, None, None, 0, taker=us))[us]
    return value + nobody * steal, p_w


def _call_value(spot: ShortSpot, chips: TableChips, worth: _Worth, holdings: np.ndarray,
                us: int) -> tuple[np.ndarray, np.ndarray]:
    (r,) = spot.opponents
    effective = min(chips.start[us], chips.start[r])
    _, equity = _against(holdings, _pusher_range(effective, spot))
    win = worth.of(_stacks(chips, us, r, effective))[us]
    lose = worth.of(_stacks(chips, r, us, effective))[us]
    return equity * win + (1.0 - equity) * lose, equity


def _fold_taker(obs: Observation, spot: ShortSpot) -> int:
    """Who takes the pot when we fold: the raiser, else the live player most in (the big
    blind)."""
    if spot.kind == "call":
        return spot.opponents[0]
    return max(spot.opponents, key=lambda s: (obs.contributions[s], -s))


@dataclass(frozen=True)
class PushFoldRows:
    """The push-or-fold decision for each holding asked about: fold or commit, each
    holding's chance of each, and the commitment's gain over folding (chip-equivalents)."""

    spot: ShortSpot
    actions: tuple[Action, ...]
    probabilities: np.ndarray
    gain: np.ndarray
    p_win: np.ndarray

    def as_policy(self) -> Policy:
        return Policy(self.actions, self.probabilities)

    def cap_share(self, index: int) -> float:
        """The fold cap plays after the flop only."""
        return 0.0

    def trace_fields(self, obs: Observation) -> dict[str, object]:
        source = f"push_fold:{self.spot.kind}"
        return {"candidates": [
            CandidateRecord(action=str(a), E=float(e), Pw=float(w), ESw=0.0, EBw=0.0,
                            Pvf=0.0, ESvf=0.0, EBvf=0.0, Phf=0.0, EBhf=0.0, source=source,
                            chance=float(p))
            for a, e, w, p in zip(self.actions, (0.0, float(self.gain[0])),
                                  (0.0, float(self.p_win[0])), self.probabilities[0],
                                  strict=True)]}


def push_fold_rows(obs: Observation, spot: ShortSpot, params: TournamentParams,
                   holdings: np.ndarray) -> PushFoldRows:
    """The decision at ``obs`` (a short spot) for each holding (indices)."""
    chips = TableChips.of(obs)
    assert chips is not None  # a short spot is a tournament's
    worth = _Worth(chips, params.equity)
    us = obs.seat
    if spot.kind == "push":
        value, p_win = _push_value(obs, spot, chips, worth, holdings)
    else:
        value, p_win = _call_value(spot, chips, worth, holdings, us)
    fold = worth.of(_stacks(chips, None, None, 0, taker=_fold_taker(obs, spot)))[us]
    gain = worth.in_chips(value - fold)
    commit = (gain > 0).astype(np.float64)
    probabilities = np.stack([1.0 - commit, commit], axis=1)
    return PushFoldRows(spot, (Action.fold(), spot.commit), probabilities, gain, p_win)
