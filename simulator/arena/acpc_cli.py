"""``holdem acpc``: ACPC matches: our bots at an ACPC dealer, ACPC programs at our dealer.

    holdem acpc connect HOST PORT --game FILE.game [--bot NAME] [--params FILE]
                        [--name NAME] [--seed S] [--phh FILE] [--fixed-positions]
                        [--connect-timeout SECONDS] [--timeout SECONDS] [--quiet]
    holdem acpc dealer FILE.game --hands N --seed S --seat NAME=BOT ... [--params NAME=FILE]
                       [--host HOST] [--ports P1,P2] [--timeout SECONDS] [--connect-timeout
                       SECONDS] [--illegal error|call] [--output DIR] [--phh] [--force]
                       [--block-size N] [--no-luck] [--luck-samples N] [--quiet]
    holdem acpc log2phh LOG --game FILE.game [--output FILE]
    holdem acpc game FILE.game

``connect`` plays a registered or plug-in bot (``--params``: a YAML mapping of its
parameters) at an ACPC dealer until the dealer closes the connection, then prints the hands
played and the chips won. ``dealer`` hosts a match with our engine: a seat ``NAME=acpc``
waits for an ACPC client on a port (the ports, in seat order, are the first line printed),
other seats are our bots in-process. With ``--output DIR`` it writes ``acpc.log`` (the
reference dealer's STATE lines and final SCORE line), our per-hand results and
``summary.json`` with intervals over blocks of ``--block-size`` hands, as ``holdem run``
does, and ``hands.phhs`` with ``--phh``. ``log2phh`` turns a dealer's log into PHH (our
engine replays every hand: a hand it finds illegal, or whose results differ, fails).
``game`` prints our game for a ``.game`` file.

Every wait is bounded: ``connect`` gives up on a dealer that sends no whole line within
``--timeout`` (default 60 s), ``dealer`` on a seat's reply, or a client's version line, after
``--timeout`` (default 10 s); a connection that says nothing is dropped and never blocks the
real client. Durations are seconds, finite and positive (``none``: no limit, where allowed).

Exit codes: 0 success; 2 bad input, refused before anything is connected or written
(arguments, a ``.game`` file we cannot play, with a line naming the key, bot names or
parameters and the files they name, an output path we cannot write, a port in use, an output
dir holding results); 1 a match that failed on its way (a timeout, a disconnect, a malformed
reply, an illegal action, a bot's crash, a log our engine disagrees with, Ctrl-C or
SIGTERM), keeping what finished and printing its summary.

This is the thin layer where interop (the protocol, the dealer engine) meets the arena (the
results store, statistics and luck correction).
"""

from __future__ import annotations

import argparse
import functools
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from simulator.arena.config import ConfigError, win_unit
from simulator.arena.luck import history_luck
from simulator.arena.outdir import open_text, write_atomic
from simulator.arena.results import BlockRecord, ResultsError, RunStore
from simulator.arena.signals import Terminated, interrupt_name, sigterm_raises
from simulator.arena.summary import RunSummary, format_table, summarise
from simulator.arena.tournament import derive_seed, package_version
from simulator.core.durations import parse_seconds
from simulator.core.errors import HoldemError, for_command_line
from simulator.core.files import FileRefused, read_regular
from simulator.core.game import GameConfig
from simulator.core.helptext import summary
from simulator.core.names import check_seat_name, names_problem, seat_name_problem
from simulator.core.records import HandResult
from simulator.core.seeds import Domain, stream
from simulator.core.validation import read_yaml
from simulator.interop.acpc.client import AcpcClient, BotFailed
from simulator.interop.acpc.connection import connect
from simulator.interop.acpc.dealer import DEFAULT_HOST, DEFAULT_TIMEOUT, host_match, open_ports
from simulator.interop.acpc.gamedef import GameDef, load_gamedef, shipped_games
from simulator.interop.acpc.log import log_histories, parse_log, score_line, state_line
from simulator.interop.acpc.protocol import ProtocolError
from simulator.interop.phh import dumps_all
from simulator.play.match import BotError, build_bots
from simulator.play.protocol import Bot
from simulator.play.registry import build, check_for_game, prepare, resolve

LOG_FILE = "acpc.log"
ACPC_SEAT = "acpc"
MAX_LOG_BYTES = 1 << 30  # a dealer's log is read whole; a FIFO or /dev/zero never ends
CLIENT_TIMEOUT = 60.0  # seconds for a dealer's next line: the others' turns, at their limits


