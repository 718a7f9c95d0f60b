"""``holdem run CONFIG.yaml``: play a match or tournament from a YAML config.

A thin layer over :func:`simulator.arena.tournament.run_tournament`.

Exit codes: 0 success; 2 bad input refused before any work (usage, config, bot names, an
output dir that cannot be used, is locked by another run, or holds results without
``--resume``/``--force``, a store that does not add up on ``--resume``); 1 a run that failed
on its way (a bot fault under ``stop``, failed blocks, Ctrl-C or SIGTERM, a full disk): its
finished blocks stay on disk and ``--resume`` continues. A config imports the bot modules it
names, so it deserves the trust of a script.
"""

from __future__ import annotations

import argparse
import textwrap

from simulator.arena.config import load_config
from simulator.arena.overrides import add_options, options_sets
from simulator.core.helptext import TRUST_NOTE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem run",
        description="Play a match or tournament from a YAML config; write per-hand results, "
                    "summary.json and plots to the config's output.dir.",
        epilog=TRUST_NOTE)
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
    add_options(parser)
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the usage line
        return 0 if exc.code == 0 else 2
    from simulator.arena.tournament import run_tournament
    config = load_config(args.config, options_sets(args)).with_overrides(
        output_dir=args.output, workers=args.workers,
        plots=False if args.no_plots else None)
    summary = run_tournament(config, resume=args.resume, force=args.force,
                             progress=False if args.quiet else None,
                             echo=None if args.quiet else print)
    if not args.quiet:
        names = ", ".join(path.name for path in summary.files)
        print(textwrap.fill(f"wrote in {summary.out_dir}/: {names}", 80,
                            subsequent_indent="  "))
    return 0
