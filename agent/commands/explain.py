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
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from agent.heuristic.traces import (
    DecisionRecord,
    EndRecord,
    TraceError,
    read_trace_lines,
    trace_path,
)
from agent.rivals.vexbot import trace as vexbot_trace
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


def _decision(record: DecisionRecord) -> list[str]:
    head = (f"  {record.street:<8} {record.hole}  board {record.board or '-'}  "
            f"pot {record.pot}, to call {record.to_call}")
    lines = [head]
    pre = record.preflop
    if pre is not None:
        thresholds = ", ".join(f"{k} {v:g}" for k, v in pre.thresholds.items())
        strategies = ", ".join(f"{k} {p:.2f}" for k, p in pre.strategies.items() if p > 0)
        lines.append(f"    pre-flop expert: {strategies} (IR{pre.table} {pre.ir:g}; "
                     f"thresholds {thresholds}; {pre.expected_players:g} expected players, "
                     f"position {pre.position})")
        if pre.defense_equity is not None:
            pays = "pays" if pre.defense_pays else "does not pay"
            lines.append(f"    pot-odds defence: equity {pre.defense_equity:.3f} against the "
                         f"modelled ranges{_price(record)}: {pays} for the call")
        lines.append("    chances: " + ", ".join(f"{a} {p:.2f}" for a, p in pre.chances.items()))
    s = record.strength
    if s is not None:
        lines.append(f"    EHS {s.ehs:.3f}  EHS' {s.ehs_optimistic:.3f}  HS_n "
                     f"{s.hs_n:.3f}  PPOT {s.ppot:.3f}  NPOT {s.npot:.3f}"
                     + ("  (continued aggression)" if record.continued_aggression else ""))
        lines.append("    " + f"{'action':<16}{'E':>9}" + "".join(f"{c:>8}" for c in COLUMNS)
                     + f"{'chance':>8}  source")
        for c in record.candidates:
            lines.append("    " + f"{c.action:<16}{c.E:>+9.2f}"
                         + "".join(f"{getattr(c, k):>8.3g}" for k in COLUMNS)
                         + f"{c.chance:>8.2f}  {c.source}")
    if record.equilibrium is not None:
        lines.append("    the equilibrium (no deviation seen yet): " + ", ".join(
            f"{a} {p:.2f}" for a, p in record.equilibrium.items()))
    lines.append(f"    -> {record.chosen}")
    return lines


def _price(record: DecisionRecord) -> str:
    """The call's price beside the equity: its pot odds and, where the trace has it, the
    equity needed once the realization share is taken off."""
    pot, to_call = record.pot, record.to_call
    odds = f"; price {to_call / (pot + to_call):.3f} ({to_call} to call into {pot} + {to_call})"
    price = record.preflop.defense_price if record.preflop else None
    return odds if price is None else f"{odds}, equity needed {price:.3f}"


LEGEND = (
    "  E = (Pw*ESw - EBw) + Pvf*(ESvf - EBvf) - Phf*EBhf: chips won from this decision on "
    "(folding now is 0). Pw: P(showdown and we win); ESw: the pot at a showdown; EBw: our "
    "bets in showdowns, times P(showdown); Pvf: P(every opponent folds); ESvf, EBvf: the pot "
    "and our bets then; Phf: P(we fold later); EBhf: our bets lost then; chance: how often "
    "the agent plays it; source: where the parameters came from.")


def _end(record: EndRecord) -> list[str]:
    shown = ", ".join(f"{k} {v}" for k, v in record.shown.items()) or "none"
    return [f"  actions: {' '.join(record.actions)}",
            f"  board {record.board or '-'}; shown: {shown}; result {record.net:+d} chips"]


HEURISTIC = "agent.heuristic.bot:HeuristicAgent"
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