class UsageError(HoldemError, ValueError):
    """Bad arguments: one line naming the option."""


# --- shared pieces -------------------------------------------------------------------------------


GAME_HELP = ("the match's .game file, or a shipped definition's name: "
             + ", ".join(shipped_games()))


def _game(path: str) -> tuple[GameDef, GameConfig]:
    gd = load_gamedef(path)
    try:
        return gd, gd.to_game_config()
    except HoldemError as exc:
        raise type(exc)(f"{path}: {exc}") from None


def _params(path: str | None, what: str) -> dict[str, Any]:
    if path is None:
        return {}
    data = read_yaml(path)
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise UsageError(f"{what} {path}: expected a YAML mapping of parameter names to values")
    return data


def _bot(name: str, params: dict[str, Any], seed: int, game: GameConfig, seats: int) -> Bot:
    """A bot built through the guard of every bot call; a constructor that fails, or
    parameters the bot's checks refuse for this game (a model file it cannot read), are bad
    input here, refused before any play."""
    spec = resolve(name)
    check_for_game(spec, params, game, seats)
    prepare(spec, game)  # off the dealer's clock
    try:
        bots, _ = build_bots([functools.partial(build, spec, params, seed)], [name])
    except BotError as exc:
        raise UsageError(f"bot {name!r} with params {params}: {exc.fault.message}") from None
    return bots[0]


def _durations(args: argparse.Namespace, **options: bool) -> None:
    """Turn each duration option (``dest=allows none``) into seconds, or refuse it (exit 2)
    naming the option."""
    for dest, allow_none in options.items():
        flag = "--" + dest.replace("_", "-")
        text = getattr(args, dest)
        setattr(args, dest, None if text is None else parse_seconds(text, flag, allow_none))


def _writable(path: Path, option: str) -> Path:
    """Check an output file before any work: not a directory, not a symlink, in a directory
    we can write."""
    if path.is_symlink():
        raise UsageError(f"{option} {path}: a symlink; we do not write through it")
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory, expected a file")
    parent = path.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: cannot write in {str(parent)!r}")
    return path


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


# --- connect -------------------------------------------------------------------------------------


def _connect_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("host", help="the dealer's address")
    p.add_argument("port", type=int, help="the port the dealer gave this seat")
    p.add_argument("--game", required=True, metavar="FILE.game", help=GAME_HELP)
    p.add_argument("--bot", default="call", help="a registered bot or module:Class (call)")
    p.add_argument("--params", metavar="FILE", help="YAML mapping of the bot's parameters")
    p.add_argument("--name", help="our name, shown to the bot (default: the bot's)")
    p.add_argument("--seed", type=int, default=0, help="the bot's seed, if it takes one")
    p.add_argument("--phh", metavar="FILE", help="write the hands played as PHHS")
    p.add_argument("--fixed-positions", action="store_true",
                   help="the dealer keeps positions fixed (the reference dealer's -f)")
    p.add_argument("--connect-timeout", default="10", metavar="SECONDS",
                   help="to connect to the dealer (default 10)")
    p.add_argument("--timeout", default=str(CLIENT_TIMEOUT), metavar="SECONDS",
                   help=f"for each line of the dealer (default {CLIENT_TIMEOUT:g}; none: "
                        f"no limit)")
    p.add_argument("--quiet", action="store_true", help="print the summary only")


def _own_name(args: argparse.Namespace) -> str:
    """``--name``, which follows the seat-name rule, or the bot's name where it does (a
    ``module:Class`` path does not: then ``bot``)."""
    if args.name is not None:
        return check_seat_name(args.name, "--name")
    return args.bot if seat_name_problem(args.bot) is None else "bot"


