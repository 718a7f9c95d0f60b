"""LBR against every registered bot that states its policy: one command writes the table.

For each bot (``holdem bots`` order) that implements ``policy`` (the others are skipped and
listed), in heads-up limit and, where the bot plays it, heads-up no-limit:

1. **tuning**: LBR's variants (``--variants``, the streets from which it bets) each play
   ``--tune-deals`` duplicate deals on the tuning seed; the variant with the highest AIVAT
   mean is chosen. Picking the largest of several noisy figures biases it upward, so
2. **report**: the chosen variant plays ``--deals`` duplicate deals on the report seed (other
   cards), and that run alone is the row.

A bot that can be frozen (``freeze()``) gets its frozen run (the headline) and its adaptive
run; others are measured as they play. Each row has LBR's win rate in mbb/g (and SB/h or
bb/h) raw and AIVAT, each with its 95% interval over blocks, and the hands played. Writes
``experiments/results/lbr_table.md`` and ``.json``; every run dir stays under ``--work``.

    python experiments/studies/lbr_table.py                     # every bot with a policy
    python experiments/studies/lbr_table.py --bots call,random --deals 400 --tune-deals 100
    python experiments/studies/lbr_table.py --bots heuristic --out /tmp/h  # one row apart,
    python experiments/studies/lbr_table.py --bots loki --merge /tmp/h.json  # then taken in

Budget: at the defaults (2,000 report deals, 2 x 300 tuning deals, blocks of 200, 2 workers)
a bot that answers a full-range policy question in a few milliseconds takes a minute or two a
game; the slowest set the total: `exploiter` (exact equity for every holding, twice) about 50
minutes a game with its tuning, the agent about 25, so every bot in both games is about 4
hours here, over the 2 hours aimed at. ``--deals 1000 --tune-deals 200`` halves it (see
``experiments/bench/bench_exploit.py`` for hands per second against a bot).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from simulator.arena.config import ConfigError
from simulator.arena.exploit import ExploitError, check_bot, run_exploit
from simulator.arena.exploit_config import parse_exploit
from simulator.core.errors import HoldemError
from simulator.play.registry import registered, resolve

GAMES: dict[str, dict[str, Any]] = {
    "limit": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
    "nolimit": {"variant": "nolimit", "blinds": [1, 2], "stack": 200},
}
NOT_PLAYERS = {"acpc-program"}  # needs a program to run; not a bot with a policy


def _config(bot: str, game: str, deals: int, block: int, seed: int, from_street: str,
            learning: str, workers: int, out: Path) -> Any:
    return parse_exploit({
        "game": GAMES[game], "bot": {"name": bot, "bot": bot}, "hands": deals,
        "block_size": min(block, deals), "seed": seed, "workers": workers,
        "learning": learning, "lbr": {"from_street": from_street},
        "output": {"dir": str(out), "plots": False}})


def _plays(bot: str, game: str) -> str | None:
    """None if the bot plays the game, else why not (its class's ``check_game``)."""
    from simulator.arena.config import parse_config

    factory = resolve(bot).factory
    check = getattr(factory, "check_game", None)
    if check is None:
        return None
    config = parse_config({"game": GAMES[game], "seats": [{"name": "a", "bot": "call"},
                                                          {"name": "b", "bot": "call"}],
                           "hands": 1, "seed": 1})
    try:
        check(config.game_config())
    except HoldemError as exc:
        return str(exc)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", help="comma-separated bot names (default: every registered "
                                       "bot)")
    parser.add_argument("--games", default="limit,nolimit")
    parser.add_argument("--deals", type=int, default=2000, help="report deals per row")
    parser.add_argument("--tune-deals", type=int, default=300, help="tuning deals per variant")
    parser.add_argument("--variants", default="preflop,flop",
                        help="LBR's from_street variants to choose among on the tuning seed")
    parser.add_argument("--block-size", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tune-seed", type=int, default=2201)
    parser.add_argument("--report-seed", type=int, default=2202)
    parser.add_argument("--work", default="results/lbr_table", help="where the runs go")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results"
                                             / "lbr_table"))
    parser.add_argument("--merge", nargs="*", default=[], metavar="JSON",
                        help="rows of earlier runs of this script (their .json) to keep; "
                             "their bots and games are not played again")
    args = parser.parse_args(argv)
    names = ([b for b in args.bots.split(",") if b] if args.bots is not None
             else sorted(set(registered()) - NOT_PLAYERS))
    variants = args.variants.split(",")
    work = Path(args.work)
    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for earlier in args.merge:
        data = json.loads(Path(earlier).read_text(encoding="utf-8"))
        rows += data["rows"]
        skipped.update(data.get("skipped", {}))
    measured = {(r["bot"], r["game"]) for r in rows}
    started = time.perf_counter()
    for bot in names:
        for game in args.games.split(","):
            if (bot, game) in measured:
                continue
            why = _plays(bot, game)
            if why is not None:
                skipped[f"{bot} ({game})"] = why
                continue
            try:
                check = check_bot(_config(bot, game, 2, 2, 1, "flop", "adaptive", 1,
                                          work / "check"))
            except (ExploitError, ConfigError) as exc:
                skipped[f"{bot} ({game})"] = str(exc)
                continue
            learning = "both" if check.freezes else "adaptive"
            tuning = {}
            for variant in variants:
                config = _config(bot, game, args.tune_deals, args.block_size, args.tune_seed,
                                 variant, "frozen" if check.freezes else "adaptive",
                                 args.workers, work / "tune" / f"{bot}-{game}-{variant}")
                result = run_exploit(config, force=True, progress=False, plots=False)
                figures = next(iter(result.modes.values()))
                stat = figures.aivat or figures.raw
                tuning[variant] = stat.mean if stat.mean is not None else float("-inf")
                print(f"tune {bot} {game} {variant}: {tuning[variant]:+.3f}", flush=True)
            chosen = max(tuning, key=lambda v: tuning[v])
            config = _config(bot, game, args.deals, args.block_size, args.report_seed, chosen,
                             learning, args.workers, work / "report" / f"{bot}-{game}")
            t0 = time.perf_counter()
            result = run_exploit(config, force=True, progress=False, plots=True)
            seconds = time.perf_counter() - t0
            for mode, figures in result.modes.items():
                data = result.data["runs"][mode]
                rows.append({"bot": bot, "game": game, "learning": mode,
                             "headline": mode == result.headline, "from_street": chosen,
                             "tuning": tuning, "tune_deals": args.tune_deals,
                             "workers": args.workers,
                             "deals": args.deals, "hands": figures.hands,
                             "blocks": figures.blocks, "unit": result.unit,
                             "per_hand": data["per_hand"], "mbb_per_game": data["mbb_per_game"],
                             "aivat": data["aivat"], "seconds": round(seconds, 1)})
            print(result.table(), flush=True)
            # Rewritten after every row, so a long run that stops early keeps what it measured.
            _write(Path(args.out), rows, skipped, args, variants, started)
    out = _write(Path(args.out), rows, skipped, args, variants, started)
    print(f"wrote {out.with_suffix('.md')} and .json")
    return 0


