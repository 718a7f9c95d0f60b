"""Config validation: the minimal format runs as written; every bad key is named with its path."""

import dataclasses
from pathlib import Path

import pytest
import yaml

from simulator.arena.config import ConfigError, GameSection, load_config, parse_config
from simulator.arena.exploit_config import parse_exploit
from simulator.arena.league import pair_configs
from simulator.arena.tournament import check_bots
from simulator.core.game import GameConfig

CONFIGS = sorted((Path(__file__).resolve().parents[1] / "configs").glob("*.yaml"))

MINIMAL = """\
game:
  variant: nolimit          # or: limit (then small_bet, big_bet, cap)
  blinds: [1, 2]
  ante: 0
  stack: 200
  reset_stacks: false       # false: stacks carry over, busted seats sit out
seats:
  - {name: alice, bot: random, params: {fold: 0.1, call: 0.6, raise: 0.3}}
  - {name: bob, bot: call}
  - {name: carol, bot: raise}
hands: 1000
seed: 7
output:
  dir: results/minimal
  hand_histories: true      # writes results/minimal/hands.phhs; each hand has finishing_stacks
"""


def _seats() -> list[dict]:
    return [{"name": "a", "bot": "call"}, {"name": "b", "bot": "raise"}]


def _base(**extra: object) -> dict:
    return {"seats": _seats(), "hands": 100, "seed": 3, **extra}


def test_the_minimal_config_parses_as_written(tmp_path: Path) -> None:
    path = tmp_path / "minimal.yaml"
    path.write_text(MINIMAL)
    cfg = load_config(path)
    game = cfg.game_config()
    assert (game.variant, game.blinds, game.stack, game.reset_stacks) == ("nolimit", (1, 2),
                                                                          200, False)
    assert cfg.names == ("alice", "bob", "carol")
    assert cfg.seats[0].params == {"fold": 0.1, "call": 0.6, "raise": 0.3}
    assert (cfg.hands, cfg.seed, cfg.output.dir, cfg.output.hand_histories) == (
        1000, 7, "results/minimal", True)
    # the defaults
    assert (cfg.duplicate, cfg.block_size, cfg.workers, cfg.backend, cfg.on_bot_error,
            cfg.bot_timeout, cfg.output.plots) == (False, 200, 1, "local", "stop", None, True)
    assert cfg.unit == "big_blinds" and cfg.unit_chips == 2


def test_limit_defaults_big_bet_twice_small_and_cap_four() -> None:
    cfg = parse_config(_base(game={"variant": "limit", "blinds": [1, 2], "small_bet": 2}))
    game = cfg.game_config()
    assert (game.small_bet, game.big_bet, game.cap) == (2, 4, 4)
    assert cfg.unit == "small_bets" and cfg.unit_chips == 2
    uncapped = parse_config(_base(game={"variant": "limit", "small_bet": 2, "cap": None}))
    assert uncapped.game_config().cap is None


def test_blocks_split_hands_with_a_short_last_block() -> None:
    cfg = parse_config(_base(hands=450, block_size=200))
    assert cfg.num_blocks == 3
    assert [cfg.block_deals(b) for b in range(3)] == [200, 200, 50]


@pytest.mark.parametrize("data, message", [
    (_base(sed=4), "config: sed: unknown key"),
    (_base(game={"varient": "limit"}), "config: game.varient: unknown key"),
    (_base(game={"variant": "limt"}), "config: game.variant: expected 'limit', 'nolimit' or "
                                      "'potlimit', got 'limt'"),
    ({"seats": [{"name": "a", "bot": "call"}, {"name": "b", "bot": "call", "parms": {}}],
      "hands": 5, "seed": 1}, "config: seats[1].parms: unknown key"),
    ({"seats": _seats(), "seed": 1}, "config: hands: expected a value, the key is missing"),
    (_base(hands=0), "config: hands: expected greater than 0, got 0"),
    (_base(hands="10"), "config: hands: expected a valid integer, got '10'"),
    (_base(seed=-1), "config: seed: expected greater than or equal to 0, got -1"),
    ({"seats": _seats()[:1], "hands": 5, "seed": 1}, "config: seats: expected at least 2 "
                                                      "items, got 1"),
    ({"seats": [{"name": "a", "bot": "call"}] * 2, "hands": 5, "seed": 1},
     "config: seats: expected unique names (ignoring case), repeated: a"),
    (_base(duplicate=True, game={"reset_stacks": False}),
     "config: duplicate: true needs game.reset_stacks: true"),
    (_base(game={"small_bet": 2}), "config: game.small_bet: expected no small_bet"),
    (_base(game={"blinds": [1, 0]}), "config: game.blinds: expected non-negative chips ending "
                                     "in the big blind > 0, got [1, 0]"),
    (_base(game={"blinds": [-1, 2]}), "config: game.blinds: expected non-negative chips"),
    (_base(backend="slurm"), "config: backend: expected 'local' or 'ray', got 'slurm'"),
    (_base(on_bot_error="ignore"), "config: on_bot_error: expected 'stop' or 'fold'"),
    (_base(workers=0), "config: workers: expected greater than or equal to 1, got 0"),
    (_base(bot_timeout=-1), "config: bot_timeout: expected greater than 0"),
    (_base(output={"plots": "no"}), "config: output.plots: expected a valid boolean, got 'no'"),
    (_base(block_size=0), "config: block_size: expected greater than 0, got 0"),
    ([1, 2], "config: expected a mapping of keys"),
])
def test_bad_configs_name_key_path_and_expectation(data: object, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data)
    text = str(info.value)
    assert text.startswith(message), text
    assert "\n" not in text


