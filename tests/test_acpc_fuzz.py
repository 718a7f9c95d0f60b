"""Fuzzing the ACPC client's state parser: valid MATCHSTATE lines of real hands, mutated at
random (a fixed seed, a fixed number of cases: a few seconds), fed to the client after the
hand's earlier lines. Whatever the line, the client either takes it or refuses it with a
``ProtocolError`` quoting it: never another exception, never a state our rules cannot hold."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from simulator.core.game import GameConfig
from simulator.interop.acpc.client import AcpcClient
from simulator.interop.acpc.protocol import BOARD_CARDS, ProtocolError, parse_matchstate
from simulator.interop.acpc.seat import AcpcSeat
from simulator.play.baseline import CallBot, RandomBot
from simulator.play.match import play_match

LIMIT = GameConfig(variant="limit", blinds=(5, 10), small_bet=10, stack=1000)
NOLIMIT = GameConfig(variant="nolimit", blinds=(50, 100), stack=20000)
ALPHABET = "0123456789:/|rfcAKQJTsdhc"
CASES = 3000


class _Recorder:
    """A connection that keeps the lines a seat sends and calls for it."""

    peer = "recorder"
    closed = False

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send_all(self, lines: list[str]) -> None:
        self.sent.extend(lines)

    def read(self, timeout: float | None) -> str:
        return self.sent[-1] + ":c"

    def close(self) -> None:
        self.closed = True


def _hands(game: GameConfig, players: int, hands: int, seed: int) -> list[list[str]]:
    """The MATCHSTATE lines of real hands, as our dealer sends them to seat 0."""
    recorder = _Recorder()
    seat = AcpcSeat(recorder, timeout=None)  # type: ignore[arg-type]
    others = [RandomBot(seed=seed + s) for s in range(players - 1)]
    list(play_match(game, [seat, *others], hands, seed))
    by_hand: dict[int, list[str]] = defaultdict(list)
    for line in recorder.sent:
        by_hand[int(line.split(":")[2])].append(line)
    return [lines for _, lines in sorted(by_hand.items())]


def _mutate(line: str, rng: random.Random) -> str:
    chars = list(line)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars) + 1)
        op = rng.random()
        if op < 0.35:
            chars.insert(at, rng.choice(ALPHABET) * rng.choice((1, 1, 1, 2, 5000)))
        elif chars and op < 0.7:
            del chars[min(at, len(chars) - 1)]
        elif chars:
            chars[min(at, len(chars) - 1)] = rng.choice(ALPHABET)
    return "".join(chars)


@pytest.mark.parametrize("game, players", [(LIMIT, 2), (NOLIMIT, 2), (NOLIMIT, 3)])
def test_the_client_takes_or_refuses_any_state_line(game: GameConfig, players: int) -> None:
    hands = _hands(game, players, 25, seed=3)
    rng = random.Random(19)
    refused = 0
    for _ in range(CASES):
        lines = rng.choice(hands)
        k = rng.randrange(len(lines))
        bad = _mutate(lines[k], rng)
        client = AcpcClient(CallBot(), game, players)
        for line in lines[:k]:
            client.handle(line, lambda reply: None)
        try:
            client.handle(bad, lambda reply: None)
        except ProtocolError as exc:
            refused += 1
            assert str(exc)
            continue
        ms = parse_matchstate(bad, players)  # taken: then it is a hold'em state
        assert all(len(b) == BOARD_CARDS[r] for r, b in enumerate(ms.boards))
    assert refused > CASES // 2  # the mutations do break lines


def test_the_valid_lines_are_taken_whole() -> None:
    for lines in _hands(NOLIMIT, 3, 10, seed=5):
        client = AcpcClient(CallBot(), NOLIMIT, 3)
        for line in lines:
            client.handle(line, lambda reply: None)
            assert str(parse_matchstate(line)) == line


@pytest.mark.parametrize("line, problem", [
    ("MATCHSTATE:0:0:cc/:AsKs|/QdJd2c3c", "round 1 deals 3 board cards, got 4"),
    ("MATCHSTATE:0:0:cc/:AsKs|/QdJd", "round 1 deals 3 board cards, got 2"),
    ("MATCHSTATE:0:0:cc/cc/:AsKs|/QdJd2c/3c4c", "round 2 deals 1 board card, got 2"),
    ("MATCHSTATE:0:0:cc/cc/cc/cc/:AsKs|/QdJd2c/3c/4c/5c", "more than 4"),
    ("MATCHSTATE:0:" + "1" * 5000 + "::AsKs|", "bad position or hand number"),
    ("MATCHSTATE:0:0:r" + "9" * 5000 + ":AsKs|", "malformed betting"),
])
def test_malformed_states_are_protocol_errors_quoting_the_line(line: str, problem: str) -> None:
    client = AcpcClient(CallBot(), NOLIMIT, 2)
    with pytest.raises(ProtocolError, match=problem) as caught:
        client.handle(line, lambda reply: None)
    assert line[:30] in str(caught.value)
