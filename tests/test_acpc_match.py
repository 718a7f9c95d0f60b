"""Our client against our dealer over loopback: thousands of hands, heads-up and three
players, limit and no-limit. The dealer's results equal our engine's replay of its log, every
client sees what our own match loop shows a bot in its seat, and seats rotate as at the
reference dealer. Also: the CLI end to end, with the stand-alone tiny client."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from acpc_support import finish, run_dealer, tiny

from simulator.arena.acpc_cli import main
from simulator.core.events import (
    ActionTaken,
    BoardDealt,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.records import HandResult
from simulator.interop.acpc.client import AcpcClient, ClientReport
from simulator.interop.acpc.connection import connect
from simulator.interop.acpc.dealer import host_match
from simulator.interop.acpc.gamedef import SHIPPED, GameDef, load_gamedef
from simulator.interop.acpc.log import parse_state_line, replay_logged, state_line
from simulator.interop.phh import loads_all, replay
from simulator.play.baseline import RandomBot

GAMES = {p.stem: p for p in sorted(SHIPPED.glob("*.game"))}


class Recorder(RandomBot):
    """A random bot that keeps every event and the seat of every observation."""

    def __init__(self, seed: int) -> None:
        super().__init__(fold=0.15, call=0.5, raise_=0.35, seed=seed)
        self.events: list[Any] = []
        self.seats: set[int] = set()
        self.calls: list[str] = []

    def start(self, context: Any) -> None:
        self.calls.append("start")
        self.context = context

    def observe(self, event: Any) -> None:
        self.events.append(event)

    def act(self, observation: Any) -> Any:
        self.seats.add(observation.seat)
        return super().act(observation)

    def close(self) -> None:
        self.calls.append("close")


def _match(gd: GameDef, remote: list[int], hands: int, seed: int
           ) -> tuple[list[HandResult], dict[int, ClientReport | BaseException],
                      dict[int, Recorder]]:
    """Our dealer here, our clients (with Recorder bots) in threads, at the ``remote`` seats."""
    game, n = gd.to_game_config(), gd.num_players
    names = [f"p{s}" for s in range(n)]
    bots = [None if s in remote else RandomBot(0.15, 0.5, 0.35, seed=seed + s)
            for s in range(n)]
    reports: dict[int, ClientReport | BaseException] = {}
    recorders = {s: Recorder(seed=100 + s) for s in remote}
    threads = []

    def run_client(seat: int, port: int) -> None:
        try:
            conn = connect("127.0.0.1", port, timeout=10)
            client = AcpcClient(recorders[seat], game, n, name=names[seat], keep_histories=True)
            try:
                reports[seat] = client.run(conn)
            finally:
                conn.close()
        except BaseException as exc:  # the test reports it
            reports[seat] = exc

    def listening(ports: list[int]) -> None:
        for seat, port in zip(remote, ports, strict=True):
            thread = threading.Thread(target=run_client, args=(seat, port), daemon=True)
            thread.start()
            threads.append(thread)

    results = list(host_match(game, names, bots, hands=hands, seed=seed, timeout=10,
                              connect_timeout=10, on_listening=listening))
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive()
    return results, reports, recorders


def _check(gd: GameDef, results: list[HandResult], reports: dict, recorders: dict,
           hands: int) -> None:
    game, n = gd.to_game_config(), gd.num_players
    assert len(results) == hands
    for result in results:
        h = result.hand_number
        # the log line replays through our engine to the dealer's results
        logged = parse_state_line(state_line(result.history))
        assert logged.names == tuple(f"p{(h + p) % n}" for p in range(n))  # rotation
        replayed = replay_logged(logged, game)  # its seats are positions
        assert replayed.net() == tuple(result.net[(h + p) % n] for p in range(n))
        assert result.button == (h - 1) % n
    for seat, report in reports.items():
        assert isinstance(report, ClientReport), report
        assert report.seat == seat and report.hands == hands and report.fixed == 0
        assert report.chips == sum(r.net[seat] for r in results)
        bot = recorders[seat]
        assert bot.seats == {seat} and bot.calls == ["start", "close"]
        assert bot.context.seat == seat and len(bot.context.names) == n
        _check_events(bot.events, results, seat)
        for mine, theirs in zip(report.histories, results, strict=True):
            assert mine.actions == theirs.history.actions
            assert mine.board == theirs.history.board
            assert mine.finishing_stacks == theirs.stacks
            assert dict(mine.shown) == dict(theirs.history.shown)


def _check_events(events: list[Any], results: list[HandResult], seat: int) -> None:
    """The client's events are those our match loop sends a bot in that seat."""
    by_hand: list[list[Any]] = []
    for event in events:
        if isinstance(event, HandStarted):
            by_hand.append([])
        by_hand[-1].append(event)
    assert len(by_hand) == len(results)
    for hand_events, result in zip(by_hand, results, strict=True):
        history = result.history
        started, dealt = hand_events[0], hand_events[1]
        assert isinstance(started, HandStarted) and started.button == result.button
        assert dealt == HoleCardsDealt(seat, history.holes[seat])
        actions = [e.record for e in hand_events if isinstance(e, ActionTaken)]
        assert tuple(actions) == history.actions
        boards = [e for e in hand_events if isinstance(e, BoardDealt)]
        assert [b.street for b in boards] == [p.street for p in history.chance_points]
        assert all(b.board == history.board[:b.street.board_size] for b in boards)
        shown = [e for e in hand_events if isinstance(e, Showdown)]
        assert (dict(shown[0].shown) if shown else {}) == dict(history.shown)
        ended = hand_events[-1]
        assert isinstance(ended, HandEnded) and ended.net == result.net