SHOWN_SKIPS = 5  # skipped lines listed by number; the rest are counted


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
    """The hand explained from every traced seat's records, a malformed line skipped and
    reported (the rest is explained); ``HoldemError`` when nothing is left."""
    bots = Path(run_dir) / "bots"
    seats = [seat] if seat else sorted(p.name for p in bots.glob("*") if p.is_dir())
    found = [(name, trace_path(bots / name, block, perm)) for name in seats]
    found = [(name, path) for name, path in found if path.exists()]
    searched = _vexbot_hand(bots, seats, block, perm, hand)
    if searched is not None:
        return searched
    if not found:
        _refuse_missing_block(Path(run_dir), block, perm, [bots / name for name in seats])
        bot = _seat_bot(Path(run_dir), seat) if seat else None
        if bot is not None and registered().get(bot, bot) != HEURISTIC:
            raise TraceError(f"seat {seat!r} is played by {bot!r}, not the heuristic agent: "
                             f"only the heuristic agent writes decision traces")
        raise TraceError(f"no decision traces for block {block}, permutation {perm} under "
                         f"{str(bots)!r}: run the agent with trace: true")
    out: list[str] = []
    skipped: list[str] = []
    shown: list[DecisionRecord | EndRecord] = []
    for name, path in found:
        lines = read_trace_lines(path, hand)
        if lines.skipped:
            skipped.append(_skipped_line(path, lines.skipped))
        records = [record for _, record in lines.records]
        shown += records
        if not records:
            continue
        out.append(f"hand {hand} (block {block}, permutation {perm}): {name} in seat "
                   f"{records[0].seat}")
        for record in records:
            out += _end(record) if isinstance(record, EndRecord) else _decision(record)
    if any(isinstance(r, DecisionRecord) and r.candidates for r in shown):
        out.append(textwrap.fill(LEGEND, 100, subsequent_indent="  "))
    if not out:
        more = f"; {'; '.join(skipped)}" if skipped else ""
        raise TraceError(f"hand {hand} is not in the traces of block {block}, permutation "
                         f"{perm} ({', '.join(str(p) for _, p in found)}){more}")
    return Explanation("\n".join(out), skipped)


def _vexbot_hand(bots: Path, seats: list[str], block: int, perm: int, hand: int
                 ) -> Explanation | None:
    """The hand from the traces ``vexbot`` seats wrote (:mod:`agent.rivals.vexbot.trace`),
    when any seat has one for this block and permutation and none has the agent's."""
    if any(trace_path(bots / name, block, perm).exists() for name in seats):
        return None
    out: list[str] = []
    skipped: list[str] = []
    for name in seats:
        path = bots / name / vexbot_trace.trace_name(block, perm)
        if not path.exists():
            continue
        records, bad = vexbot_trace.read_hand(path, hand)
        if bad:
            skipped.append(f"{path}: skipped {bad} malformed trace line(s)")
        if records:
            out.append(f"hand {hand} (block {block}, permutation {perm}): {name} (vexbot) "
                       f"in seat {records[0].seat}")
            for record in records:
                out += vexbot_trace.describe(record)
    if not out:
        return None
    return Explanation("\n".join(out), skipped)


def _finished_blocks(run_dir: Path) -> list[int] | None:
    """The run's finished blocks, from its ``blocks.jsonl`` (None without one)."""
    try:
        with open(run_dir / "blocks.jsonl", "rb") as f:
            text = f.read(RUN_FILE_LIMIT).decode("utf-8", "replace")
    except OSError:
        return None
    blocks = set()
    for line in text.splitlines():
        try:
            number = json.loads(line)["block"]
        except (ValueError, KeyError, TypeError, RecursionError):
            continue
        if isinstance(number, int) and not isinstance(number, bool):
            blocks.add(number)
    return sorted(blocks)


def _refuse_missing_block(run_dir: Path, block: int, perm: int, dirs: list[Path]) -> None:
    """A block the run does not have, or a permutation no seat traced, said as such: not
    as a run without traces."""
    blocks = _finished_blocks(run_dir)
    if blocks is not None and block not in blocks:
        have = (f"block{'s 0 to' if len(blocks) > 1 else ''} {len(blocks) - 1}"
                if blocks == list(range(len(blocks)))
                else "blocks " + ", ".join(map(str, blocks[:SHOWN_SKIPS]))
                + (" ..." if len(blocks) > SHOWN_SKIPS else ""))
        raise TraceError(f"block {block} does not exist: {str(run_dir)!r} holds "
                         f"{len(blocks)} finished block(s)" + (f", {have}" if blocks else ""))
    perms = sorted({int(m.group(1)) for d in dirs for path in d.glob(f"trace-b{block}-p*.jsonl")
                    if (m := re.fullmatch(rf"trace-b{block}-p(\d+)\.jsonl", path.name))})
    if perms and perm not in perms:
        raise TraceError(f"permutation {perm} of block {block} does not exist: its traces "
                         f"are of permutation(s) {', '.join(map(str, perms))}")


def _skipped_line(path: Path, skipped: list[tuple[int, str]]) -> str:
    listed = ", ".join(f"line {n} ({why})" for n, why in sorted(skipped)[:SHOWN_SKIPS])
    more = f" and {len(skipped) - SHOWN_SKIPS} more" if len(skipped) > SHOWN_SKIPS else ""
    return f"{path}: skipped {len(skipped)} malformed trace line(s): {listed}{more}"


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    explanation = explain_hand(args.run_dir, args.block, args.perm, args.hand, args.seat)
    print(explanation.text)
    for line in explanation.skipped:
        print(f"holdem explain: {line}", file=sys.stderr)
    return 0
