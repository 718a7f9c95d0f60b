"""``holdem sng CONFIG.yaml``: play freezeout sit-and-gos and report places, ITM and ROI.

The config (:mod:`simulator.arena.sng_config`) names the entrants, the starting stack, the
blind schedule and the payouts. Tournaments are played by worker processes
(:mod:`simulator.arena.freezeout`), each written as it finishes, in order, to
``tournaments.jsonl`` in the output dir, so ``--resume`` continues a run that stopped (the
same config) and ``--force`` starts over. ``output.hand_histories`` writes every hand to
``hands.phhs`` with its tournament, rotation, table and level (PHH fields ``_tournament``,
``_rotation``, ``_table``, ``_level``; a reader of PHH skips fields starting with ``_``).
``--set KEY=VALUE`` and ``--tournaments N`` change the config's keys as if the file said them
(:mod:`simulator.arena.overrides`); ``--resume`` needs the same ones as the run it continues
(a resumed run may play more tournaments). At the end ``summary.json`` holds the figures
(:mod:`simulator.arena.sng_results`) and, with ``output.plots``, ``places.png`` and
``stacks.png`` are drawn.

Exit codes: 0 success; 2 bad input refused before anything is written (the config, a bot, the
output dir); 1 a run that failed on its way (a bot's fault under ``on_bot_error: stop``,
Ctrl-C): its finished tournaments stay and ``--resume`` continues.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simulator.arena.config import ConfigError
from simulator.arena.freezeout import TournamentResult, play_tournament
from simulator.arena.outdir import (
    DirLock,
    OutputDirError,
    append,
    first_difference,
    prepare_dir,
    refuse_symlinks,
    write_atomic,
)
from simulator.arena.overrides import add_options, options_sets
from simulator.arena.progress import Progress, wanted
from simulator.arena.sng_config import SngConfig, load_sng
from simulator.arena.sng_results import Row, summarise
from simulator.arena.tournament import check_seat
from simulator.core.errors import RunError
from simulator.core.files import read_regular
from simulator.core.helptext import TRUST_NOTE
from simulator.interop.phh import dumps

CONFIG_FILE = "sng.json"
ROWS_FILE = "tournaments.jsonl"
HANDS_FILE = "hands.phhs"
SUMMARY_FILE = "summary.json"
TRACE_FILE = "stacks.json"
FILES = (CONFIG_FILE, ROWS_FILE, HANDS_FILE, SUMMARY_FILE, TRACE_FILE, "places.png",
         "stacks.png")
MAX_ROWS_BYTES = 1 << 31


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="holdem sng",
        description="Play freezeout sit-and-gos from a YAML config: finishing places, "
                    "in-the-money share and ROI per bot, with 95% intervals.",
        epilog=TRUST_NOTE)
    p.add_argument("config", help="the YAML config file")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="continue the run already in the output dir (same config)")
    mode.add_argument("--force", action="store_true",
                      help="start over: remove this tool's files from the output dir first")
    p.add_argument("--output", metavar="DIR", help="override output.dir")
    p.add_argument("--workers", type=int, metavar="N", help="override workers")
    p.add_argument("--no-plots", action="store_true", help="do not draw plots")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no table")
    add_options(p, "tournaments", "sit-and-gos to play")
    return p


def _with_overrides(config: SngConfig, args: argparse.Namespace) -> SngConfig:
    data = config.model_dump()
    if args.output is not None:
        if not args.output.strip():
            raise ConfigError("--output: expected a directory path, got an empty string")
        data["output"]["dir"] = args.output
    if args.workers is not None:
        if not 1 <= args.workers <= 256:
            raise ConfigError(f"--workers: expected 1..256, got {args.workers}")
        data["workers"] = args.workers
    if args.no_plots:
        data["output"]["plots"] = False
    return SngConfig.model_validate(data)


def check_entrants(config: SngConfig) -> None:
    """Every entrant's bot resolved and built once, before anything is written."""
    problems, checked = [], []
    game = config.game_of(config.schedule[0])
    for i, entry in enumerate(config.entrants):
        if (entry.bot, entry.params) in checked:
            continue
        checked.append((entry.bot, entry.params))
        try:
            check_seat(entry, game, config.seats_per_table, config.bot_timeout,
                       f"entrants[{i}] ({entry.name})")
        except ConfigError as exc:
            problems.append(str(exc))
    if problems:
        raise ConfigError("\n".join(problems))


