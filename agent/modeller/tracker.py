"""What the modeller reads into each action: the frequency context it was taken in, and in
no-limit the size of a bet or raise. The betting itself (chips, levels, who raised) is the
public view of :mod:`simulator.core.betting`; this module adds the modeller's own terms.

**Contexts** (the frequency model's): a player's bets to call this round, clipped to 0, 1
and 2 (two or more), Papp's three contexts; and ``RAISED_BACK`` (3) for a player who bet or
raised in this round (a blind is not a raise) and faces more: the frequency model counts it
apart, because a player raised back folds far less often than one facing the same bets cold.
Pre-flop the big blind counts as the first bet, so the small blind and the players who have
not acted face 1 bet, a limper facing a raise faces 1 more, and the big blind facing only
limpers faces 0. Every bet or raise counts, a short all-in raise included.

**Size codes** (no-limit bets and raises only; 0 otherwise): a bet or raise of ``amount``
(raise-to) by a player facing ``to_call`` with ``pot`` chips in the middle is the pot
fraction ``(amount - top) / (pot + to_call)``, where ``top`` is the round's highest bet: a
bet's share of the pot before it, and for a raise the share of the pot after calling, so
that a "pot-sized raise" is 1 (proposed here). Edges ``e1 < e2 < ...`` make codes 1 (below
e1), 2 (from e1 to below e2), ..., and an all-in gets the last code of its own.

>>> size_code((0.4, 0.8, 1.5), 0.5, False), size_code((0.4, 0.8, 1.5), 3.0, True)
(2, 5)
>>> from simulator import ActionRecord, ActionKind, GameConfig, Street
>>> from simulator.core.betting import Betting
>>> b = Betting.start(GameConfig(variant="nolimit", blinds=(1, 2), stack=100), button=2,
...                   stacks=(100,) * 3)
>>> a = seen(b, ActionRecord(2, Street.PREFLOP, ActionKind.RAISE, 7, 7), (0.4, 0.8, 1.5))
>>> a.position, a.size, a.context  # a pot-sized raise: code 3
(2, 3, 1)
>>> b = b.apply(ActionRecord(2, Street.PREFLOP, ActionKind.RAISE, 7, 7))
>>> b = b.apply(ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 20, 19))
>>> context(b, 1), context(b, 2), context(b, 1, after_raise=True)  # seat 2 raised: back
(2, 3, 2)
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from simulator import Action, ActionKind, ActionRecord, Street
from simulator.core.betting import Betting
from simulator.core.frozen import quick_init
from simulator.core.sizing import pot_fraction

RAISED_BACK = 3


def size_code(edges: tuple[float, ...], fraction: float, all_in: bool) -> int:
    """The size code of a no-limit bet or raise: 1 + the edges at or below it; all-in last."""
    if all_in:
        return len(edges) + 2
    return 1 + bisect_right(edges, fraction)


@quick_init
@dataclass(frozen=True, slots=True)
class SeenAction:
    """One action as the modeller keeps it.

    ``position`` is the actor's place in table order (0 is the first seat left of the
    button; the button is last); ``size`` its size code; ``context`` the context the actor
    faced (0, 1, 2 for two or more bets to call, or ``RAISED_BACK``).
    """

    street: Street
    seat: int
    position: int
    kind: ActionKind
    size: int
    context: int


def context(betting: Betting, seat: int, after_raise: bool = False,
            raised_back: bool = True) -> int:
    """The context of ``seat`` now, or once someone else bets or raises (``after_raise``);
    without ``raised_back``, Papp's three contexts only."""
    rnd = betting.current
    raised = raised_back and rnd.raised(seat)
    if after_raise:
        return RAISED_BACK if raised else min(rnd.bets_to_call(seat) + 1, 2)
    return _facing(rnd.bets_to_call(seat), raised)


def _facing(to_call: int, raised: bool) -> int:
    """The context of a player facing ``to_call`` bets, raised back if it ``raised``."""
    return RAISED_BACK if to_call and raised else min(to_call, 2)


def raise_size(betting: Betting, seat: int, amount: int, all_in: bool,
               edges: tuple[float, ...]) -> int:
    """The size code of a raise to ``amount`` by ``seat`` now (0 in limit)."""
    if betting.game.is_limit:
        return 0
    rnd = betting.current
    return _pot_fraction_code(edges, amount, rnd.top, rnd.top - rnd.bets[seat], betting.pot,
                              all_in)


def _pot_fraction_code(edges: tuple[float, ...], amount: int, top: int, to_call: int,
                       pot: int, all_in: bool) -> int:
    return size_code(edges, pot_fraction(top, pot, to_call, amount), all_in)


def seen(betting: Betting, action: Action | ActionRecord, edges: tuple[float, ...],
         raised_back: bool = True, seat: int | None = None) -> SeenAction:
    """An action as it would be kept, read against the betting just before it: a record, or
    an action ``seat`` might take (all-in when it raises to its whole stack)."""
    who = action.seat if isinstance(action, ActionRecord) else seat
    if who is None:
        raise ValueError("seen(): an Action needs the seat that would take it")
    size = 0
    if action.kind is ActionKind.RAISE and action.amount is not None:
        if isinstance(action, ActionRecord):
            all_in = action.all_in
        else:
            all_in = action.amount >= betting.current.bets[who] + betting.stacks[who]
        size = raise_size(betting, who, int(action.amount), all_in, edges)
    return SeenAction(betting.street, who, betting.position(who), action.kind, size,
                      context(betting, who, raised_back=raised_back))


def seen_applied(betting: Betting, edges: tuple[float, ...], raised_back: bool = True
                 ) -> SeenAction:
    """The last action applied to ``betting`` as :func:`seen` keeps it: its move holds what
    ``seen`` reads of the betting just before it (bets to call, raised, pot, top bet), so a
    step that applies an action reads it once instead of twice."""
    move = betting.current.moves[-1]
    record = move.record
    size = 0
    if (record.kind is ActionKind.RAISE and record.amount is not None
            and not betting.game.is_limit):
        size = _pot_fraction_code(edges, int(record.amount), move.top, move.top - move.own,
                                  move.pot, record.all_in)
    return SeenAction(betting.street, record.seat, betting.position(record.seat), record.kind,
                      size, _facing(move.to_call, raised_back and move.raised))
