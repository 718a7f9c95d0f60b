"""``holdem run CONFIG.yaml``: play a match or tournament from a YAML config.

A thin layer over :func:`simulator.arena.tournament.run_tournament`.

Exit codes: 0 success; 2 bad input refused before any work (usage, config, bot names, an
output dir holding results without ``--resume``/``--force``); 1 a run that failed on its way
(its finished blocks stay on disk).
"""

from __future__ import annotations

import argparse
import sys

from simulator.arena.config import ConfigError, load_config
from simulator.arena.results import ResultsError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem run",
        description="Play a match or tournament from a YAML config; write per-hand results, "
                    "summary.json and plots to the config's output.dir.")
    parser.add_argument("config", help="the YAML config file")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="continue the run already in the output dir (same config)")
    mode.add_argument("--force", action="store_true",
                      help="start over: remove this tool's files from the output dir first")
    parser.add_argument("--output", metavar="DIR", help="override output.dir")
    parser.add_argument("--workers", type=int, metavar="N", help="override workers")
    parser.add_argument("--no-plots", action="store_true", help="do not draw plots")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no table")
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the usage line
        return 0 if exc.code == 0 else 2
    from simulator.arena.tournament import TournamentError, run_tournament

    try:
        config = load_config(args.config)
        updates: dict = {}
        output = config.output
        if args.output is not None:
            output = output.model_copy(update={"dir": args.output})
        if args.no_plots:
            output = output.model_copy(update={"plots": False})
        updates["output"] = output
        if args.workers is not None:
            if args.workers < 1:
                raise ConfigError(f"--workers: expected >= 1, got {args.workers}")
            updates["workers"] = args.workers
        config = config.model_copy(update=updates)
        summary = run_tournament(config, resume=args.resume, force=args.force,
                                 progress=False if args.quiet else None,
                                 echo=None if args.quiet else print)
    except (ConfigError, ResultsError) as exc:
        print(f"holdem run: {exc}", file=sys.stderr)
        return 2
    except TournamentError as exc:
        print(f"holdem run: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"results in {summary.out_dir}/ (summary.json, hands.csv)")
    return 0
