"""Every parameter of the agent, its modeller and pre-flop expert, the rivals and the baseline
bots has bounds that make play possible, checked at validation (pydantic models that forbid
unknown keys), and every error names the key: nothing passes validation to crash or hang at
the first decision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.params import AgentParamsError
from simulator.arena.config import ConfigError, parse_config
from simulator.arena.tournament import check_bots
from simulator.cli import main as holdem
from simulator.core.errors import HoldemError
from simulator.play.registry import build, resolve

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("key, value", [
    ("evaluation.nolimit_sizes", [INF]),
    ("evaluation.nolimit_sizes", [1e308]),
    ("evaluation.nolimit_sizes", []),
    ("evaluation.shown_scale", INF),
    ("evaluation.chain_prior", NAN),
    ("defense.samples", 1_000_000_000),
    ("defense.samples", 10**30),
    ("selector.temperature", INF),
    ("trust.prior_weight", INF),
    ("calibration.prior_weight", 0.0),
    ("calibration.prior_weight", NAN),
    ("calibration.enabled", "yes"),
    ("evaluation.give_up", "sometimes"),
    ("evaluation.give_up_trust", 0.0),
    ("evaluation.give_up_trust", 1.5),
    ("defense.value_raise", "yes"),
    ("defense.steal", "yes"),
    ("defense.value_edge", 0.0),
    ("defense.value_edge", INF),
    ("modeller.pool_streets", "yes"),
    ("modeller.size_edges", [NAN]),
    ("modeller.size_edges", None),
    ("modeller.size_edges", "abc"),
    ("modeller.size_edges", [0.8, 0.4]),
    ("modeller.default_frequencies", [[1]]),
    ("modeller.default_frequencies", "abc"),
    ("modeller.default_frequencies", [[0.5, 0.5, 0.5]] * 3),
    ("modeller.raised_back_frequencies", [NAN, 0.5, 0.5]),
    ("modeller.max_nodes", 10**12),
    ("modeller.sigma_postflop", INF),
    ("modeller.min_matches", True),
    ("preflop.nolimit.open_bb", 1e308),
    ("preflop.nolimit.reraise_factor", INF),
    ("preflop.make4_bets", 10**9),
    ("preflop.randomization", 10**30),
])
def test_agent_parameters_that_cannot_play_are_refused_naming_the_key(key: str,
                                                                      value: Any) -> None:
    section, _, leaf = key.partition(".")
    with pytest.raises(AgentParamsError) as caught:
        HeuristicAgent(**{key: value})
    message = str(caught.value)
    assert section in message and leaf.rpartition(".")[2] in message, message


def test_the_shipped_parameters_pass() -> None:
    HeuristicAgent()


@pytest.mark.parametrize("bot, params, key", [
    ("mc", {"raise_share": 0}, "raise_share"),
    ("mc", {"raise_share": 1e300}, "raise_share"),
    ("mc", {"raise_share": NAN}, "raise_share"),
    ("exploiter", {"prior_weight": 0}, "prior_weight"),
    ("exploiter", {"temperature": INF}, "temperature"),
    ("exploiter", {"sigma_postflop": 0}, "sigma_postflop"),
    ("rock", {"value": INF}, "value"),
    ("rock", {"bluff": 2.0}, "bluff"),
    ("maniac", {"jitter": NAN}, "jitter"),
    ("maniac", {"call": 2.0, "value": 1.0}, "call"),
    ("loki", {"make2": NAN}, "make2"),
    ("loki", {"make1": 0.9}, "make1"),
    ("loki", {"lookahead": 3}, "lookahead"),
    ("loki", {"tightness": "x"}, "tightness"),
    ("random", {"fold": NAN}, "fold"),
    ("random", {"raise": INF}, "raise"),
    ("random", {"call": 1e300}, "call"),
])
def test_rival_and_baseline_parameters_are_bounded_and_name_the_key(
        bot: str, params: dict[str, Any], key: str) -> None:
    with pytest.raises(HoldemError, match=key):
        build(resolve(bot), params, seed=1)
    config = parse_config({"seats": [{"name": "a", "bot": bot, "params": params},
                                     {"name": "b", "bot": "call"}], "hands": 2, "seed": 1})
    with pytest.raises(ConfigError, match=rf"seats\[0\] \(a\).*{key}"):
        check_bots(config)


def test_a_run_with_a_parameter_that_cannot_play_is_exit_2_before_any_work(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({
        "game": {"variant": "nolimit", "blinds": [1, 2], "stack": 200},
        "seats": [{"name": "hero", "bot": "heuristic",
                   "params": {"evaluation.nolimit_sizes": [1e308]}},
                  {"name": "villain", "bot": "call"}],
        "hands": 4, "seed": 1, "output": {"dir": str(tmp_path / "out"), "plots": False}}))
    assert holdem(["run", str(config), "--quiet"]) == 2
    err = capfd.readouterr().err
    lines = err.splitlines()  # a line a problem, each naming the key
    assert lines and all("evaluation.nolimit_sizes" in line for line in lines), err
    assert not (tmp_path / "out").exists()
