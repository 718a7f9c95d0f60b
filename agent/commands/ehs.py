"""``holdem ehs``: hand strength, potential and effective hand strength of one hand.

    holdem ehs HOLE [BOARD] [--weights FILE.json | --range RANGE] [--opponents N]
               [--lookahead 1|2] [--denominators papp|total] [--json]

With a board (3, 4 or 5 cards) it prints HS against one opponent, HS^n against ``--opponents``
opponents sharing the weights, the weighted ahead/tied/behind sums, PPOT, NPOT, EHS, EHS' and
the 3x3 HP matrix (runout units). ``--json`` prints one object with the keys ``hs``, ``hs_n``,
``ahead``, ``tied``, ``behind``, ``ppot``, ``npot``, ``ehs``, ``ehs_optimistic``, ``hp`` and
``lookahead``; on the river ``hp`` is absent, ``ppot``/``npot`` are 0 and ``lookahead`` is 0.
Without a board it prints the hand's pre-flop class and its income rates IR2, IR4 and IR7
(thousandths; ``--json``: the keys ``class``, ``ir2``, ``ir4`` and ``ir7``).

Bad input (cards, a 1- or 2-card board, clashes, weights, lookahead 2 after the flop) is
refused with one line on stderr and exit code 2.

>>> main(["AdQc", "3h4cJh", "--lookahead", "2", "--json"])
{"hs": 0.585106, "hs_n": 0.585106, "ahead": 628.0, "tied": 9.0, "behind": 444.0, \
"ppot": 0.208324, "npot": 0.273693, "ehs": 0.511399, "ehs_optimistic": 0.671539, \
"hp": [[449005.0, 3211.0, 169504.0], [0.0, 8370.0, 540.0], [91981.0, 1036.0, 346543.0]], \
"lookahead": 2}
0
>>> main(["7h2h", "--json"])
{"class": "72s", "ir2": -237, "ir4": -261, "ir7": -211}
0
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from agent.preflop.income_rates import income_rate
from agent.strength.ehs import EHS, hand_detail, parse_spot
from agent.strength.ranges import HAND_CLASSES, WeightsLike, to_weights
from simulator.core.cards import format_cards
from simulator.core.helptext import summary

DIGITS = 6  # decimals printed; Papp's worked test vectors have six


class BadInput(Exception):
    """Input refused before any work: exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInput(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="holdem ehs", description=summary(__doc__))
    p.add_argument("hole", metavar="HOLE",
                   help="two hole cards, e.g. AdQc; without a board also a class, e.g. AKs")
    p.add_argument("board", metavar="BOARD", nargs="*",
                   help="0, 3, 4 or 5 board cards, e.g. 3h4cJh or 3h 4c Jh")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--weights", metavar="FILE.json", type=Path,
                        help="JSON object of holding -> weight (unlisted holdings weigh 0)")
    source.add_argument("--range", dest="range_", metavar="RANGE",
                        help='opponent range, e.g. "QQ+, AKs, AQo-ATo" (equal weights)')
    p.add_argument("--opponents", type=int, default=1, help="opponents for hs_n (default 1)")
    p.add_argument("--lookahead", type=int, choices=(1, 2), default=None,
                   help="cards to come for the potential: 1 (default) or 2 from the flop")
    p.add_argument("--denominators", choices=("papp", "total"), default="papp",
                   help="PPOT/NPOT denominators: Papp's (default) or HPtotal[B]+HPtotal[T]")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _load_weights(args: argparse.Namespace) -> WeightsLike:
    if args.range_ is not None:
        return to_weights(args.range_)
    if args.weights is None:
        return None
    try:
        data = json.loads(args.weights.read_text())
    except OSError as e:
        raise BadInput(f"cannot read weights file {str(args.weights)!r}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"weights file {str(args.weights)!r} is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise BadInput(f"weights file {str(args.weights)!r}: expected a JSON object of "
                       "holding -> weight")
    return to_weights(data)


def _preflop(args: argparse.Namespace, hole: list[int] | str) -> dict[str, Any]:
    if args.weights is not None or args.range_ is not None or args.lookahead is not None:
        raise BadInput("--weights, --range and --lookahead need a board of 3, 4 or 5 cards")
    rates = income_rate(hole)
    return {"class": rates.hand, "ir2": rates.ir2, "ir4": rates.ir4, "ir7": rates.ir7}


def _postflop(args: argparse.Namespace, hole: list[int], board: list[int]) -> dict[str, Any]:
    weights = _load_weights(args)
    lookahead = 1 if args.lookahead is None else args.lookahead
    detail = hand_detail(hole, board, weights, lookahead)
    e = EHS.of(detail, args.opponents, args.denominators)
    out: dict[str, Any] = {
        "hs": round(e.hs, DIGITS), "hs_n": round(e.hs_n, DIGITS),
        "ahead": detail.ahead, "tied": detail.tied, "behind": detail.behind,
        "ppot": round(e.ppot, DIGITS), "npot": round(e.npot, DIGITS),
        "ehs": round(e.ehs, DIGITS), "ehs_optimistic": round(e.ehs_optimistic, DIGITS),
    }
    if detail.hp is not None:
        out["hp"] = [list(row) for row in detail.hp]
    out["lookahead"] = detail.lookahead
    return out


def _rates_text(label: str, out: dict[str, Any]) -> str:
    return (f"{label}: pre-flop class {out['class']}\n"
            f"  income rates (thousandths)  IR2 {out['ir2']:+d}   IR4 {out['ir4']:+d}   "
            f"IR7 {out['ir7']:+d}")


def _text(args: argparse.Namespace, hole: list[int], board: list[int],
          out: dict[str, Any]) -> str:
    if not board:
        return _rates_text(format_cards(hole), out)
    against = "a uniform range" if args.weights is None and args.range_ is None else (
        f"range {args.range_!r}" if args.range_ else f"weights {str(args.weights)!r}")
    lines = [
        f"{format_cards(hole)} on {format_cards(board)} against {against}",
        f"  ahead / tied / behind  {out['ahead']:g} / {out['tied']:g} / {out['behind']:g}",
        f"  HS    {out['hs']:.6f}   HS^{args.opponents} {out['hs_n']:.6f}",
        f"  PPOT  {out['ppot']:.6f}   NPOT {out['npot']:.6f}   ({args.denominators} "
        f"denominators, lookahead {out['lookahead']})",
        f"  EHS   {out['ehs']:.6f}   EHS' {out['ehs_optimistic']:.6f}",
    ]
    if "hp" in out:
        lines.append("  HP (rows now ahead/tied/behind, columns final):")
        lines += ["    " + "  ".join(f"{x:>10g}" for x in row) for row in out["hp"]]
    return "\n".join(lines)


def run(argv: list[str]) -> str:
    """The text (or JSON) that ``main`` prints; raises ``BadInput`` for refused input."""
    args = _parser().parse_args(argv)
    if args.opponents < 1:
        raise BadInput(f"bad --opponents {args.opponents}: expected an integer >= 1")
    if not args.board and args.hole in HAND_CLASSES:  # a class, e.g. AKs: its rates
        out = _preflop(args, args.hole)
        return json.dumps(out) if args.json else _rates_text(args.hole, out)
    try:
        hole, board = parse_spot(args.hole, " ".join(args.board), preflop=True)
    except ValueError as e:
        raise BadInput(str(e)) from None
    try:
        with np.errstate(over="ignore", invalid="ignore"):  # refused below, not warned about
            out = _postflop(args, hole, board) if board else _preflop(args, hole)
    except ValueError as e:
        raise BadInput(str(e)) from None
    if not _finite(out):
        raise BadInput("the weights are too large: their weighted sums overflow (NaN or "
                       "infinity); scale them down")
    return json.dumps(out, allow_nan=False) if args.json else _text(args, hole, board, out)


def _finite(value: Any) -> bool:
    """True when every number in ``value`` (nested lists and dicts) is finite."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    return True


def main(argv: list[str]) -> int:
    try:
        text = run(argv)
    except BadInput as e:
        print(f"holdem ehs: error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)
    print(text)
    return 0
