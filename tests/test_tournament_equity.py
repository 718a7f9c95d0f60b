"""The agent in tournaments: ICM-valued decisions, push-or-fold against an exact heads-up
equilibrium, and no change outside tournaments."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.e_value import EParams
from agent.heuristic.tournament.params import TournamentParams
from agent.heuristic.tournament.prize_equity import TableChips, outcome_values
from agent.heuristic.tournament.push_fold import short_spot
from agent.strength.ranges import HAND_CLASSES, HOLDING_CLASS
from simulator import BotContext, GameConfig, TournamentView
from simulator.core.cards import HOLDINGS
from simulator.core.events import HandStarted
from simulator.core.preflop_equity import clashes, preflop_table
from simulator.core.state import HandState

ALL = [(int(a), int(b)) for a, b in HOLDINGS]


def test_coin_flip_is_worth_less_than_folding_by_icm() -> None:
    # 500 each at our table, 500 at another, prizes 50/30/20 (pool 100, 1500 chips).
    # Winning the flip: 1000 vs 500 -> 2/3 * 50 + 1/3 * 30 = 43.333; losing: 20 (third);
    # folding now keeps 500 of three equal stacks: 33.333. So 0.5 * 43.333 + 0.5 * 20 -
    # 33.333 = -1.6667 in equity, -25 chips at 1500 chips / 100 prize.
    chips = TableChips(0, (500, 500), (0, 0), (True, True), (500,), (50.0, 30.0, 20.0))
    flip = EParams(p_w=0.5, es_w=1000.0, eb_w=500.0, p_vf=0.0, es_vf=0.0, eb_vf=0.0,
                   p_hf=0.0, eb_hf=0.0)
    fold = EParams(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    values = outcome_values(chips, [fold, flip], (1,))
    assert values[0, 0] == pytest.approx(0.0, abs=1e-12)
    assert values[1, 0] == pytest.approx(-25.0, abs=1e-9)
    assert flip.value == pytest.approx(0.0)  # in chips the flip is break-even


def test_winner_takes_all_icm_is_chip_ev() -> None:
    chips = TableChips(1, (300, 800, 400), (20, 40, 0), (True, True, False), (1000,),
                       (100.0,))
    rng = np.random.default_rng(3)
    estimates = []
    for _ in range(5):  # endings that stay inside the table's chips (none clipped)
        p_vf = float(rng.uniform(0, 0.3))
        p_sd = 0.8 - p_vf
        estimates.append(EParams(p_sd * float(rng.uniform()), float(rng.uniform(0, 300)),
                                 p_sd * float(rng.uniform(0, 100)), p_vf,
                                 float(rng.uniform(0, 300)), float(rng.uniform(0, 100)),
                                 0.2, float(rng.uniform(0, 100))))
    values = outcome_values(chips, estimates, (4,))
    chip_ev = np.array([np.broadcast_to(e.value, (4,)) for e in estimates])
    # stacks are rounded to the chip before ICM: half a chip per ending at most
    assert np.allclose(values, chip_ev, atol=2.0)


# --- the heads-up push-or-fold equilibrium, by linear programming --------------------------


def _class_game() -> tuple[np.ndarray, np.ndarray]:
    onehot = np.zeros((1326, 169))
    onehot[np.arange(1326), HOLDING_CLASS] = 1.0
    pairs = onehot.T @ (~clashes()).astype(float) @ onehot
    return pairs, onehot.T @ preflop_table() @ onehot


def _lp_equilibrium(stack: float) -> tuple[np.ndarray, np.ndarray]:
    """Each side's equilibrium strategy per class, from the game's two linear programmes:
    the small blind's payoff is x.b + x.A.y (x: pushes, y: calls, constants dropped)."""
    pairs, wins = _class_game()
    b = pairs.sum(axis=1) * 1.0 + pairs.sum(axis=1) * 0.5  # steal the 1 BB, save the 0.5
    a = 2 * stack * wins - stack * pairs - 1.0 * pairs
    n = 169
    # pusher: max b.x + sum z, z <= 0, z_j <= (A^T x)_j
    res = linprog(np.concatenate([-b, -np.ones(n)]),
                  A_ub=np.hstack([-a.T, np.eye(n)]), b_ub=np.zeros(n),
                  bounds=[(0, 1)] * n + [(None, 0)] * n, method="highs")
    assert res.status == 0
    # caller: min sum w, w >= 0, w_i >= b_i + (A y)_i
    res2 = linprog(np.concatenate([np.zeros(n), np.ones(n)]),
                   A_ub=np.hstack([a, -np.eye(n)]), b_ub=-b,
                   bounds=[(0, 1)] * n + [(0, None)] * n, method="highs")
    assert res2.status == 0
    assert -res.fun == pytest.approx(res2.fun, rel=1e-7)  # the game's value, both ways
    return res.x[:n], res2.x[:n]