def _run_connect(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    _durations(args, connect_timeout=False, timeout=True)
    gd, game = _game(args.game)
    phh = _writable(Path(args.phh), "--phh") if args.phh else None
    bot = _bot(args.bot, _params(args.params, "--params"), args.seed, game, gd.num_players)

    def warn(text: str) -> None:
        if not args.quiet:
            print(f"holdem acpc connect: {text}", file=err)

    client = AcpcClient(bot, game, gd.num_players, name=_own_name(args),
                        fixed_positions=args.fixed_positions, keep_histories=phh is not None,
                        warn=warn)
    status, problem = 0, None
    with sigterm_raises():
        try:
            conn = connect(args.host, args.port, timeout=args.connect_timeout)
        except ProtocolError as exc:  # nothing was played: no result line
            print(f"holdem acpc connect: {exc}", file=err)
            return 1
        except (KeyboardInterrupt, Terminated) as exc:
            conn, status, problem = None, 1, interrupt_name(exc)
        if conn is not None:
            try:
                try:
                    client.run(conn, args.timeout)
                finally:
                    conn.close()
            except (ProtocolError, BotFailed) as exc:
                status, problem = 1, str(exc)
            except (KeyboardInterrupt, Terminated) as exc:
                status, problem = 1, interrupt_name(exc)
    report = client.report
    if phh is not None:
        _write(phh, dumps_all(report.histories) + "\n" if report.histories else "")
    unit, chips = win_unit(game)
    per_hand = report.chips / report.hands / chips if report.hands else 0.0
    seat = "?" if report.seat is None else report.seat + 1
    print(f"{report.hands} hands as seat{seat}: {report.chips:+d} chips, {per_hand:+.4f} "
          f"{unit} per hand" + (f"; {report.fixed} actions made legal" if report.fixed else ""),
          file=out)
    if problem is not None:
        print(f"holdem acpc connect: {problem}", file=err)
    return status


# --- dealer --------------------------------------------------------------------------------------


def _dealer_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="FILE.game", help=GAME_HELP)
    p.add_argument("--hands", type=int, required=True, help="hands to play")
    p.add_argument("--seed", type=int, required=True, help="seed of the cards and the bots")
    p.add_argument("--seat", action="append", required=True, metavar="NAME=BOT",
                   help=f"a seat, in seat order: a bot of ours, or '{ACPC_SEAT}' for a client")
    p.add_argument("--params", action="append", default=[], metavar="NAME=FILE",
                   help="YAML mapping of a seat's bot parameters")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"interface to listen on ({DEFAULT_HOST})")
    p.add_argument("--ports", metavar="P1,P2", help="ports of the ACPC seats, in seat order")
    p.add_argument("--timeout", default=str(DEFAULT_TIMEOUT), metavar="SECONDS",
                   help=f"per action, and for a client's version line (default "
                        f"{DEFAULT_TIMEOUT:g}; none: no limit)")
    p.add_argument("--connect-timeout", default=None, metavar="SECONDS",
                   help="for every client to connect (default: wait)")
    p.add_argument("--illegal", choices=("error", "call"), default="error",
                   help="an illegal action ends the match (error) or is made legal as at the "
                        "reference dealer (call): a raise out of range is clamped to the "
                        "nearest legal size, any other illegal action becomes a call")
    p.add_argument("--output", metavar="DIR", help="write the log, results and summary here")
    p.add_argument("--phh", action="store_true", help="also write hands.phhs (needs --output)")
    p.add_argument("--force", action="store_true", help="replace results already in DIR")
    p.add_argument("--block-size", type=int, default=100, metavar="N",
                   help="hands per block of the statistics (100)")
    p.add_argument("--no-luck", action="store_true", help="skip the luck correction")
    p.add_argument("--luck-samples", type=int, default=400, metavar="N",
                   help="Monte-Carlo runouts of the luck correction (400)")
    p.add_argument("--quiet", action="store_true", help="print only the ports and the score")


def _seats(args: argparse.Namespace, players: int) -> tuple[list[str], list[str]]:
    names, bots = [], []
    for text in args.seat:
        name, eq, bot = text.partition("=")
        if not eq or not name or not bot:
            raise UsageError(f"--seat: expected NAME=BOT, got {text!r}")
        names.append(check_seat_name(name, "--seat"))
        bots.append(bot)
    problem = names_problem(names)
    if problem is not None:
        raise UsageError(f"--seat: {problem}")
    if len(names) != players:
        raise UsageError(f"--seat: the game has {players} players, got {len(names)} seats")
    return names, bots


