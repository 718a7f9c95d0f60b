"""Hand strength, hand potential and effective hand strength against weighted ranges.

The definitions are Papp's (1998): HS counts ties as half a win; the hand
potential matrix ``HP[now][final]`` sums the opponent's weights over (holding, runout) pairs,
so its totals are in runout units; PPOT and NPOT use Papp's denominators unless
``denominators="total"`` asks for the ``HPtotal[B] + HPtotal[T]`` form of secondary sources.
A potential whose denominator is 0 (nothing behind, say) is 0: there is nothing to gain.

``hole`` and ``board`` take strings (``"AdQc"``, ``"3h4cJh"``) or card indices; ``weights``
takes anything ``agent.strength.ranges.to_weights`` does. Every call reuses the board's shared table
(``agent.strength.board_table``), so the ranks are computed once per street.

>>> round(hand_strength("AdQc", "3h4cJh"), 6)
0.585106
>>> [round(x, 6) for x in hand_potential("AdQc", "3h4cJh", lookahead=2)]
[0.208324, 0.273693]
>>> e = effective_hand_strength("AdQc", "3h4cJh", lookahead=2)
>>> round(e.ehs, 6), round(e.ehs_optimistic, 6)
(0.511399, 0.671539)
>>> hand_strength("AdQc", "3h4cJh", weights="AA, KK")  # both beat us
0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np

from agent.strength.board_table import AHEAD, BEHIND, TIED, BoardTable, board_table
from agent.strength.errors import RangeError, StrengthError
from agent.strength.ranges import WeightsLike, to_weights
from simulator.core.cards import HOLDING_INDEX, format_cards, parse_cards
from simulator.core.errors import CardError

Denominators = Literal["papp", "total"]
CardsLike = str | Sequence[int] | Sequence[str]


# --- records --------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandDetail:
    """Everything the potential is made of, for one hand against one weighted opponent.

    ``ahead``/``tied``/``behind`` are the weighted sums of the opponent holdings now (uniform
    weights count 1 each); ``hp`` is the 3x3 matrix, rows now ahead/tied/behind, columns final,
    in runout units, or ``None`` on the river; ``lookahead`` is the number of cards to come
    that the matrix enumerates (0 on the river).
    """

    hole: tuple[int, int]
    board: tuple[int, ...]
    ahead: float
    tied: float
    behind: float
    hp: tuple[tuple[float, float, float], ...] | None
    lookahead: int

    @property
    def hs(self) -> float:
        return hs_from_sums(self.ahead, self.tied, self.behind)

    def potentials(self, denominators: Denominators = "papp") -> tuple[float, float]:
        """``(ppot, npot)`` from the matrix; ``(0.0, 0.0)`` on the river."""
        if self.hp is None:
            return 0.0, 0.0
        return potentials_from_hp(np.array(self.hp), denominators)

    @property
    def ppot(self) -> float:
        return self.potentials()[0]

    @property
    def npot(self) -> float:
        return self.potentials()[1]


@dataclass(frozen=True)
class EHS:
    """Effective hand strength with its parts: ``ehs`` (the seed formula) and Loki's
    optimistic betting form ``ehs_optimistic`` (EHS'), from ``hs_n = hs ** opponents``."""

    ehs: float
    ehs_optimistic: float
    hs: float
    hs_n: float
    ppot: float
    npot: float
    opponents: int

    @classmethod
    def of(cls, detail: HandDetail, opponents: int = 1,
           denominators: Denominators = "papp") -> EHS:
        """EHS and its parts from a hand's detail, with ``HS_n = HS ** opponents``."""
        n = _opponents(opponents)
        ppot, npot = detail.potentials(denominators)
        hs = detail.hs
        hs_n = hs ** n
        ehs, ehs_opt = ehs_formulas(hs_n, ppot, npot)
        return cls(ehs, ehs_opt, hs, hs_n, ppot, npot, n)


# --- formulas -------------------------------------------------------------------------------


def _ratio(num: float, den: float) -> float:
    return float(num / den) if den > 0 else 0.0


def potentials_from_hp(hp: np.ndarray, denominators: Denominators = "papp"
                       ) -> tuple[float, float]:
    """PPOT and NPOT of a 3x3 ``HP[now][final]`` matrix (rows/columns ahead, tied, behind).

    >>> potentials_from_hp(np.array([[4., 0, 1], [0, 2, 2], [3, 0, 5]]))
    (0.3, 0.2857142857142857)
    >>> potentials_from_hp(np.array([[4., 0, 1], [0, 2, 2], [3, 0, 5]]), "total")
    (0.25, 0.2222222222222222)
    """
    if denominators not in ("papp", "total"):
        raise StrengthError(f"bad denominators {denominators!r}: expected 'papp' or 'total'")
    a, t, b = AHEAD, TIED, BEHIND
    total = hp.sum(axis=1)
    ppot_num = hp[b, a] + hp[b, t] / 2 + hp[t, a] / 2
    npot_num = hp[a, b] + hp[t, b] / 2 + hp[a, t] / 2
    tie_share = total[t] / 2 if denominators == "papp" else total[t]
    return _ratio(ppot_num, total[b] + tie_share), _ratio(npot_num, total[a] + tie_share)


def hs_from_sums(ahead: float, tied: float, behind: float) -> float:
    """HS from the weighted sums of opponent holdings we are ahead of, tied with, behind:
    ties count half.

    >>> hs_from_sums(628, 9, 444) == (628 + 4.5) / 1081
    True
    """
    return (ahead + tied / 2) / (ahead + tied + behind)


_Values = TypeVar("_Values", float, np.ndarray)


def ehs_formulas(hs_n: _Values, ppot: _Values, npot: _Values) -> tuple[_Values, _Values]:
    """``(EHS, EHS')``: ``HS_n (1 - NPOT) + (1 - HS_n) PPOT`` and ``HS_n + (1 - HS_n) PPOT``,
    of numbers or elementwise of arrays.

    >>> ehs_formulas(0.5, 0.2, 0.1)
    (0.55, 0.6)
    """
    return hs_n * (1 - npot) + (1 - hs_n) * ppot, hs_n + (1 - hs_n) * ppot


# --- inputs ---------------------------------------------------------------------------------


def parse_spot(hole: CardsLike, board: CardsLike, *, preflop: bool = False
               ) -> tuple[list[int], list[int]]:
    """Hole cards and board, validated: two hole cards, a board of 3-5 cards (or none when
    ``preflop``), nothing repeated; ``ValueError`` names the problem.

    >>> parse_spot("AdQc", "3h4cJh")
    ([49, 40], [6, 8, 38])
    """
    hole_cards = parse_cards(hole)
    board_cards = parse_cards(board)
    if len(hole_cards) != 2:
        raise CardError(f"bad hole cards {hole!r}: expected exactly two cards")
    sizes = (0, 3, 4, 5) if preflop else (3, 4, 5)
    if len(board_cards) not in sizes:
        hint = "" if preflop else " (pre-flop strength comes from income rates)"
        raise CardError(f"bad board {board!r}: expected {', '.join(map(str, sizes[:-1]))} or "
                         f"{sizes[-1]} cards, got {len(board_cards)}{hint}")
    shared = set(hole_cards) & set(board_cards)
    if shared:
        raise CardError(f"hole cards {format_cards(hole_cards)} clash with the board "
                         f"{format_cards(board_cards)} on {format_cards(sorted(shared))}")
    return hole_cards, board_cards


def _spot(hole: CardsLike, board: CardsLike) -> tuple[list[int], BoardTable, int]:
    """Validate the cards; return the hole cards, the board's shared table and hero's index."""
    hole_cards, board_cards = parse_spot(hole, board)
    hero = int(HOLDING_INDEX[hole_cards[0], hole_cards[1]])
    return hole_cards, board_table(board_cards), hero


def _weights(table: BoardTable, hero: int, weights: WeightsLike) -> np.ndarray:
    """The opponent's weights with the clashes removed; refuses a range that weighs nothing."""
    w = table.effective_weights(to_weights(weights), hero)
    if not w.sum() > 0:
        raise RangeError("bad weights: every holding that does not clash with the known cards "
                         "weighs 0")
    return w


def _lookahead(table: BoardTable, lookahead: int) -> int:
    """The number of cards the potential enumerates: 0 on the river, else ``lookahead``."""
    if lookahead not in (1, 2):
        raise StrengthError(f"bad lookahead {lookahead!r}: expected 1 or 2")
    if lookahead == 2 and table.cards_to_come < 2:
        street = "turn" if table.cards_to_come == 1 else "river"
        raise StrengthError(f"bad lookahead 2 on the {street}: only the flop has two cards to come")
    return min(lookahead, table.cards_to_come)


# --- the public functions -------------------------------------------------------------------


def hand_detail(hole: CardsLike, board: CardsLike, weights: WeightsLike = None,
                lookahead: int = 1) -> HandDetail:
    """Weighted ahead/tied/behind sums and the 3x3 HP matrix in runout units.

    >>> d = hand_detail("As8d", "9c8h2s")
    >>> d.ahead, d.tied, d.behind, round(d.hs, 6)
    (903.0, 6.0, 172.0, 0.838113)
    >>> hand_detail("AdQc", "3h4cJh", lookahead=2).hp[1]
    (0.0, 8370.0, 540.0)
    """
    hole_cards, table, hero = _spot(hole, board)
    look = _lookahead(table, lookahead)
    w = _weights(table, hero, weights)
    ahead, tied, behind = table.strength_sums(hero, w)
    hp = None
    if look:
        m = table.hp_matrix(hero, w, look)  # 3x3
        hp = tuple((float(row[0]), float(row[1]), float(row[2])) for row in m)
    return HandDetail((hole_cards[0], hole_cards[1]), tuple(parse_cards(board)), ahead, tied,
                      behind, hp, look)


def hand_strength(hole: CardsLike, board: CardsLike, weights: WeightsLike = None) -> float:
    """HS against one opponent: ``(ahead + tied / 2) / all``, weighted."""
    _, table, hero = _spot(hole, board)
    return hs_from_sums(*table.strength_sums(hero, _weights(table, hero, weights)))


def hand_potential(hole: CardsLike, board: CardsLike, weights: WeightsLike = None,
                   lookahead: int = 1, denominators: Denominators = "papp"
                   ) -> tuple[float, float]:
    """``(PPOT, NPOT)``: next card (``lookahead=1``) or turn and river from the flop (2).

    >>> [round(x, 6) for x in hand_potential("AdQc", "3h4cJh")]
    [0.108312, 0.145402]
    >>> hand_potential("AdQc", "3h4cJh5s9d")
    (0.0, 0.0)
    """
    return hand_detail(hole, board, weights, lookahead).potentials(denominators)


def hand_strength_n(hole: CardsLike, board: CardsLike, weights: WeightsLike = None,
                    opponents: int = 1) -> float:
    """``HS ** opponents``: every opponent holds a hand from the same weights.

    >>> round(hand_strength_n("AdQc", "3h4cJh", opponents=5), 6)
    0.068576
    """
    return hand_strength(hole, board, weights) ** _opponents(opponents)


def _opponents(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise StrengthError(f"bad number of opponents {n!r}: expected an integer >= 1")
    return int(n)


def hand_strength_product(hole: CardsLike, board: CardsLike,
                          weights_per_opponent: Sequence[WeightsLike]) -> float:
    """The product of HS against each opponent's own weights.

    >>> round(hand_strength_product("AdQc", "3h4cJh", [None, None]), 6) == round(0.585106**2, 6)
    True
    """
    if not weights_per_opponent:
        raise RangeError("bad weights_per_opponent: need at least one opponent")
    return float(np.prod([hand_strength(hole, board, w) for w in weights_per_opponent]))


def field_hand_strength(hole: CardsLike, board: CardsLike,
                        weights_per_opponent: Sequence[WeightsLike]) -> float:
    """Loki's field array: normalise each opponent's weights, average them, HS ** n.

    Each opponent's weights are normalised over the holdings possible for them (no clash
    with our cards or the board), so each opponent counts equally in the field.

    >>> round(field_hand_strength("AdQc", "3h4cJh", ["AA", "72o"]), 6)
    0.25
    """
    if not weights_per_opponent:
        raise RangeError("bad weights_per_opponent: need at least one opponent")
    _, table, hero = _spot(hole, board)
    field = np.zeros_like(table.ranks, dtype=np.float64)
    for w in weights_per_opponent:
        live = _weights(table, hero, w)
        field += live / live.sum()
    field /= len(weights_per_opponent)
    return hs_from_sums(*table.strength_sums(hero, field)) ** len(weights_per_opponent)


def effective_hand_strength(hole: CardsLike, board: CardsLike, weights: WeightsLike = None,
                            opponents: int = 1, lookahead: int = 1,
                            denominators: Denominators = "papp") -> EHS:
    """EHS and EHS' with ``HS_n = HS ** opponents`` (all opponents share ``weights``).

    >>> e = effective_hand_strength("AdQc", "3h4cJh")
    >>> [round(x, 6) for x in (e.ppot, e.npot, e.ehs, e.ehs_optimistic)]
    [0.108312, 0.145402, 0.544969, 0.630044]
    """
    return EHS.of(hand_detail(hole, board, weights, lookahead), opponents, denominators)
