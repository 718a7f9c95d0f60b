"""The ``cfr`` bot: the games it refuses (at validation, exit 2), its policy (the protocol's
rules), its play (drawn from its own row), and bad strategy files at validation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from agent.equilibrium import strategy
from agent.rivals.cfr import CfrBot, refusal
from simulator import Action, ActionKind, BaseBot, BotContext
from simulator.cli import main as holdem
from simulator.core.cards import HOLDINGS, parse_cards
from simulator.core.errors import GameError
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.state import HandState
from simulator.play.baseline import RaiseBot
from simulator.play.match import play_match
from simulator.play.protocol import PolicyBot, PolicyError
from simulator.play.registry import resolve

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)


@pytest.fixture(scope="module")
def bot() -> CfrBot:
    return CfrBot(seed=1)


def spot(actions: list[str], board: str = "Ks9s5h4c3d", button: int = 1,
         holes: tuple[str, str] = ("7c2d", "AhAs"), game: GameConfig = LIMIT) -> Observation:
    """The observation of the player to act after ``actions`` (f, c, r) from the deal."""
    state = HandState(game, [game.stack, game.stack], button=button,
                      holes=[tuple(parse_cards(h)) for h in holes], board=parse_cards(board))
    for a in actions:
        if a == "c":
            state.check_or_call()
        elif a == "r":
            state.raise_to(int(state.legal_actions().min_raise_to))
        else:
            state.fold()
    assert state.actor is not None
    return state.observation(state.actor)


# --- the games it plays -------------------------------------------------------------------------


@pytest.mark.parametrize("game, seats, problem", [
    (GameConfig(variant="nolimit", blinds=(1, 2), stack=200), 2, "no-limit"),
    (LIMIT, 3, "3 seats"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=3), 2, "cap 3"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=4), 2, "bets 4/8 at blinds 1/2"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, big_bet=6), 2,
     "bets 2/6 at blinds 1/2"),
    (GameConfig(variant="limit", blinds=(1, 3), small_bet=3), 2, "blinds 1/3"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, ante=1), 2, "ante 1"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, reset_stacks=False), 2,
     "stacks carried over (reset_stacks: false)"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=47), 2,
     "stacks of 47 (a capped hand costs 48)"),
])
def test_other_games_are_refused(game: GameConfig, seats: int, problem: str) -> None:
    with pytest.raises(GameError) as info:
        CfrBot.check_game(game, seats)
    assert str(info.value).endswith(f"this game is {problem}")
    assert "heads-up fixed-limit" in str(info.value)


@pytest.mark.parametrize("game", [
    LIMIT, GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=48),
    GameConfig(variant="limit", blinds=(5, 10), small_bet=10, stack=1000)])
def test_the_game_it_was_solved_for_is_accepted_at_any_scale(game: GameConfig) -> None:
    assert refusal(game, 2) is None


def _config(tmp_path: Path, game: dict, seats: list[dict]) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({
        "game": game, "seats": seats, "hands": 4, "seed": 9, "block_size": 2,
        "duplicate": False, "output": {"dir": str(tmp_path / "out"), "plots": False}}))
    return path


@pytest.mark.parametrize("game, seats, message", [
    ({"variant": "nolimit", "blinds": [1, 2], "stack": 200}, 2, "this game is no-limit"),
    ({"variant": "limit", "blinds": [1, 2], "small_bet": 2}, 3, "this game is 3 seats"),
    ({"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 40}, 2,
     "this game is stacks of 40"),
])
def test_the_arena_refuses_other_games_at_validation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: dict, seats: int,
        message: str) -> None:
    table = [{"name": "cfr", "bot": "cfr"}] + [{"name": f"c{i}", "bot": "call"}
                                               for i in range(seats - 1)]
    assert holdem(["run", str(_config(tmp_path, game, table))]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "seats[0] (cfr)" in err and message in err
    assert "cfr plays heads-up fixed-limit hold'em only" in err
    assert not (tmp_path / "out").exists()


def test_a_bad_strategy_file_fails_validation_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "truncated.npz"
    bad.write_bytes(strategy.DEFAULT_PATH.read_bytes()[:1000])
    table = [{"name": "cfr", "bot": "cfr", "params": {"strategy": str(bad)}},
             {"name": "c", "bot": "call"}]
    game = {"variant": "limit", "blinds": [1, 2], "small_bet": 2}
    assert holdem(["run", str(_config(tmp_path, game, table))]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{bad}: " in err and "corrupt or truncated" in err


def test_it_is_registered_and_states_its_policy(bot: CfrBot) -> None:
    assert resolve("cfr").factory is CfrBot
    assert isinstance(bot, PolicyBot)


def test_start_refuses_more_seats() -> None:
    with pytest.raises(GameError, match="this game is 3 seats"):
        CfrBot(seed=0).start(BotContext(seat=0, names=("a", "b", "c"), game=LIMIT))


# --- the policy -------------------------------------------------------------------------------


def _live(board: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every holding that shares no card with the board."""
    return [(int(a), int(b)) for a, b in HOLDINGS if a not in board and b not in board]


