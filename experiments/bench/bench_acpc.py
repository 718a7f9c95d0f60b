"""Hands per second of an ACPC match over loopback, against pokerkit, measured in the same run.

Heads-up limit (the competition's definition), both seats ACPC clients: our dealer here, and
two ``holdem acpc connect`` processes with check/call bots, so every hand reaches the
showdown. Each hand sends every MATCHSTATE line, reads every reply, and replays the hand in
the dealer and in both clients. The clock runs from the first finished hand to the last
(process start-up left out). The anchor is pokerkit playing the same game check/call in
process (as ``bench_engine.py``), so the ratio says how much of an engine's speed the
protocol leaves. Goal: thousands of hands well under a minute, i.e. >= 100 hands/s.

    python experiments/bench/bench_acpc.py [--hands 2000] [--seconds 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import warnings

from bench_engine import theirs

from simulator.interop.acpc.dealer import host_match
from simulator.interop.acpc.gamedef import SHIPPED, load_gamedef


def ours(hands: int) -> float:
    path = SHIPPED / "holdem.limit.2p.reverse_blinds.game"
    game = load_gamedef(path).to_game_config()
    clients: list[subprocess.Popen[bytes]] = []

    def listening(ports: list[int]) -> None:
        for port in ports:
            clients.append(subprocess.Popen(
                [sys.executable, "-m", "simulator.cli", "acpc", "connect", "127.0.0.1",
                 str(port), "--game", str(path), "--bot", "call", "--quiet"],
                stdout=subprocess.DEVNULL))

    start = None
    played = 0
    try:
        for _ in host_match(game, ["a", "b"], [None, None], hands=hands, seed=1,
                      connect_timeout=60, on_listening=listening):
            played += 1
            if start is None:
                start = time.perf_counter()
        assert start is not None
        return (played - 1) / (time.perf_counter() - start)
    finally:
        for client in clients:
            client.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=3.0, help="pokerkit's measurement")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    game = load_gamedef(SHIPPED / "holdem.limit.2p.reverse_blinds.game").to_game_config()
    a, b = ours(args.hands), theirs(game, 2, args.seconds)
    print(f"{'setup':<40}{'ACPC h/s':>10}{'pokerkit h/s':>14}{'ratio':>8}")
    print(f"{'heads-up limit over loopback, check/call':<40}{a:>10.0f}{b:>14.0f}{a / b:>8.2f}")


if __name__ == "__main__":
    main()