def _agent_range(depth: int, facing: bool) -> np.ndarray:
    """The agent's chance of pushing (or of calling a push) with each of 1,326 holdings,
    heads-up in a sit-and-go (prizes 65/35) at ``depth`` big blinds."""
    game = GameConfig(variant="nolimit", blinds=(10, 20), stack=20 * depth)
    state = HandState(game, [20 * depth] * 2, 0, [(0, 1), (2, 3)], [4, 5, 6, 7, 8],
                      tournament=TournamentView((390.0, 210.0)))
    if facing:
        state.raise_to(20 * depth)
    actor = state.actor
    assert actor is not None
    obs = state.observation(actor)
    agent = HeuristicAgent(seed=1)
    agent.start(BotContext(obs.seat, ("a", "b"), game))
    agent.observe(HandStarted(0, 0, ("a", "b"), (20 * depth,) * 2, (True, True), game))
    policy = agent.policy(obs, ALL)
    assert len(policy.actions) == 2  # fold or all-in
    return np.asarray(policy.probabilities[:, 1])


@pytest.mark.parametrize("depth", [6, 10, 12])
def test_heads_up_ranges_match_the_exact_equilibrium(depth: int) -> None:
    push, call = _lp_equilibrium(float(depth))
    for facing, oracle in ((False, push), (True, call)):
        ours = _agent_range(depth, facing)
        # a class the equilibrium mixes may go either way: count the pure ones only
        pure = (oracle[HOLDING_CLASS] < 1e-6) | (oracle[HOLDING_CLASS] > 1 - 1e-6)
        differ = np.abs(ours - np.round(oracle[HOLDING_CLASS])) > 0.5
        assert (differ & pure).sum() / 1326 <= 0.02, (depth, facing, [
            HAND_CLASSES[c] for c in np.unique(HOLDING_CLASS[differ & pure])])
        assert abs(ours.mean() - oracle[HOLDING_CLASS].mean()) <= 0.02


def test_no_short_spot_outside_tournaments_or_when_deep() -> None:
    game = GameConfig(variant="nolimit", blinds=(10, 20), stack=200)
    params = TournamentParams(equity=True, push_fold_bb=12.0)
    ring = HandState(game, [200, 200], 0, [(0, 1), (2, 3)], [4, 5, 6, 7, 8])
    assert short_spot(ring.observation(0), params) is None  # a ring game: the pipeline
    view = TournamentView((390.0, 210.0))
    short = HandState(game, [200, 200], 0, [(0, 1), (2, 3)], [4, 5, 6, 7, 8],
                      tournament=view)
    spot = short_spot(short.observation(0), params)
    assert spot is not None and spot.kind == "push"
    deep = HandState(game, [2000, 2000], 0, [(0, 1), (2, 3)], [4, 5, 6, 7, 8],
                     tournament=view)
    assert short_spot(deep.observation(0), params) is None  # 100 BB: the pipeline
    off = TournamentParams(equity=True, push_fold_bb=0.0)
    assert short_spot(short.observation(0), off) is None