def _seat_params(args: argparse.Namespace, names: list[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for text in args.params:
        name, eq, path = text.partition("=")
        if not eq or name not in names:
            raise UsageError(f"--params: expected NAME=FILE with NAME one of {', '.join(names)}, "
                             f"got {text!r}")
        out[name] = _params(path, f"--params {name}")
    return out


def _ports(text: str | None, count: int) -> list[int] | None:
    if text is None:
        return None
    try:
        ports = [int(p) for p in text.split(",")]
    except ValueError:
        raise UsageError(f"--ports: expected P1,P2,... (numbers), got {text!r}") from None
    if len(ports) != count or not all(0 <= p < 65536 for p in ports):
        raise UsageError(f"--ports: expected {count} ports 0..65535 (one per '{ACPC_SEAT}' seat), "
                         f"got {text!r}")
    return ports


class _Results:
    """Per-hand results in blocks, as ``holdem run`` keeps them: in memory, and on disk when
    an output dir is given."""

    def __init__(self, args: argparse.Namespace, game: GameConfig, names: list[str],
                 store: RunStore | None) -> None:
        self.args, self.game, self.names, self.store = args, game, names, store
        self.blocks: list[dict[str, Any]] = []
        self.pending: list[HandResult] = []
        self.phh_hands = 0

    def add(self, result: HandResult) -> None:
        self.pending.append(result)
        if len(self.pending) == self.args.block_size:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        results, self.pending = self.pending, []
        n = len(self.names)
        luck = [np.zeros(n) if self.args.no_luck else history_luck(
            r.history, stream(self.args.seed, Domain.LUCK, 0, 0, r.hand_number),
            self.args.luck_samples) for r in results]
        record = BlockRecord(
            block=len(self.blocks), deals=len(results), perm=np.zeros(len(results), np.int64),
            hand=np.array([r.hand_number for r in results], np.int64),
            button=np.array([r.button for r in results], np.int64),
            seat=np.tile(np.arange(n, dtype=np.int64), (len(results), 1)),
            net=np.array([r.net for r in results], np.int64).reshape(-1, n),
            luck=np.array(luck, np.float64).reshape(-1, n)).prepare(self.names, n)
        assert record.summary_line is not None
        self.blocks.append(record.summary_line)
        if self.store is not None:
            histories = [r.history for r in results]
            texts = (lambda start: dumps_all(histories, start)) if self.args.phh else None
            self.store.append(record, n, texts)

    def summary(self, complete: bool) -> RunSummary:
        unit, chips = win_unit(self.game)
        summary = summarise(self.blocks, self.names, unit=unit, unit_chips=chips,
                            big_blind=self.game.big_blind)
        if self.store is not None:
            data = summary.to_dict()
            data.update(complete=complete, seed=self.args.seed, version=package_version())
            self.store.write_summary(data)
        return summary


def _run_dealer(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    _durations(args, timeout=True, connect_timeout=True)
    gd, game = _game(args.game)
    if args.hands <= 0 or args.block_size <= 0 or args.luck_samples < 10:
        raise UsageError("--hands and --block-size: expected > 0; --luck-samples: >= 10")
    if args.phh and not args.output:
        raise UsageError("--phh: needs --output DIR")
    names, bot_names = _seats(args, gd.num_players)
    bots = _dealer_bots(args, names, bot_names, game)
    ports = _ports(args.ports, bot_names.count(ACPC_SEAT))
    try:  # before the output dir: a port in use leaves nothing behind to block a rerun
        listeners = open_ports(args.host, ports, bot_names.count(ACPC_SEAT))
    except ProtocolError as exc:
        raise UsageError(f"--ports: {exc}") from None
    store = None
    try:
        if args.output:
            unit, chips = win_unit(game)  # holdem plot reads these as it does for a run
            meta = {"acpc_game": gd.text(), "seats": args.seat, "hands": args.hands,
                    "seed": args.seed, "version": package_version(), "names": names,
                    "unit": unit, "unit_chips": chips, "big_blind": game.big_blind}
            store = RunStore.create(Path(args.output), meta, names, resume=False,
                                    force=args.force, resumable=False)
        return _deal(args, game, names, bots, listeners, store, out, err)
    finally:
        for sock in listeners:
            sock.close()
        if store is not None:
            store.close()  # the lock, for callers in the same process


def _dealer_bots(args: argparse.Namespace, names: list[str], bot_names: list[str],
                 game: GameConfig) -> list[Bot | None]:
    """Our bots of the match, built and checked now (None: a seat for an ACPC client)."""
    params = _seat_params(args, names)
    bots: list[Bot | None] = []
    for index, (name, bot) in enumerate(zip(names, bot_names, strict=True)):
        if bot == ACPC_SEAT:
            if name in params:
                raise UsageError(f"--params {name}: an ACPC seat takes no parameters")
            bots.append(None)
            continue
        try:
            seed = derive_seed(args.seed, Domain.BOT, 0, 0, index)  # block 0, perm 0, seat
            bots.append(_bot(bot, params.get(name, {}), seed, game, len(names)))
        except HoldemError as exc:
            raise ConfigError(f"--seat {name}: {exc}") from None
    return bots


def _deal(args: argparse.Namespace, game: GameConfig, names: list[str],
          bots: list[Bot | None], listeners: list[socket.socket], store: RunStore | None,
          out: TextIO, err: TextIO) -> int:
    """Play the match, keeping every finished hand, and print how it went."""
    log = open_text(Path(args.output) / LOG_FILE) if store is not None else None
    results = _Results(args, game, names, store)
    totals = np.zeros(len(names), dtype=np.int64)

    def listening(open_ports: list[int]) -> None:
        if open_ports:  # the first line, as the reference dealer prints it
            print(" ".join(str(p) for p in open_ports), file=out, flush=True)
            waiting = [n for n, b in zip(names, bots, strict=True) if b is None]
            if not args.quiet:  # what those numbers are, for a person
                print("waiting for ACPC clients on " + ", ".join(
                    f"port {p} (seat {n!r})" for p, n in zip(open_ports, waiting, strict=True))
                      + f" at {args.host}", file=out, flush=True)

    def warn(text: str) -> None:
        if not args.quiet:
            print(f"holdem acpc dealer: {text}", file=err, flush=True)

    problem = None
    with sigterm_raises():
        try:
            for result in host_match(game, names, bots, hands=args.hands, seed=args.seed,
                                     listeners=listeners, timeout=args.timeout,
                                     connect_timeout=args.connect_timeout, illegal=args.illegal,
                                     on_listening=listening, warn=warn):
                totals += np.array(result.net, dtype=np.int64)
                if log is not None:
                    log.write(state_line(result.history) + "\n")
                    log.flush()
                results.add(result)
        except (BotError, ProtocolError) as exc:
            problem = str(exc)
        except (KeyboardInterrupt, Terminated) as exc:
            problem = interrupt_name(exc)
        finally:
            results.flush()
    return _report(args, results, log, score_line(totals.tolist(), names), problem, out, err)


def _report(args: argparse.Namespace, results: _Results, log: TextIO | None, score: str,
            problem: str | None, out: TextIO, err: TextIO) -> int:
    complete = problem is None
    if log is not None:
        if complete:
            log.write(score + "\n")
        log.close()
    summary = results.summary(complete)
    if complete:
        print(score, file=out)
    if not args.quiet and summary.deals:
        print(format_table(summary), file=out)
    if problem is not None:
        print(f"holdem acpc dealer: {problem} (after {summary.deals} finished hands"
              + (f", kept in {args.output}" if args.output else "") + ")", file=err)
        return 1
    return 0


# --- log2phh and game ----------------------------------------------------------------------------


def _log2phh_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="a dealer's log (STATE lines, a SCORE line)")
    p.add_argument("--game", required=True, metavar="FILE.game", help=GAME_HELP)
    p.add_argument("--output", metavar="FILE", help="write the PHHS here (default: stdout)")


def _run_log2phh(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    _, game = _game(args.game)
    try:
        text = read_regular(Path(args.log), MAX_LOG_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise UsageError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{args.log}: cannot read: {exc}") from None
    try:
        hands, _ = parse_log(text)
    except ProtocolError as exc:
        raise UsageError(f"{args.log}: {exc}") from None
    try:
        histories = log_histories(hands, game)
    except ProtocolError as exc:
        print(f"holdem acpc log2phh: {args.log}: {exc}", file=err)
        return 1
    phhs = dumps_all(histories) + "\n" if histories else ""
    if args.output:
        _write(Path(args.output), phhs)
        print(f"wrote {len(histories)} hands to {args.output}", file=out)
    else:
        out.write(phhs)
    return 0


def _game_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="FILE.game", help=GAME_HELP)


def _run_game(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    gd, game = _game(args.game)
    print(f"{gd.num_players} players: {game}", file=out)
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                          Callable[[argparse.Namespace, TextIO, TextIO], int], str]] = {
    "connect": (_connect_parser, _run_connect, "play a bot of ours at an ACPC dealer"),
    "dealer": (_dealer_parser, _run_dealer, "host an ACPC match with our engine"),
    "log2phh": (_log2phh_parser, _run_log2phh, "turn a dealer's log into PHH"),
    "game": (_game_parser, _run_game, "print our game for a .game file"),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="holdem acpc",
                                     description=summary(__doc__).split(": ", 1)[1])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                help="what to do (COMMAND --help describes it)")
    for name, (build_parser, _, help_text) in COMMANDS.items():
        build_parser(sub.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exc:  # argparse printed the usage line
        return 0 if exc.code == 0 else 2
    try:
        return COMMANDS[args.command][1](args, out, err)
    except (HoldemError, ResultsError) as exc:
        print(f"holdem acpc {args.command}: {for_command_line(str(exc))}", file=err)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