@pytest.mark.parametrize("stem, remote, hands", [
    ("holdem.limit.2p.reverse_blinds", [0, 1], 1000),
    ("holdem.nolimit.2p.reverse_blinds", [1], 1000),
    ("holdem.limit.3p", [0, 2], 500),
    ("holdem.nolimit.3p", [0, 1, 2], 500),
])
def test_our_client_against_our_dealer(stem: str, remote: list[int], hands: int) -> None:
    gd = load_gamedef(GAMES[stem])
    results, reports, recorders = _match(gd, remote, hands, seed=7)
    _check(gd, results, reports, recorders, hands)


@pytest.mark.slow
@pytest.mark.parametrize("stem", sorted(GAMES))
def test_our_client_against_our_dealer_long(stem: str) -> None:
    gd = load_gamedef(GAMES[stem])
    remote = list(range(gd.num_players))
    results, reports, recorders = _match(gd, remote, 10000, seed=8)
    _check(gd, results, reports, recorders, 10000)


# --- the command line, with the stand-alone client ---------------------------------------------


def test_dealer_cli_with_tiny_clients_writes_log_results_summary_and_phh(tmp_path: Path) -> None:
    game = GAMES["holdem.nolimit.3p"]
    out_dir = tmp_path / "out"
    thread, out, err, ports = run_dealer([
        str(game), "--hands", "300", "--seed", "3", "--seat", "alice=acpc", "--seat",
        "bob=random", "--seat", "carol=acpc", "--output", str(out_dir), "--phh",
        "--block-size", "50", "--no-luck", "--connect-timeout", "30", "--timeout", "10"])
    assert len(ports) == 2
    clients = [tiny(game, port, "--seed", str(k)) for k, port in enumerate(ports)]
    status, outputs = finish(thread, *clients)
    assert status == 0, err.getvalue()
    for seat, client, output in zip((0, 2), clients, outputs, strict=True):
        assert client.returncode == 0
        lines = output.splitlines()
        assert lines[-1] == "hands 300"
        # the stand-alone client's own view of the rotation: seat s at (s - hand) % 3
        assert lines[:-1] == [f"hand {h} position {(seat - h) % 3}" for h in range(300)]
    log = (out_dir / "acpc.log").read_text().splitlines()
    assert len(log) == 301 and log[-1].startswith("SCORE:") and log[-1].endswith(
        ":alice|bob|carol")
    score = [float(v) for v in log[-1].split(":")[1].split("|")]
    hands = [parse_state_line(line) for line in log[:-1]]
    assert [h.names for h in hands[:3]] == [("alice", "bob", "carol"), ("bob", "carol", "alice"),
                                           ("carol", "alice", "bob")]
    game_config = load_gamedef(game).to_game_config()
    totals = dict.fromkeys(("alice", "bob", "carol"), 0)
    for logged in hands:
        for name, net in zip(logged.names, replay_logged(logged, game_config).net(),
                             strict=True):
            totals[name] += net
    assert [totals[n] for n in ("alice", "bob", "carol")] == score
    assert out.getvalue().splitlines()[2] == log[-1]  # after the ports and what they are
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["deals"] == 300 and summary["blocks"] == 6 and summary["complete"]
    assert summary["players"]["alice"]["ci95"] is not None
    assert summary["players"]["bob"]["hands"] == 300
    assert abs(summary["players"]["carol"]["mean"] * 300 * 100 - totals["carol"]) < 1e-6
    phh = loads_all((out_dir / "hands.phhs").read_text())
    assert len(phh) == 300
    assert all(list(replay(h).finishing_stacks) == h.finishing_stacks for h in phh)
    assert (out_dir / "hands.csv").read_text().count("\n") == 301


