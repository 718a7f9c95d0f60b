"""Code written against the flat layout keeps working: the old paths re-export the new ones."""

import importlib

import pytest

OLD_TO_NEW = {
    "simulator.bot": ("simulator.play.protocol", ["Bot", "BaseBot"]),
    "simulator.bots": ("simulator.play.baseline", ["RandomBot", "CallBot", "RaiseBot"]),
    "simulator.actions": ("simulator.core.actions", ["Action", "LegalActions", "ActionKind"]),
    "simulator.observation": ("simulator.core.events", ["HandStarted", "Showdown",
                                                        "ActionTaken", "HandEnded"]),
    "simulator.cards": ("simulator.core.cards", ["parse_cards", "format_cards", "Deck"]),
    "simulator.evaluator": ("simulator.core.hand_ranks", ["evaluate", "class_name"]),
    "simulator.state": ("simulator.core.state", ["HandState"]),
    "simulator.match": ("simulator.play.match", ["play_match", "deal_cards"]),
    "simulator.tournament": ("simulator.arena.tournament", ["run_tournament"]),
    "simulator.config": ("simulator.arena.config", ["load_config", "ConfigError"]),
    "agent.hand_evaluator": ("agent.strength.ehs", ["effective_hand_strength",
                                                    "hand_strength"]),
}


@pytest.mark.parametrize("old", sorted(OLD_TO_NEW))
def test_old_paths_name_the_same_objects(old: str) -> None:
    new, names = OLD_TO_NEW[old]
    old_module, new_module = importlib.import_module(old), importlib.import_module(new)
    for name in names:
        assert getattr(old_module, name) is getattr(new_module, name), name


def test_observation_path_still_has_the_observation() -> None:
    from simulator.core.observation import Observation
    from simulator.observation import Observation as Old

    assert Old is Observation


def test_a_config_naming_the_old_bot_path_plays(tmp_path) -> None:
    from simulator.arena.config import parse_config
    from simulator.arena.tournament import run_tournament

    cfg = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                        "seats": [{"name": "a", "bot": "simulator.bots:RandomBot"},
                                  {"name": "b", "bot": "simulator.bots:CallBot"}],
                        "hands": 40, "seed": 1, "block_size": 20,
                        "output": {"dir": str(tmp_path / "out"), "plots": False}})
    summary = run_tournament(cfg, progress=False)
    assert summary.deals == 40 and set(summary.players) == {"a", "b"}
