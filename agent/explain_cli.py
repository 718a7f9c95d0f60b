"""``holdem explain RUN_DIR --block B --perm P --hand H``: why the agent played a hand so.

It reads the decision traces that agents with ``trace: true`` wrote into their directories of
a finished run's output dir (``RUN_DIR/bots/<seat>/trace-b{B}-p{P}.jsonl``) and prints the hand
beside each decision: the cards, the board, the pot, the strength (EHS, HS, PPOT, NPOT), the E
of every candidate with where its parameters came from (the chain store at which relax level,
or the heuristics), the action chosen, and how the hand ended. ``--seat NAME`` picks one agent
when several traced. A trace line that cannot be read or explained (a torn last line, a
record missing a field) is skipped and reported on stderr, one line per file; the rest of
the hand is explained.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.traces import TraceError, read_trace_lines, trace_path
from simulator import HoldemError

COLUMNS = ("Pw", "ESw", "EBw", "Pvf", "ESvf", "EBvf", "Phf", "EBhf")
SHOWN_SKIPS = 5  # skipped lines listed by number; the rest are counted


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem explain", description=__doc__.split("\n\n")[0])
    p.add_argument("run_dir", type=Path, help="a finished run's output dir")
    p.add_argument("--block", type=int, required=True)
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


@dataclass
class Explanation:
    """What ``holdem explain`` prints (``text``) and the trace lines it skipped, as lines
    for stderr."""

    text: str
    skipped: list[str]


def explain(run_dir: Path, block: int, perm: int, hand: int, seat: str | None = None) -> str:
    """The text ``holdem explain`` prints; ``HoldemError`` when there is nothing to show."""
    return explain_hand(run_dir, block, perm, hand, seat).text


def explain_hand(run_dir: Path, block: int, perm: int, hand: int,
                 seat: str | None = None) -> Explanation:
    """The hand explained from every traced seat's records, a malformed record or line
    skipped and reported (the rest is explained); ``HoldemError`` when nothing is left."""
    bots = Path(run_dir) / "bots"
    seats = [seat] if seat else sorted(p.name for p in bots.glob("*") if p.is_dir())
    found = [(name, trace_path(bots / name, block, perm)) for name in seats]
    found = [(name, path) for name, path in found if path.exists()]
    if not found:
        raise TraceError(f"no decision traces for block {block}, permutation {perm} under "
                         f"{str(bots)!r}: run the agent with trace: true")
    out: list[str] = []
    skipped: list[str] = []
    for name, path in found:
        lines = read_trace_lines(path, hand)
        text, bad = _explain_records(name, lines.records, hand, block, perm)
        out += text
        if lines.skipped or bad:
            skipped.append(_skipped_line(path, lines.skipped + bad))
    if not out:
        more = f"; {'; '.join(skipped)}" if skipped else ""
        raise TraceError(f"hand {hand} is not in the traces of block {block}, permutation "
                         f"{perm} ({', '.join(str(p) for _, p in found)}){more}")
    return Explanation("\n".join(out), skipped)


def _explain_records(name: str, records: list[tuple[int, dict[str, Any]]], hand: int,
                     block: int, perm: int) -> tuple[list[str], list[tuple[int, str]]]:
    """The lines of one seat's records, and the records that could not be explained."""
    out: list[str] = []
    bad: list[tuple[int, str]] = []
    for number, record in records:
        try:
            lines = _end(record["end"]) if "end" in record else _decision(record)
            if not out:
                lines = [f"hand {hand} (block {block}, permutation {perm}): {name} in seat "
                         f"{int(record['seat'])}", *lines]
        except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                RecursionError) as exc:
            bad.append((number, _why(exc)))
            continue
        out += lines
    return out, bad


def _end(end: dict[str, Any]) -> list[str]:
    shown = ", ".join(f"{k} {v}" for k, v in end["shown"].items()) or "none"
    return [f"  actions: {' '.join(end['actions'])}",
            f"  board {end['board'] or '-'}; shown: {shown}; result {end['net']:+d} chips"]


def _why(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r}"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return f"a malformed record ({type(exc).__name__})"


def _skipped_line(path: Path, skipped: list[tuple[int, str]]) -> str:
    skipped = sorted(skipped)
    listed = ", ".join(f"line {n} ({why})" for n, why in skipped[:SHOWN_SKIPS])
    more = f" and {len(skipped) - SHOWN_SKIPS} more" if len(skipped) > SHOWN_SKIPS else ""
    return f"{path}: skipped {len(skipped)} malformed trace line(s): {listed}{more}"


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    try:
        explanation = explain_hand(args.run_dir, args.block, args.perm, args.hand, args.seat)
    except HoldemError as exc:
        print(f"holdem explain: {exc}", file=sys.stderr)
        return 2
    print(explanation.text)
    for line in explanation.skipped:
        print(f"holdem explain: {line}", file=sys.stderr)
    return 0
