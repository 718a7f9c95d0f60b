"""``vexbot``: the search's values against a brute-force recursion on small trees, the
back-off weights and decay, the policy's consistency with ``act``, no side effects from
``policy``, ``freeze``, the model file (round trip and bad files, one line, exit 2), the
parameters' bounds and the games it refuses at validation."""

from __future__ import annotations

import copy
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from agent.equilibrium.tree import CALL, CHANCE, DECISION, FOLD, SHOWDOWN
from agent.heuristic.selector import draw
from agent.modeller.errors import ModelFileError
from agent.rivals.params import RivalParamsError
from agent.rivals.vexbot import VexbotBot, storage
from agent.rivals.vexbot.contexts import context_tree
from agent.rivals.vexbot.model import backoff_weights
from agent.rivals.vexbot.search import root_values, subtree
from agent.rivals.vexbot.strength import percentiles, river_strengths, win_matrix
from simulator import Action, BaseBot, Observation
from simulator.cli import main as holdem
from simulator.core.archive import read_archive, write_archive
from simulator.core.cards import HOLDINGS, parse_cards
from simulator.core.errors import GameError
from simulator.core.game import GameConfig
from simulator.play.baseline import CallBot, RaiseBot
from simulator.play.match import play_match
from simulator.play.registry import resolve

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)


# --- the search ------------------------------------------------------------------------------


def _brute(node: int, us: int, chances: dict[int, np.ndarray], hists: dict[int, np.ndarray],
           wins: np.ndarray) -> float:
    """The miximax value by plain recursion, one holding (``wins``: its row of A)."""
    t = context_tree().tree
    kind = int(t.kind[node])
    if kind == FOLD:
        folder = int(t.player[node])
        return float(-t.spent[node, us] if folder == us else t.spent[node, 1 - us])
    if kind == SHOWDOWN:
        w = float(wins @ hists[node])
        return (2 * w - 1) * float(t.spent[node, 0])
    if kind == CHANCE:
        return _brute(int(t.child[node, CALL]), us, chances, hists, wins)
    kids = [(a, int(c)) for a, c in enumerate(t.child[node]) if c >= 0]
    vals = [_brute(c, us, chances, hists, wins) for _, c in kids]
    if int(t.player[node]) == us:
        return max(vals)
    return sum(float(chances[node][a]) * v for (a, _), v in zip(kids, vals, strict=True))


@pytest.mark.parametrize("history, us", [("rc/rc/rc/", 1), ("rc/rc/rc/r", 0),
                                         ("cc/cc/", 1), ("rr", 0), ("c", 1)])
def test_root_values_match_brute_force(history: str, us: int) -> None:
    ct = context_tree()
    t = ct.tree
    root = t.find(history)
    while t.kind[root] == CHANCE:
        root = int(t.child[root, CALL])
    assert t.kind[root] == DECISION and t.player[root] == us
    sub = subtree(ct, root, us)
    rng = np.random.default_rng(len(history))
    opp = sub.nodes[sub.opponent_nodes]
    p = rng.random((opp.size, 3)) * (t.child[opp] >= 0)
    p /= p.sum(axis=1, keepdims=True)
    q = rng.random((sub.showdowns.size, 5))
    q /= q.sum(axis=1, keepdims=True)
    wins = rng.random((4, 5))
    got = root_values(ct, sub, us, p, q, wins)
    chances = dict(zip(opp.tolist(), p, strict=True))
    hists = dict(zip(sub.nodes[sub.showdowns].tolist(), q, strict=True))
    for h in range(4):
        for a in range(3):
            child = int(t.child[root, a])
            if child < 0:
                assert np.isnan(got[h, a])
            else:
                assert got[h, a] == pytest.approx(_brute(child, us, chances, hists, wins[h]))


def test_a_river_bet_into_a_folder_wins_the_pot() -> None:
    """Exact values: on the river the opponent always folds to a bet and always checks."""
    ct = context_tree()
    t = ct.tree
    root = t.find("rc/cc/cc/")  # big blind first on the river, 4 small blinds each in
    sub = subtree(ct, root, 1)
    opp = sub.nodes[sub.opponent_nodes]
    p = np.zeros((opp.size, 3))
    p[:, 0] = (t.child[opp, 0] >= 0)  # fold when facing a bet
    p[:, 1] = 1 - p[:, 0]
    q = np.full((sub.showdowns.size, 2), 0.5)
    wins = np.array([[0.0, 0.0], [1.0, 1.0]])  # a hand that always loses, one that wins
    got = root_values(ct, sub, 1, p, q, wins)
    assert got[:, 2].tolist() == [4.0, 4.0]  # the bet takes the other's 4 in either case
    assert got[:, 1].tolist() == [-4.0, 4.0]  # check, it checks behind: a showdown


# --- strengths --------------------------------------------------------------------------------


