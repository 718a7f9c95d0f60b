"""``holdem explain RUN_DIR --block B --perm P --hand H``: why the agent played a hand so.

It reads the decision traces that agents with ``trace: true`` wrote into their directories of
a finished run's output dir (``RUN_DIR/bots/<seat>/trace-b{B}-p{P}.jsonl``) and prints the hand
beside each decision: the cards, the board, the pot, the strength (EHS, HS, PPOT, NPOT), the E
of every candidate with where its parameters came from (the chain store at which relax level,
or the heuristics), the action chosen, and how the hand ended. ``--seat NAME`` picks one agent
when several traced.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agent.traces import TraceError, read_traces, trace_path
from simulator import HoldemError
from simulator.core.helptext import summary
from simulator.play.registry import registered

COLUMNS = ("Pw", "ESw", "EBw", "Pvf", "ESvf", "EBvf", "Phf", "EBhf")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem explain", description=summary(__doc__))
    p.add_argument("run_dir", type=Path, help="a finished run's output dir")
    p.add_argument("--block", type=int, required=True, help="the block the hand is in")
    p.add_argument("--perm", type=int, default=0, help="duplicate permutation (default 0)")
    p.add_argument("--hand", type=int, required=True, help="hand number within the block")
    p.add_argument("--seat", help="the traced seat's name (default: every traced seat)")
    return p


def _decision(record: dict[str, Any]) -> list[str]:
    head = (f"  {record['street']:<8} {record['hole']}  board {record['board'] or '-'}  "
            f"pot {record['pot']}, to call {record['to_call']}")
    lines = [head]
    if "preflop" in record:
        pre = record["preflop"]
        thresholds = ", ".join(f"{k} {v:g}" for k, v in pre["thresholds"].items())
        lines.append(f"    pre-flop expert: {pre['strategy']} (IR {pre['ir']:g}; thresholds "
                     f"{thresholds}; {pre['expected_players']:g} expected players, position "
                     f"{pre['position']})")
        if pre.get("defense_equity"):
            share, pays = pre["defense_equity"]
            lines.append(f"    pot-odds defence: equity {share:.3f} against the modelled "
                         f"ranges, {'pays' if pays else 'does not pay'} for the call")
    if "strength" in record:
        s = record["strength"]
        lines.append(f"    EHS {s['ehs']:.3f}  EHS' {s['ehs_optimistic']:.3f}  HS_n "
                     f"{s['hs_n']:.3f}  PPOT {s['ppot']:.3f}  NPOT {s['npot']:.3f}"
                     + ("  (continued aggression)" if record.get("continued_aggression")
                        else ""))
        lines.append("    " + f"{'action':<16}{'E':>9}" + "".join(f"{c:>8}" for c in COLUMNS)
                     + "  source")
        for c in record["candidates"]:
            lines.append("    " + f"{c['action']:<16}{c['E']:>+9.2f}"
                         + "".join(f"{c[k]:>8.3g}" for k in COLUMNS) + f"  {c['source']}")
    lines.append(f"    -> {record['chosen']}")
    return lines


HEURISTIC = "agent.heuristic:HeuristicAgent"
RUN_FILE_LIMIT = 10_000_000  # bytes of run.json read at most


def _seat_bot(run_dir: Path, seat: str) -> str | None:
    """The bot that ``seat`` played in the run, from its ``run.json``; None if unknown."""
    try:
        with open(run_dir / "run.json", "rb") as f:
            meta = json.loads(f.read(RUN_FILE_LIMIT))
        seats = meta["result_config"]["seats"]
        return next((str(s["bot"]) for s in seats if s["name"] == seat), None)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def explain(run_dir: Path, block: int, perm: int, hand: int, seat: str | None = None) -> str:
    """The text ``holdem explain`` prints; ``HoldemError`` when there is nothing to show."""
    bots = Path(run_dir) / "bots"
    seats = [seat] if seat else sorted(p.name for p in bots.glob("*") if p.is_dir())
    found = [(name, trace_path(bots / name, block, perm)) for name in seats]
    found = [(name, path) for name, path in found if path.exists()]
    if not found:
        bot = _seat_bot(Path(run_dir), seat) if seat else None
        if bot is not None and registered().get(bot, bot) != HEURISTIC:
            raise TraceError(f"seat {seat!r} is played by {bot!r}, not the heuristic agent: "
                             f"only the heuristic agent writes decision traces")
        raise TraceError(f"no decision traces for block {block}, permutation {perm} under "
                         f"{str(bots)!r}: run the agent with trace: true")
    out = []
    for name, path in found:
        records = read_traces(path, hand)
        if not records:
            continue
        out.append(f"hand {hand} (block {block}, permutation {perm}): {name} in seat "
                   f"{records[0]['seat']}")
        for record in records:
            if "end" in record:
                end = record["end"]
                shown = ", ".join(f"{k} {v}" for k, v in end["shown"].items()) or "none"
                out.append(f"  actions: {' '.join(end['actions'])}")
                out.append(f"  board {end['board'] or '-'}; shown: {shown}; result "
                           f"{end['net']:+d} chips")
            else:
                out += _decision(record)
    if not out:
        raise TraceError(f"hand {hand} is not in the traces of block {block}, permutation "
                         f"{perm} ({', '.join(str(p) for _, p in found)})")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    try:
        print(explain(args.run_dir, args.block, args.perm, args.hand, args.seat))
    except HoldemError as exc:
        print(f"holdem explain: {exc}", file=sys.stderr)
        return 2
    return 0