def test_connect_cli_against_dealer_cli(tmp_path: Path) -> None:
    game = GAMES["holdem.limit.2p.reverse_blinds"]
    params = tmp_path / "bot.yaml"
    params.write_text("fold: 0.1\ncall: 0.6\nraise: 0.3\n")
    thread, out, err, ports = run_dealer([
        str(game), "--hands", "200", "--seed", "5", "--seat", "dealer_bot=call",
        "--seat", "remote=acpc", "--connect-timeout", "30", "--no-luck", "--quiet"])
    phh = tmp_path / "client.phhs"
    client = subprocess.run(
        [sys.executable, "-m", "simulator.cli", "acpc", "connect", "127.0.0.1", str(ports[0]),
         "--game", str(game), "--bot", "random", "--params", str(params), "--phh", str(phh)],
        capture_output=True, text=True, timeout=120)
    status, _ = finish(thread)
    assert status == 0 and client.returncode == 0, (err.getvalue(), client.stderr)
    score = out.getvalue().splitlines()[1]
    remote_chips = int(score.split(":")[1].split("|")[1])
    assert client.stdout.startswith(f"200 hands as seat2: {remote_chips:+d} chips")
    hands = loads_all(phh.read_text())
    assert len(hands) == 200 and all(list(replay(h).finishing_stacks) == h.finishing_stacks
                                     for h in hands)
    assert all("????" in " ".join(h.actions) for h in hands if len(h.actions) < 6)


def test_connect_cli_refuses_bad_params_and_games(tmp_path: Path) -> None:
    game = GAMES["holdem.limit.2p.reverse_blinds"]
    params = tmp_path / "bot.yaml"
    params.write_text("flod: 0.1\n")
    err = io.StringIO()
    assert main(["connect", "127.0.0.1", "1", "--game", str(game), "--bot", "random",
                 "--params", str(params)], io.StringIO(), err) == 2
    assert "flod" in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1
    params.write_text("- 1\n- 2\n")
    assert main(["connect", "127.0.0.1", "1", "--game", str(game), "--params", str(params)],
                io.StringIO(), io.StringIO()) == 2
    assert main(["connect", "127.0.0.1", "1", "--game", str(game), "--bot", "no_such_bot"],
                io.StringIO(), io.StringIO()) == 2


def test_connect_to_nobody_exits_1() -> None:
    from simulator.interop.acpc.connection import listen

    listener = listen("127.0.0.1", 0)
    port = listener.getsockname()[1]
    listener.close()  # nobody listens there now
    err = io.StringIO()
    start = time.monotonic()
    assert main(["connect", "127.0.0.1", str(port), "--game",
                 str(GAMES["holdem.limit.3p"])], io.StringIO(), err) == 1
    assert "cannot connect" in err.getvalue() and time.monotonic() - start < 15