def test_percentiles_match_counting() -> None:
    board = tuple(parse_cards("2c7d9hJsKd"))
    x = river_strengths(board)
    from agent.strength.board_table import board_table
    ranks = board_table(board).ranks.astype(np.int64)
    live = np.flatnonzero(ranks > 0)
    for h in live[::97]:
        worse = int((ranks[live] > ranks[h]).sum())
        ties = int((ranks[live] == ranks[h]).sum()) - 1
        assert x[h] == pytest.approx((worse + 0.5 * ties) / (live.size - 1))
    assert np.isnan(x[ranks == 0]).all()
    assert percentiles(ranks[None, :]).shape == (1, 1326)


def test_turn_win_matrix_is_the_mean_over_rivers_without_clashes() -> None:
    board = tuple(parse_cards("2c7d9hJs"))
    a = win_matrix(board, 4, 150)
    h = 100
    cards = set(int(c) for c in board)
    from simulator.core.cards import holding_cards
    mine = holding_cards(h)
    rows = []
    for river in range(52):
        if river in cards or river in mine:
            continue
        xs = river_strengths(tuple(sorted(board + (river,))))[h]
        rows.append(np.clip(xs * 4 - np.arange(4), 0, 1))
    # fine-binned strengths: within one fine bin (1/32) of the exact mean per bin
    assert np.abs(a[h] - np.mean(rows, axis=0)).max() <= 4 / 32 + 1e-9


# --- the model --------------------------------------------------------------------------------


def test_backoff_weights_follow_the_formula() -> None:
    n = np.array([[3.0, 10.0, 40.0]])
    m = 0.9
    w = backoff_weights(n, m)[0]
    assert w[0] == pytest.approx(1 - m ** 3)
    assert w[1] == pytest.approx(m ** 3 * (1 - m ** 10))
    assert w[2] == pytest.approx(m ** 13 * (1 - m ** 40))
    assert w[3] == pytest.approx(m ** 53)
    assert w.sum() == pytest.approx(1.0)


def test_estimates_start_at_the_prior_and_follow_the_data() -> None:
    bot = VexbotBot(prior_weight=5.0, decay=1.0, backoff=0.9)
    t = bot.contexts.tree
    node = t.find("r")  # the big blind facing the button's raise
    prior = bot.prior.actions[node]
    first = bot.model.action_estimates(np.array([node]))
    assert first.values[0] == pytest.approx(prior) and first.level[0] == 5
    for _ in range(200):
        bot.model.learn([(node, 0)], None)  # it always folds here
    est = bot.model.action_estimates(np.array([node]))
    assert est.level[0] == 0 and est.observed[0].tolist() == pytest.approx([200.0] * 5)
    # level 0 takes ~all the weight; its own estimate is smoothed by 5 observations of the
    # coarser levels, which have seen nothing but folds too
    assert 200 / 205 <= est.values[0, 0] < 1.0
    assert est.values[0].sum() == pytest.approx(1.0)


def test_decay_weighs_older_hands_less() -> None:
    bot = VexbotBot(decay=0.5)
    node = bot.contexts.tree.find("r")
    bot.model.learn([(node, 2)], None)
    bot.model.learn([], None)
    bot.model.learn([], None)
    assert bot.model.action_estimates(np.array([node])).observed[0, 0] == pytest.approx(0.25)


# --- play, policy, freeze -----------------------------------------------------------------------


class _Asker(BaseBot):
    """Plays a vexbot, asking its full-range policy before each act and checking that
    act draws from its own row with the bot's generator."""

    def __init__(self, bot: VexbotBot) -> None:
        self.bot = bot
        self.checked = 0

    def observe(self, event: object) -> None:
        self.bot.observe(event)  # type: ignore[arg-type]

    def act(self, observation: Observation) -> Action:
        board = set(observation.board)
        live = [(int(a), int(b)) for a, b in np.asarray(HOLDINGS).tolist()
                if a not in board and b not in board]
        a, b = (int(c) for c in observation.hole_cards)
        own = self.bot.policy(observation, [(a, b)])
        full = self.bot.policy(observation, live)
        row = next(i for i, h in enumerate(live) if set(h) == {a, b})
        assert full.probabilities[row] == pytest.approx(own.probabilities[0])
        rng = copy.deepcopy(self.bot.rng)
        action = self.bot.act(observation)
        assert action == draw(own, rng)
        self.checked += 1
        return action


def test_act_draws_from_its_own_row_and_policy_changes_nothing() -> None:
    asked, plain = VexbotBot(seed=3), VexbotBot(seed=3)
    asker = _Asker(asked)
    a = [r.net for r in play_match(LIMIT, [asker, RaiseBot()], 12, seed=11)]
    b = [r.net for r in play_match(LIMIT, [plain, RaiseBot()], 12, seed=11)]
    assert a == b and asker.checked > 12
    for level in range(5):
        assert np.array_equal(asked.model.actions[level].counts,
                              plain.model.actions[level].counts)
    assert asked.rng.random() == plain.rng.random()


