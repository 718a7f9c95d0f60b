"""``holdem replay FILE... [--json] [--cap N|none]``: replay PHH/PHHS hands through our engine.

Per hand it prints our finishing stacks and whether they match the file's
``finishing_stacks`` (``match`` is null when the file has none). ``--json`` prints one object
per line with keys ``hand`` (file and index), ``finishing_stacks`` (null, with an ``error``
message, when the hand is illegal under our rules) and ``match``. Exit 1 when any hand
disagrees or is illegal; 2, before any work, for a file that cannot be read as PHH or uses a
variant we do not play, with a one-line message naming the file and the problem.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from simulator.core.files import FileRefused, read_regular
from simulator.core.game import DEFAULT_CAP
from simulator.core.helptext import summary
from simulator.interop.phh import PHHError, PHHHand, loads_all, replay


def _cap(text: str) -> int | None:
    if text.lower() in ("none", "null"):
        return None
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"cap must be >= 1 or none, got {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem replay", description=summary(__doc__))
    p.add_argument("files", nargs="+", type=Path, help="PHH or PHHS files")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.add_argument("--cap", type=_cap, default=DEFAULT_CAP,
                   help="limit cap: bets a round, big blind counted pre-flop (default 4)")
    return p


MAX_HISTORY_BYTES = 1 << 30  # a FIFO or /dev/zero never ends; a history file is bounded


def _read(path: Path) -> list[PHHHand]:
    try:
        text = read_regular(path, MAX_HISTORY_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise PHHError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PHHError(f"cannot read: {exc}") from None
    return loads_all(text)


def _replay_one(hand: PHHHand, cap: int | None) -> dict[str, Any]:
    try:
        stacks = list(replay(hand, cap=cap).finishing_stacks)
    except ValueError as exc:
        return {"finishing_stacks": None, "match": None if hand.finishing_stacks is None
                else False, "error": str(exc)}
    match = None if hand.finishing_stacks is None else stacks == hand.finishing_stacks
    return {"finishing_stacks": stacks, "match": match}


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    files: list[tuple[Path, list[PHHHand]]] = []
    for path in args.files:
        try:
            files.append((path, _read(path)))
        except PHHError as exc:
            print(f"holdem replay: {path}: {exc}", file=sys.stderr)
            return 2
    failed = False
    try:
        for path, hands in files:
            for index, hand in enumerate(hands):
                out = {"hand": {"file": str(path), "index": index}} | _replay_one(hand, args.cap)
                failed |= out["match"] is False or out["finishing_stacks"] is None
                print(json.dumps(out) if args.json else _line(out), flush=True)
    except BrokenPipeError:  # the reader (e.g. `head`) stopped early: not our failure
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if failed else 0


def _line(out: dict[str, Any]) -> str:
    where = f"{out['hand']['file']}[{out['hand']['index']}]"
    if out["finishing_stacks"] is None:
        return f"{where}: ILLEGAL {out['error']}"
    verdict = {True: "match", False: "MISMATCH", None: "no finishing_stacks in file"}
    return f"{where}: {out['finishing_stacks']} {verdict[out['match']]}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
