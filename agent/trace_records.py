"""The trace records of a decision and of a hand's end, built from what the agent computed.

A decision's record holds the row of the agent's own holding (the first of the holdings its
pipeline was asked about): see :mod:`agent.traces` for the schema.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np

from agent.modeller.hand import HandModel
from agent.postflop import PostflopRows
from agent.preflop_policy import PreflopRows
from agent.traces import (
    CandidateRecord,
    DecisionRecord,
    EndRecord,
    PreflopRecord,
    StrengthRecord,
)
from simulator import Action, ActionKind, BotContext, Observation, Policy, Street
from simulator.core.cards import format_cards


def _preflop(rows: PreflopRows, obs: Observation, realization: float) -> PreflopRecord:
    equity = None if rows.equity is None else float(rows.equity[0])
    pays = price = None
    if equity is not None:  # the defence's own test (agent.defense.worth_calling)
        to_call = obs.legal.call_amount
        price = to_call / (obs.pot + to_call) / realization
        pays = realization * equity >= to_call / (obs.pot + to_call)
    return PreflopRecord(
        strategies={s: float(p) for s, p in zip(rows.strategies, rows.chances[0], strict=True)},
        ir=float(rows.ir[0]), table=rows.table,
        thresholds={k: float(v) for k, v in rows.thresholds.items()},
        expected_players=rows.situation.expected_players, position=rows.situation.position,
        defense_equity=equity, defense_pays=pays, defense_price=price,
        chances={str(a): float(p) for a, p in zip(rows.actions, rows.probabilities[0],
                                                  strict=True)})


def _candidates(rows: PostflopRows) -> list[CandidateRecord]:
    out = []
    for j, (c, e) in enumerate(zip(rows.candidates, rows.estimates, strict=True)):
        p = e.at(0) if np.ndim(e.value) else e
        out.append(CandidateRecord(
            action=str(c.action), E=float(rows.values[j, 0]), Pw=float(p.p_w),
            ESw=float(p.es_w), EBw=float(p.eb_w), Pvf=float(p.p_vf), ESvf=float(p.es_vf),
            EBvf=float(p.eb_vf), Phf=float(p.p_hf), EBhf=float(p.eb_hf), source=e.source,
            chance=float(rows.probabilities[0, j])))
    return out


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


def decision_record(context: BotContext, obs: Observation,
                    rows: PreflopRows | PostflopRows | Policy, action: Action,
                    realization: float = 1.0) -> DecisionRecord:
    """The record of a decision from the rows it was drawn from: the pipeline's, or the
    equilibrium's row (a ``Policy``) while the agent plays the equilibrium; ``realization``
    is the pot-odds defence's (the share of its equity a hand is taken to win)."""
    common: _Common = {"block": context.block, "perm": context.permutation, "hand": obs.hand_number,
              "seat": obs.seat, "street": obs.street.label,
              "hole": format_cards(obs.hole_cards), "board": format_cards(obs.board),
              "pot": obs.pot, "to_call": obs.legal.call_amount, "chosen": str(action)}
    if isinstance(rows, PreflopRows):
        return DecisionRecord(**common, preflop=_preflop(rows, obs, realization))
    if isinstance(rows, Policy):
        return DecisionRecord(**common, equilibrium={
            str(a): float(p) for a, p in zip(rows.actions, rows.probabilities[0], strict=True)})
    s = rows.strength
    strength = StrengthRecord(hs=[float(x) for x in s.hs[0]], hs_n=float(s.hs_n[0]),
                              ppot=float(s.ppot[0]), npot=float(s.npot[0]),
                              ehs=float(s.ehs[0]), ehs_optimistic=float(s.ehs_optimistic[0]))
    return DecisionRecord(**common, strength=strength,
                          continued_aggression=rows.continuing, candidates=_candidates(rows))


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