def _played_config(config: SngConfig) -> dict[str, Any]:
    """What a resumed run must share: everything but where and how fast it runs, and how
    many tournaments (a resumed run may play more, or summarise the first ones)."""
    data = config.model_dump()
    data.pop("workers")
    data.pop("tournaments")
    data["output"].pop("plots")
    data["output"].pop("dir")
    return data


# --- the output dir --------------------------------------------------------------------------


def _read_rows(out: Path) -> list[dict[str, Any]]:
    path = out / ROWS_FILE
    if not path.exists():
        return []
    text = read_regular(path, MAX_ROWS_BYTES).decode("utf-8")
    rows = []
    for line in text.splitlines():
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                break  # a line cut short by a crash: the tournament is played again
    return rows


def _open_dir(config: SngConfig, out: Path, resume: bool, force: bool
              ) -> list[dict[str, Any]]:
    refuse_symlinks(out, FILES)
    ours = [out / name for name in FILES if (out / name).exists()]
    if force:
        for path in ours:
            path.unlink()
        ours = []
    stored = out / CONFIG_FILE
    if not resume:
        if ours:
            raise OutputDirError(f"output dir {str(out)!r} holds a sit-and-go run: --resume "
                                 f"continues it, --force starts over")
        write_atomic(stored, json.dumps(_played_config(config), indent=1) + "\n")
        return []
    if not stored.exists():
        write_atomic(stored, json.dumps(_played_config(config), indent=1) + "\n")
        return []
    played = json.loads(read_regular(stored, 1 << 20))
    differs = first_difference(played, json.loads(json.dumps(_played_config(config))))
    if differs is not None:
        raise OutputDirError(f"{str(stored)!r}: the run there was played with another "
                             f"config ({differs}: the same file and --set as that run "
                             f"continue it); --force starts over")
    rows = _read_rows(out)
    hands = out / HANDS_FILE
    if rows and config.output.hand_histories:
        size = int(rows[-1].get("phh_bytes", 0))
        if hands.exists() and hands.stat().st_size > size:
            os.truncate(hands, size)  # hands of a tournament whose row was never written
    write_atomic(out / ROWS_FILE, "".join(json.dumps(r) + "\n" for r in rows))
    return rows


# --- playing ---------------------------------------------------------------------------------

_CONFIG: SngConfig | None = None


def _init(config: SngConfig) -> None:
    global _CONFIG
    _CONFIG = config


def _job(job: tuple[int, int]) -> tuple[TournamentResult, str]:
    """One tournament in a worker: its result (hands dropped) and its PHH text."""
    config = _CONFIG
    assert config is not None  # set by the pool's initializer
    t, r = job
    result = play_tournament(config, t, r, keep_hands=config.output.hand_histories,
                             keep_trace=(t, r) == (0, 0))
    text = "".join(_phh(result, k) for k in range(len(result.hands)))
    return TournamentResult(result.tournament, result.rotation, result.places, result.prizes,
                            result.chips, result.rounds, result.finished, result.faults,
                            result.trace), text


def _phh(result: TournamentResult, k: int) -> str:
    """Hand ``k`` of a tournament as a PHHS table, its place in the tournament added."""
    hand = result.hands[k]
    where = (f"_tournament = {result.tournament}\n_rotation = {result.rotation}\n"
             f"_table = {hand.table}\n_level = {hand.level}\n")
    return f"[\"{result.tournament}.{result.rotation}.{k + 1}\"]\n{dumps(hand.history)}{where}\n"


def _results(config: SngConfig, jobs: list[tuple[int, int]]
             ) -> Iterator[tuple[TournamentResult, str]]:
    if config.workers == 1 or len(jobs) < 2:
        _init(config)
        for job in jobs:
            yield _job(job)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(config.workers, initializer=_init, initargs=(config,)) as pool:
        yield from pool.imap(_job, jobs, chunksize=4)


