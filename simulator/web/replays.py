"""Hands to step through: a PHH/PHHS file's hands, each replayed by the engine, step by step.

Every step is the engine's state after one more action (the first: after the blinds), so the
pot and stacks the page shows are the rules' own, not a recomputation in the page. A file
too large or a hand that does not replay is one message, never a traceback.

>>> from simulator.play.baseline import CallBot
>>> from simulator.core.game import GameConfig
>>> from simulator.play.match import play_match
>>> from simulator.interop.phh import dumps_all
>>> r = next(play_match(GameConfig(variant="nolimit", stack=50), [CallBot(), CallBot()], 1,
...                     seed=3))
>>> hand = hands_of(dumps_all([r.history]))[0]
>>> steps = hand_steps(hand)
>>> steps[0]["pot"], steps[-1]["stacks"] == list(r.stacks)
(3, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simulator.core.errors import HoldemError
from simulator.core.files import FileRefused, read_regular
from simulator.core.state import HandState
from simulator.interop.phh import PHHError, PHHHand, loads_all, parse_actions
from simulator.play.trace_files import is_decision, line_prefix
from simulator.web.tables import card_list

MAX_PHH_BYTES = 64 << 20  # a run of 10,000 hands is about 4 MB
HISTORY_FILE = "hands.phhs"
MAX_TRACE_BYTES = 256 << 20  # an agent's trace of 10,000 hands is about 50 MB
MAX_TRACE_RECORD = 1 << 20  # one decision's line: 9 ranges of 169 weights are about 10 KB

TraceLocator = Callable[[str, int, int], Path | None]
"""The trace file a seat's bot wrote for a block and permutation (None: there is none)."""


def read_hands(path: Path) -> list[PHHHand]:
    """The hands of a PHH or PHHS file; :class:`PHHError` naming the problem."""
    try:
        text = read_regular(path, MAX_PHH_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise PHHError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PHHError(f"cannot read the hands: {exc}") from None
    return hands_of(text)


def hands_of(text: str) -> list[PHHHand]:
    return loads_all(text)


def names_of(hand: PHHHand) -> list[str]:
    n = len(hand.starting_stacks)
    players = hand.players
    if isinstance(players, list) and len(players) == n and all(isinstance(p, str)
                                                               for p in players):
        return [p[:40] for p in players]
    return [f"p{i + 1}" for i in range(n)]


def hand_list(hands: list[PHHHand]) -> list[dict[str, Any]]:
    """One line per hand for the picker: its number, players and result."""
    out = []
    for i, hand in enumerate(hands):
        start, finish = hand.starting_stacks, hand.finishing_stacks
        net = [b - a for a, b in zip(start, finish, strict=True)] if finish else None
        out.append({"index": i, "hand": hand.extra.get("hand", i), "players": names_of(hand),
                    "net": net})
    return out


def hand_steps(hand: PHHHand, traces: dict[int, list[dict[str, Any]]] | None = None
               ) -> list[dict[str, Any]]:
    """The hand's states, from the blinds to the end: what was done, pot, stacks, bets,
    board and who holds cards at each; an action's step carries the trace record of the
    decision that chose it when ``traces`` (by player, in decision order) has one."""
    n = len(hand.starting_stacks)
    names = names_of(hand)
    try:
        parsed = parse_actions(hand.actions, n)
        state = HandState(hand.game, hand.starting_stacks, n - 1, parsed.holes, parsed.board)
    except (ValueError, HoldemError) as exc:
        raise PHHError(f"the hand does not replay: {exc}") from None
    holes = [card_list(h) if h is not None else None for h in parsed.holes]
    steps = [_step(state, "blinds posted", holes)]
    for p, action, line in parsed.moves:
        if state.finished or state.actor != p:
            raise PHHError(f"the hand does not replay: {line!r} is out of turn")
        try:
            state.apply(action)
        except ValueError as exc:
            raise PHHError(f"the hand does not replay: {line!r}: {exc}") from None
        step = _step(state, f"{names[p]}: {action}", holes)
        if traces and traces.get(p):
            step["reasoning"] = {"seat": p, "trace": traces[p].pop(0)}
        steps.append(step)
    return steps


def _step(state: HandState, what: str, holes: list[list[str] | None]) -> dict[str, Any]:
    return {"what": what, "pot": state.pot, "stacks": list(state.stacks),
            "bets": list(state.bets), "board": card_list(state.board_cards),
            "active": list(state.active), "actor": state.actor, "holes": holes,
            "finished": state.finished}


def replay_view(hand: PHHHand, index: int, locate: TraceLocator | None = None
                ) -> dict[str, Any]:
    traces = hand_traces(hand, locate) if locate is not None else None
    return {"index": index, "names": names_of(hand), "steps": hand_steps(hand, traces),
            "variant": hand.game.variant, "traced": bool(traces)}


def hand_traces(hand: PHHHand, locate: TraceLocator) -> dict[int, list[dict[str, Any]]]:
    """Each player's decision records of this hand, from the trace its bot wrote (the
    heuristic agent's, with ``trace: true``), found by the hand's ``_block``, ``_perm`` (0 in
    a play session, which has one of each) and ``hand`` fields."""
    extra = hand.extra
    where = [extra.get(k, 0) for k in ("_block", "_perm", "hand")]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in where):
        return {}
    block, perm, number = where
    out: dict[int, list[dict[str, Any]]] = {}
    for p, name in enumerate(names_of(hand)):
        path = locate(name, block, perm)
        if path is not None:
            records = _decisions(path, block, perm, number)
            if records:
                out[p] = records
    return out


def _decisions(path: Path, block: int, perm: int, hand: int) -> list[dict[str, Any]]:
    """The decision records of one hand in a trace file (unreadable lines skipped). A
    record's line starts with its block, permutation and hand, the schema's first fields,
    so the hand's lines are found without parsing the others."""
    try:
        data = read_regular(path, MAX_TRACE_BYTES)
    except (OSError, FileRefused):
        return []
    prefix = line_prefix(block, perm, hand)
    out: list[dict[str, Any]] = []
    at = data.find(prefix)
    while at >= 0:
        if at == 0 or data[at - 1:at] == b"\n":
            end = data.find(b"\n", at)
            line = data[at:end if end >= 0 else len(data)]
            record = _record(line) if len(line) <= MAX_TRACE_RECORD else None
            if record is not None:
                out.append(record)
        at = data.find(prefix, at + 1)
    return out


def _record(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if is_decision(record) else None