class Wild(RandomBot):
    """Asks for what is often illegal: folds when checking is free, raises far too much."""

    def act(self, observation: Any) -> Any:
        from simulator.core.actions import Action

        roll = self.rng.random()
        if roll < 0.3:
            return Action.fold()
        if roll < 0.7:
            return Action.raise_to(10**9)
        return Action.raise_to(1)


def test_the_client_sends_only_legal_actions(tmp_path: Path) -> None:
    """Our dealer refuses illegal actions (the default), so every fix happened in the client."""
    gd = load_gamedef(GAMES["holdem.nolimit.2p.reverse_blinds"])
    game = gd.to_game_config()
    warnings: list[str] = []

    def listening(ports: list[int]) -> None:
        def run() -> None:
            conn = connect("127.0.0.1", ports[0], timeout=10)
            client = AcpcClient(Wild(seed=1), game, 2, warn=warnings.append)
            try:
                reports.append(client.run(conn))
            finally:
                conn.close()
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        threads.append(thread)

    reports: list[ClientReport] = []
    threads: list[threading.Thread] = []
    results = list(host_match(game, ["wild", "random"], [None, RandomBot(seed=2)], hands=200,
                              seed=1, connect_timeout=10, on_listening=listening))
    threads[0].join(timeout=30)
    assert len(results) == 200 and reports[0].hands == 200
    assert reports[0].fixed == len(warnings) > 50
    assert any("raise to 1000000000" in w and "sent 'raise to 20000'" in w for w in warnings)
    assert any(r.history.actions and r.history.actions[-1].all_in for r in results)


def test_log2phh_replays_logs_and_refuses_disagreeing_ones(tmp_path: Path) -> None:
    game = GAMES["holdem.limit.3p"]
    # a reference dealer's split pot: position 0 folds its small blind, the others tie
    # on the board and get 12.5 each (our engine gives the odd chip to position 1)
    split = "STATE:0:cfc/cc/cc/cc:JcJd|KdQd|KhQh/2c3d4h/5s/6c:-5|2.5|2.5:a|b|c"
    log = tmp_path / "reference.log"
    log.write_text(f"# a comment\n{split}\nSCORE:-5|2.5|2.5:a|b|c\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["log2phh", str(log), "--game", str(game)], out, err) == 0, err.getvalue()
    (hand,) = loads_all(out.getvalue())
    assert list(replay(hand).finishing_stacks) == hand.finishing_stacks
    stack = hand.starting_stacks[0]
    assert [s - stack for s in hand.finishing_stacks] == [-5, 3, 2]
    assert hand.players == ["a", "b", "c"]
    phh = tmp_path / "out.phhs"
    assert main(["log2phh", str(log), "--game", str(game), "--output", str(phh)],
                io.StringIO(), io.StringIO()) == 0
    assert loads_all(phh.read_text())[0].actions == hand.actions
    log.write_text(split.replace("-5|2.5|2.5", "-5|5|0") + "\n")
    err = io.StringIO()
    assert main(["log2phh", str(log), "--game", str(game)], io.StringIO(), err) == 1
    assert "hand 0" in err.getvalue() and "pays" in err.getvalue()
    log.write_text("STATE:0:garbage\n")
    err = io.StringIO()
    assert main(["log2phh", str(log), "--game", str(game)], io.StringIO(), err) == 2
    assert "line 1" in err.getvalue()


def test_a_dealer_output_dir_with_results_is_refused_without_advising_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = str(SHIPPED / "holdem.limit.2p.reverse_blinds.game")
    args = ["dealer", game, "--hands", "5", "--seed", "1", "--seat", "a=call", "--seat",
            "b=call", "--output", str(tmp_path / "out")]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "already holds results: pass --force to replace them" in err
    assert "--resume" not in err  # the dealer has no --resume
    assert main([*args, "--force"]) == 0
