"""The trace records of a decision and of a hand's end, built from what the agent computed.

A decision's record holds the row of the agent's own holding (the first of the holdings its
pipeline was asked about): see :mod:`agent.heuristic.traces` for the schema. Each kind of rows says
what its row puts in the record (:class:`DecisionRows`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypedDict

import numpy as np

from agent.heuristic.traces import DecisionRecord, EndRecord, RangeRecord
from agent.modeller.hand import HandModel
from agent.strength.ranges import class_weights
from simulator import Action, ActionKind, BotContext, Observation, Policy, Street
from simulator.core.cards import format_cards


class _Common(TypedDict):
    """The fields of every decision's record, whichever its street."""

    block: int
    perm: int
    hand: int
    seat: int
    street: str
    hole: str
    board: str
    pot: int
    to_call: int
    chosen: str


class DecisionRows(Protocol):
    """A decision's rows, whichever part made them (the pre-flop rules, the post-flop
    pipeline, the equilibrium): the actions, each holding's chance of each (holdings x
    actions), and what the first holding's row puts in its trace record."""

    @property
    def actions(self) -> tuple[Action, ...]: ...

    @property
    def probabilities(self) -> np.ndarray: ...

    def as_policy(self) -> Policy:
        """The rows as a policy."""
        ...

    def cap_share(self, index: int) -> float:
        """The chance that the fold cap made candidate ``index`` of the first row."""
        ...

    def trace_fields(self, obs: Observation) -> Mapping[str, Any]:
        """The trace record's fields of the first row at ``obs``, apart from the common
        ones."""
        ...


def decision_record(context: BotContext, obs: Observation, rows: DecisionRows,
                    action: Action, hand: HandModel) -> DecisionRecord:
    """The record of a decision from the rows it was drawn from, with the ranges we believed
    of the live opponents (``hand``: the modeller's picture at the decision)."""
    common: _Common = {"block": context.block, "perm": context.permutation,
                       "hand": obs.hand_number, "seat": obs.seat, "street": obs.street.label,
                       "hole": format_cards(obs.hole_cards), "board": format_cards(obs.board),
                       "pot": obs.pot, "to_call": obs.legal.call_amount,
                       "chosen": str(action)}
    return DecisionRecord(**common, **rows.trace_fields(obs), ranges=ranges_of(obs, hand))


def ranges_of(obs: Observation, hand: HandModel) -> list[RangeRecord]:
    """Each live opponent's weights as the 169 classes' means (see :class:`RangeRecord`)."""
    return [RangeRecord(opponent=hand.names[s],
                        weights=class_weights(hand.weights[s].weights).round(5).tolist())
            for s in obs.live_opponents if s in hand.weights]


def end_record(context: BotContext, hand_number: int, hand: HandModel, net: int) -> EndRecord:
    """The hand's public course: actions as ``name:f``, ``name:c`` or ``name:r<amount>``,
    each street's new board cards in brackets where they came."""
    names = hand.names
    course: list[str] = []
    moves = hand.betting.moves
    for street in Street:
        if street > Street.PREFLOP and len(hand.board) >= street.board_size:
            prior = Street(street - 1).board_size if street > Street.FLOP else 0
            course.append(f"[{format_cards(hand.board[prior:street.board_size])}]")
        for m in moves:
            if m.street is street:
                r = m.record
                verb = {ActionKind.FOLD: "f", ActionKind.CALL: "c"}.get(r.kind, f"r{r.amount}")
                course.append(f"{names[r.seat]}:{verb}")
    return EndRecord(block=context.block, perm=context.permutation, hand=hand_number,
                     seat=context.seat, actions=course, board=format_cards(hand.board),
                     shown={names[s]: format_cards(c) for s, c in hand.shown.items()},
                     net=int(net))
