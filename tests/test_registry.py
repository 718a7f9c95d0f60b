"""Bot lookup: entry-point names, module:Class paths, params checked, seeds passed."""

from pathlib import Path

import pytest

from simulator.play.registry import BotSpecError, build, check_params, registered, resolve


class SeededBot:
    def __init__(self, level: int = 1, seed: int | None = None) -> None:
        self.level, self.seed = level, seed

    def act(self, observation):  # noqa: ANN001, ANN201 - a minimal plug-in
        raise NotImplementedError


class PlainBot:
    def __init__(self, level: int = 1) -> None:
        self.level = level

    def act(self, observation):  # noqa: ANN001, ANN201
        raise NotImplementedError


class NotABot:
    pass


class Exploding:
    def __init__(self) -> None:
        raise RuntimeError("boom")

    def act(self, observation):  # noqa: ANN001, ANN201
        raise NotImplementedError


CALLS: list[str] = []


def make_bot(**params):  # noqa: ANN003, ANN201 - a factory function, not a class
    CALLS.append("called")
    return PlainBot()


HERE = __name__


def test_baseline_bots_are_registered_by_short_name() -> None:
    table = registered()
    assert {"random", "call", "raise"} <= set(table)
    assert table["call"] == "simulator.play.baseline:CallBot"


def test_module_class_path_and_seed_detection() -> None:
    seeded = resolve(f"{HERE}:SeededBot")
    assert seeded.factory is SeededBot and seeded.accepts_seed
    plain = resolve(f"{HERE}:PlainBot")
    assert plain.factory is PlainBot and not plain.accepts_seed


def test_derived_seed_goes_to_constructors_that_take_one_unless_the_user_set_it() -> None:
    seeded = resolve(f"{HERE}:SeededBot")
    assert build(seeded, {"level": 3}, seed=11).seed == 11
    assert build(seeded, {"seed": 5}, seed=11).seed == 5
    plain = build(resolve(f"{HERE}:PlainBot"), {"level": 2}, seed=11)
    assert plain.level == 2 and not hasattr(plain, "seed")


@pytest.mark.parametrize("name, message", [
    ("nosuchbot", "unknown bot 'nosuchbot': expected a registered name"),
    ("no_such_module_xyz:Bot", "cannot import module 'no_such_module_xyz'"),
    (f"{HERE}:Missing", "has no 'Missing'"),
    (f"{HERE}:HERE", "'HERE' is not a bot class"),
    (f"{HERE}:NotABot", "class 'NotABot' has no act"),
    (f"{HERE}:make_bot", "only installed plug-ins may register a factory"),
    (":Bot", "expected 'module:Class'"),
])
def test_unknown_bots_are_refused_with_the_name(name: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        resolve(name)


def test_params_the_constructor_does_not_take_are_refused() -> None:
    spec = resolve(f"{HERE}:PlainBot")
    check_params(spec, {"level": 4})
    with pytest.raises(BotSpecError, match="bad params.*'colour'"):
        check_params(spec, {"colour": "red"})


def test_a_failing_constructor_raises_its_own_error_for_the_guard_to_name() -> None:
    with pytest.raises(RuntimeError, match="boom"):
        build(resolve(f"{HERE}:Exploding"), {}, seed=1)


def test_validation_never_calls_what_is_not_a_bot_class(tmp_path: Path) -> None:
    """Finding 9: ``os:system`` with ``params: {command: ...}`` once ran the command."""
    marker = tmp_path / "ran"
    for name in ("os:system", "subprocess:call", f"{HERE}:make_bot"):
        with pytest.raises(BotSpecError, match="not a bot class"):
            spec = resolve(name)
            build(spec, {"command": f"touch {marker}"}, seed=0)
    assert not marker.exists() and CALLS == []
