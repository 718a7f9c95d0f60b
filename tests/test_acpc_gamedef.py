"""ACPC game definitions: reading, writing, the mapping to our GameConfig, and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.arena.acpc_cli import main
from simulator.core.game import GameConfig
from simulator.interop.acpc.gamedef import (
    NO_STACK,
    SHIPPED,
    GameDefError,
    format_gamedef,
    gamedef_for,
    load_gamedef,
    parse_gamedef,
)

LIMIT_2P = SHIPPED / "holdem.limit.2p.reverse_blinds.game"
NOLIMIT_2P = SHIPPED / "holdem.nolimit.2p.reverse_blinds.game"


def test_the_competitions_four_definitions_are_shipped() -> None:
    names = {p.name for p in SHIPPED.glob("*.game")}
    assert names == {"holdem.limit.2p.reverse_blinds.game", "holdem.nolimit.2p.reverse_blinds.game",
                     "holdem.limit.3p.game", "holdem.nolimit.3p.game"}


@pytest.mark.parametrize("path, expected", [
    (LIMIT_2P, GameConfig(variant="limit", blinds=(5, 10), small_bet=10, big_bet=20, cap=4,
                          stack=NO_STACK)),
    (NOLIMIT_2P, GameConfig(variant="nolimit", blinds=(50, 100), cap=None, stack=20000)),
    (SHIPPED / "holdem.limit.3p.game",
     GameConfig(variant="limit", blinds=(5, 10), small_bet=10, big_bet=20, cap=4,
                stack=NO_STACK)),
    (SHIPPED / "holdem.nolimit.3p.game",
     GameConfig(variant="nolimit", blinds=(50, 100), cap=None, stack=20000)),
], ids=lambda v: getattr(v, "stem", ""))
def test_shipped_definitions_map_to_our_games_and_back(path: Path, expected: GameConfig) -> None:
    gd = load_gamedef(path)
    assert gd.to_game_config() == expected
    assert gamedef_for(expected, gd.num_players) == gd
    # the reference dealer's printout of a definition reads back as the same definition
    assert parse_gamedef(format_gamedef(gd)) == gd


def test_reading_follows_the_reference_dealers_syntax() -> None:
    text = ("# comment\n\ngamedef\nNOLIMIT\nnumplayers 2\nNUMROUNDS=4\nstack = 500 500\n"
            "Blind 10 5\nfirstPlayer 2 1 1 1\nnumSuits 4\nnumRanks 13\nnumHoleCards 2\n"
            "numBoardCards 0 3 1 1\nend gamedef\nthis line is after the end\n")
    game = parse_gamedef(text).to_game_config()
    assert (game.variant, game.blinds, game.stack) == ("nolimit", (5, 10), 500)


def test_cap_mapping_and_no_cap() -> None:
    for cap in (1, 3, 4, 7):
        game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=cap, stack=NO_STACK)
        gd = gamedef_for(game, 2)
        assert gd.max_raises == (cap - 1, cap, cap, cap)
        assert gd.to_game_config().cap == cap
    uncapped = gamedef_for(GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=None,
                                      stack=NO_STACK), 3)
    assert "maxRaises" not in uncapped.text() and uncapped.to_game_config().cap is None


def _edit(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize("text, key", [
    (_edit(LIMIT_2P, "numSuits = 4", "numSuits = 3"), "numSuits"),
    (_edit(LIMIT_2P, "numRanks = 13", "numRanks = 8"), "numRanks"),
    (_edit(LIMIT_2P, "numHoleCards = 2", "numHoleCards = 3"), "numHoleCards"),
    (_edit(LIMIT_2P, "numBoardCards = 0 3 1 1", "numBoardCards = 0 3 2 0"), "numBoardCards"),
    (_edit(LIMIT_2P, "numRounds = 4", "numRounds = 3").replace("10 10 20 20", "10 10 20")
     .replace("2 1 1 1", "2 1 1").replace("3 4 4 4", "3 4 4").replace("0 3 1 1", "0 3 1"),
     "numRounds"),
    (_edit(NOLIMIT_2P, "stack = 20000 20000", "stack = 20000 10000"), "stack"),
    (_edit(NOLIMIT_2P, "stack = 20000 20000\n", ""), "stack"),
    (_edit(LIMIT_2P, "blind = 10 5", "stack = 100 100\nblind = 10 5"), "stack"),
    (_edit(LIMIT_2P, "maxRaises = 3 4 4 4", "maxRaises = 3 3 4 4"), "maxRaises"),
    (_edit(NOLIMIT_2P, "firstPlayer", "maxRaises = 3 4 4 4\nfirstPlayer"), "maxRaises"),
    (_edit(LIMIT_2P, "raiseSize = 10 10 20 20", "raiseSize = 10 20 20 20"), "raiseSize"),
    (_edit(LIMIT_2P, "raiseSize = 10 10 20 20\n", ""), "raiseSize"),
    (_edit(LIMIT_2P, "firstPlayer = 2 1 1 1", "firstPlayer = 1 1 1 1"), "firstPlayer"),
    (_edit(SHIPPED / "holdem.limit.3p.game", "firstPlayer = 3 1 1 1", "firstPlayer = 3 2 2 2"),
     "firstPlayer"),
    (_edit(LIMIT_2P, "blind = 10 5", "blind = 5 10"), "blind"),
    (_edit(SHIPPED / "holdem.limit.3p.game", "blind = 5 10 0", "blind = 10 5 0"), "blind"),
    (_edit(SHIPPED / "holdem.limit.3p.game", "blind = 5 10 0", "blind = 5 10"), "blind"),
    (_edit(LIMIT_2P, "blind = 10 5", "blinds = 10 5"), "blinds"),
    (_edit(LIMIT_2P, "numPlayers = 2", "numPlayers = 11"), "numPlayers"),
    (_edit(LIMIT_2P, "numPlayers = 2\n", ""), "numPlayers"),
    (_edit(LIMIT_2P, "blind = 10 5", "blind = 10 five"), "blind"),
])
def test_definitions_we_cannot_play_are_refused_naming_the_key(text: str, key: str) -> None:
    with pytest.raises(GameDefError) as info:
        parse_gamedef(text).to_game_config()
    assert str(info.value).startswith(f"{key}: "), str(info.value)


@pytest.mark.parametrize("game, key", [
    (GameConfig(variant="nolimit", blinds=(1, 2), reset_stacks=False), "reset_stacks"),
    (GameConfig(variant="nolimit", blinds=(1, 2), ante=1), "ante"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=4, stack=30), "stack"),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=None, stack=10**6), "stack"),
    (GameConfig(variant="nolimit", blinds=(2,)), "blind"),
    (GameConfig(variant="potlimit", blinds=(1, 2)), "variant"),
])
def test_games_acpc_cannot_state_are_refused(game: GameConfig, key: str) -> None:
    with pytest.raises(GameDefError, match=f"^{key}: "):
        gamedef_for(game, 2)


def test_limit_stacks_that_never_bind_are_kept() -> None:
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, cap=4, stack=200)
    gd = gamedef_for(game, 2)
    assert gd.stack == (200, 200) and gd.to_game_config() == game


def test_holdem_acpc_game_prints_our_game_or_exits_2_naming_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", str(NOLIMIT_2P)]) == 0
    assert "blinds=(50, 100)" in capsys.readouterr().out
    bad = tmp_path / "bad.game"
    bad.write_text(_edit(LIMIT_2P, "numHoleCards = 2", "numHoleCards = 4"))
    assert main(["game", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "numHoleCards" in err[0] and str(bad) in err[0]
    assert main(["game", str(tmp_path / "missing.game")]) == 2
    assert "cannot read" in capsys.readouterr().err
    potlimit = tmp_path / "potlimit.game"
    potlimit.write_text(_edit(NOLIMIT_2P, "nolimit", "potlimit"))
    assert main(["game", str(potlimit)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "potlimit: ACPC has no pot-limit betting" in err[0], err