def _write(out: Path, rows: list[dict[str, Any]], skipped: dict[str, str],
           args: argparse.Namespace, variants: list[str], started: float) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"deals": args.deals, "tune_deals": args.tune_deals, "block_size": args.block_size,
            "variants": variants, "tune_seed": args.tune_seed, "report_seed": args.report_seed,
            "workers": args.workers, "seconds": round(time.perf_counter() - started, 1)}
    out.with_suffix(".json").write_text(json.dumps({"meta": meta, "rows": rows,
                                                    "skipped": skipped}, indent=2) + "\n",
                                        encoding="utf-8")
    out.with_suffix(".md").write_text(_markdown(rows, skipped, meta), encoding="utf-8")
    return out


def _interval(cell: dict[str, Any] | None, digits: int) -> str:
    if not cell or cell.get("mean") is None:
        return "-"
    if cell.get("ci_low") is None:
        return f"{cell['mean']:+.{digits}f}"
    return (f"{cell['mean']:+.{digits}f} [{cell['ci_low']:+.{digits}f}, "
           f"{cell['ci_high']:+.{digits}f}]")


def _markdown(rows: list[dict[str, Any]], skipped: dict[str, str],
              meta: dict[str, Any]) -> str:
    lines = ["# Local best response against every bot with a policy", "",
             f"Heads-up, duplicate (every deal in both seats), each row's deals in "
             f"blocks of {meta['block_size']} (seed {meta['report_seed']}); LBR's variant "
             f"(the street it bets from) chosen on the row's tuning deals per variant "
             f"(seed {meta['tune_seed']}), so the figure is not the largest of "
             f"several noisy ones. LBR's win rate is a lower bound on the bot's "
             f"exploitability. Wall time per bot and game, both learning modes, its "
             f"tuning not included, on the workers in brackets.", "",
             "| bot | game | learning | LBR bets from | deals (tuning) | hands | "
             "mbb/g [95% CI] | "
             "AIVAT mbb/g [95% CI] | AIVAT per hand [95% CI] | var/raw | wall min |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        aivat = r["aivat"] or {}
        factor = aivat.get("variance_reduction")
        unit = "SB/h" if r["unit"] == "small_bets" else "bb/h"
        mode = r["learning"] + (" (headline)" if r["headline"] and r["learning"] == "frozen"
                                else "")
        lines.append(f"| {r['bot']} | {r['game']} | {mode} | {r['from_street']} | "
                     f"{r['deals']} ({r['tune_deals']}) | {r['hands']} | "
                     f"{_interval(r['mbb_per_game'], 0)} | "
                     f"{_interval(aivat.get('mbb_per_game'), 0)} | "
                     f"{_interval(aivat.get('per_hand'), 3)} {unit} | "
                     f"{'-' if factor is None else f'1/{factor:.1f}'} | "
                     f"{r['seconds'] / 60:.1f} ({r['workers']}) |")
    if skipped:
        lines += ["", "Skipped:", ""] + [f"- {k}: {v}" for k, v in skipped.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