@pytest.mark.parametrize("actions, street", [
    ([], 0), (["r"], 0), (["c", "r", "r"], 0), (["r", "c"], 1), (["r", "c", "c", "r"], 1),
    (["c", "c", "r", "c", "c"], 2), (["r", "c", "r", "r", "c", "c", "r", "r", "r"], 2),
    (["c", "c", "c", "c", "c", "c", "r", "r", "r"], 3),
])
def test_policy_rows_are_distributions_over_legal_actions(
        bot: CfrBot, actions: list[str], street: int) -> None:
    obs = spot(actions)
    assert int(obs.street) == street
    holdings = _live(obs.board)
    p = bot.policy(obs, holdings)
    p.check(obs.legal)
    assert p.probabilities.shape == (len(holdings), len(p.actions))
    assert len(set(p.actions)) == len(p.actions)
    assert (Action.fold() in p.actions) == obs.legal.can_fold
    # rows differ by holding: the strategy depends on the cards
    assert not np.allclose(p.probabilities, p.probabilities[0])


def test_policy_of_no_holdings_is_empty(bot: CfrBot) -> None:
    obs = spot(["r"])
    p = bot.policy(obs, [])
    assert p.probabilities.shape == (0, 3)


def test_a_holding_clashing_with_the_board_is_refused(bot: CfrBot) -> None:
    obs = spot(["r", "c"])
    free = next(c for c in range(52) if c not in obs.board)
    with pytest.raises(PolicyError, match="shares a card with the board"):
        bot.policy(obs, [(0, 1), (int(obs.board[0]), free)])


def test_rows_do_not_depend_on_the_bots_own_cards(bot: CfrBot) -> None:
    holdings = [(0, 1), (8, 13), (48, 49), (20, 44)]
    a = bot.policy(spot(["r", "c", "c"], holes=("7c2d", "AhAs")), holdings)
    b = bot.policy(spot(["r", "c", "c"], holes=("QcQd", "3h2h")), holdings)
    assert a.actions == b.actions and np.array_equal(a.probabilities, b.probabilities)


def test_a_hypothetical_history_is_answered_and_a_foreign_one_refused(bot: CfrBot) -> None:
    real = spot(["r", "c", "c"])
    # the same spot with a raise that was never made: button raised twice before the flop
    other = spot(["c", "r", "r", "c", "c"])
    assert bot.node(real) != bot.node(other)
    bot.policy(other, [(0, 1)]).check(other.legal)
    # an observation whose seat is not the player to act in the tree
    wrong = Observation(**{**real.__dict__, "seat": 1 - real.seat})
    with pytest.raises(PolicyError, match="not seat"):
        bot.policy(wrong, [(0, 1)])


class _Asking(BaseBot):
    """Plays as ``inner`` but asks it about its policy, on real and made-up spots, first."""

    def __init__(self, inner: CfrBot) -> None:
        self.inner = inner
        self.kinds: set[ActionKind] = set()

    def act(self, observation: Observation) -> Action:
        self.inner.policy(observation, _live(observation.board))
        self.inner.policy(spot(["r", "r"]), [(0, 1), (2, 3)])
        action = self.inner.act(observation)
        self.kinds.add(action.kind)
        return action


def test_policy_calls_have_no_side_effects() -> None:
    """Two bots with one seed play the same hands, one asked about its policy before every
    decision: the hands come out the same."""
    plain = play_match(LIMIT, [CfrBot(seed=11), RaiseBot()], 60, seed=3)
    asking = _Asking(CfrBot(seed=11))
    asked = play_match(LIMIT, [asking, RaiseBot()], 60, seed=3)
    assert [r.net for r in plain] == [r.net for r in asked]
    # against a bot that always raises it folds, calls and raises
    assert asking.kinds == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}


def test_act_draws_from_the_row_of_its_own_holding() -> None:
    """Many seeds at fixed decisions: the actions' counts fit the row (chi-square)."""
    for actions, holes in ((["r"], ("JcTd", "9h8h")), (["r", "c", "c", "r"], ("KhQh", "Jd9c"))):
        obs = spot(actions, holes=holes)
        hole = (int(obs.hole_cards[0]), int(obs.hole_cards[1]))
        p = CfrBot(seed=0).policy(obs, [hole])
        row = p.probabilities[0]
        n = 3000
        counts = np.zeros(len(p.actions))
        for seed in range(n):
            counts[p.index_of(CfrBot(seed=seed).act(obs))] += 1
        expected = row * n
        assert (counts[expected == 0] == 0).all()
        played = expected > 0
        chi2 = (((counts - expected)[played]) ** 2 / expected[played]).sum()
        # 99.9% point of chi-square with up to 2 degrees of freedom
        assert chi2 < 13.8, (row, counts)