def run_sng(config: SngConfig, *, resume: bool = False, force: bool = False,
            progress: bool | None = None) -> dict[str, Any]:
    """Play the config's tournaments (those not yet played), write the output dir, return
    the summary."""
    check_entrants(config)
    out = prepare_dir(Path(config.output.dir))
    with DirLock.acquire(out):
        rotations = config.rotations
        rows = [r for r in _open_dir(config, out, resume, force)
                if r["tournament"] * rotations + r["rotation"] < config.tournaments]
        done = {(r["tournament"], r["rotation"]) for r in rows}
        jobs = [(j // rotations, j % rotations) for j in range(config.tournaments)
                if (j // rotations, j % rotations) not in done]
        bar = Progress(config.tournaments, enabled=wanted() if progress is None else progress,
                       initial=len(done), desc="sit-and-gos", unit="sng")
        start = time.perf_counter()
        try:
            for result, text in _results(config, jobs):
                size = append(out / HANDS_FILE, text) if config.output.hand_histories else 0
                row = {**Row(result.tournament, result.rotation, result.places, result.prizes,
                             result.chips).as_dict(), "rounds": result.rounds,
                       "finished": result.finished, "faults": result.faults,
                       "phh_bytes": size}
                append(out / ROWS_FILE, json.dumps(row) + "\n")
                rows.append(row)
                if result.trace:
                    write_atomic(out / TRACE_FILE, json.dumps(
                        {"tournament": 0, "rotation": 0, "chips": result.trace}) + "\n")
                bar.update(1)
        except KeyboardInterrupt:
            raise RunError(f"interrupted: {len(rows)} of {config.tournaments} tournaments "
                           f"are in {out}; --resume continues") from None
        finally:
            bar.close()
        summary = _summary(config, rows, time.perf_counter() - start, len(jobs))
        write_atomic(out / SUMMARY_FILE, json.dumps(summary, indent=1) + "\n")
        if config.output.plots:
            _plots(config, summary, out)
    return summary


def _summary(config: SngConfig, rows: list[dict[str, Any]], seconds: float, played: int
             ) -> dict[str, Any]:
    records = [Row(r["tournament"], r["rotation"], tuple(r["places"]), tuple(r["prizes"]),
                   tuple(r["chips"])) for r in rows]
    out = summarise(records, config.names, buy_in=config.buy_in, paid=len(config.payouts))
    out.update(entrants=list(config.names), buy_in=config.buy_in,
               payouts=list(config.payouts), duplicate=config.duplicate,
               hands=sum(r["rounds"] for r in rows),
               unfinished=sum(1 for r in rows if not r["finished"]),
               bot_faults=sum(r["faults"] for r in rows),
               seconds_this_session=round(seconds, 3), played_this_session=played)
    return out


def _plots(config: SngConfig, summary: dict[str, Any], out: Path) -> None:
    from simulator.arena.sng_plots import draw_places, draw_stacks

    draw_places(summary, out / "places.png")
    trace = out / TRACE_FILE
    if trace.exists():
        chips = json.loads(read_regular(trace, 1 << 26))["chips"]
        starts, at = [], 0
        for level in config.schedule:
            at += level.hands
            starts.append(at)
        draw_stacks(chips, config.names, starts, out / "stacks.png")


def summary_table(summary: dict[str, Any]) -> str:
    lines = [f"{'bot':<12} {'avg place':>9} {'ITM':>6} {'ROI':>8}  95% interval of ROI"]
    for name, b in sorted(summary["bots"].items(), key=lambda kv: -kv[1]["roi"]["mean"]):
        ci = b["roi"]["ci95"]
        shown = "" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
        lines.append(f"{name:<12} {b['average_place']['mean']:>9.2f} "
                     f"{b['in_the_money']['mean']:>6.1%} {b['roi']['mean']:>+8.3f}  {shown}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    config = _with_overrides(load_sng(args.config, options_sets(args, "tournaments")), args)
    summary = run_sng(config, resume=args.resume, force=args.force,
                      progress=False if args.quiet else None)
    if not args.quiet:
        print(summary_table(summary))
        print(f"wrote in {config.output.dir}/: {SUMMARY_FILE}, {ROWS_FILE}"
              + (f", {HANDS_FILE}" if config.output.hand_histories else "")
              + (", places.png, stacks.png" if config.output.plots else ""))
    return 0