def test_freeze_stops_learning() -> None:
    bot = VexbotBot(seed=1)
    bot.freeze()
    list(play_match(LIMIT, [bot, CallBot()], 10, seed=2))
    assert bot.model.hands == 0
    assert all(not c.counts.any() for c in bot.model.actions + bot.model.showdowns)
    learner = VexbotBot(seed=1)
    list(play_match(LIMIT, [learner, CallBot()], 10, seed=2))
    assert learner.model.hands == 10 and learner.model.showdowns[0].counts.sum() > 0


# --- the model file -----------------------------------------------------------------------------


def _learned(tmp_path: Path) -> tuple[VexbotBot, Path]:
    bot = VexbotBot(seed=1)
    list(play_match(LIMIT, [bot, CallBot()], 8, seed=4))
    path = tmp_path / "m.model"
    storage.save(path, bot.model, LIMIT)
    return bot, path


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    bot, path = _learned(tmp_path)
    fresh = VexbotBot(seed=1, model=str(path))
    storage.load(path, fresh.model, LIMIT)
    assert fresh.model.hands == bot.model.hands
    for a, b in zip(bot.model.actions + bot.model.showdowns,
                    fresh.model.actions + fresh.model.showdowns, strict=True):
        assert np.array_equal(a.counts, b.counts) and np.array_equal(a.stamp, b.stamp)


def test_bad_model_files_are_refused(tmp_path: Path) -> None:
    bot, path = _learned(tmp_path)
    fresh = VexbotBot().model
    with pytest.raises(ModelFileError, match="nope.model: no such file"):
        storage.load(tmp_path / "nope.model", fresh, LIMIT)
    cut = tmp_path / "cut.model"
    cut.write_bytes(path.read_bytes()[:300])
    with pytest.raises(ModelFileError, match=str(cut)):
        storage.load(cut, fresh, LIMIT)
    other = GameConfig(variant="limit", blinds=(2, 4), small_bet=4, stack=400)
    with pytest.raises(ModelFileError, match="another game"):
        storage.load(path, fresh, other)
    archive = read_archive(path, storage.FORMAT, (storage.VERSION,))
    arrays = dict(archive.arrays)
    arrays["actions0"] = arrays["actions0"].copy()
    arrays["actions0"][0, 0] = -1.0
    header = {k: v for k, v in archive.header.items()
              if k not in ("format", "version", "checksum")}
    over = tmp_path / "over.model"
    write_archive(over, storage.FORMAT, storage.VERSION, header, arrays)
    with pytest.raises(ModelFileError, match="over its bounds"):
        storage.load(over, fresh, LIMIT)
    assert zipfile.is_zipfile(path)


def _config(tmp_path: Path, game: dict, params: dict | None = None) -> Path:
    path = tmp_path / "c.yaml"
    seat = {"name": "vex", "bot": "vexbot"} | ({"params": params} if params else {})
    path.write_text(yaml.safe_dump({
        "game": game, "seats": [seat, {"name": "c", "bot": "call"}], "hands": 4, "seed": 9,
        "block_size": 2, "duplicate": False,
        "output": {"dir": str(tmp_path / "out"), "plots": False}}))
    return path


@pytest.mark.parametrize("game, params, message", [
    ({"variant": "nolimit", "blinds": [1, 2], "stack": 200}, None, "this game is no-limit"),
    ({"variant": "limit", "blinds": [1, 2], "small_bet": 2}, {"model": "/nonexistent.model"},
     "/nonexistent.model"),
    ({"variant": "limit", "blinds": [1, 2], "small_bet": 2}, {"decay": 0.0}, "decay"),
    ({"variant": "limit", "blinds": [1, 2], "small_bet": 2}, {"bins": 1}, "bins"),
    ({"variant": "limit", "blinds": [1, 2], "small_bet": 2}, {"prior_weight": -1.0},
     "prior_weight"),
])
def test_validation_refuses_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          game: dict, params: dict | None,
                                          message: str) -> None:
    assert holdem(["run", str(_config(tmp_path, game, params))]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err
    assert not (tmp_path / "out").exists()


def test_other_games_are_refused_naming_what_it_plays() -> None:
    with pytest.raises(GameError, match="vexbot plays heads-up fixed-limit.*no-limit"):
        VexbotBot.check_game(GameConfig(variant="nolimit", blinds=(1, 2), stack=200), 2)
    with pytest.raises(GameError, match="3 seats"):
        VexbotBot.check_game(LIMIT, 3)


def test_parameters_are_bounded() -> None:
    VexbotBot(decay=1.0, prior_weight=0.0, bins=2)
    for bad in ({"decay": 1.5}, {"decay": 0.0}, {"prior_weight": -0.1}, {"bins": 1}):
        with pytest.raises(RivalParamsError):
            VexbotBot(**bad)


def test_it_is_registered() -> None:
    assert resolve("vexbot").factory is VexbotBot


def test_its_trace_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agent.commands.explain import explain
    config = _config(tmp_path, {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                     {"trace": True})
    assert holdem(["run", str(config), "--quiet"]) == 0
    text = explain(tmp_path / "out", block=0, perm=0, hand=0)
    assert "vex (vexbot) in seat" in text and "chose " in text and "value" in text
    assert "model: " in text  # the level and observations of the estimate after an action