def test_integer_bot_timeout_is_accepted() -> None:
    assert parse_config(_base(bot_timeout=2)).bot_timeout == 2.0


@pytest.mark.parametrize("text, message", [
    ("game: [1, 2\n", "not valid YAML at line"),
    ("- a\n- b\n", "expected a mapping of keys"),
])
def test_bad_yaml_is_a_config_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.yaml")


def test_result_key_ignores_only_how_the_run_is_executed() -> None:
    a = parse_config(_base(workers=1, backend="local"))
    b = parse_config(_base(workers=2, backend="ray", output={"plots": False, "dir": "x"}))
    c = parse_config(_base(block_size=50))
    assert a.result_key() == b.result_key()
    assert a.result_key() != c.result_key()


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_are_valid_and_their_bots_resolve(path: Path) -> None:
    data = yaml.safe_load(path.read_text())
    # a league config (a panel of 'bots') is one run config per pair; an exploit config (one
    # 'bot') one run per learning mode
    configs = (pair_configs(data, str(path)) if "bots" in data
               else list(parse_exploit(data, str(path)).runs()) if "bot" in data
               else [load_config(path)])
    for cfg in configs:
        check_bots(cfg)
        assert cfg.output.dir.startswith("results/")


def test_the_minimal_config_is_shipped_as_written() -> None:
    shipped = Path(__file__).resolve().parents[1] / "configs" / "minimal.yaml"
    assert MINIMAL in shipped.read_text()


def test_the_game_section_is_game_config_itself() -> None:
    """One source of truth for the game's keys, defaults and rules."""
    fields = {f.name: f.default for f in dataclasses.fields(GameConfig)}
    section = GameSection.model_fields
    assert list(section) == list(fields)
    assert {k: v.default for k, v in section.items()} == {
        k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}
    assert parse_config(_base()).game_config() == GameConfig()
    # a rule of GameConfig is the config's rule, under the key's own path
    with pytest.raises(ConfigError, match=r"^config: game.stack: expected more chips than the "
                                          r"forced bets \(ante 3 \+ largest blind 2 = 5\)"):
        parse_config(_base(game={"ante": 3, "stack": 5}))
    with pytest.raises(ConfigError, match=r"^config: game.blinds\[1\]: expected a valid "
                                          r"integer, got True"):
        parse_config(_base(game={"blinds": [1, True]}))


def test_seats_with_the_same_bot_are_checked_once_and_the_first_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import simulator.arena.tournament as tournament_module

    built: list[str] = []
    trial = tournament_module._trial_build

    def counted(spec: object, params: object, name: str, timeout: float | None) -> str | None:
        built.append(name)
        return trial(spec, params, name, timeout)

    monkeypatch.setattr(tournament_module, "_trial_build", counted)
    seats = [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"},
             {"name": "c", "bot": "random", "params": {"fold": 0.5, "call": 0.5, "raise": 0.0}},
             {"name": "d", "bot": "call"}, {"name": "e", "bot": "random"}]
    check_bots(parse_config({**_base(), "seats": seats}))
    assert built == ["a", "c", "d"]
    bad = {"fold": -1.0, "call": 0.5, "raise": 0.5}
    seats = [{"name": "x", "bot": "call"}, {"name": "y", "bot": "random", "params": bad},
             {"name": "z", "bot": "random", "params": bad}]
    with pytest.raises(ConfigError, match=r"^seats\[1\] \(y\): "):
        check_bots(parse_config({**_base(), "seats": seats}))
